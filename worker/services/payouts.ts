// Payouts: money the platform owes somebody, paid over Lightning to their Lightning address.
//
// The one rule (domain/payout-rule.ts, DESIGN.md §3): a payout pays a new invoice only when every earlier
// attempt is known never to have sent money. Every path that can pay — the first attempt after a gig's
// approval or cancellation, the cron, the admin's retry, the payee's "Retry now", a changed Lightning
// address — goes through `attemptPayout`, which claims the payout, asks `nextPayoutStep` and does what it
// says: settle, look the earlier hashes up, or pay a new invoice. Every attempt's invoice and payment hash
// is kept (payout_attempts) and never cleared.
//
// A payout's states: pending → in_flight (claimed, or held in doubt: hold = in_doubt) → succeeded | failed
// (every attempt known never sent; retried after its back-off unless a fee hold keeps it for the admin).
// A claim lasts PAYOUT_CLAIM_MS, longer than any attempt can run, and every write of an attempt is tied to
// its claim's token: a stale attempt never writes over a newer one, and no look-up or retry starts while
// an attempt may still be running.
//
// Routing fees are capped per payout (domain/fees.ts payoutFeeCap: out of what the platform earned on the
// gig, or a small fixed cap for refunds). A payout the wallet would route above its cap is held for the
// admin (`fee_over_cap`); so is every automatic payout to a member, or an address, already paid above the
// cap twice (`destination_over_cap`, for wallets that take no fee limit, such as NWC).
import { and, asc, count, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { AtomicChange, type Cas, type Guard, where } from "../db/atomic";
import { nowIso } from "../db/client";
import { gigMilestones, gigs, payoutAttempts, payouts, users } from "../db/schema";
import { payoutFeeCap, routingFeeCap, type PayoutKind } from "../../domain/fees";
import { markFailedAllowed, nextPayoutStep, verdictAfterLookup, verdictOfPayAnswer, type AttemptFacts, type AttemptVerdict } from "../../domain/payout-rule";
import { LONGEST_PAY_CALL_MS, type PaymentLookup } from "../lightning/backend";
import { WALLET, FEES, payableAccount, postTransaction } from "./ledger";
import { notify } from "./notifications";
import type { Deps } from "./deps";
import { badRequest, conflict, notFound } from "../errors";
import { invoiceForLightningAddress } from "./payout-destination";

export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutHold = NonNullable<PayoutRow["hold"]>;
type AttemptRow = typeof payoutAttempts.$inferSelect;
type AttemptOutcome = AttemptRow["outcome"];

/** A destination (a member, or an address in any case) paid above its payout's fee cap this many times gets no more automatic payouts. */
export const OVER_CAP_PAYMENTS_BEFORE_HOLD = 2;

/**
 * How long a claim on a payout holds: longer than the longest attempt (an invoice from the payee's
 * provider, then the wallet's longest pay call with its confirmations), so nothing starts beside it.
 */
export const PAYOUT_CLAIM_MS = LONGEST_PAY_CALL_MS + 2 * 60_000;

/** The verdict of an attempt row (one with a payment hash), as the rule reads it. */
const VERDICT_OF: Record<AttemptOutcome, AttemptVerdict> = {
  sending: "in_doubt", // its claim is gone (we hold the payout now): its answer was lost
  succeeded: "paid",
  failed: "not_sent",
  held: "not_sent",
  unknown: "in_doubt",
  marked_failed: "marked_failed",
};
const OUTCOME_OF: Record<AttemptVerdict, AttemptOutcome> = {
  sending: "sending",
  paid: "succeeded",
  not_sent: "failed",
  in_doubt: "unknown",
  marked_failed: "marked_failed",
};

function kindOf(purpose: string, split: boolean): PayoutKind {
  if (split) return "split";
  return purpose === "hirer_refund" || purpose.startsWith("late_payment:") ? "refund" : "worker";
}

/**
 * The payout's routing fee cap (domain/fees.ts payoutFeeCap), from what its milestone's escrow held (the gig's
 * payment for a gig without a plan) and whether that milestone was split.
 */
async function feeCapOf(deps: Deps, payout: PayoutRow): Promise<number> {
  const milestone = await deps.db.query.gigMilestones.findFirst({
    where: and(eq(gigMilestones.gigId, payout.gigId), eq(gigMilestones.number, payout.milestone)),
    columns: { amount: true },
  });
  const gig = milestone ? null : await deps.db.query.gigs.findFirst({ where: eq(gigs.id, payout.gigId), columns: { payment: true } });
  const escrowed = milestone?.amount ?? gig?.payment;
  if (escrowed === undefined) return routingFeeCap(payout.amount);
  const [parts] = await deps.db
    .select({ n: count() })
    .from(payouts)
    .where(and(eq(payouts.gigId, payout.gigId), eq(payouts.milestone, payout.milestone), or(eq(payouts.purpose, "worker_payout"), eq(payouts.purpose, "hirer_refund"))));
  return payoutFeeCap(payout.amount, escrowed, kindOf(payout.purpose, (parts?.n ?? 0) >= 2 && (payout.purpose === "worker_payout" || payout.purpose === "hirer_refund")));
}

/** How an attempt may pay: by default the payout's own fee cap; the admin's "Pay anyway" allows the general cap. */
export interface AttemptOptions {
  /** The admin accepted routing up to max(10 sats, 1 %) for this payout, and paying a destination that went over before. */
  adminApproved?: boolean;
}

export interface PayoutDraft {
  gigId: string;
  /** The milestone whose escrow it pays out (1 when left out: a gig without a plan). */
  milestone?: number;
  purpose: string;
  recipientId: string;
  amount: number;
}

/** Adds a payout row and its payable to a change; the caller credits the payable from escrow or wallet. */
export function addPayout(change: AtomicChange, when: Guard, draft: PayoutDraft): string {
  const id = crypto.randomUUID();
  change.insert(payouts,
    { id, gigId: draft.gigId, milestone: draft.milestone ?? 1, purpose: draft.purpose, recipientId: draft.recipientId, amount: draft.amount, status: "pending", attempts: 0, createdAt: change.at, updatedAt: change.at },
    when,
  );
  return id;
}

/** Back-off before retrying a failed payout: 1, 2, 4, ... minutes, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360) * 60_000;
}

/** Back-off before a payout in doubt is looked up again: a quarter of how long it has been in doubt, 1 minute to 1 hour. */
export function lookupDelayMs(inDoubtForMs: number): number {
  return Math.min(Math.max(Math.floor(inDoubtForMs / 4), 60_000), 3_600_000);
}

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The claim a running attempt holds: its token guards every write it makes. */
interface Claim {
  token: string;
  guard: Guard;
}

const claimGuard = (payoutId: string, token: string): Guard => where(`EXISTS (SELECT 1 FROM payouts WHERE id = ? AND transition_id = ?)`, payoutId, token);

/**
 * Claims the payout for one attempt or look-up: only when no other claim is live, never a paid one, a
 * failed one only when it is due and not held for the admin. `extra` narrows it (mark-failed).
 */
async function claimPayout(deps: Deps, payoutId: string, extra?: Guard): Promise<Claim | null> {
  const now = nowIso();
  const change = new AtomicChange(deps.db, deps.committed);
  const conditions = [
    "status <> 'succeeded'",
    "(claimed_until IS NULL OR claimed_until <= ?)",
    "(status <> 'failed' OR (hold IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= ?)))",
  ];
  const guard = where([...conditions, ...(extra ? [extra.sql] : [])].join(" AND "), now, now, ...(extra?.params ?? []));
  const cas: Cas = change.compareAndSet(payouts, payoutId, { status: "in_flight", claimedUntil: later(PAYOUT_CLAIM_MS), updatedAt: now }, guard);
  await change.commit();
  return change.won(cas) ? { token: cas.token, guard: claimGuard(payoutId, cas.token) } : null;
}

/** Gives a claim up without changing anything else (an attempt that stopped short). */
async function releaseClaim(deps: Deps, payoutId: string, claim: Claim) {
  await deps.db
    .update(payouts)
    .set({ claimedUntil: null })
    .where(and(eq(payouts.id, payoutId), eq(payouts.transitionId, claim.token)));
}

/** The payout's attempts that handed an invoice to the wallet, oldest first. */
async function invoiceAttemptsOf(deps: Pick<Deps, "db">, payoutId: string): Promise<AttemptRow[]> {
  return deps.db
    .select()
    .from(payoutAttempts)
    .where(and(eq(payoutAttempts.payoutId, payoutId), isNotNull(payoutAttempts.paymentHash)))
    .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.attempt));
}

