// Gigstr's money rules (DESIGN.md §3, SPEC.md §1, §9). Integer sats only, integer arithmetic only.
//
// Per side the platform charges fee = ceil(payment × 25 / 1000) (2.5 %, rounded up per gig).
//   hirer pays        totalCharge     = payment + fee
//   worker receives   workerPayout    = payment − fee
//   platform keeps    platformRevenue = 2 × fee
//   so totalCharge = workerPayout + platformRevenue: every sat the hirer pays is accounted for.
// A refund (cancel, expiry after payment, dispute refund_hirer) returns everything: payment + fee.
//
// Split resolution of a dispute (admin gives the worker `workerSharePercent` %, an integer 0…100):
// the platform keeps its fees exactly as on approve (2 × fee), and what is left of the hirer's
// payment, payment − fee, is divided:
//   worker gets  floor((payment − fee) × share / 100)
//   hirer gets   (payment − fee) − worker               (the remainder, so rounding never loses a sat)
//   worker + hirer + 2 × fee = payment + fee = totalCharge.
// At 100 % this is exactly pay_worker. At 0 % the hirer gets payment − fee, NOT the full refund of
// refund_hirer (payment + fee): a split always keeps the platform's fees; use refund_hirer to
// return them.

/** 2.5 % in basis points (1 bp = 0.01 %). */
export const PLATFORM_FEE_BPS = 250;
export const BPS_DENOMINATOR = 10_000;

export const MIN_PAYMENT = 1;
export const MAX_PAYMENT = 1_000_000;

/** A gig payment the fee rules accept: an integer number of sats within MIN_PAYMENT…MAX_PAYMENT. */
export function isValidPayment(payment: number): boolean {
  return Number.isSafeInteger(payment) && payment >= MIN_PAYMENT && payment <= MAX_PAYMENT;
}

function assertPayment(payment: number): void {
  if (!isValidPayment(payment)) {
    throw new RangeError(`payment must be an integer from ${MIN_PAYMENT} to ${MAX_PAYMENT} sats, got ${payment}`);
  }
}

/** The fee per side: ceil(payment × 2.5 %), computed without floating point. */
export function platformFee(payment: number): number {
  assertPayment(payment);
  // ceil(a / b) for non-negative integers is floor((a + b − 1) / b); a ≤ 2.5e8 so this is exact.
  return Math.floor((payment * PLATFORM_FEE_BPS + BPS_DENOMINATOR - 1) / BPS_DENOMINATOR);
}

/** What the hirer pays into escrow. */
export function totalCharge(payment: number): number {
  return payment + platformFee(payment);
}

/** What the worker receives on approve, auto-release or pay_worker. 0 for a 1-sat gig. */
export function workerPayout(payment: number): number {
  return payment - platformFee(payment);
}

/** What the platform keeps from a completed gig: the fee of both sides. */
export function platformRevenue(payment: number): number {
  return 2 * platformFee(payment);
}

/** What a refund returns to the hirer: everything they paid, fee included. */
export function refundAmount(payment: number): number {
  return totalCharge(payment);
}

/** The platform's general cap on routing one payout: max(10 sats, 1 % rounded up) (DESIGN.md §3). */
export function routingFeeCap(amountSats: number): number {
  if (!Number.isSafeInteger(amountSats) || amountSats < 0) throw new RangeError(`amountSats must be a non-negative integer, got ${amountSats}`);
  return Math.max(10, Math.floor((amountSats + 99) / 100));
}

/** What a payout is, for its routing fee cap. */
export type PayoutKind =
  /** The worker's payout of an approved (or paid_worker) gig: the platform earned 2 × fee on it. */
  | "worker"
  /** One of the two payouts of a split: together they may spend what the gig earned (2 × fee), so each fee. */
  | "split"
  /** A refund (cancel, expiry, refund_hirer, a late payment): the platform earned nothing on it. */
  | "refund";

/** The most a refund may spend on routing: 10 sats, and never more than a tenth of the refund (at least 1). */
export const REFUND_ROUTING_CAP_SATS = 10;

/**
 * The most one payout of a gig may spend on routing. Routing fees come out of what the platform earned on
 * the gig, or nothing: a worker's payout may spend the general cap but never more than the gig earned
 * (2 × fee); the two payouts of a split share that, so each may spend at most fee; a refund returns the
 * whole fee, so the platform earns nothing on it and it gets a fixed small cap (REFUND_ROUTING_CAP_SATS,
 * at most a tenth of the refund). Above its cap a payout waits for the admin ("Pay anyway").
 */
export function payoutFeeCap(amountSats: number, gigPayment: number, kind: PayoutKind): number {
  const general = routingFeeCap(amountSats);
  if (kind === "refund") return Math.min(REFUND_ROUTING_CAP_SATS, Math.max(1, Math.floor(amountSats / 10)));
  if (kind === "split") return Math.min(general, platformFee(gigPayment));
  return Math.min(general, platformRevenue(gigPayment));
}

export interface FeeBreakdown {
  payment: number;
  fee: number;
  totalCharge: number;
  workerPayout: number;
  platformRevenue: number;
}

export function feeBreakdown(payment: number): FeeBreakdown {
  const fee = platformFee(payment);
  return { payment, fee, totalCharge: payment + fee, workerPayout: payment - fee, platformRevenue: 2 * fee };
}

export interface SplitPayouts {
  /** Sats paid out to the worker. */
  worker: number;
  /** Sats paid back to the hirer. */
  hirer: number;
  /** Sats the platform keeps (2 × fee, as on approve). */
  platform: number;
  /** What the hirer paid in: worker + hirer + platform. */
  totalCharged: number;
}

/** Divides a disputed gig's escrow between worker and hirer; see the rule at the top of this file. */
export function splitPayouts(payment: number, workerSharePercent: number): SplitPayouts {
  assertPayment(payment);
  if (!Number.isInteger(workerSharePercent) || workerSharePercent < 0 || workerSharePercent > 100) {
    throw new RangeError(`workerSharePercent must be an integer from 0 to 100, got ${workerSharePercent}`);
  }
  const fee = platformFee(payment);
  const distributable = payment - fee;
  const worker = Math.floor((distributable * workerSharePercent) / 100);
  return { worker, hirer: distributable - worker, platform: 2 * fee, totalCharged: payment + fee };
}
