// Payouts: money the platform owes somebody, paid over Lightning to their Lightning address.
// A row exists before any Lightning call. Its states: pending → in_flight → succeeded | failed.
// `failed` only when the backend says so explicitly; an unclear outcome stays in_flight and is
// looked up by payment hash before anything is retried, so nothing is ever paid twice. A payment the
// wallet says it does not know stays in flight too (held `unknown_to_wallet`, shown to the admin),
// however long ago its invoice expired: a recipient's node can hold our payment and settle it late.
//
// Routing fees are capped per payout (payoutFeeCap: never more than the platform earned on the gig).
// A payout the wallet would route above its cap is held for the admin (`fee_over_cap`); so is every
// automatic payout to a destination that was already paid above the cap twice (`destination_over_cap`,
// for wallets that take no fee limit, such as NWC). The cron never retries a held payout.
import { and, count, eq, isNull, lte, or } from "drizzle-orm";
import { AtomicChange, type Guard, where } from "../db/atomic";
import { nowIso } from "../db/client";
import { gigs, payoutAttempts, payouts, users } from "../db/schema";
import { payoutFeeCap, routingFeeCap } from "../../domain/fees";
import { WALLET, FEES, payableAccount, postTransaction } from "./ledger";
import { notify } from "./notifications";
import type { Deps } from "./deps";
import { invoiceForLightningAddress } from "./payout-destination";

export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutHold = NonNullable<PayoutRow["hold"]>;

/** A destination paid above its payout's fee cap this many times gets no more automatic payouts. */
export const OVER_CAP_PAYMENTS_BEFORE_HOLD = 2;

const isRefund = (purpose: string) => purpose === "hirer_refund" || purpose.startsWith("late_payment:");

/** The payout's routing fee cap (domain/fees.ts payoutFeeCap), from its gig's payment. */
async function feeCapOf(deps: Deps, payout: PayoutRow): Promise<number> {
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, payout.gigId), columns: { payment: true } });
  return gig ? payoutFeeCap(payout.amount, gig.payment, isRefund(payout.purpose)) : routingFeeCap(payout.amount);
}

/** How an attempt may pay: by default the payout's own fee cap; the admin's "Pay anyway" allows the general cap. */
export interface AttemptOptions {
  /** The admin accepted routing up to max(10 sats, 1 %) for this payout, and paying a destination that went over before. */
  adminApproved?: boolean;
}

export interface PayoutDraft {
  gigId: string;
  purpose: string;
  recipientId: string;
  amount: number;
}

/** Adds a payout row and its payable to a change; the caller credits the payable from escrow or wallet. */
export function addPayout(change: AtomicChange, when: Guard, draft: PayoutDraft): string {
  const id = crypto.randomUUID();
  change.insert(payouts,
    { id, gigId: draft.gigId, purpose: draft.purpose, recipientId: draft.recipientId, amount: draft.amount, status: "pending", attempts: 0, createdAt: change.at, updatedAt: change.at },
    when,
  );
  return id;
}

/** Back-off before retrying a failed payout: 1, 2, 4, ... minutes, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360) * 60_000;
}

/**
 * Tries to pay one payout now. Safe to call twice at once: only one attempt claims the row. Throws, with
 * nothing changed, when payments are switched off or the wallet is misconfigured (the row is not claimed,
 * so no attempt is left in flight without a wallet that could know it).
 */