/** What the rule reads of the attempts. `runningClaim`: the claim of an attempt still running, if any (its `sending` rows may still send). */
function factsOf(rows: AttemptRow[], runningClaim: string | null): AttemptFacts[] {
  return rows.map((r) => ({
    paymentHash: r.paymentHash!,
    verdict: r.outcome === "sending" && r.claim === runningClaim ? "sending" : VERDICT_OF[r.outcome],
    running: runningClaim !== null && r.claim === runningClaim,
  }));
}

export type AttemptResult = PayoutRow["status"] | "busy";

/**
 * Moves one payout on by the rule: settles it if an attempt was paid, looks up the attempts in doubt,
 * and pays a new invoice only when every earlier attempt is known never to have sent money. Safe to call
 * any number of times at once: one caller claims the payout, the others answer "busy". Answers
 * "in_flight" when the payout is left held in doubt. Throws, with nothing changed, when payments are
 * switched off or the wallet is misconfigured (the payout is not claimed without a wallet that could know it).
 */
export async function attemptPayout(deps: Deps, payoutId: string, options: AttemptOptions = {}): Promise<AttemptResult> {
  const wallet = deps.lightning;
  const claim = await claimPayout(deps, payoutId);
  if (!claim) return "busy";
  try {
    return await advance(deps, wallet, payoutId, claim, options);
  } finally {
    // Every ending below releases the claim with its final write; this only frees one that stopped short.
    await releaseClaim(deps, payoutId, claim);
  }
}

