import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUDGET_BANDS, budgetBandOf, budgetBandOfRange, MAX_PAYMENT, MIN_PAYMENT } from "./gig";

const inBand = (payment: number, band: number) => {
  const b = BUDGET_BANDS[band]!;
  return (b.min === undefined || payment >= b.min) && (b.max === undefined || payment <= b.max);
};

describe("budget bands", () => {
  it("puts every payment in exactly the band that contains it", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_PAYMENT, max: MAX_PAYMENT }), (p) => {
        const band = budgetBandOf(p);
        expect(inBand(p, band)).toBe(true);
        expect(BUDGET_BANDS.filter((_, i) => inBand(p, i))).toHaveLength(1);
      }),
    );
    expect([9_999, 10_000, 50_000, 50_001, 100_000, 100_001].map(budgetBandOf)).toEqual([0, 1, 1, 2, 2, 3]);
  });

  it("names the one band of a range that lies within it, else null", () => {
    expect(BUDGET_BANDS.map((b) => budgetBandOfRange(b.min, b.max))).toEqual([0, 1, 2, 3]);
    expect(budgetBandOfRange(undefined, undefined)).toBeNull();
    expect(budgetBandOfRange(5_000, 20_000)).toBeNull();
    expect(budgetBandOfRange(20_000, 10_000)).toBeNull();
    expect(budgetBandOfRange(0, 9_999)).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * MAX_PAYMENT }), fc.integer({ min: 0, max: 2 * MAX_PAYMENT }), (a, b) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const band = budgetBandOfRange(min, max);
        if (band !== null) expect(inBand(min, band) && inBand(max, band)).toBe(true);
        else expect(budgetBandOf(min)).not.toBe(budgetBandOf(max));
      }),
    );
  });
});
