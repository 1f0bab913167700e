// Escrow: funding invoices, their payment and expiry, and the money side of releasing or refunding.
// Every function here that changes state does so in one AtomicChange (see db/atomic.ts).
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { platformFee, refundAmount, totalCharge, workerPayout } from "../../domain/fees";
import { milestoneSuffix, type MilestoneResolution } from "../../domain/milestones";
import { AtomicChange, allOf, not, where, type Cas, type Guard, type SetColumns } from "../db/atomic";
import { nowIso } from "../db/client";
import { gigMilestones, gigs, invoices, users } from "../db/schema";
import { escrowAccount, FEES, payableAccount, postTransaction, WALLET } from "./ledger";
import { notify } from "./notifications";
import { addPayout, attemptPayout } from "./payouts";
import { addGigEvent } from "./gig-events";
import { forgetCachedGig } from "./public-cache";
import { disableClaim } from "./interest";
import { invoiceExpirySeconds, type Deps } from "./deps";
import { LightningError, type InvoiceLookup } from "../lightning/backend";
import type { GigRow } from "./gig-views";

export type InvoiceRow = typeof invoices.$inferSelect;
export type MilestoneRow = typeof gigMilestones.$inferSelect;

/**
 * A gig's milestones in order. Every gig has at least one (posting writes them; migration 0017 gave older gigs
 * theirs); a gig row written without them (a test's fixture) reads as its one implicit milestone.
 */
export async function loadMilestones(deps: Pick<Deps, "db">, gig: GigRow): Promise<MilestoneRow[]> {
  const rows = await deps.db.select().from(gigMilestones).where(eq(gigMilestones.gigId, gig.id)).orderBy(asc(gigMilestones.number));
  return rows.length ? rows : [implicitMilestone(gig)];
}

/** How a milestone is named to people: its own title, or the gig's for an implicit milestone. */
export const milestoneTitle = (gig: Pick<GigRow, "title">, m: Pick<MilestoneRow, "title">) => m.title ?? gig.title;

/** ` (milestone 2 of 3, "Design")` for a gig with a plan, nothing for one without. */
export const namedMilestone = (gig: Pick<GigRow, "title" | "milestoneCount">, m: Pick<MilestoneRow, "title" | "number"> | undefined) =>
  milestoneSuffix(m ? { number: m.number, title: milestoneTitle(gig, m) } : null, gig.milestoneCount);

export interface FundingInvoice {
  id: string;
  bolt11: string;
  paymentHash: string;
  amount: number;
  expiresAt: string;
}

/**
 * Asks the wallet for an invoice of one milestone's amount + fee (`payment`: the milestone's amount; for a gig
 * without a plan its whole payment). The caller records it in its change with `recordInvoice`.
 */
export async function requestFundingInvoice(deps: Deps, gig: Pick<GigRow, "title"> & { payment: number; milestone?: string }): Promise<FundingInvoice> {
  const amount = totalCharge(gig.payment);
  const created = await deps.lightning.createInvoice(amount, `Gigstr escrow: ${gig.title}${gig.milestone ?? ""}`.slice(0, 200), invoiceExpirySeconds(deps.env));
  return { id: crypto.randomUUID(), bolt11: created.bolt11, paymentHash: created.paymentHash, amount, expiresAt: created.expiresAt };
}

export function recordInvoice(change: AtomicChange, when: Guard, invoice: FundingInvoice, gigId: string, payerId: string, milestone = 1): void {
  change.insert(invoices,
    {
      id: invoice.id,
      gigId,
      milestone,
      purpose: "funding",
      payerId,
      bolt11: invoice.bolt11,
      paymentHash: invoice.paymentHash,
      amount: invoice.amount,
      expiresAt: invoice.expiresAt,
      status: "pending",
      createdAt: change.at,
    },
    when,
  );
}

