// Payouts: money the platform owes somebody, paid over Lightning to their Lightning address.
// A row exists before any Lightning call. Its states: pending → in_flight → succeeded | failed.
// `failed` only when the backend says so explicitly; an unclear outcome stays in_flight and is
// looked up by payment hash before anything is retried, so nothing is ever paid twice.
import { and, eq, isNull, lte, or } from "drizzle-orm";
import { AtomicChange, type Guard, where } from "../db/atomic";
import { nowIso } from "../db/client";
import { payouts, users } from "../db/schema";
import { INVOICE_EXPIRY_GRACE_MS, routingFeeCap } from "../lightning/backend";
import { decodeInvoice } from "../lightning/invoice";
import { WALLET, FEES, payableAccount, postTransaction } from "./ledger";
import { notify } from "./notifications";
import type { Deps } from "./deps";
import { invoiceForLightningAddress } from "./payout-destination";

export type PayoutRow = typeof payouts.$inferSelect;

export interface PayoutDraft {
  gigId: string;
  purpose: string;
  recipientId: string;
  amount: number;
}

/** Adds a payout row and its payable to a change; the caller credits the payable from escrow or wallet. */
export function addPayout(change: AtomicChange, when: Guard, draft: PayoutDraft): string {
  const id = crypto.randomUUID();
  change.insert(
    "payouts",
    { id, gigId: draft.gigId, purpose: draft.purpose, recipientId: draft.recipientId, amount: draft.amount, status: "pending", attempts: 0, createdAt: change.at, updatedAt: change.at },
    when,
  );
  return id;
}

/** Back-off before retrying a failed payout: 1, 2, 4, ... minutes, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360) * 60_000;
}

/** Tries to pay one payout now. Safe to call twice at once: only one attempt claims the row. */
export async function attemptPayout(deps: Deps, payoutId: string): Promise<PayoutRow["status"] | "busy"> {
  const now = nowIso();
  const claim = new AtomicChange(deps.d1);
  const cas = claim.compareAndSet(
    "payouts",
    payoutId,
    { status: "in_flight", updatedAt: now, lastError: null },
    where("status = 'pending' OR (status = 'failed' AND (next_attempt_at IS NULL OR next_attempt_at <= ?))", now),
  );
  claim.increment("payouts", payoutId, { attempts: 1 }, cas);
  await claim.commit();
  if (!claim.won(cas)) return "busy";

  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout) return "busy";
  if (payout.amount === 0) {
    await settlePayout(deps, payout, { preimage: null, routingFee: 0 });
    return "succeeded";
  }

  let bolt11: string;
  let paymentHash: string;
  let destination: string | null = null;
  try {
    const recipient = await deps.db.query.users.findFirst({ where: eq(users.id, payout.recipientId) });
    destination = recipient?.lightningAddress ?? null;
    if (!destination) throw new Error("The recipient has no Lightning address");
    ({ bolt11, paymentHash } = await invoiceForLightningAddress(deps, destination, payout.amount));
  } catch (err) {
    // Nothing was paid: no invoice was handed to the wallet.
    await failPayout(deps, payout, errorMessage(err), destination);
    return "failed";
  }

  // Recorded before paying, so that an unclear outcome can be looked up by its hash. Only while the
  // row is still this attempt's (its claim's token): a stale attempt must never pay beside a newer one.
  const recorded = await deps.db
    .update(payouts)
    .set({ bolt11, paymentHash, destination, updatedAt: nowIso() })
    .where(and(eq(payouts.id, payout.id), eq(payouts.status, "in_flight"), eq(payouts.transitionId, cas.token)))
    .returning({ id: payouts.id });
  if (recorded.length === 0) return "busy";

  const result = await deps.lightning.payInvoice(bolt11, routingFeeCap(payout.amount));
  switch (result.status) {
    case "succeeded":
      await settlePayout(deps, payout, { preimage: result.preimage, routingFee: result.feeSats });
      return "succeeded";
    case "failed":
      await failPayout(deps, payout, result.reason, destination);
      return "failed";
    case "unknown":
      await deps.db
        .update(payouts)
        .set({ lastError: `Outcome unknown, will look it up: ${result.reason}`, updatedAt: nowIso() })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, "in_flight")));
      return "in_flight";
  }
}

async function settlePayout(deps: Deps, payout: PayoutRow, paid: { preimage: string | null; routingFee: number }) {
  const change = new AtomicChange(deps.d1);
  const cas = change.compareAndSet(
    "payouts",
    payout.id,
    { status: "succeeded", preimage: paid.preimage, routingFee: paid.routingFee, lastError: null, updatedAt: change.at },
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
  notify(change, cas, {
    userId: payout.recipientId,
    gigId: payout.gigId,
    type: "payout_sent",
    title: "Payment Sent",
    message: `${payout.amount.toLocaleString("en-US")} sats were sent to your Lightning address.`,
  });
  await change.commit();
}

async function failPayout(deps: Deps, payout: PayoutRow, reason: string, destination: string | null) {
  const attempts = payout.attempts;
  await deps.db
    .update(payouts)
    .set({
      status: "failed",
      lastError: reason,
      destination,
      bolt11: null,
      paymentHash: null,
      nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)).toISOString(),
      updatedAt: nowIso(),
    })
    .where(and(eq(payouts.id, payout.id), eq(payouts.status, "in_flight")));
}

/** An in_flight payout whose outcome was unclear: ask the wallet, then settle, fail, or leave it. */
export async function resolveInFlightPayout(deps: Deps, payout: PayoutRow): Promise<PayoutRow["status"]> {
  if (!payout.paymentHash) {
    // The hash is saved before the wallet is asked to pay; without one, nothing was paid.
    await failPayout(deps, payout, "Attempt interrupted before paying", payout.destination);
    return "failed";
  }
  const found = await deps.lightning.lookupPayment(payout.paymentHash);
  if (found.status === "succeeded") {
    await settlePayout(deps, payout, { preimage: found.preimage ?? null, routingFee: found.feeSats ?? 0 });
    return "succeeded";
  }
  if (found.status === "failed") {
    await failPayout(deps, payout, "The wallet reports the payment failed", payout.destination);
    return "failed";
  }
  if (found.notFound && payout.bolt11 && invoiceLongExpired(payout.bolt11)) {
    // The wallet never saw this payment and its invoice can no longer be paid by anyone: safe to retry.
    await failPayout(deps, payout, "The payment never reached the wallet and its invoice has expired", payout.destination);
    return "failed";
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
        and(eq(payouts.status, "failed"), or(isNull(payouts.nextAttemptAt), lte(payouts.nextAttemptAt, now))),
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

function invoiceLongExpired(bolt11: string): boolean {
  try {
    return decodeInvoice(bolt11).expiresAtMs + INVOICE_EXPIRY_GRACE_MS < Date.now();
  } catch {
    return false;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
