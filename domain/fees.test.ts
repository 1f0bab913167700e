import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_PAYMENT,
  MIN_PAYMENT,
  feeBreakdown,
  isValidPayment,
  platformFee,
  payoutFeeCap,
  REFUND_ROUTING_CAP_SATS,
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
  it("is the general cap for an ordinary gig's worker payout", () => {
    expect(payoutFeeCap(workerPayout(10_000), 10_000, "worker")).toBe(routingFeeCap(9_750));
  });

  it("gives a refund, on which the platform earns nothing, a small fixed cap: a 1,000,000-sat refund routes for at most 10 sats", () => {
    expect(payoutFeeCap(refundAmount(1_000_000), 1_000_000, "refund")).toBe(REFUND_ROUTING_CAP_SATS);
    expect(payoutFeeCap(refundAmount(1), 1, "refund")).toBe(1); // a 2-sat refund: at most a tenth, at least 1
    expect(payoutFeeCap(refundAmount(100), 100, "refund")).toBe(10);
    expect(payoutFeeCap(50, 48, "refund")).toBe(5);
  });

  it("never lets a worker payout exceed what the platform earned on the gig", () => {
    expect(payoutFeeCap(workerPayout(100), 100, "worker")).toBe(6);
  });

  it("lets the two payouts of a split spend together at most what the gig earned", () => {
    const { worker, hirer } = splitPayouts(1_000_000, 50);
    expect(payoutFeeCap(worker, 1_000_000, "split") + payoutFeeCap(hirer, 1_000_000, "split")).toBeLessThanOrEqual(platformRevenue(1_000_000));
    expect(payoutFeeCap(worker, 1_000_000, "split")).toBe(routingFeeCap(worker));
    // A tiny gig earns 2 sats: each half may route for 1.
    expect(payoutFeeCap(5, 10, "split")).toBe(platformFee(10));
  });

  it("holds for every payment: a worker payout within max(10, 1 %) and 2 × fee, a split's two within 2 × fee, a refund within 10 sats", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_PAYMENT, max: MAX_PAYMENT }), fc.integer({ min: 0, max: 100 }), (payment, share) => {
        const paid = workerPayout(payment);
        expect(payoutFeeCap(paid, payment, "worker")).toBeLessThanOrEqual(Math.min(routingFeeCap(paid), platformRevenue(payment)));
        const split = splitPayouts(payment, share);
        expect(payoutFeeCap(split.worker, payment, "split") + payoutFeeCap(split.hirer, payment, "split")).toBeLessThanOrEqual(platformRevenue(payment));
        const refund = refundAmount(payment);
        const refundCap = payoutFeeCap(refund, payment, "refund");
        expect(refundCap).toBeLessThanOrEqual(REFUND_ROUTING_CAP_SATS);
        expect(refundCap).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});

describe("general routing fee cap", () => {
  it("is 10 sats up to a 1,000-sat payout, then 1 % rounded up", () => {
    expect(routingFeeCap(0)).toBe(10);
    expect(routingFeeCap(1_000)).toBe(10);
    expect(routingFeeCap(1_001)).toBe(11);
    expect(routingFeeCap(1_100)).toBe(11);
    expect(routingFeeCap(1_101)).toBe(12);
    expect(routingFeeCap(9_750)).toBe(98);
    expect(routingFeeCap(1_000_000)).toBe(10_000);
    expect(routingFeeCap(1_025_000)).toBe(10_250);
  });

  it("is max(10, ceil(1 %)) for every amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * MAX_PAYMENT }), (amount) => {
        const cap = routingFeeCap(amount);
        expect(Number.isInteger(cap)).toBe(true);
        expect(cap).toBeGreaterThanOrEqual(10);
        // at least 1 % of the amount, and no more than 1 sat above it once past the 10-sat floor
        expect(cap * 100).toBeGreaterThanOrEqual(amount);
        if (cap > 10) expect((cap - 1) * 100).toBeLessThan(amount);
      }),
    );
  });

  it("refuses negative, fractional and non-numeric amounts, naming the amount", () => {
    for (const bad of [-1, -1_000, 0.5, 1_000.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => routingFeeCap(bad)).toThrow(RangeError);
      expect(() => routingFeeCap(bad)).toThrow(`got ${bad}`);
    }
  });
});

describe("refusals say what was refused", () => {
  it("names the payment that is not a valid gig payment", () => {
    expect(() => platformFee(1.5)).toThrow(`payment must be an integer from ${MIN_PAYMENT} to ${MAX_PAYMENT} sats, got 1.5`);
    expect(() => totalCharge(MAX_PAYMENT + 1)).toThrow(`got ${MAX_PAYMENT + 1}`);
  });

  it("names the worker's share that is not a whole percentage", () => {
    expect(() => splitPayouts(1_000, 101)).toThrow("workerSharePercent must be an integer from 0 to 100, got 101");
    expect(() => splitPayouts(1_000, 12.5)).toThrow("got 12.5");
  });

  it("refuses a split of an invalid payment whatever the share", () => {
    for (const payment of [0, -5, 2.5, MAX_PAYMENT + 1]) {
      for (const share of [0, 50, 100]) expect(() => splitPayouts(payment, share)).toThrow(RangeError);
    }
  });
});