/** Starts the gig's room watching its invoice (alarms), so payment is noticed without the cron. */
export async function watchInvoice(deps: Deps, gigId: string): Promise<void> {
  const room = deps.env.GIG_ROOM.get(deps.env.GIG_ROOM.idFromName(gigId));
  await room.watchFunding(gigId);
}

/**
 * The gig room's alarm: checks the gig's open funding invoice once (expiring it when due). "pending" while it
 * is still to be paid, so the room checks again; "done" when there is nothing left to watch.
 */
export async function checkFunding(deps: Deps, gigId: string): Promise<"pending" | "done"> {
  // The gig's own funding and any milestone's: every invoice of the gig still waiting to be paid.
  const waiting = await deps.db.select().from(invoices).where(and(eq(invoices.gigId, gigId), eq(invoices.status, "pending")));
  let pending = false;
  for (const invoice of waiting) {
    const state = await checkInvoice(deps, invoice);
    if (state === "expired") await expireInvoice(deps, invoice);
    if (state === "pending") pending = true;
  }
  return pending ? "pending" : "done";
}

/**
 * The wallet's webhook says an invoice changed. Only a hint: the invoice is looked up at the wallet before
 * anything is recorded. An expired invoice too: a payment that settled after we stopped waiting is refunded.
 */
export async function invoiceChanged(deps: Deps, paymentHash: string): Promise<void> {
  const invoice = await deps.db.query.invoices.findFirst({ where: eq(invoices.paymentHash, paymentHash) });
  if (invoice && invoice.status !== "paid") await checkInvoice(deps, invoice);
}

export type PaidOutcome = "funded" | "refunding_late_payment" | "already_paid" | "unknown_invoice";

/**
 * The one way an invoice becomes paid (alarm watcher, webhook, dev wallet, cron all call this).
 * Idempotent: the invoice's compare-and-set lets exactly one caller record the money. If the gig
 * is still waiting for this invoice it is funded; otherwise the payment is refunded, never lost.
 */
