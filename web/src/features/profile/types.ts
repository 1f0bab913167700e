/** A portfolio entry (SPEC.md §3). */
export interface PortfolioItem {
  id: string;
  title: string;
  description: string | null;
  imageUrl: string | null;
  projectUrl: string | null;
  category: string | null;
}

/** A review someone received (SPEC.md §3); rating 1-5. */
export interface Review {
  id: string;
  rating: number;
  comment: string | null;
  revieweeId: string;
  createdAt: string;
  reviewerName: string | null;
  reviewerPicture: string | null;
  reviewerUsername: string | null;
}