async function advance(deps: Deps, wallet: Deps["lightning"], payoutId: string, claim: Claim, options: AttemptOptions): Promise<AttemptResult> {
  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout) return "busy";
  const rows = await invoiceAttemptsOf(deps, payoutId);
  let step = nextPayoutStep(factsOf(rows, null));

  if (step.kind === "look_up") {
    for (const row of rows.filter((r) => step.kind === "look_up" && step.paymentHashes.includes(r.paymentHash!))) {
      const found = await wallet.lookupPayment(row.paymentHash!);
      const verdict = verdictAfterLookup(VERDICT_OF[row.outcome], lookupAnswer(found));
      if (verdict === "paid") {
        await settlePayout(deps, payout, claim, row, { preimage: found.preimage ?? null, routingFee: found.feeSats ?? 0 });
        return "succeeded";
      }
      if (OUTCOME_OF[verdict] !== row.outcome) {
        await deps.db
          .update(payoutAttempts)
          .set({ outcome: OUTCOME_OF[verdict], detail: found.reason ?? row.detail })
          .where(and(eq(payoutAttempts.id, row.id), sql`EXISTS (SELECT 1 FROM payouts WHERE id = ${payoutId} AND transition_id = ${claim.token})`));
        row.outcome = OUTCOME_OF[verdict];
      }
    }
    step = nextPayoutStep(factsOf(rows, null));
    if (step.kind === "look_up") {
      await holdInDoubt(deps, payout, claim, rows, step.paymentHashes);
      return "in_flight";
    }
  }
  if (step.kind === "settle") {
    const row = rows.find((r) => r.paymentHash === step.paymentHash)!;
    await settlePayout(deps, payout, claim, row, { preimage: null, routingFee: row.routingFee ?? 0 });
    return "succeeded";
  }
  if (step.kind === "wait") return "busy";
  return payNewInvoice(deps, wallet, payout, claim, options);
}

