// Escrow: funding invoices, their payment and expiry, and the money side of releasing or refunding.
// Every function here that changes state does so in one AtomicChange (see db/atomic.ts).
import { and, asc, eq, lte } from "drizzle-orm";
import { platformFee, refundAmount, totalCharge, workerPayout } from "../../domain/fees";
import { AtomicChange, allOf, not, where, type Cas, type Guard, type SetColumns } from "../db/atomic";
import { nowIso } from "../db/client";
import { gigs, invoices, users } from "../db/schema";
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

export interface FundingInvoice {
  id: string;
  bolt11: string;
  paymentHash: string;
  amount: number;
  expiresAt: string;
}

/** Asks the wallet for an invoice of payment + fee. The caller records it in its change with `recordInvoice`. */
export async function requestFundingInvoice(deps: Deps, gig: Pick<GigRow, "title" | "payment">): Promise<FundingInvoice> {
  const amount = totalCharge(gig.payment);
  const created = await deps.lightning.createInvoice(amount, `Gigstr escrow: ${gig.title}`.slice(0, 200), invoiceExpirySeconds(deps.env));
  return { id: crypto.randomUUID(), bolt11: created.bolt11, paymentHash: created.paymentHash, amount, expiresAt: created.expiresAt };
}

export function recordInvoice(change: AtomicChange, when: Guard, invoice: FundingInvoice, gigId: string, payerId: string): void {
  change.insert(invoices,
    {
      id: invoice.id,
      gigId,
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
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId), columns: { status: true, fundingInvoiceId: true } });
  const invoiceId = gig?.status === "pending_payment" ? gig.fundingInvoiceId : null;
  const invoice = invoiceId ? await deps.db.query.invoices.findFirst({ where: eq(invoices.id, invoiceId) }) : undefined;
  if (!invoice || invoice.status !== "pending") return "done";
  const state = await checkInvoice(deps, invoice);
  if (state === "expired") await expireInvoice(deps, invoice);
  return state === "pending" ? "pending" : "done";
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

  const change = new AtomicChange(deps.db, deps.committed);
  const paid = change.compareAndSet(invoices, invoice.id, { status: "paid", paidAt: change.at }, where("status IN ('pending', 'expired')"));

  const fundedSet: SetColumns<typeof gigs> =
    gig.gigType === "job_request"
      ? { status: "open", escrowStatus: "funded", fundedAt: change.at, fundingInvoiceId: null }
      : {
          status: "claimed",
          escrowStatus: "funded",
          fundedAt: change.at,
          fundingInvoiceId: null,
          claimedAt: change.at,
          deadline: new Date(Date.parse(change.at) + gig.timeframe * 86_400_000).toISOString(),
        };
  const funded = change.compareAndSet(gigs,
    gig.id,
    fundedSet,
    allOf(where("status = 'pending_payment' AND funding_invoice_id = ?", invoice.id), paid),
    { bumpVersion: true },
  );
  postTransaction(change, "escrow funded", [
    [WALLET, -invoice.amount],
    [escrowAccount(gig.id), invoice.amount],
  ], funded);
  addGigEvent(change, funded, { gigId: gig.id, type: "escrow_funded", actorId: invoice.payerId, data: { amount: invoice.amount } });
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

  // Money for a gig that no longer waits for it goes back to whoever paid.
  const late = allOf(paid, not(funded));
  const refundId = addPayout(change, late, { gigId: gig.id, purpose: `late_payment:${invoice.id}`, recipientId: invoice.payerId, amount: invoice.amount });
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

// ---- Releasing and refunding the escrow (added to a gig transition's change) ----------------

/** The hirer approved (or the admin paid the worker): worker gets payment − fee, the platform 2·fee. */
export function releaseEscrow(change: AtomicChange, when: Guard, gig: GigRow): string {
  const payoutId = addPayout(change, when, { gigId: gig.id, purpose: "worker_payout", recipientId: gig.workerId!, amount: workerPayout(gig.payment) });
  postTransaction(change, "escrow released", [
    [escrowAccount(gig.id), -totalCharge(gig.payment)],
    [FEES, 2 * platformFee(gig.payment)],
    [payableAccount(payoutId), workerPayout(gig.payment)],
  ], when);
  return payoutId;
}

/** Cancelled after funding, or the admin refunded: the hirer gets back everything, fee included. */
export function refundEscrow(change: AtomicChange, when: Guard, gig: GigRow): string {
  const payoutId = addPayout(change, when, { gigId: gig.id, purpose: "hirer_refund", recipientId: gig.hirerId!, amount: refundAmount(gig.payment) });
  postTransaction(change, "escrow refunded", [
    [escrowAccount(gig.id), -refundAmount(gig.payment)],
    [payableAccount(payoutId), refundAmount(gig.payment)],
  ], when);
  return payoutId;
}

/** The admin split: the worker's share of what a release would pay, the rest back to the hirer; fees as a release. */
export function splitEscrow(change: AtomicChange, when: Guard, gig: GigRow, worker: number, hirer: number): string[] {
  const fees = totalCharge(gig.payment) - worker - hirer;
  const workerPayoutId = addPayout(change, when, { gigId: gig.id, purpose: "worker_payout", recipientId: gig.workerId!, amount: worker });
  const hirerPayoutId = addPayout(change, when, { gigId: gig.id, purpose: "hirer_refund", recipientId: gig.hirerId!, amount: hirer });
  postTransaction(change, "escrow split", [
    [escrowAccount(gig.id), -totalCharge(gig.payment)],
    [FEES, fees],
    [payableAccount(workerPayoutId), worker],
    [payableAccount(hirerPayoutId), hirer],
  ], when);
  return [workerPayoutId, hirerPayoutId];
}

/** Completion: escrow released to the worker, both parties' records updated. Shared by approve, auto-release and the admin. */
export function completionRows(gig: GigRow) {
  return (change: AtomicChange, won: Cas): string[] => {
    const payoutId = releaseEscrow(change, won, gig);
    change.increment(users, gig.workerId!, { completedGigs: 1, successfulGigs: 1 }, won);
    change.increment(users, gig.hirerId!, { completedGigs: 1, successfulGigs: 1 }, won);
    return [payoutId];
  };
}