export async function attemptPayout(deps: Deps, payoutId: string, options: AttemptOptions = {}): Promise<PayoutRow["status"] | "busy"> {
  const wallet = deps.lightning;
  const now = nowIso();
  const claim = new AtomicChange(deps.db, deps.committed);
  const cas = claim.compareAndSet(payouts,
    payoutId,
    { status: "in_flight", updatedAt: now, lastError: null },
    where("status = 'pending' OR (status = 'failed' AND hold IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= ?))", now),
  );
  claim.increment(payouts, payoutId, { attempts: 1 }, cas);
  await claim.commit();
  if (!claim.won(cas)) return "busy";

  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout) return "busy";
  if (payout.amount === 0) {
    await settlePayout(deps, payout, { preimage: null, routingFee: 0, feeCap: null, destination: null });
    return "succeeded";
  }

  let bolt11: string;
  let paymentHash: string;
  let destination: string | null = null;
  try {
    const recipient = await deps.db.query.users.findFirst({ where: eq(users.id, payout.recipientId) });
    destination = recipient?.lightningAddress ?? null;
    if (!destination) throw new Error("The recipient has no Lightning address");
    if (!options.adminApproved && (await overCapPaymentsTo(deps, destination)) >= OVER_CAP_PAYMENTS_BEFORE_HOLD) {
      await failPayout(deps, payout, `${destination} was paid above the routing fee cap ${OVER_CAP_PAYMENTS_BEFORE_HOLD} times: automatic payouts there are stopped until the admin pays`, destination, "destination_over_cap");
      return "failed";
    }
    ({ bolt11, paymentHash } = await invoiceForLightningAddress(deps, destination, payout.amount));
  } catch (err) {
    // Nothing was paid: no invoice was handed to the wallet.
    await failPayout(deps, payout, errorMessage(err), destination);
    return "failed";
  }

  // Recorded before paying, so that an unclear outcome can be looked up by its hash. Only while the
  // row is still this attempt's (its claim's token): a stale attempt must never pay beside a newer one.
  const feeCap = options.adminApproved ? routingFeeCap(payout.amount) : await feeCapOf(deps, payout);
  const recorded = await deps.db
    .update(payouts)
    .set({ bolt11, paymentHash, destination, feeCap, updatedAt: nowIso() })
    .where(and(eq(payouts.id, payout.id), eq(payouts.status, "in_flight"), eq(payouts.transitionId, cas.token)))
    .returning({ id: payouts.id });
  if (recorded.length === 0) return "busy";

  const result = await wallet.payInvoice(bolt11, feeCap);
  switch (result.status) {
    case "succeeded":
      await settlePayout(deps, payout, { preimage: result.preimage, routingFee: result.feeSats, feeCap, destination });
      return "succeeded";
    case "failed":
      // Over the cap, a retry would meet the same fees: the payout waits for the admin.
      await failPayout(deps, payout, result.reason, destination, result.feeOverCapSats === undefined ? null : "fee_over_cap");
      return "failed";
    case "unknown":
      await deps.db.batch([
        deps.db
          .update(payouts)
          .set({ lastError: `Outcome unknown, will look it up: ${result.reason}`, updatedAt: nowIso() })
          .where(and(eq(payouts.id, payout.id), eq(payouts.status, "in_flight"))),
        deps.db.insert(payoutAttempts).values({ id: crypto.randomUUID(), payoutId: payout.id, attempt: payout.attempts, destination, outcome: "unknown", detail: result.reason }),
      ]);
      return "in_flight";
  }
}

/** Payouts to `destination` that were paid above their fee cap. */
async function overCapPaymentsTo(deps: Deps, destination: string): Promise<number> {
  const [row] = await deps.db
    .select({ n: count() })
    .from(payouts)
    .where(and(eq(payouts.destination, destination), eq(payouts.overFeeCap, true)));
  return row?.n ?? 0;
}

