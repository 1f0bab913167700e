// Milestones (issue 28, domain/milestones.ts): writing a gig's plan when it is posted, funding a later milestone,
// and changing the plan's unfunded milestones by proposal and acceptance. Working on a milestone (start, submit,
// approve, revision, dispute) is gig-actions.ts on the current milestone; settling one is escrow.ts.
import { and, eq } from "drizzle-orm";
import { isParty } from "../../domain/gig";
import { MAX_MILESTONES, MIN_MILESTONES, milestoneEscrowAccount, planTotal, type MilestonePlanItem } from "../../domain/milestones";
import { MAX_PAYMENT } from "../../domain/fees";
import type { UserRow } from "../db/client";
import { AtomicChange, allOf, where, type Guard } from "../db/atomic";
import { gigMilestones, gigs, invoices, milestoneProposals } from "../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { loadMilestones, namedMilestone, recordInvoice, requestFundingInvoice, watchInvoice, type MilestoneRow } from "./escrow";
import { addGigEvent } from "./gig-events";
import { applyTransition, STALE_GIG } from "./gig-transitions";
import { loadGig, memberViewer, type GigRow } from "./gig-views";
import { notify } from "./notifications";
import { forgetCachedGig } from "./public-cache";
import type { Deps } from "./deps";

/** Writes a new gig's milestones: its plan, or one implicit milestone of the whole payment. */
export function insertMilestones(change: AtomicChange, when: Guard, gigId: string, plan: readonly MilestonePlanItem[] | undefined, payment: number): void {
  const items = plan ?? [{ title: null, amount: payment, days: null }];
  items.forEach((m, i) =>
    change.insert(gigMilestones,
      {
        id: crypto.randomUUID(),
        gigId,
        number: i + 1,
        title: plan ? m.title : null,
        amount: m.amount,
        days: m.days ?? null,
        escrow: "unfunded",
        escrowAccount: milestoneEscrowAccount(gigId, i + 1, !!plan),
        createdAt: change.at,
      },
      when,
    ),
  );
}

const ENDED = ["completed", "cancelled"];

/**
 * The hirer asks for the invoice of a later milestone (at any time, in order: the one after the last funded).
 * Funding twice at once gives one invoice: the milestone takes an invoice only while it has none, so the second
 * request answers the first one's invoice. An expired invoice is replaced.
 */
export async function fundMilestone(deps: Deps, me: UserRow, gigId: string, number: number): Promise<{ paymentRequest: string; totalCharge: number; milestone: number }> {
  const gig = await loadGig(deps, gigId, memberViewer(me));
  if (gig.hirerId !== me.id) throw forbidden("Only the gig's hirer can fund its milestones");
  const milestones = await loadMilestones(deps, gig);
  const m = milestones.find((x) => x.number === number);
  if (!m) throw notFound("Milestone not found", "milestone_not_found");
  if (ENDED.includes(gig.status)) throw conflict("This gig has ended", "invalid_state");
  if (number === 1 || gig.status === "pending_payment") throw conflict("The first milestone is funded with the gig's own invoice", "invalid_state");
  if (m.escrow !== "unfunded") throw conflict(`Milestone ${number} is already funded`, "milestone_funded");
  const before = milestones.find((x) => x.number === number - 1);
  if (before && before.escrow === "unfunded") throw conflict(`Fund milestone ${before.number} first`, "fund_in_order");

  const existing = await pendingInvoiceOf(deps, m);
  if (existing) return { paymentRequest: existing.bolt11, totalCharge: existing.amount, milestone: number };

  const invoice = await requestFundingInvoice(deps, { title: gig.title, payment: m.amount, milestone: namedMilestone(gig, m) });
  const change = new AtomicChange(deps.db, deps.committed);
  // The milestone takes this invoice only if it is still unfunded with no live invoice, in a gig that has not ended.
  const taken = change.compareAndSet(gigMilestones,
    m.id,
    { fundingInvoiceId: invoice.id },
    allOf(
      // Still unfunded, and with no invoice that could still be paid (one past its expiry may yet settle: it is
      // refunded as a late payment, markInvoicePaid, since the milestone no longer waits for it).
      where(
        "escrow = 'unfunded' AND (funding_invoice_id IS NULL OR NOT EXISTS (SELECT 1 FROM invoices WHERE id = gig_milestones.funding_invoice_id AND status = 'pending' AND expires_at > ?))",
        change.at,
      ),
      where("EXISTS (SELECT 1 FROM gigs WHERE id = ? AND status NOT IN ('pending_payment', 'completed', 'cancelled'))", gig.id),
    ),
  );
  recordInvoice(change, taken, invoice, gig.id, me.id, number);
  addGigEvent(change, taken, { gigId: gig.id, type: "milestone_invoice", actorId: me.id, data: { milestone: number, amount: invoice.amount } });
  await change.commit();
  if (!change.won(taken)) {
    // Another request gave the milestone its invoice first: that one is the invoice to pay.
    const fresh = await deps.db.query.gigMilestones.findFirst({ where: eq(gigMilestones.id, m.id) });
    const winner = fresh ? await pendingInvoiceOf(deps, fresh) : undefined;
    if (winner) return { paymentRequest: winner.bolt11, totalCharge: winner.amount, milestone: number };
    throw conflict(STALE_GIG, "stale_gig");
  }
  deps.defer(() => watchInvoice(deps, gig.id));
  return { paymentRequest: invoice.bolt11, totalCharge: invoice.amount, milestone: number };
}

