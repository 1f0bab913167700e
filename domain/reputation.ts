// Reputation maths (DESIGN.md §4, SPEC.md §9).

/** Rounded percent of successful gigs; 100 when none completed (display shows N/A then). */
export function successRate(completed: number, successful: number): number {
  if (completed <= 0) return 100;
  return Math.round((100 * successful) / completed);
}

/** averageRating is stored ×10 (45 means 4.5); shown with one decimal, N/A with no reviews. */
export function formatRating(averageRatingX10: number, totalReviews: number): string {
  if (totalReviews <= 0) return "N/A";
  return (averageRatingX10 / 10).toFixed(1);
}

/** New stored average (×10) after one more review of `rating` stars. */
export function addRating(averageRatingX10: number, totalReviews: number, rating: number): number {
  return Math.round((averageRatingX10 * totalReviews + rating * 10) / (totalReviews + 1));
}