async function settlePayout(deps: Deps, payout: PayoutRow, paid: { preimage: string | null; routingFee: number; feeCap: number | null; destination: string | null }) {
  const change = new AtomicChange(deps.db, deps.committed);
  // A wallet that takes no fee limit (NWC) may charge more: recorded, shown to the admin, and counted
  // against the destination (OVER_CAP_PAYMENTS_BEFORE_HOLD).
  const overFeeCap = paid.feeCap !== null && paid.routingFee > paid.feeCap;
  const cas = change.compareAndSet(payouts,
    payout.id,
    {
      status: "succeeded",
      preimage: paid.preimage,
      routingFee: paid.routingFee,
      overFeeCap,
      hold: null,
      lastError: overFeeCap ? `Paid ${paid.routingFee} sats in routing fees, above the cap of ${paid.feeCap}` : null,
      updatedAt: change.at,
    },
    where("status = 'in_flight'"),
  );
  postTransaction(change, `payout ${payout.purpose}`, [
    [payableAccount(payout.id), -payout.amount],
    [WALLET, payout.amount],
  ], cas);
  if (paid.routingFee > 0) {
    postTransaction(change, `routing fee for payout ${payout.id}`, [
      [FEES, -paid.routingFee],
      [WALLET, paid.routingFee],
    ], cas);
  }
  change.insert(payoutAttempts,
    { id: crypto.randomUUID(), payoutId: payout.id, attempt: payout.attempts, destination: paid.destination, outcome: "succeeded", detail: null, routingFee: paid.routingFee, createdAt: change.at },
    cas,
  );
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
 * Nothing was paid: `failed`, retried by the cron after its back-off unless `hold` keeps it for the admin.
 * The payee is told, with the reason, on the payout's first failure and whenever it failed at another
 * destination than last time: changing their Lightning address retries it at once (retryFailedPayoutsOf).
 */
async function failPayout(deps: Deps, payout: PayoutRow, reason: string, destination: string | null, hold: PayoutHold | null = null, tellPayee = true) {
  const change = new AtomicChange(deps.db, deps.committed);
  const cas = change.compareAndSet(payouts,
    payout.id,
    {
      status: "failed",
      lastError: reason,
      destination,
      bolt11: null,
      paymentHash: null,
      hold,
      nextAttemptAt: new Date(Date.now() + retryDelayMs(payout.attempts)).toISOString(),
      updatedAt: change.at,
    },
    where("status = 'in_flight'"),
  );
  change.insert(payoutAttempts,
    { id: crypto.randomUUID(), payoutId: payout.id, attempt: payout.attempts, destination, outcome: hold ? "held" : "failed", detail: reason, createdAt: change.at },
    cas,
  );
  if (tellPayee && (payout.attempts <= 1 || payout.destination !== destination)) {
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
 * attempt still keeps to the payout's own cap and checks the destination afresh.
 */
export async function retryFailedPayoutsOf(deps: Deps, recipientId: string, onlyPayoutId?: string): Promise<Array<{ id: string; status: PayoutRow["status"] | "busy" }>> {
  const failed = await deps.db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.recipientId, recipientId), eq(payouts.status, "failed"), onlyPayoutId ? eq(payouts.id, onlyPayoutId) : undefined));
  const results = [];
  for (const { id } of failed) {
    await deps.db
      .update(payouts)
      .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString(), hold: null })
      .where(and(eq(payouts.id, id), eq(payouts.status, "failed")));
    results.push({ id, status: await attemptPayout(deps, id) });
  }
  return results;
}

/** An in_flight payout whose outcome was unclear: ask the wallet, then settle, fail, or leave it. */
export async function resolveInFlightPayout(deps: Deps, payout: PayoutRow): Promise<PayoutRow["status"]> {
  if (!payout.paymentHash) {
    // The hash is saved before the wallet is asked to pay; without one, nothing was paid.
    await failPayout(deps, payout, "Attempt interrupted before paying", payout.destination, null, false);
    return "failed";
  }
  const found = await deps.lightning.lookupPayment(payout.paymentHash);
  if (found.status === "succeeded") {
    await settlePayout(deps, payout, { preimage: found.preimage ?? null, routingFee: found.feeSats ?? 0, feeCap: payout.feeCap, destination: payout.destination });
    return "succeeded";
  }
  if (found.status === "failed") {
    await failPayout(deps, payout, "The wallet reports the payment failed", payout.destination);
    return "failed";
  }
  if (found.notFound) {
    // Never "failed" on a not-found: the wallet may learn of the payment later (a node that held it and
    // settles late). It stays in flight, and the admin sees it with its hash, until the wallet answers.
    await deps.db
      .update(payouts)
      .set({ hold: "unknown_to_wallet", lastError: `The wallet has no payment with hash ${payout.paymentHash}; not paid again until it answers`, updatedAt: nowIso() })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, "in_flight")));
  }
  return "in_flight";
}

const STALE_IN_FLIGHT_MS = 60_000;

/** The cron's part: retry what failed or was never tried, and look up what stayed unclear. */
export async function retryPayouts(deps: Deps, limit = 25): Promise<{ attempted: number; lookedUp: number }> {
  const now = nowIso();
  const staleBefore = new Date(Date.now() - STALE_IN_FLIGHT_MS).toISOString();
  const due = await deps.db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      or(
        and(eq(payouts.status, "failed"), isNull(payouts.hold), or(isNull(payouts.nextAttemptAt), lte(payouts.nextAttemptAt, now))),
        and(eq(payouts.status, "pending"), lte(payouts.createdAt, staleBefore)),
      ),
    )
    .limit(limit);
  for (const p of due) await attemptPayout(deps, p.id);

  const unclear = await deps.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.status, "in_flight"), lte(payouts.updatedAt, staleBefore)))
    .limit(limit);
  for (const p of unclear) await resolveInFlightPayout(deps, p);
  return { attempted: due.length, lookedUp: unclear.length };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
