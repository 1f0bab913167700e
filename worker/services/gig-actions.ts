// The hirer's and the worker's actions on a gig after posting (DESIGN.md §4). Each: load, authorise (role,
// then state), then one transition (gig-transitions.ts) whose compare-and-set decides the winner.
import { and, eq } from "drizzle-orm";
import { refundAmount, totalCharge } from "../../domain/fees";
import { editFundedOrOwner, rolesOf } from "../../domain/gig";
import type { UserRow } from "../db/client";
import { where, type AtomicChange, type Cas } from "../db/atomic";
import { gigMilestones, preClaimMessages } from "../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import {
  currentMilestoneOf,
  fundedFrom,
  loadMilestones,
  namedMilestone,
  recordInvoice,
  refundFundedFrom,
  releaseCurrentMilestone,
  requestFundingInvoice,
  UNPAID_HIRE_ENDED,
  watchInvoice,
  type MilestoneRow,
} from "./escrow";
import { applyTransition, authorise, gigToAct } from "./gig-transitions";
import { getGig, memberViewer, type GigRow, type GigView } from "./gig-views";
import type { PostedGig } from "../../domain/gig-view";
import { disableClaim } from "./interest";
import type { Deps } from "./deps";
import type { GigEditChange } from "../../domain/admin-views";

/**
 * The gig's current milestone, checked against the one a milestone route names (`/milestones/{n}/...`): acting
 * on any other is refused, so a stale screen never submits or approves the wrong step.
 */
async function currentMilestone(deps: Deps, gig: GigRow, named?: number): Promise<{ milestones: MilestoneRow[]; current: MilestoneRow }> {
  const milestones = await loadMilestones(deps, gig);
  const current = currentMilestoneOf(gig, milestones);
  if (named !== undefined && named !== current.number) {
    if (!milestones.some((m) => m.number === named)) throw notFound("Milestone not found", "milestone_not_found");
    throw conflict(`Milestone ${named} is not the current milestone (milestone ${current.number} is)`, "not_current_milestone");
  }
  return { milestones, current };
}

const counterpartOf = (gig: GigRow, userId: string) => (gig.hirerId === userId ? gig.workerId : gig.hirerId);
const daysFrom = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();

export async function claimGig(deps: Deps, me: UserRow, gigId: string): Promise<PostedGig> {
  const actor = memberViewer(me);
  const gig = await gigToAct(deps, gigId, "claim", actor);
  if (!me.lightningAddress) {
    throw badRequest("Lightning Address Required: please set your Lightning address in Settings before claiming.", "lightning_address_required");
  }
  const interest = await deps.db.query.preClaimMessages.findFirst({
    where: and(eq(preClaimMessages.gigId, gig.id), eq(preClaimMessages.senderId, me.id)),
  });
  if (!interest || interest.status !== "approved" || !interest.claimEnabled) {
    throw forbidden("The gig owner must approve your interest message and enable claiming before you can claim this gig.", "claim_not_enabled");
  }
  const interestStillEnabled = where(
    "EXISTS (SELECT 1 FROM pre_claim_messages WHERE id = ? AND status = 'approved' AND claim_enabled = 1)",
    interest.id,
  );

  if (gig.gigType === "job_request") {
    const now = new Date().toISOString();
    // With a plan, milestone 1's own days (when it has them) set the first deadline.
    const first = gig.milestoneCount > 1 ? (await loadMilestones(deps, gig))[0] : undefined;
    await applyTransition(deps, gig, me.id, {
      set: { status: "claimed", workerId: me.id, claimedAt: now, deadline: daysFrom(now, first?.days ?? gig.timeframe) },
      also: interestStillEnabled,
      event: { type: "claimed" },
      notify: (g) => [{ userId: g.hirerId, type: "claimed", title: "Gig Claimed", message: `A worker claimed "${g.title}".` }],
    });
    return { gig: await getGig(deps, gig.id, actor), paymentRequest: null, totalCharge: totalCharge(gig.payment), invoicedMilestone: null };
  }

  // Hiring a service offering: the hirer funds the escrow (its first milestone) before work starts.
  const first = (await loadMilestones(deps, gig))[0];
  const invoice = await requestFundingInvoice(deps, { title: gig.title, payment: first?.amount ?? gig.payment, milestone: namedMilestone(gig, first) });
  await applyTransition(deps, gig, me.id, {
    set: { status: "pending_payment", hirerId: me.id, hiredAt: new Date().toISOString(), fundingInvoiceId: invoice.id },
    also: interestStillEnabled,
    event: { type: "hired", data: { amount: invoice.amount } },
    rows: (change, won) => recordInvoice(change, won, invoice, gig.id, me.id),
    notify: (g) => [{ userId: g.workerId, type: "hired", title: "Hire Requested", message: `Someone is hiring you for "${g.title}". Work starts once the escrow is funded.` }],
  });
  deps.defer(() => watchInvoice(deps, gig.id));
  return {
    gig: await getGig(deps, gig.id, actor),
    paymentRequest: invoice.bolt11,
    totalCharge: invoice.amount,
    invoicedMilestone: { number: 1, count: gig.milestoneCount, title: first?.title ?? gig.title, amount: first?.amount ?? gig.payment },
  };
}

