// The payout rule (DESIGN.md §3, docs/decisions/022-one-payout-rule.md), stated once:
//
//   A payout may pay a new invoice only when every earlier attempt is known never to have sent money:
//   the wallet refused it before sending (a refusal that, by the wallet's own source or spec, means
//   nothing left), the funding node itself reports it failed, or the admin marked it failed after
//   checking the node. Anything else holds the payout in doubt: its earlier hashes are looked up again
//   later, and Money Health shows it with each hash.
//
// Every path that can pay (the first attempt after approval, the cron, the admin's retry, the payee's
// "Retry now", a changed Lightning address) asks `nextPayoutStep` what to do. Pure: no I/O, no clock.

/** What is known of one attempt: one invoice handed (or about to be handed) to the wallet. */
export type AttemptVerdict =
  /** Recorded before the wallet was asked; no answer yet (or the answer was lost with the attempt). */
  | "sending"
  /** The wallet or its node says it settled. */
  | "paid"
  /** Known never to have sent money: refused before sending, or the funding node reports it failed. */
  | "not_sent"
  /** Could have sent money: no answer, a dropped connection, an error after the request left, a failure nobody confirmed. */
  | "in_doubt"
  /** The admin checked the node and marked it failed. */
  | "marked_failed";

export interface AttemptFacts {
  paymentHash: string;
  verdict: AttemptVerdict;
  /** The attempt's claim on the payout is still live: its wallet call may still be running. */
  running: boolean;
}

export type PayoutStep =
  /** One attempt was paid: record that one (the first, if a wallet ever said two); never pay again. */
  | { kind: "settle"; paymentHash: string }
  /** An attempt may still be running: leave the payout alone. */
  | { kind: "wait" }
  /** In doubt: ask the wallet about these hashes (each attempt that may have sent money); pay nothing. */
  | { kind: "look_up"; paymentHashes: string[] }
  /** Every earlier attempt is known never to have sent money (or there was none): a new invoice may be paid. */
  | { kind: "pay_new" };

const NEVER_SENT: ReadonlySet<AttemptVerdict> = new Set(["not_sent", "marked_failed"]);

/** Whether this attempt is known never to have sent money. */
export function neverSent(verdict: AttemptVerdict): boolean {
  return NEVER_SENT.has(verdict);
}

/** The next step of a payout, from what is known of its attempts (in the order they were made). */
export function nextPayoutStep(attempts: readonly AttemptFacts[]): PayoutStep {
  const paid = attempts.find((a) => a.verdict === "paid");
  if (paid) return { kind: "settle", paymentHash: paid.paymentHash };
  if (attempts.some((a) => a.running && !neverSent(a.verdict))) return { kind: "wait" };
  const doubtful = attempts.filter((a) => !neverSent(a.verdict)).map((a) => a.paymentHash);
  if (doubtful.length > 0) return { kind: "look_up", paymentHashes: doubtful };
  return { kind: "pay_new" };
}

/** What the wallet answered to "pay this invoice" (worker/lightning/backend.ts PayResult, reduced). */
export type PayAnswer = "succeeded" | "failed" | "unknown";

/**
 * An attempt's verdict from the wallet's answer to paying it. `failed` is a backend's word that nothing
 * left (each backend answers `failed` only when its own source or spec says so); anything unclear is in doubt.
 */
export function verdictOfPayAnswer(answer: PayAnswer): AttemptVerdict {
  if (answer === "succeeded") return "paid";
  if (answer === "failed") return "not_sent";
  return "in_doubt";
}

/** What the wallet answered to "how did the payment with this hash end?" (PaymentLookup, reduced). */
export type LookupAnswer = "succeeded" | "failed" | "pending" | "unknown" | "not_found";

/**
 * An attempt's verdict after a look-up. A payment the wallet does not know stays in doubt: a node can
 * hold our payment and settle it late, and some wallets record a payment only once it resolves.
 * A look-up never undoes what is already known: paid stays paid, never-sent stays never-sent.
 */
export function verdictAfterLookup(before: AttemptVerdict, answer: LookupAnswer): AttemptVerdict {
  if (before === "paid" || neverSent(before)) return before;
  if (answer === "succeeded") return "paid";
  if (answer === "failed") return "not_sent";
  return "in_doubt";
}

/**
 * The admin's "Mark failed": allowed only on a payout held in doubt, naming exactly the hashes in doubt
 * (so the confirmation is about the payments the admin checked, not others that appeared meanwhile).
 */
export function markFailedAllowed(attempts: readonly AttemptFacts[], named: readonly string[]): "ok" | "not_in_doubt" | "running" | "hashes_mismatch" {
  const step = nextPayoutStep(attempts);
  if (step.kind === "wait") return "running";
  if (step.kind !== "look_up") return "not_in_doubt";
  const want = new Set(step.paymentHashes);
  const got = new Set(named);
  if (want.size !== got.size || [...want].some((h) => !got.has(h))) return "hashes_mismatch";
  return "ok";
}
