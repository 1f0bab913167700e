// Money health for the admin (beyond the spec): the ledger invariant check of DESIGN.md §3, the wallet's
// own check, and the payouts that need a human: failed ones (with their last error), stuck ones, ones held
// in doubt ("needs a look", with each payment hash in doubt), ones held because routing would cost more
// than their cap, and ones a wallet paid above the cap. A retry goes through the payout rule
// (attemptPayout), which never pays twice: a failed payout is made due now and attempted; one held in
// doubt is only looked up by its hashes, and paid again only once they are known never to have sent money
// — or once the admin, after checking the node, marks it failed (markPayoutFailed).
import { and, asc, desc, eq, inArray, isNotNull, lte, or } from "drizzle-orm";
import { backendStatus, gigs, payoutAttempts, payouts, users } from "../db/schema";
import { conflict, notFound } from "../errors";
import { checkLedger } from "./ledger";
import { attemptPayout, claimIsLive, doubtfulHashes, makeDueNow, type AttemptResult, type PayoutRow } from "./payouts";
import type { WalletCheck } from "../lightning/backend";
import type { Deps } from "./deps";
import type { MoneyHealth, PayoutAttemptView, PayoutProblem } from "../../domain/admin-views";

export type { MoneyHealth, PayoutProblem };

/** A payout still pending or in flight after this long needs a look. */
export const STUCK_AFTER_MS = 5 * 60 * 1000;

/** What the payout needs from the admin, as Money Health shows it. */
function problemOf(p: PayoutRow): PayoutProblem["problem"] {
  if (p.status === "succeeded") return "paid_over_cap";
  if (p.hold === "in_doubt") return "needs_look";
  if (p.hold === "fee_over_cap" || p.hold === "destination_over_cap") return "fee_over_cap";
  return p.status === "failed" ? "failed" : "stuck";
}

/** The wallet's own check (LNbits: an admin key that can pay), when the backend has one; never throws. */
async function walletCheckOf(deps: Pick<Deps, "lightning">): Promise<WalletCheck | null> {
  try {
    const wallet = deps.lightning;
    return wallet.checkWallet ? await wallet.checkWallet() : null;
  } catch (err) {
    return { ok: false, checkedAt: new Date().toISOString(), problem: err instanceof Error ? err.message : String(err) };
  }
}

export async function moneyHealth(deps: Pick<Deps, "db" | "lightning">, now = new Date(), limit = 100): Promise<MoneyHealth> {
  const stuckBefore = new Date(now.getTime() - STUCK_AFTER_MS).toISOString();
  const [ledger, wallet, backends, rows] = await Promise.all([
    checkLedger(deps.db),
    walletCheckOf(deps),
    deps.db.select().from(backendStatus).orderBy(asc(backendStatus.backend)),
    deps.db
      .select({
        p: payouts,
        gigTitle: gigs.title,
        username: users.username,
        displayName: users.displayName,
        lightningAddress: users.lightningAddress,
      })
      .from(payouts)
      .leftJoin(gigs, eq(gigs.id, payouts.gigId))
      .leftJoin(users, eq(users.id, payouts.recipientId))
      .where(
        or(
          eq(payouts.status, "failed"),
          and(eq(payouts.status, "in_flight"), or(lte(payouts.updatedAt, stuckBefore), isNotNull(payouts.hold))),
          and(eq(payouts.status, "succeeded"), eq(payouts.overFeeCap, true)),
          and(eq(payouts.status, "pending"), lte(payouts.createdAt, stuckBefore)),
        ),
      )
      .orderBy(desc(payouts.createdAt))
      .limit(limit),
  ]);
  const { history, doubtful } = await attemptsOf(deps, rows.map((r) => r.p.id));
  return {
    ledger,
    wallet,
    backends,
    checkedAt: now.toISOString(),
    payouts: rows.map(({ p, gigTitle, username, displayName, lightningAddress }) => ({
      id: p.id,
      gigId: p.gigId,
      gigTitle,
      purpose: p.purpose,
      amount: p.amount,
      status: p.status,
      problem: problemOf(p),
      hold: p.hold,
      paymentHash: p.paymentHash,
      doubtfulHashes: p.hold === "in_doubt" ? (doubtful.get(p.id) ?? []) : [],
      routingFee: p.routingFee,
      feeCap: p.feeCap,
      history: history.get(p.id) ?? [],
      attempts: p.attempts,
      lastError: p.lastError,
      nextAttemptAt: p.nextAttemptAt,
      destination: p.destination,
      recipient: { id: p.recipientId, username, displayName, lightningAddress },
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    })),
  };
}

/**
 * Each payout's attempts, oldest first (at most the last 20 per payout are shown), and the payment hashes
 * in doubt among all of them (the payout rule read from the same rows).
 */
async function attemptsOf(deps: Pick<Deps, "db">, payoutIds: string[]): Promise<{ history: Map<string, PayoutAttemptView[]>; doubtful: Map<string, string[]> }> {
  const rowsOf = new Map<string, (typeof payoutAttempts.$inferSelect)[]>();
  // D1 binds at most 100 values per statement: the ids go in chunks.
  for (let i = 0; i < payoutIds.length; i += 90) {
    const rows = await deps.db
      .select()
      .from(payoutAttempts)
      .where(inArray(payoutAttempts.payoutId, payoutIds.slice(i, i + 90)))
      .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.attempt));
    for (const r of rows) rowsOf.set(r.payoutId, [...(rowsOf.get(r.payoutId) ?? []), r]);
  }
  const history = new Map<string, PayoutAttemptView[]>();
  const doubtful = new Map<string, string[]>();
  for (const [payoutId, rows] of rowsOf) {
    history.set(payoutId, rows.slice(-20).map((r) => ({ attempt: r.attempt, destination: r.destination, outcome: r.outcome, paymentHash: r.paymentHash, detail: r.detail, at: r.createdAt })));
    doubtful.set(payoutId, doubtfulHashes(rows));
  }
  return { history, doubtful };
}

/**
 * The admin's retry button. failed: due now, then attempted (the attempt's claim lets one caller pay); one
 * held over its fee cap is paid with the general cap (the admin's "Pay anyway"). pending, or in flight and
 * not claimed (held in doubt, or an attempt that stopped without a word): attempted, which looks the hashes
 * in doubt up and pays a new invoice only if every one is known never to have sent money. succeeded, or an
 * attempt running right now: 409.
 */
export async function retryPayoutAsAdmin(deps: Deps, payoutId: string): Promise<{ id: string; status: AttemptResult; lastError: string | null }> {
  const status = await retryPayout(deps, payoutId);
  const after = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  return { id: payoutId, status, lastError: after?.lastError ?? null };
}

async function retryPayout(deps: Deps, payoutId: string): Promise<AttemptResult> {
  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout) throw notFound("Payout not found", "payout_not_found");
  if (payout.status === "succeeded") throw conflict("This payout was already paid.", "payout_already_paid");
  if (claimIsLive(payout)) throw conflict("This payout is being paid right now. Try again in a few minutes.", "payout_in_flight");
  if (payout.status === "failed") {
    const overCap = payout.hold === "fee_over_cap" || payout.hold === "destination_over_cap";
    await makeDueNow(deps, payout.id);
    return attemptPayout(deps, payout.id, { adminApproved: overCap });
  }
  return attemptPayout(deps, payout.id);
}