export async function markInvoicePaid(deps: Deps, paymentHash: string): Promise<PaidOutcome> {
  const invoice = await deps.db.query.invoices.findFirst({ where: eq(invoices.paymentHash, paymentHash) });
  if (!invoice) return "unknown_invoice";
  if (invoice.status === "paid") return "already_paid";
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, invoice.gigId) });
  if (!gig) return "unknown_invoice";

  const milestone = await deps.db.query.gigMilestones.findFirst({ where: and(eq(gigMilestones.gigId, gig.id), eq(gigMilestones.number, invoice.milestone)) });
  const account = milestone?.escrowAccount ?? escrowAccount(gig.id);

  const change = new AtomicChange(deps.db, deps.committed);
  const paid = change.compareAndSet(invoices, invoice.id, { status: "paid", paidAt: change.at }, where("status IN ('pending', 'expired')"));

  // The first milestone funds the gig itself (it opens, or the hire starts); a later one funds that milestone
  // while the gig has not ended and the milestone still waits for exactly this invoice.
  const first = invoice.milestone === 1;
  const fundedSet: SetColumns<typeof gigs> = !first
    ? {
        escrowStatus: sql`CASE WHEN current_milestone = ${invoice.milestone} THEN 'funded' ELSE escrow_status END`,
        // The current milestone's days start now that its work can start.
        ...(milestone?.days
          ? { deadline: sql`CASE WHEN current_milestone = ${invoice.milestone} THEN ${new Date(Date.parse(change.at) + milestone.days * 86_400_000).toISOString()} ELSE deadline END` }
          : {}),
      }
    : gig.gigType === "job_request"
      ? { status: "open", escrowStatus: "funded", fundedAt: change.at, fundingInvoiceId: null }
      : {
          status: "claimed",
          escrowStatus: "funded",
          fundedAt: change.at,
          fundingInvoiceId: null,
          claimedAt: change.at,
          deadline: new Date(Date.parse(change.at) + ((gig.milestoneCount > 1 ? milestone?.days : null) ?? gig.timeframe) * 86_400_000).toISOString(),
        };
  const waitsForIt = first
    ? where("status = 'pending_payment' AND funding_invoice_id = ?", invoice.id)
    : where(
        "status NOT IN ('pending_payment', 'completed', 'cancelled') AND EXISTS (SELECT 1 FROM gig_milestones WHERE gig_id = ? AND number = ? AND escrow = 'unfunded' AND funding_invoice_id = ?)",
        gig.id,
        invoice.milestone,
        invoice.id,
      );
  const funded = change.compareAndSet(gigs, gig.id, fundedSet, allOf(waitsForIt, paid), { bumpVersion: true });
  change.update(gigMilestones, { escrow: "funded", fundedAt: change.at, fundingInvoiceId: null }, where("gig_id = ? AND number = ? AND escrow = 'unfunded'", gig.id, invoice.milestone), funded);
  postTransaction(change, "escrow funded", [
    [WALLET, -invoice.amount],
    [account, invoice.amount],
  ], funded);
  addGigEvent(change, funded, { gigId: gig.id, type: "escrow_funded", actorId: invoice.payerId, data: { amount: invoice.amount, milestone: invoice.milestone } });
  if (first) {
    notify(change, funded, {
      userId: gig.gigType === "job_request" ? gig.posterId : gig.workerId,
      gigId: gig.id,
      type: "escrow_funded",
      title: gig.gigType === "job_request" ? "Gig Funded" : "You Were Hired",
      message:
        gig.gigType === "job_request"
          ? `"${gig.title}" is funded and open for workers.`
          : `"${gig.title}" was hired and the escrow is funded. You can start work.`,
      actorId: invoice.payerId,
    });
  } else {
    notify(change, funded, {
      userId: gig.workerId,
      gigId: gig.id,
      type: "escrow_funded",
      title: "Milestone Funded",
      message: `The hirer funded the next step of "${gig.title}"${namedMilestone(gig, milestone)}.`,
      actorId: invoice.payerId,
    });
  }

  // Money for a gig that no longer waits for it goes back to whoever paid.
  const late = allOf(paid, not(funded));
  const refundId = addPayout(change, late, { gigId: gig.id, milestone: invoice.milestone, purpose: `late_payment:${invoice.id}`, recipientId: invoice.payerId, amount: invoice.amount });
  postTransaction(change, "late payment refund", [
    [WALLET, -invoice.amount],
    [payableAccount(refundId), invoice.amount],
  ], late);
  addGigEvent(change, late, { gigId: gig.id, type: "late_payment_refunded", actorId: invoice.payerId, data: { amount: invoice.amount } });
  notify(change, late, {
    userId: invoice.payerId,
    gigId: gig.id,
    type: "refund",
    title: "Payment Refunded",
    message: `Your payment of ${invoice.amount.toLocaleString("en-US")} sats arrived after "${gig.title}" stopped waiting for it. It is being refunded to your Lightning address.`,
  });

  await change.commit();
  if (change.won(funded)) {
    await forgetCachedGig(gig.id);
    return "funded";
  }
  if (change.won(paid)) {
    deps.defer(() => attemptPayout(deps, refundId));
    return "refunding_late_payment";
  }
  return "already_paid";
}

/**
 * A service offering's unpaid hire ends (the hirer withdrew, or the invoice expired): the offer is open
 * again with no hirer. Whoever ends it also turns that member's claim off (interest.ts disableClaim).
 */
export const UNPAID_HIRE_ENDED = { status: "open", hirerId: null, hiredAt: null, fundingInvoiceId: null } as const;

/**
 * How long after its expiry we stop waiting for an invoice the wallet still calls pending, or no longer
 * knows. Wallets say "expired" themselves once a payment in flight at expiry can no longer settle
 * (INVOICE_EXPIRY_GRACE_MS after it); this is for one that never does.
 */
export const GIVE_UP_AFTER_EXPIRY_MS = 10 * 60_000;

const givenUp = (invoice: InvoiceRow) => Date.parse(invoice.expiresAt) + GIVE_UP_AFTER_EXPIRY_MS <= Date.now();

