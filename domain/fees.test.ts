import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_PAYMENT,
  MIN_PAYMENT,
  feeBreakdown,
  isValidPayment,
  platformFee,
  payoutFeeCap,
  platformRevenue,
  refundAmount,
  routingFeeCap,
  splitPayouts,
  totalCharge,
  workerPayout,
} from "./fees";

const payments = fc.integer({ min: MIN_PAYMENT, max: MAX_PAYMENT });

describe("platform fee", () => {
  it("follows the spec's example: a 10,000 sat gig costs 10,250 and pays 9,750", () => {
    expect(platformFee(10_000)).toBe(250);
    expect(totalCharge(10_000)).toBe(10_250);
    expect(workerPayout(10_000)).toBe(9_750);
    expect(platformRevenue(10_000)).toBe(500);
    expect(refundAmount(10_000)).toBe(10_250);
  });

  it("rounds up per gig", () => {
    expect(platformFee(1)).toBe(1);
    expect(platformFee(40)).toBe(1);
    expect(platformFee(41)).toBe(2);
    expect(platformFee(MAX_PAYMENT)).toBe(25_000);
  });

  it("is the ceiling of 2.5 % for every payment", () => {
    fc.assert(
      fc.property(payments, (p) => {
        const fee = platformFee(p);
        expect(Number.isInteger(fee)).toBe(true);
        // fee is the smallest integer with 1000·fee ≥ 25·p
        expect(fee * 1000).toBeGreaterThanOrEqual(p * 25);
        expect((fee - 1) * 1000).toBeLessThan(p * 25);
      }),
    );
  });

  it("accounts for every sat: what the hirer pays is what the worker gets plus what the platform keeps", () => {
    fc.assert(
      fc.property(payments, (p) => {
        expect(totalCharge(p)).toBe(workerPayout(p) + platformRevenue(p));
        expect(refundAmount(p)).toBe(totalCharge(p));
        expect(workerPayout(p)).toBeGreaterThanOrEqual(0);
        const b = feeBreakdown(p);
        expect(b).toEqual({
          payment: p,
          fee: platformFee(p),
          totalCharge: totalCharge(p),
          workerPayout: workerPayout(p),
          platformRevenue: platformRevenue(p),
        });
      }),
    );
  });

  it("pays 0 sats to the worker of a 1-sat gig", () => {
    expect(workerPayout(1)).toBe(0);
    expect(totalCharge(1)).toBe(2);
  });

  it("refuses amounts outside the spec's range and fractions of a sat", () => {
    for (const bad of [0, -1, 1.5, MAX_PAYMENT + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isValidPayment(bad)).toBe(false);
      expect(() => platformFee(bad)).toThrow(RangeError);
    }
  });
});

describe("split resolution", () => {
  it("gives non-negative parts that add up to what the hirer paid, for every share", () => {
    fc.assert(
      fc.property(payments, fc.integer({ min: 0, max: 100 }), (p, share) => {
        const s = splitPayouts(p, share);
        expect(s.worker).toBeGreaterThanOrEqual(0);
        expect(s.hirer).toBeGreaterThanOrEqual(0);
        expect(s.platform).toBe(platformRevenue(p));
        expect(s.worker + s.hirer + s.platform).toBe(totalCharge(p));
        expect(s.totalCharged).toBe(totalCharge(p));
        expect(s.worker).toBeLessThanOrEqual(workerPayout(p));
      }),
    );
  });

  it("is pay_worker at 100 % and leaves the hirer the rest at 0 %", () => {
    expect(splitPayouts(10_000, 100)).toEqual({ worker: 9_750, hirer: 0, platform: 500, totalCharged: 10_250 });
    expect(splitPayouts(10_000, 0)).toEqual({ worker: 0, hirer: 9_750, platform: 500, totalCharged: 10_250 });
    expect(splitPayouts(10_000, 50)).toEqual({ worker: 4_875, hirer: 4_875, platform: 500, totalCharged: 10_250 });
  });

  it("rounds the worker's part down and gives the odd sat to the hirer", () => {
    // payment 101: fee 3, distributable 98; 33 % of 98 = 32.34
    expect(splitPayouts(101, 33)).toEqual({ worker: 32, hirer: 66, platform: 6, totalCharged: 104 });
  });

  it("grows the worker's part with the share", () => {
    fc.assert(
      fc.property(payments, fc.integer({ min: 0, max: 99 }), (p, share) => {
        expect(splitPayouts(p, share + 1).worker).toBeGreaterThanOrEqual(splitPayouts(p, share).worker);
      }),
    );
  });

  it("refuses shares outside 0…100 and fractional shares", () => {
    for (const bad of [-1, 101, 12.5, Number.NaN]) expect(() => splitPayouts(1000, bad)).toThrow(RangeError);
  });
});

describe("payout fee cap", () => {
  it("is the general cap for an ordinary gig", () => {
    expect(payoutFeeCap(workerPayout(10_000), 10_000, false)).toBe(routingFeeCap(9_750));
    expect(payoutFeeCap(refundAmount(1_000_000), 1_000_000, true)).toBe(10_250);
  });

  it("never exceeds what the platform earned on the gig (plus 1 sat for a refund)", () => {
    expect(payoutFeeCap(refundAmount(1), 1, true)).toBe(3); // 2 sats earned, refund of 2 sats
    expect(payoutFeeCap(workerPayout(100), 100, false)).toBe(6);
    expect(payoutFeeCap(refundAmount(100), 100, true)).toBe(7);
  });

  it("holds for every payment: at most max(10, 1 %) and at most 2 × fee (+1 on refunds)", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_PAYMENT, max: MAX_PAYMENT }), fc.boolean(), (payment, refund) => {
        const amount = refund ? refundAmount(payment) : workerPayout(payment);
        const cap = payoutFeeCap(amount, payment, refund);
        expect(cap).toBeLessThanOrEqual(routingFeeCap(amount));
        expect(cap).toBeLessThanOrEqual(platformRevenue(payment) + (refund ? 1 : 0));
        expect(cap).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});
