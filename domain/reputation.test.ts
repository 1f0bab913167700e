import { describe, expect, it } from "vitest";
import { NO_COMPLETED_GIGS, NO_REVIEWS, addRating, ratingSummary, ratingText, successRate, trackRecordText } from "./reputation";

describe("one way to say a rating", () => {
  it("shows the stored ×10 average as stars with one decimal", () => {
    expect(ratingText(45, 3)).toBe("★ 4.5");
    expect(ratingText(50, 1)).toBe("★ 5.0");
    expect(ratingSummary(45, 3)).toBe("★ 4.5 · 3 reviews");
    expect(ratingSummary(40, 1)).toBe("★ 4.0 · 1 review");
  });

  it("says there are no reviews instead of N/A or a zero", () => {
    expect(ratingText(0, 0)).toBe(NO_REVIEWS);
    expect(ratingSummary(0, 0)).toBe(NO_REVIEWS);
  });
});

describe("one way to say a track record", () => {
  it("counts completed gigs and the share that went well, without a star", () => {
    expect(trackRecordText(1, 100)).toBe("1 gig · 100% successful");
    expect(trackRecordText(12, successRate(12, 9))).toBe("12 gigs · 75% successful");
    expect(trackRecordText(3, 67)).not.toContain("★");
  });

  it("says a newcomer has no completed gigs instead of N/A", () => {
    expect(trackRecordText(0, 100)).toBe(NO_COMPLETED_GIGS);
  });

  it("keeps the running average the reviews make", () => {
    expect(addRating(addRating(0, 0, 5), 1, 4)).toBe(45);
  });
});