/**
 * Asks the wallet about one invoice and records its payment if it was paid. "expired" only when the wallet
 * says so (or it stays silent long after expiry): an invoice our clock calls expired may still be settling.
 */
export async function checkInvoice(deps: Deps, invoice: InvoiceRow): Promise<InvoiceRow["status"]> {
  let found: InvoiceLookup;
  try {
    found = await deps.lightning.lookupInvoice(invoice.paymentHash);
  } catch (err) {
    // A wallet that purged an unpaid invoice, or one we no longer use, will not be paid through it.
    if (err instanceof LightningError && err.code === "not_found" && givenUp(invoice)) return "expired";
    throw err;
  }
  if (found.status === "paid") {
    await markInvoicePaid(deps, invoice.paymentHash);
    return "paid";
  }
  return found.status === "expired" || givenUp(invoice) ? "expired" : "pending";
}

/**
 * Expires an unpaid invoice after asking the wallet one last time. The gig that waited for it is
 * cancelled (job request) or open again with no hirer (service offering). Safe to run twice.
 */
export async function expireInvoice(deps: Deps, invoice: InvoiceRow): Promise<"expired" | "paid" | "skipped"> {
  const status = await checkInvoice(deps, invoice);
  if (status === "paid") return "paid";
  if (status === "pending") return "skipped"; // the wallet may still settle it: next minute
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, invoice.gigId) });
  if (!gig) return "skipped";

  const change = new AtomicChange(deps.db, deps.committed);
  const expired = change.compareAndSet(invoices,
    invoice.id,
    { status: "expired", lateCheckAt: lateCheckAt(invoice.expiresAt, 0), lateChecks: 0 },
    where("status = 'pending' AND expires_at <= ?", change.at),
  );
  if (invoice.milestone > 1) {
    // A later milestone's invoice: the milestone stays unfunded and the hirer may ask for a new one.
    const milestone = await deps.db.query.gigMilestones.findFirst({ where: and(eq(gigMilestones.gigId, gig.id), eq(gigMilestones.number, invoice.milestone)) });
    // The hirer is told only while the milestone still waited for this invoice in a gig going on (written before
    // the row lets go of it): not for one the hirer already replaced by a newer invoice (asked for once our clock
    // said this one ran out) and may have paid, nor one a change of the plan replaced, nor in a gig that ended.
    const stillWaited = allOf(
      expired,
      where(
        "EXISTS (SELECT 1 FROM gig_milestones m JOIN gigs g ON g.id = m.gig_id WHERE m.gig_id = ? AND m.number = ? AND m.funding_invoice_id = ? AND g.status NOT IN ('completed', 'cancelled'))",
        gig.id,
        invoice.milestone,
        invoice.id,
      ),
    );
    notify(change, stillWaited, {
      userId: invoice.payerId,
      gigId: gig.id,
      type: "payment_expired",
      title: "Payment Window Expired",
      message: `The invoice for the next step of "${gig.title}"${namedMilestone(gig, milestone)} expired unpaid. No sats were taken; you can fund it again from the gig.`,
    });
    change.update(gigMilestones, { fundingInvoiceId: null }, where("gig_id = ? AND number = ? AND funding_invoice_id = ?", gig.id, invoice.milestone, invoice.id), expired);
    addGigEvent(change, expired, { gigId: gig.id, type: "payment_expired", actorId: null, data: { invoiceId: invoice.id, milestone: invoice.milestone } });
    await change.commit();
    if (change.won(expired)) await forgetCachedGig(gig.id);
    return change.won(expired) ? "expired" : "skipped";
  }
  const revertSet: SetColumns<typeof gigs> =
    gig.gigType === "job_request"
      ? { status: "cancelled", cancelledAt: change.at, fundingInvoiceId: null }
      : UNPAID_HIRE_ENDED;
  const reverted = change.compareAndSet(gigs,
    gig.id,
    revertSet,
    allOf(where("status = 'pending_payment' AND funding_invoice_id = ?", invoice.id), expired),
    { bumpVersion: true },
  );
  addGigEvent(change, reverted, { gigId: gig.id, type: "payment_expired", actorId: null, data: { invoiceId: invoice.id } });
  if (gig.gigType === "service_offering") disableClaim(change, reverted, gig.id, invoice.payerId);
  notify(change, reverted, {
    userId: invoice.payerId,
    gigId: gig.id,
    type: "payment_expired",
    title: "Payment Window Expired",
    message:
      gig.gigType === "job_request"
        ? `The invoice for "${gig.title}" expired unpaid, so the gig was cancelled. No sats were taken.`
        : `The invoice to hire "${gig.title}" expired unpaid, so the hire was withdrawn. No sats were taken.`,
  });
  // The worker of a service offering decides whether this member may hire again (claiming was turned off for
  // them above): without a word from us, the hirer's "Hire again" would wait on someone who does not know.
  if (gig.gigType === "service_offering" && gig.posterId !== invoice.payerId) {
    const hirer = await deps.db.query.users.findFirst({ where: eq(users.id, invoice.payerId), columns: { displayName: true, username: true } });
    const who = hirer?.displayName || "The hirer";
    notify(change, reverted, {
      userId: gig.posterId,
      gigId: gig.id,
      type: "payment_expired",
      title: "Hire Expired",
      message: `${who} did not pay the invoice to hire "${gig.title}" in time, so your offer is open again. To let them hire you again, enable claiming for them in the gig.`,
    });
  }
  await change.commit();
  if (change.won(reverted)) await forgetCachedGig(gig.id);
  return change.won(expired) ? "expired" : "skipped";
}

