// Reputation maths (DESIGN.md §4, SPEC.md §9).

/** Rounded percent of successful gigs; 100 when none completed (the display says "No completed gigs yet" then). */
export function successRate(completed: number, successful: number): number {
  if (completed <= 0) return 100;
  return Math.round((100 * successful) / completed);
}


/**
 * A star rating, said the same way on every screen (issue 26): "★ 4.5" from the ×10 average, or
 * "No reviews yet". `ratingSummary` adds how many reviews it rests on.
 */
export const NO_REVIEWS = "No reviews yet";
export function ratingText(averageRatingX10: number, totalReviews: number): string {
  if (totalReviews <= 0) return NO_REVIEWS;
  return `★ ${(averageRatingX10 / 10).toFixed(1)}`;
}
export function ratingSummary(averageRatingX10: number, totalReviews: number): string {
  if (totalReviews <= 0) return NO_REVIEWS;
  return `${ratingText(averageRatingX10, totalReviews)} · ${totalReviews} ${totalReviews === 1 ? "review" : "reviews"}`;
}

/**
 * A member's track record (completed gigs and the share that went well), said the same way everywhere:
 * "3 gigs · 100% successful", or "No completed gigs yet". No star: stars are for ratings only.
 */
export const NO_COMPLETED_GIGS = "No completed gigs yet";
export function trackRecordText(completedGigs: number, successRatePercent: number): string {
  if (!(completedGigs > 0)) return NO_COMPLETED_GIGS;
  return `${completedGigs} ${completedGigs === 1 ? "gig" : "gigs"} · ${successRatePercent}% successful`;
}

/** New stored average (×10) after one more review of `rating` stars. */
export function addRating(averageRatingX10: number, totalReviews: number, rating: number): number {
  return Math.round((averageRatingX10 * totalReviews + rating * 10) / (totalReviews + 1));
}