function lookupAnswer(found: PaymentLookup): "succeeded" | "failed" | "pending" | "unknown" | "not_found" {
  if (found.notFound) return "not_found";
  return found.status;
}

/** Every earlier attempt is known never to have sent money: fetch a new invoice and pay it, once. */
async function payNewInvoice(deps: Deps, wallet: Deps["lightning"], payout: PayoutRow, claim: Claim, options: AttemptOptions): Promise<AttemptResult> {
  const attempt = payout.attempts + 1;
  if (payout.amount === 0) {
    await settlePayout(deps, payout, claim, null, { preimage: null, routingFee: 0 });
    return "succeeded";
  }

  let bolt11: string;
  let paymentHash: string;
  let destination: string | null = null;
  try {
    const recipient = await deps.db.query.users.findFirst({ where: eq(users.id, payout.recipientId) });
    destination = recipient?.lightningAddress ?? null;
    if (!destination) throw new Error("The recipient has no Lightning address");
    if (!options.adminApproved && (await overCapPaymentsTo(deps, destination, payout.recipientId)) >= OVER_CAP_PAYMENTS_BEFORE_HOLD) {
      await failPayout(deps, payout, claim, attempt, `${destination} was paid above the routing fee cap ${OVER_CAP_PAYMENTS_BEFORE_HOLD} times: automatic payouts there are stopped until the admin pays`, destination, "destination_over_cap");
      return "failed";
    }
    ({ bolt11, paymentHash } = await invoiceForLightningAddress(deps, destination, payout.amount));
  } catch (err) {
    // Nothing was paid: no invoice was handed to the wallet.
    await failPayout(deps, payout, claim, attempt, errorMessage(err), destination);
    return "failed";
  }

  // Recorded before paying, under this claim only: an unclear outcome is looked up by its hash, and a
  // stale attempt (its claim taken over) never pays beside a newer one.
  const feeCap = options.adminApproved ? routingFeeCap(payout.amount) : await feeCapOf(deps, payout);
  const attemptId = crypto.randomUUID();
  const record = new AtomicChange(deps.db, deps.committed);
  const mine = record.compareAndSet(payouts, payout.id, { bolt11, paymentHash, destination, feeCap, attempts: attempt, updatedAt: record.at }, where("transition_id = ?", claim.token));
  record.insert(payoutAttempts, { id: attemptId, payoutId: payout.id, attempt, destination, outcome: "sending", detail: null, bolt11, paymentHash, claim: mine.token, createdAt: record.at }, mine);
  await record.commit();
  if (!record.won(mine)) return "busy";
  const paying: Claim = { token: mine.token, guard: claimGuard(payout.id, mine.token) };
  const row: AttemptRow = { id: attemptId, payoutId: payout.id, attempt, destination, outcome: "sending", detail: null, routingFee: null, bolt11, paymentHash, claim: mine.token, createdAt: record.at };
  const current: PayoutRow = { ...payout, attempts: attempt, destination, feeCap, bolt11, paymentHash };

  const result = await wallet.payInvoice(bolt11, feeCap);
  switch (verdictOfPayAnswer(result.status)) {
    case "paid": {
      const paid = result as Extract<typeof result, { status: "succeeded" }>;
      await settlePayout(deps, current, paying, row, { preimage: paid.preimage, routingFee: paid.feeSats });
      return "succeeded";
    }
    case "not_sent": {
      const refused = result as Extract<typeof result, { status: "failed" }>;
      // Over the cap, a retry would meet the same fees: the payout waits for the admin.
      await failPayout(deps, current, paying, attempt, refused.reason, destination, refused.feeOverCapSats === undefined ? null : "fee_over_cap", row);
      return "failed";
    }
    default: {
      const reason = "reason" in result ? result.reason : "no answer";
      row.outcome = "unknown";
      row.detail = reason;
      await holdInDoubt(deps, current, paying, [row], [paymentHash], reason, row);
      return "in_flight";
    }
  }
}