/**
 * After an invoice expired here, the wallet is asked again this long after its expiry: a payment can
 * still settle late (a payer's node that held it; a wallet whose clock is behind), and a wallet without
 * webhooks (NWC) tells no one. What settled is refunded by markInvoicePaid, as the webhook path does.
 */
export const LATE_PAYMENT_CHECKS_AFTER_EXPIRY_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 12 * 3600_000] as const;

/** When the `checks`-th late look-up of an invoice expiring at `expiresAt` is due, or null when none is left. */
function lateCheckAt(expiresAt: string, checks: number): string | null {
  const after = LATE_PAYMENT_CHECKS_AFTER_EXPIRY_MS[checks];
  return after === undefined ? null : new Date(Math.max(Date.parse(expiresAt) + after, Date.now())).toISOString();
}

/**
 * The cron's look-up of recently expired invoices: each due one is asked about (at the times above); one the
 * wallet now calls paid is recorded, and its money refunded (markInvoicePaid: exactly once, whoever else
 * reports the same payment at the same moment). A wallet that cannot answer now is asked at the next time.
 */
export async function checkLatePayments(deps: Deps, limit = 25): Promise<{ checked: number; paid: number }> {
  const due = await deps.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.status, "expired"), lte(invoices.lateCheckAt, nowIso())))
    .orderBy(asc(invoices.lateCheckAt))
    .limit(limit);
  let paid = 0;
  for (const invoice of due) {
    let found: InvoiceLookup | null = null;
    try {
      found = await deps.lightning.lookupInvoice(invoice.paymentHash);
    } catch (err) {
      console.error("late payment look-up failed; will ask at the next time", invoice.id, err);
    }
    if (found?.status === "paid") {
      await markInvoicePaid(deps, invoice.paymentHash);
      paid++;
      continue;
    }
    // Only this look-up's turn moves the invoice on, so two crons at once do not skip a time.
    await deps.db
      .update(invoices)
      .set({ lateChecks: invoice.lateChecks + 1, lateCheckAt: lateCheckAt(invoice.expiresAt, invoice.lateChecks + 1) })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.status, "expired"), eq(invoices.lateChecks, invoice.lateChecks)));
  }
  return { checked: due.length, paid };
}