/** Starting a milestone needs its escrow funded: a worker is never asked to work on sats not yet held. */
export const WAITING_FOR_FUNDING = "This milestone is waiting for funding: the hirer funds it before work starts.";

export async function startWork(deps: Deps, me: UserRow, gigId: string, milestone?: number): Promise<void> {
  const gig = await gigToAct(deps, gigId, "start_work", memberViewer(me));
  const { current } = await currentMilestone(deps, gig, milestone);
  if (current.escrow !== "funded") throw conflict(WAITING_FOR_FUNDING, "milestone_not_funded");
  await applyTransition(deps, gig, me.id, {
    set: { status: "in_progress" },
    event: { type: "work_started", data: { milestone: current.number } },
    notify: (g) => [{ userId: g.hirerId, type: "work_started", title: "Work Started", message: `Work on "${g.title}"${namedMilestone(g, current)} has started.` }],
  });
}

export interface SubmittedAttachment {
  id: string;
  url: string;
  filename: string;
  fileSize: number;
  mimeType: string;
}

export async function submitWork(
  deps: Deps,
  me: UserRow,
  gigId: string,
  workSubmission: string,
  attachments: SubmittedAttachment[],
  attachmentRows?: (change: AtomicChange, won: Cas) => void,
  milestone?: number,
): Promise<void> {
  const gig = await gigToAct(deps, gigId, "submit_work", memberViewer(me));
  const { current } = await currentMilestone(deps, gig, milestone);
  await applyTransition(deps, gig, me.id, {
    set: { status: "work_submitted", workSubmission, submittedAt: new Date().toISOString(), remindersSent: 0 },
    event: { type: "work_submitted", data: { workSubmission, attachments, milestone: current.number } },
    rows: (change, won) => attachmentRows?.(change, won),
    notify: (g) => [{ userId: g.hirerId, type: "work_submitted", title: "Work Submitted", message: `Work for "${g.title}"${namedMilestone(g, current)} was submitted. Please review it.` }],
  });
}

export async function requestRevision(deps: Deps, me: UserRow, gigId: string, note: string, milestone?: number): Promise<void> {
  const gig = await gigToAct(deps, gigId, "request_revision", memberViewer(me));
  const { current } = await currentMilestone(deps, gig, milestone);
  await applyTransition(deps, gig, me.id, {
    set: { status: "needs_revision", revisionNote: note },
    event: { type: "revision_requested", data: { note, milestone: current.number } },
    notify: (g) => [{ userId: g.workerId, type: "revision_requested", title: "Revision Requested", message: `The hirer asked for changes to "${g.title}"${namedMilestone(g, current)}: ${note}` }],
  });
}

export async function approveWork(deps: Deps, me: UserRow, gigId: string, milestone?: number): Promise<void> {
  const gig = await gigToAct(deps, gigId, "approve", memberViewer(me));
  const { milestones } = await currentMilestone(deps, gig, milestone);
  const release = releaseCurrentMilestone(gig, milestones, "approved");
  const m = release.milestone;
  await applyTransition(deps, gig, me.id, {
    set: release.set,
    event: { type: "approved", data: { milestone: m.number } },
    rows: release.rows,
    notify: (g) => [
      {
        userId: g.workerId,
        type: "approved",
        title: "Work Approved",
        message: `Your work on "${g.title}"${namedMilestone(g, m)} was approved. Payment is on its way to your Lightning address.${release.last ? "" : nextStepLine(milestones, m.number)}`,
      },
    ],
  });
}

/** After a milestone settles and the next one is current: what happens next, in the worker's words. */
export function nextStepLine(milestones: readonly MilestoneRow[], settled: number): string {
  const next = milestones.find((x) => x.number === settled + 1);
  if (!next) return "";
  return next.escrow === "funded" ? ` Milestone ${next.number} is funded: start it when you are ready.` : ` Milestone ${next.number} is waiting for funding.`;
}