/**
 * Some attempt may have sent money: no new invoice is paid. The payout stays in flight, held in doubt with
 * its hashes (Money Health shows each), and the cron looks them up again after a back-off.
 */
async function holdInDoubt(deps: Deps, payout: PayoutRow, claim: Claim, rows: AttemptRow[], hashes: string[], reason?: string, unsaved: AttemptRow | null = null) {
  const change = new AtomicChange(deps.db, deps.committed);
  const oldest = rows.filter((r) => hashes.includes(r.paymentHash!)).map((r) => Date.parse(r.createdAt))[0] ?? Date.now();
  const cas = change.compareAndSet(payouts,
    payout.id,
    {
      status: "in_flight",
      hold: "in_doubt",
      claimedUntil: null,
      nextAttemptAt: later(lookupDelayMs(Date.now() - oldest)),
      lastError: `In doubt${reason ? ` (${reason})` : ""}: not paid again until the wallet answers for ${hashes.join(", ")}`,
      updatedAt: change.at,
    },
    where("transition_id = ?", claim.token),
  );
  // The look-ups wrote what they learnt; the pay path's own attempt is written here, with the hold.
  if (unsaved) change.update(payoutAttempts, { outcome: "unknown", detail: unsaved.detail }, where("id = ?", unsaved.id), cas);
  await change.commit();
}

/** Payouts to this member, or to this address in any case, that were paid above their fee cap. */
async function overCapPaymentsTo(deps: Deps, destination: string, recipientId: string): Promise<number> {
  const [row] = await deps.db
    .select({ n: count() })
    .from(payouts)
    .where(and(eq(payouts.overFeeCap, true), or(eq(payouts.recipientId, recipientId), sql`lower(${payouts.destination}) = ${destination.toLowerCase()}`)));
  return row?.n ?? 0;
}

/** The attempt `paid` settled: the payout succeeds, the ledger moves, the payee is told. Tied to the claim. */
async function settlePayout(deps: Deps, payout: PayoutRow, claim: Claim, paid: AttemptRow | null, how: { preimage: string | null; routingFee: number }) {
  const change = new AtomicChange(deps.db, deps.committed);
  // A wallet that takes no fee limit (NWC) may charge more: recorded, shown to the admin, and counted
  // against the destination (OVER_CAP_PAYMENTS_BEFORE_HOLD).
  const overFeeCap = payout.feeCap !== null && how.routingFee > payout.feeCap;
  const cas = change.compareAndSet(payouts,
    payout.id,
    {
      status: "succeeded",
      preimage: how.preimage,
      routingFee: how.routingFee,
      overFeeCap,
      hold: null,
      claimedUntil: null,
      ...(paid ? { bolt11: paid.bolt11, paymentHash: paid.paymentHash, destination: paid.destination } : {}),
      lastError: overFeeCap ? `Paid ${how.routingFee} sats in routing fees, above the cap of ${payout.feeCap}` : null,
      updatedAt: change.at,
    },
    where("transition_id = ? AND status = 'in_flight'", claim.token),
  );
  postTransaction(change, `payout ${payout.purpose}`, [
    [payableAccount(payout.id), -payout.amount],
    [WALLET, payout.amount],
  ], cas);
  if (how.routingFee > 0) {
    postTransaction(change, `routing fee for payout ${payout.id}`, [
      [FEES, -how.routingFee],
      [WALLET, how.routingFee],
    ], cas);
  }
  if (paid) {
    change.update(payoutAttempts, { outcome: "succeeded", routingFee: how.routingFee }, where("id = ?", paid.id), cas);
  } else {
    change.insert(payoutAttempts,
      { id: crypto.randomUUID(), payoutId: payout.id, attempt: payout.attempts, destination: null, outcome: "succeeded", detail: "Nothing to send", routingFee: 0, createdAt: change.at },
      cas,
    );
  }
  notify(change, cas, {
    userId: payout.recipientId,
    gigId: payout.gigId,
    type: "payout_sent",
    title: "Payment Sent",
    message: `${payout.amount.toLocaleString("en-US")} sats were sent to your Lightning address.`,
  });
  await change.commit();
}

