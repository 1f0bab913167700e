// The platform's Lightning wallet, whatever runs it (DESIGN.md §5): dev, lnbits or nwc.
//
// Money safety rests on one rule of this interface: a payment is reported `failed` only when the
// backend says explicitly that it was not and will not be made. A time-out, a dropped connection,
// a 5xx or an answer we cannot read is `unknown`: the payout stays in flight and is looked up by
// payment hash (lookupPayment) before anything is retried, so nothing is ever paid twice.
//
// createInvoice and lookupInvoice throw LightningError when the backend cannot answer (no money
// moves on those calls, so the caller simply tries again later). payInvoice and lookupPayment never
// throw: every outcome, including our own bugs talking to the backend, is a result.

export type InvoiceStatus = "pending" | "paid" | "expired";

export interface CreatedInvoice {
  bolt11: string;
  /** Hex SHA-256 of the preimage: the key under which the invoice is looked up. */
  paymentHash: string;
  /** ISO-8601. */
  expiresAt: string;
}

export interface InvoiceLookup {
  status: InvoiceStatus;
  /** The amount the invoice asks for, when the backend says it (sats). */
  amountSats?: number;
  /** ISO-8601, when paid and the backend says when. */
  paidAt?: string;
}

export type PayResult =
  /**
   * `preimage` is null when the wallet reports the payment settled without one (some LNbits funding
   * sources do): the wallet's "paid" is the outcome. `feeSats` is everything the wallet charged on top
   * of the amount (for LNbits: routing plus its own service fee, which it reports as one number).
   */
  | { status: "succeeded"; preimage: string | null; feeSats: number }
  /**
   * The backend refused or the payment definitely failed: nothing left the wallet; safe to retry.
   * `feeOverCapSats`: refused before paying because the wallet would charge that much in fees, above
   * the cap. Retrying changes nothing (e.g. an LNbits service fee): the payout waits for the admin.
   */
  | { status: "failed"; reason: string; feeOverCapSats?: number }
  /** Nobody knows yet (time-out, 5xx, unreadable answer): look it up by payment hash, never retry blind. */
  | { status: "unknown"; reason: string };

export interface PaymentLookup {
  status: "succeeded" | "failed" | "pending" | "unknown";
  preimage?: string;
  feeSats?: number;
  reason?: string;
  /**
   * The backend has no payment with this hash (it never received our request, or has not recorded
   * it yet). Reported as `unknown`, not `failed`: whether it is safe to pay again is the caller's
   * decision (e.g. once the invoice has long expired, no payment can still start).
   */
  notFound?: boolean;
}

export interface LightningBackend {
  readonly kind: "dev" | "lnbits" | "nwc";
  /** A new invoice for `amountSats` (integer ≥ 1) with `memo` as its description, expiring after `expirySec`. */
  createInvoice(amountSats: number, memo: string, expirySec: number): Promise<CreatedInvoice>;
  lookupInvoice(paymentHash: string): Promise<InvoiceLookup>;
  /** Pays `bolt11`, spending at most `maxFeeSats` on routing. Call only after the payout row is saved. */
  payInvoice(bolt11: string, maxFeeSats: number): Promise<PayResult>;
  lookupPayment(paymentHash: string): Promise<PaymentLookup>;
  /** Whether the configured credentials can pay (LNbits: an admin key, not an invoice key); for Money Health. */
  checkWallet?(): Promise<WalletCheck>;
}

/** What a backend's credential check found (remembered for a while by the backend). */
export interface WalletCheck {
  ok: boolean;
  /** ISO-8601. */
  checkedAt: string;
  /** What is wrong, in words the admin can act on (when not ok). */
  problem?: string;
  balanceSats?: number;
}

/** A backend could not do what was asked (createInvoice, lookupInvoice), or is misconfigured. */
export class LightningError extends Error {
  constructor(
    message: string,
    readonly code: "unavailable" | "rejected" | "bad_response" | "not_found" | "configuration" = "unavailable",
  ) {
    super(message);
    this.name = "LightningError";
  }
}

export { routingFeeCap } from "../../domain/fees";

/**
 * The longest one payInvoice call may last, confirmations and pauses included, whatever the backend: a
 * payout's claim outlasts it (services/payouts.ts PAYOUT_CLAIM_MS), so no look-up or retry starts while
 * a payment may still be on its way. Each backend keeps its own timeouts within it.
 */
export const LONGEST_PAY_CALL_MS = 4 * 60_000;

/**
 * How long after an invoice's expiry we still treat it as possibly paid: a payment that reached the
 * node just before expiry can be reported a little later, and clocks differ.
 */
export const INVOICE_EXPIRY_GRACE_MS = 60_000;