/** The minute's expiry of unpaid invoices; one the wallet cannot answer for now is left for the next minute. */
export async function expireDueInvoices(deps: Deps, limit = 50): Promise<{ expired: number; failed: number }> {
  const due = await deps.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.status, "pending"), lte(invoices.expiresAt, nowIso())))
    .orderBy(asc(invoices.expiresAt))
    .limit(limit);
  let expired = 0;
  let failed = 0;
  for (const invoice of due) {
    try {
      if ((await expireInvoice(deps, invoice)) === "expired") expired++;
    } catch (err) {
      failed++;
      console.error("invoice expiry failed; will try again", invoice.id, err);
    }
  }
  return { expired, failed };
}

// ---- Releasing and refunding a milestone's escrow (added to a gig transition's change) -------------
// Each settles one milestone: its escrow account to payables (and the platform's fees), its row marked with
// how it ended, guarded by the transition's compare-and-set (which read the milestone as funded: funding a
// milestone bumps its gig's version, so a stale read loses).

function settleMilestoneRow(change: AtomicChange, when: Guard, m: MilestoneRow, escrow: MilestoneRow["escrow"], resolution: MilestoneResolution) {
  change.update(gigMilestones, { escrow, settledAt: change.at, resolution }, where("id = ? AND escrow = 'funded'", m.id), when);
}

/** The hirer approved (or the admin paid the worker, or silence released it): the worker gets amount − fee, the platform 2·fee. */
export function releaseMilestone(change: AtomicChange, when: Guard, gig: GigRow, m: MilestoneRow, resolution: MilestoneResolution): string {
  const payoutId = addPayout(change, when, { gigId: gig.id, milestone: m.number, purpose: "worker_payout", recipientId: gig.workerId!, amount: workerPayout(m.amount) });
  postTransaction(change, "escrow released", [
    [m.escrowAccount, -totalCharge(m.amount)],
    [FEES, 2 * platformFee(m.amount)],
    [payableAccount(payoutId), workerPayout(m.amount)],
  ], when);
  settleMilestoneRow(change, when, m, "released", resolution);
  return payoutId;
}

/** Cancelled after funding, the admin refunded, or the gig ended before it started: the hirer gets back everything, fee included. */
export function refundMilestone(change: AtomicChange, when: Guard, gig: GigRow, m: MilestoneRow, resolution: MilestoneResolution): string {
  const payoutId = addPayout(change, when, { gigId: gig.id, milestone: m.number, purpose: "hirer_refund", recipientId: gig.hirerId!, amount: refundAmount(m.amount) });
  postTransaction(change, "escrow refunded", [
    [m.escrowAccount, -refundAmount(m.amount)],
    [payableAccount(payoutId), refundAmount(m.amount)],
  ], when);
  settleMilestoneRow(change, when, m, "refunded", resolution);
  return payoutId;
}

/** The admin split: the worker's share of what a release would pay, the rest back to the hirer; fees as a release. */
export function splitMilestone(change: AtomicChange, when: Guard, gig: GigRow, m: MilestoneRow, worker: number, hirer: number): string[] {
  const fees = totalCharge(m.amount) - worker - hirer;
  const workerPayoutId = addPayout(change, when, { gigId: gig.id, milestone: m.number, purpose: "worker_payout", recipientId: gig.workerId!, amount: worker });
  const hirerPayoutId = addPayout(change, when, { gigId: gig.id, milestone: m.number, purpose: "hirer_refund", recipientId: gig.hirerId!, amount: hirer });
  postTransaction(change, "escrow split", [
    [m.escrowAccount, -totalCharge(m.amount)],
    [FEES, fees],
    [payableAccount(workerPayoutId), worker],
    [payableAccount(hirerPayoutId), hirer],
  ], when);
  settleMilestoneRow(change, when, m, "split", "split");
  return [workerPayoutId, hirerPayoutId];
}

