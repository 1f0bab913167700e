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
  /** Signed by the reviewer's Nostr key and checked by the server (docs/decisions/028); false or absent: sent unsigned. */
  verified?: boolean;
  /** The signed review's event id and its NIP-19 nevent (a `nostr:` link opens it in a Nostr app); null when unsigned. */
  nostrEventId?: string | null;
  nevent?: string | null;
}
