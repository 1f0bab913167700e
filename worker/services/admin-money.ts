// Money health for the admin (beyond the spec): the ledger invariant check of DESIGN.md §3, and the
// payouts that need a human: failed ones (with their last error) and stuck ones. A retry goes through
// the payout machinery, which never pays twice: a failed payout is made due now and attempted; one
// in flight is only looked up by its payment hash (resolveInFlightPayout), never paid blindly.
import { and, desc, eq, lte, or } from "drizzle-orm";
import { gigs, payouts, users } from "../db/schema";
import { conflict, notFound } from "../errors";
import { checkLedger } from "./ledger";
import { attemptPayout, resolveInFlightPayout, type PayoutRow } from "./payouts";
import type { Deps } from "./deps";
import type { MoneyHealth, PayoutProblem } from "../../domain/admin-views";

export type { MoneyHealth, PayoutProblem };

/** A payout still pending or in flight after this long needs a look. */
export const STUCK_AFTER_MS = 5 * 60 * 1000;

export async function moneyHealth(deps: Pick<Deps, "db" | "d1">, now = new Date(), limit = 100): Promise<MoneyHealth> {
  const stuckBefore = new Date(now.getTime() - STUCK_AFTER_MS).toISOString();
  const [ledger, rows] = await Promise.all([
    checkLedger(deps.d1),
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
          and(eq(payouts.status, "in_flight"), lte(payouts.updatedAt, stuckBefore)),
          and(eq(payouts.status, "pending"), lte(payouts.createdAt, stuckBefore)),
        ),
      )
      .orderBy(desc(payouts.createdAt))
      .limit(limit),
  ]);
  return {
    ledger,
    checkedAt: now.toISOString(),
    payouts: rows.map(({ p, gigTitle, username, displayName, lightningAddress }) => ({
      id: p.id,
      gigId: p.gigId,
      gigTitle,
      purpose: p.purpose,
      amount: p.amount,
      status: p.status,
      problem: p.status === "failed" ? "failed" : "stuck",
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
 * The admin's retry button. failed: due now, then attempted (the attempt's compare-and-set lets one
 * caller pay). pending: attempted. in_flight for over 5 minutes: looked up by payment hash, settled
 * or failed by what the wallet says. succeeded, or in flight just now: 409.
 */
export async function retryPayoutAsAdmin(deps: Deps, payoutId: string): Promise<{ id: string; status: PayoutRow["status"] | "busy"; lastError: string | null }> {
  const status = await retryPayout(deps, payoutId);
  const after = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  return { id: payoutId, status, lastError: after?.lastError ?? null };
}

async function retryPayout(deps: Deps, payoutId: string): Promise<PayoutRow["status"] | "busy"> {
  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout) throw notFound("Payout not found", "payout_not_found");
  switch (payout.status) {
    case "succeeded":
      throw conflict("This payout was already paid.", "payout_already_paid");
    case "in_flight":
      // An attempt may be between claiming the row and recording its invoice: only one that has
      // been quiet for a while is looked up (the cron waits likewise).
      if (!payout.updatedAt || Date.parse(payout.updatedAt) > Date.now() - STUCK_AFTER_MS) {
        throw conflict("This payout is being paid right now. Try again in a few minutes.", "payout_in_flight");
      }
      return resolveInFlightPayout(deps, payout);
    case "failed":
      await deps.db
        .update(payouts)
        .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, "failed")));
      return attemptPayout(deps, payout.id);
    case "pending":
      return attemptPayout(deps, payout.id);
  }
}