async function pendingInvoiceOf(deps: Deps, m: MilestoneRow) {
  if (!m.fundingInvoiceId || m.escrow !== "unfunded") return undefined;
  const invoice = await deps.db.query.invoices.findFirst({ where: eq(invoices.id, m.fundingInvoiceId) });
  return invoice?.status === "pending" && Date.parse(invoice.expiresAt) > Date.now() ? invoice : undefined;
}

// ---- Changing the plan --------------------------------------------------------------------------

/** The first milestone a proposal may change: the first one not funded (every one after it is unfunded too). */
const firstUnfunded = (milestones: readonly MilestoneRow[]) => (milestones.find((m) => m.escrow === "unfunded")?.number ?? milestones.length + 1);

function checkPlan(milestones: readonly MilestoneRow[], fromNumber: number, items: readonly MilestonePlanItem[]): number {
  const kept = milestones.filter((m) => m.number < fromNumber);
  const count = kept.length + items.length;
  if (count < MIN_MILESTONES || count > MAX_MILESTONES) throw badRequest(`A plan has ${MIN_MILESTONES} to ${MAX_MILESTONES} milestones`, "invalid_plan");
  const payment = planTotal(kept) + planTotal(items);
  if (payment > MAX_PAYMENT) throw badRequest("Maximum payment is 1,000,000 sats", "invalid_plan");
  return payment;
}

function requireParties(gig: GigRow, me: UserRow) {
  if (!isParty(gig, me.id) || (gig.hirerId !== me.id && gig.workerId !== me.id)) throw forbidden("Only the gig's hirer and worker can change its milestones");
  if (gig.milestoneCount <= 1) throw badRequest("This gig has no milestone plan", "no_plan");
  if (!gig.hirerId || !gig.workerId || gig.status === "pending_payment") throw conflict("The plan can change once the gig has a hirer and a worker", "invalid_state");
  if (ENDED.includes(gig.status)) throw conflict("This gig has ended", "invalid_state");
}

/**
 * One party proposes new milestones for every unfunded one (change an amount or a title, add or remove later
 * ones); funded milestones never change. One pending proposal per gig; the other party accepts or rejects it.
 */
export async function proposePlan(deps: Deps, me: UserRow, gigId: string, items: MilestonePlanItem[], screenFrom?: number) {
  const gig = await loadGig(deps, gigId, memberViewer(me));
  requireParties(gig, me);
  const milestones = await loadMilestones(deps, gig);
  const fromNumber = firstUnfunded(milestones);
  // The proposer's screen numbered the plan from another milestone: one was funded since it was read.
  if (screenFrom !== undefined && screenFrom !== fromNumber) {
    throw conflict(`Milestone ${Math.min(screenFrom, fromNumber)} was funded since you opened the plan: funded milestones never change. Please reload and try again.`, "milestone_funded");
  }
  const payment = checkPlan(milestones, fromNumber, items);
  const id = crypto.randomUUID();
  const plan = items.map((m) => ({ title: m.title, amount: m.amount, days: m.days ?? null }));
  const change = new AtomicChange(deps.db, deps.committed);
  const stillOn = change.compareAndSet(gigs, gig.id, {}, where("status NOT IN ('pending_payment', 'completed', 'cancelled') AND version = ?", gig.version));
  change.insert(milestoneProposals, { id, gigId: gig.id, proposerId: me.id, fromNumber, plan: JSON.stringify(plan), status: "pending", createdAt: change.at }, stillOn);
  addGigEvent(change, stillOn, { gigId: gig.id, type: "milestones_proposed", actorId: me.id, data: { fromNumber, milestones: plan, payment } });
  notify(change, stillOn, {
    userId: gig.hirerId === me.id ? gig.workerId : gig.hirerId,
    gigId: gig.id,
    type: "milestones_proposed",
    title: "Milestone Change Proposed",
    message: `A change of the milestones of "${gig.title}" from milestone ${fromNumber} on is waiting for your answer.`,
    actorId: me.id,
  });
  try {
    await change.commit();
  } catch (err) {
    if (/UNIQUE constraint failed/.test(String(err))) throw conflict("A milestone change is already waiting for an answer", "proposal_pending");
    throw err;
  }
  if (!change.won(stillOn)) throw conflict(STALE_GIG, "stale_gig");
  await forgetCachedGig(gig.id);
  return { id, fromNumber, milestones: plan, status: "pending" as const };
}