/**
 * Nothing was paid (every attempt is known never to have sent money): `failed`, retried by the cron after
 * its back-off unless `hold` keeps it for the admin. The payee is told, with the reason, on the payout's
 * first failure and whenever it failed at another destination than last time: changing their Lightning
 * address retries it at once (retryFailedPayoutsOf). Tied to the claim; the attempt's row is kept.
 */
async function failPayout(deps: Deps, payout: PayoutRow, claim: Claim, attempt: number, reason: string, destination: string | null, hold: PayoutHold | null = null, row: AttemptRow | null = null) {
  const change = new AtomicChange(deps.db, deps.committed);
  const cas = change.compareAndSet(payouts,
    payout.id,
    {
      status: "failed",
      lastError: reason,
      destination,
      hold,
      attempts: attempt,
      claimedUntil: null,
      nextAttemptAt: later(retryDelayMs(attempt)),
      updatedAt: change.at,
    },
    where("transition_id = ? AND status = 'in_flight'", claim.token),
  );
  if (row) {
    change.update(payoutAttempts, { outcome: "failed", detail: reason }, where("id = ?", row.id), cas);
  } else {
    change.insert(payoutAttempts,
      { id: crypto.randomUUID(), payoutId: payout.id, attempt, destination, outcome: hold ? "held" : "failed", detail: reason, createdAt: change.at },
      cas,
    );
  }
  if (attempt <= 1 || payout.destination !== destination) {
    notify(change, cas, {
      userId: payout.recipientId,
      gigId: payout.gigId,
      type: "payout_failed",
      title: "Payout Failed",
      message: payoutFailedMessage(payout.amount, reason),
    });
  }
  await change.commit();
}

/** What the payee reads about a failed payout (in-app notification and the Active screen). */
export function payoutFailedMessage(amount: number, reason: string | null): string {
  return `Your payout of ${amount.toLocaleString("en-US")} sats failed: ${reason ?? "the wallet could not pay it"}. Update your Lightning address and retry.`;
}

/**
 * Makes the member's failed payouts due now and tries each (their Lightning address just changed, or they
 * pressed Retry): a hold over the fee cap is lifted, since the new destination may route cheaper; the
 * attempt still keeps to the payout's own cap and checks the destination afresh. A payout in doubt is not
 * `failed` and is never touched here.
 */
export async function retryFailedPayoutsOf(deps: Deps, recipientId: string, onlyPayoutId?: string): Promise<Array<{ id: string; status: AttemptResult }>> {
  const failed = await deps.db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.recipientId, recipientId), eq(payouts.status, "failed"), onlyPayoutId ? eq(payouts.id, onlyPayoutId) : undefined));
  const results = [];
  for (const { id } of failed) {
    await makeDueNow(deps, id);
    results.push({ id, status: await attemptPayout(deps, id) });
  }
  return results;
}

/** A failed payout becomes due now, its fee hold lifted (the caller then attempts it). */
export async function makeDueNow(deps: Pick<Deps, "db">, payoutId: string) {
  await deps.db
    .update(payouts)
    .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString(), hold: null })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, "failed")));
}

/** A payout in flight whose attempt may still be running (its claim is live). */
export function claimIsLive(payout: Pick<PayoutRow, "claimedUntil">, now = Date.now()): boolean {
  return payout.claimedUntil !== null && Date.parse(payout.claimedUntil) > now;
}

/** The payment hashes in doubt among one payout's attempt rows (any rows of it, in order): empty unless it is held in doubt. */
export function doubtfulHashes(rows: AttemptRow[]): string[] {
  const step = nextPayoutStep(factsOf(rows.filter((r) => r.paymentHash !== null), null));
  return step.kind === "look_up" ? step.paymentHashes : [];
}

export const MARKED_FAILED = "Marked failed by the admin after checking the node";

