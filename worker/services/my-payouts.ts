// A payee's own failed payouts: listed on their Active screen with the reason, retried when they ask or
// when they change their Lightning address (payouts.ts retryFailedPayoutsOf).
import { and, desc, eq } from "drizzle-orm";
import type { MyPayoutView } from "../../domain/payout-views";
import type { UserRow } from "../db/client";
import { gigs, payouts } from "../db/schema";
import { conflict, notFound } from "../errors";
import { payoutFailedMessage, retryFailedPayoutsOf } from "./payouts";
import type { Deps } from "./deps";

export async function myFailedPayouts(deps: Pick<Deps, "db">, me: UserRow): Promise<MyPayoutView[]> {
  const rows = await deps.db
    .select({ p: payouts, gigTitle: gigs.title })
    .from(payouts)
    .leftJoin(gigs, eq(gigs.id, payouts.gigId))
    .where(and(eq(payouts.recipientId, me.id), eq(payouts.status, "failed")))
    .orderBy(desc(payouts.createdAt))
    .limit(50);
  return rows.map(({ p, gigTitle }) => ({
    id: p.id,
    gigId: p.gigId,
    gigTitle,
    amount: p.amount,
    status: "failed" as const,
    message: payoutFailedMessage(p.amount, p.lastError),
    lastError: p.lastError,
    destination: p.destination,
    nextAttemptAt: p.hold ? null : p.nextAttemptAt,
    updatedAt: p.updatedAt,
  }));
}

/** The payee's "Retry now": only their own payout (else 404), only a failed one (else 409). */
export async function retryMyPayout(deps: Deps, me: UserRow, payoutId: string): Promise<{ id: string; status: string; lastError: string | null }> {
  const payout = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  if (!payout || payout.recipientId !== me.id) throw notFound("Payout not found", "payout_not_found");
  if (payout.status === "succeeded") throw conflict("This payout was already paid.", "payout_already_paid");
  if (payout.status !== "failed") throw conflict("This payout is being paid right now. Try again in a few minutes.", "payout_in_flight");
  const [result] = await retryFailedPayoutsOf(deps, me.id, payout.id);
  const after = await deps.db.query.payouts.findFirst({ where: eq(payouts.id, payoutId) });
  return { id: payoutId, status: result?.status ?? after?.status ?? "failed", lastError: after?.lastError ?? null };
}