/**
 * The other party accepts (the unfunded milestones are replaced, the gig's payment becomes the new sum) or
 * rejects; the proposer may withdraw it. Accepting is the gig's compare-and-set, and holds only while every
 * milestone it replaces is still unfunded: a milestone funded since (which also bumps the version) is never changed.
 */
export async function answerPlan(deps: Deps, me: UserRow, gigId: string, proposalId: string, answer: "accept" | "reject" | "withdraw") {
  const gig = await loadGig(deps, gigId, memberViewer(me));
  if (!isParty(gig, me.id)) throw forbidden("Only the gig's hirer and worker can change its milestones");
  const proposal = await deps.db.query.milestoneProposals.findFirst({ where: and(eq(milestoneProposals.id, proposalId), eq(milestoneProposals.gigId, gig.id)) });
  if (!proposal) throw notFound("Milestone change not found", "proposal_not_found");
  if (proposal.status !== "pending") throw conflict("This milestone change was already answered", "invalid_state");
  if (answer === "withdraw" ? proposal.proposerId !== me.id : proposal.proposerId === me.id || (gig.hirerId !== me.id && gig.workerId !== me.id)) {
    throw forbidden(answer === "withdraw" ? "Only the member who proposed the change can withdraw it" : "The other party answers a milestone change");
  }
  const pending = where("EXISTS (SELECT 1 FROM milestone_proposals WHERE id = ? AND status = 'pending')", proposal.id);
  const decided = { status: answer === "accept" ? ("accepted" as const) : answer === "reject" ? ("rejected" as const) : ("withdrawn" as const), decidedAt: new Date().toISOString() };
  const counterpart = proposal.proposerId === gig.hirerId ? gig.workerId : gig.hirerId;

  if (answer !== "accept") {
    await applyTransition(deps, gig, me.id, {
      set: {},
      also: pending,
      event: { type: answer === "reject" ? "milestones_rejected" : "milestones_withdrawn", data: { proposalId: proposal.id } },
      rows: (change, won) => void change.update(milestoneProposals, decided, where("id = ?", proposal.id), won),
      notify: (g) =>
        answer === "reject"
          ? [{ userId: proposal.proposerId, type: "milestones_rejected", title: "Milestone Change Rejected", message: `Your change of the milestones of "${g.title}" was not accepted.` }]
          : [{ userId: counterpart, type: "milestones_withdrawn", title: "Milestone Change Withdrawn", message: `The proposed change of the milestones of "${g.title}" was withdrawn.` }],
    });
    return { id: proposal.id, ...decided };
  }

  if (ENDED.includes(gig.status)) throw conflict("This gig has ended", "invalid_state");
  const milestones = await loadMilestones(deps, gig);
  const items = JSON.parse(proposal.plan) as MilestonePlanItem[];
  if (milestones.some((m) => m.number >= proposal.fromNumber && m.escrow !== "unfunded")) {
    throw conflict("A milestone this change would replace has been funded since; funded milestones never change", "milestone_funded");
  }
  const payment = checkPlan(milestones, proposal.fromNumber, items);
  const count = proposal.fromNumber - 1 + items.length;
  const unfundedFrom = where("NOT EXISTS (SELECT 1 FROM gig_milestones WHERE gig_id = ? AND number >= ? AND escrow <> 'unfunded')", gig.id, proposal.fromNumber);
  await applyTransition(deps, gig, me.id, {
    set: { payment, milestoneCount: count },
    also: allOf(pending, unfundedFrom),
    event: { type: "milestones_changed", data: { proposalId: proposal.id, fromNumber: proposal.fromNumber, milestones: items, payment } },
    rows: (change, won) => {
      change.update(milestoneProposals, decided, where("id = ?", proposal.id), won);
      // A replaced milestone's open invoice is let go: paid later, it is refunded as a late payment.
      change.delete(gigMilestones, where("gig_id = ? AND number >= ? AND escrow = 'unfunded'", gig.id, proposal.fromNumber), won);
      items.forEach((m, i) => {
        const number = proposal.fromNumber + i;
        change.insert(gigMilestones,
          { id: crypto.randomUUID(), gigId: gig.id, number, title: m.title, amount: m.amount, days: m.days ?? null, escrow: "unfunded", escrowAccount: milestoneEscrowAccount(gig.id, number, true), createdAt: change.at },
          won,
        );
      });
    },
    notify: (g) => [
      { userId: proposal.proposerId, type: "milestones_changed", title: "Milestones Changed", message: `Your change of the milestones of "${g.title}" was accepted. The gig's payment is now ${payment.toLocaleString("en-US")} sats.` },
    ],
  });
  return { id: proposal.id, ...decided };
}