export async function raiseDispute(deps: Deps, me: UserRow, gigId: string, reason: string, milestone?: number): Promise<void> {
  const gig = await gigToAct(deps, gigId, "dispute", memberViewer(me));
  const { current } = await currentMilestone(deps, gig, milestone);
  await applyTransition(deps, gig, me.id, {
    set: { status: "disputed", disputeReason: reason, disputedBy: me.id },
    event: { type: "disputed", data: { reason, milestone: current.number } },
    notify: (g) => [{ userId: counterpartOf(g, me.id), type: "disputed", title: "Dispute Raised", message: `A dispute was raised on "${g.title}"${namedMilestone(g, current)}. An admin will review it.` }],
  });
}

/**
 * Cancel (pending_payment, open, claimed; either party). Funded escrow goes back to the hirer in
 * full. A hirer withdrawing an unpaid hire of a service offering re-opens the offer instead.
 */
export async function cancelGig(deps: Deps, me: UserRow, gigId: string): Promise<{ refund?: { amount: number } }> {
  const gig = await gigToAct(deps, gigId, "cancel", memberViewer(me));

  if (gig.gigType === "service_offering" && gig.status === "pending_payment" && me.id === gig.hirerId) {
    await applyTransition(deps, gig, me.id, {
      set: UNPAID_HIRE_ENDED,
      event: { type: "hire_withdrawn" },
      rows: (change, won) => disableClaim(change, won, gig.id, me.id),
      notify: (g) => [
        {
          userId: g.workerId,
          type: "cancelled",
          title: "Hire Withdrawn",
          message: `The hirer withdrew from "${g.title}". Your offer is open again; they can hire again once you enable claiming for them.`,
        },
      ],
    });
    return {};
  }

  // Every funded milestone not yet started goes back in full: the current one (cancel is only allowed before it
  // starts) and any funded after it. Milestones before it were settled already.
  const { milestones, current } = await currentMilestone(deps, gig);
  const refund = fundedFrom(milestones, current.number).reduce((sum, m) => sum + refundAmount(m.amount), 0);
  const funded = refund > 0;
  await applyTransition(deps, gig, me.id, {
    set: { status: "cancelled", cancelledAt: new Date().toISOString(), fundingInvoiceId: null, ...(funded ? { escrowStatus: "refunded" } : {}) },
    event: { type: "cancelled", data: funded ? { refund } : {} },
    rows: funded ? (change, won) => refundFundedFrom(change, won, gig, milestones, current.number).payoutIds : undefined,
    notify: (g) => [
      {
        userId: counterpartOf(g, me.id),
        type: "cancelled",
        title: "Gig Cancelled",
        message: `"${g.title}" was cancelled.`,
      },
    ],
  });
  return funded ? { refund: { amount: refund } } : {};
}

/** Each edited field whose value changes, with its value before and after. */
function editChanges(gig: GigRow, edit: { title?: string; description?: string; budget?: number }): GigEditChange[] {
  const changes: GigEditChange[] = [];
  if (edit.title !== undefined && edit.title !== gig.title) changes.push({ field: "title", from: gig.title, to: edit.title });
  if (edit.description !== undefined && edit.description !== gig.description) changes.push({ field: "description", from: gig.description, to: edit.description });
  if (edit.budget !== undefined && edit.budget !== gig.payment) changes.push({ field: "payment", from: gig.payment, to: edit.budget });
  return changes;
}

export async function editGig(
  deps: Deps,
  me: UserRow,
  gigId: string,
  edit: { title?: string; description?: string; budget?: number },
): Promise<GigView> {
  const actor = memberViewer(me);
  const gig = await gigToAct(deps, gigId, "edit", actor);
  // The compare-and-set on status and version keeps this true until the write.
  if (!editFundedOrOwner(rolesOf(gig, me.id), gig.escrowStatus)) throw forbidden("Only the gig's owner can edit it until the escrow is funded");
  const budgetChanges = edit.budget !== undefined && edit.budget !== gig.payment;
  if (budgetChanges) authorise(gig, "change_budget", actor);
  if (budgetChanges && gig.milestoneCount > 1) {
    throw badRequest("This gig is paid in milestones: change the milestones' amounts instead of the budget.", "budget_is_milestones");
  }
  await applyTransition(deps, gig, me.id, {
    set: { title: edit.title, description: edit.description, payment: edit.budget },
    // The implicit milestone is the whole payment.
    rows: budgetChanges ? (change, won) => void change.update(gigMilestones, { amount: edit.budget! }, where("gig_id = ? AND number = 1", gig.id), won) : undefined,
    // The old and new value of each changed field stay on the record (the admin reads them in a dispute).
    event: { type: "edited", data: { fields: Object.keys(edit).filter((k) => edit[k as keyof typeof edit] !== undefined), changes: editChanges(gig, edit) } },
  });
  return getGig(deps, gig.id, actor);
}