/** The milestones whose escrow is funded and unsettled from `fromNumber` on: what ending the gig there refunds in full. */
export const fundedFrom = (milestones: readonly MilestoneRow[], fromNumber: number) => milestones.filter((m) => m.number >= fromNumber && m.escrow === "funded");

/** Refunds every funded milestone from `fromNumber` on in full; their payouts, and the sats returned. */
export function refundFundedFrom(change: AtomicChange, when: Guard, gig: GigRow, milestones: readonly MilestoneRow[], fromNumber: number) {
  const refunds = fundedFrom(milestones, fromNumber);
  return {
    payoutIds: refunds.map((m) => refundMilestone(change, when, gig, m, "cancelled")),
    amount: refunds.reduce((s, m) => s + refundAmount(m.amount), 0),
  };
}

/** The gig's current milestone. */
export function currentMilestoneOf(gig: GigRow, milestones: readonly MilestoneRow[]): MilestoneRow {
  return milestones.find((m) => m.number === gig.currentMilestone) ?? implicitMilestone(gig);
}

/** A gig without milestone rows, read as its one implicit milestone (its payment, in `escrow:<gig>`). */
function implicitMilestone(gig: GigRow): MilestoneRow {
  return {
      id: `implicit:${gig.id}`,
      gigId: gig.id,
      number: 1,
      title: null,
      amount: gig.payment,
      days: null,
      escrow: gig.escrowStatus === "funded" ? "funded" : gig.escrowStatus === "pending" ? "unfunded" : gig.escrowStatus,
      escrowAccount: escrowAccount(gig.id),
      fundingInvoiceId: null,
      fundedAt: gig.fundedAt,
      settledAt: null,
      resolution: null,
      transitionId: null,
      createdAt: gig.createdAt,
  };
}

/**
 * The gig's columns once its current milestone is settled and the work goes on: the next milestone is current,
 * not started (claimed: the worker starts it, either party may still cancel, refunding what is funded), its
 * escrow status the next milestone's, the last submission cleared, and its days (if it has any) the deadline.
 */
export function nextMilestoneSet(gig: GigRow, next: MilestoneRow, at: string): SetColumns<typeof gigs> {
  // A milestone's days count from when work on it can start: now if it is funded, else from its funding (markInvoicePaid).
  const deadline = next.days && next.escrow === "funded" ? new Date(Date.parse(at) + next.days * 86_400_000).toISOString() : gig.deadline;
  return {
    status: "claimed",
    currentMilestone: next.number,
    escrowStatus: next.escrow === "funded" ? "funded" : "pending",
    workSubmission: null,
    revisionNote: null,
    submittedAt: null,
    remindersSent: 0,
    disputeReason: null,
    disputedBy: null,
    deadline,
  };
}

export interface MilestoneRelease {
  set: SetColumns<typeof gigs>;
  rows: (change: AtomicChange, won: Cas) => string[];
  milestone: MilestoneRow;
  /** The gig completes with this release (its last milestone). */
  last: boolean;
}

/**
 * Releasing the current milestone to the worker (approve, auto-release, the admin's pay_worker): its payout, and
 * either the next milestone or the gig's completion with both parties' records. One rule for all three.
 */
export function releaseCurrentMilestone(gig: GigRow, milestones: readonly MilestoneRow[], resolution: MilestoneResolution): MilestoneRelease {
  const m = currentMilestoneOf(gig, milestones);
  const next = milestones.find((x) => x.number === m.number + 1);
  const at = new Date().toISOString();
  return {
    milestone: m,
    last: !next,
    set: next ? nextMilestoneSet(gig, next, at) : { status: "completed", escrowStatus: "released", completedAt: at },
    rows: (change, won) => {
      const payoutId = releaseMilestone(change, won, gig, m, resolution);
      if (!next) {
        change.increment(users, gig.workerId!, { completedGigs: 1, successfulGigs: 1 }, won);
        change.increment(users, gig.hirerId!, { completedGigs: 1, successfulGigs: 1 }, won);
      }
      return [payoutId];
    },
  };
}