/**
 * The admin's "Mark failed" on a payout held in doubt, after checking the node: `paymentHashes` must name
 * exactly its hashes in doubt. Those attempts are recorded as marked failed (kept in its history) and the
 * payout becomes `failed`, due now: the next attempt pays a new invoice.
 */
export async function markPayoutFailed(deps: Deps, payoutId: string, paymentHashes: string[]): Promise<{ id: string; status: PayoutRow["status"]; lastError: string | null }> {
  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout) throw notFound("Payout not found", "payout_not_found");
  if (claimIsLive(payout)) throw conflict("This payout is being paid right now. Try again in a few minutes.", "payout_in_flight");
  const claim = await claimPayout(deps, payoutId, where("status = 'in_flight' AND hold = 'in_doubt'"));
  if (!claim) throw conflict("Only a payout held in doubt can be marked failed.", "payout_not_in_doubt");
  try {
    const rows = await invoiceAttemptsOf(deps, payoutId);
    const allowed = markFailedAllowed(factsOf(rows, null), paymentHashes);
    if (allowed === "hashes_mismatch") {
      const step = nextPayoutStep(factsOf(rows, null));
      const want = step.kind === "look_up" ? step.paymentHashes : [];
      throw badRequest(`Name every payment hash in doubt, after checking the node: ${want.join(", ")}`, "hashes_mismatch");
    }
    if (allowed !== "ok") throw conflict("Only a payout held in doubt can be marked failed.", "payout_not_in_doubt");
    const lastError = `${MARKED_FAILED}: ${paymentHashes.join(", ")}`;
    const change = new AtomicChange(deps.db, deps.committed);
    const cas = change.compareAndSet(payouts,
      payoutId,
      { status: "failed", hold: null, claimedUntil: null, nextAttemptAt: new Date(Date.now() - 1000).toISOString(), lastError, updatedAt: change.at },
      where("transition_id = ?", claim.token),
    );
    for (const r of rows) {
      if (!paymentHashes.includes(r.paymentHash!)) continue;
      change.update(payoutAttempts, { outcome: "marked_failed", detail: MARKED_FAILED }, where("id = ? AND outcome IN ('unknown', 'sending')", r.id), cas);
    }
    await change.commit();
    if (!change.won(cas)) throw conflict("This payout is being paid right now. Try again in a few minutes.", "payout_in_flight");
    return { id: payoutId, status: "failed", lastError };
  } finally {
    await releaseClaim(deps, payoutId, claim);
  }
}

/** A pending payout is left this long to the attempt its own request started before the cron takes it. */
const PENDING_GRACE_MS = 60_000;

/**
 * The cron's part: every payout that is due goes through attemptPayout — failed ones after their back-off,
 * pending ones the request did not get to, ones held in doubt (looked up, never paid blind) and ones whose
 * attempt stopped without a word (its claim ran out). None whose claim is live: its attempt may still run.
 */
export async function retryPayouts(deps: Deps, limit = 25): Promise<{ attempted: number; lookedUp: number }> {
  const now = nowIso();
  const pendingBefore = new Date(Date.now() - PENDING_GRACE_MS).toISOString();
  const unclaimed = or(isNull(payouts.claimedUntil), lte(payouts.claimedUntil, now));
  const due = await deps.db
    .select({ id: payouts.id, status: payouts.status })
    .from(payouts)
    .where(
      and(
        unclaimed,
        or(
          and(eq(payouts.status, "failed"), isNull(payouts.hold), or(isNull(payouts.nextAttemptAt), lte(payouts.nextAttemptAt, now))),
          and(eq(payouts.status, "pending"), lte(payouts.createdAt, pendingBefore)),
          and(eq(payouts.status, "in_flight"), or(isNull(payouts.nextAttemptAt), lte(payouts.nextAttemptAt, now), isNull(payouts.hold))),
        ),
      ),
    )
    .limit(limit);
  for (const p of due) await attemptPayout(deps, p.id);
  const lookedUp = due.filter((p) => p.status === "in_flight").length;
  return { attempted: due.length - lookedUp, lookedUp };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
