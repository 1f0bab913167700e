// The life of a gig after posting (DESIGN.md §4). Each action: load, judge (role, then state),
// then one AtomicChange whose compare-and-set on (id, status, version) decides the winner.
import { and, eq } from "drizzle-orm";
import { refundAmount, totalCharge } from "../../domain/fees";
import { editFundedOrOwner, judge, rolesOf, statusLabel, type GigAction } from "../../domain/gig";
import type { UserRow } from "../context";
import { AtomicChange, allOf, where, type Cas, type Guard, type SqlValue } from "../db/atomic";
import { preClaimMessages } from "../db/schema";
import { badRequest, conflict, forbidden } from "../errors";
import { addGigEvent } from "./gig-events";
import { getGig, loadGig, type Viewer } from "./gigs";
import { recordInvoice, refundEscrow, releaseEscrow, requestFundingInvoice, UNPAID_HIRE_ENDED, watchInvoice } from "./escrow";
import { disableClaim } from "./interest";
import { notify, type NotificationDraft } from "./notifications";
import { attemptPayout } from "./payouts";
import type { GigRow, GigView } from "./gig-views";
import type { Deps } from "./deps";
import type { GigEditChange } from "../../domain/admin-views";

export const STALE_GIG = "This gig was just changed by someone else. Please reload and try again.";

const ACTION_VERBS: Record<GigAction, string> = {
  claim: "claim",
  start_work: "start work on",
  submit_work: "submit work for",
  request_revision: "request a revision of",
  approve: "approve",
  dispute: "dispute",
  cancel: "cancel",
  edit: "edit",
  change_budget: "change the budget of",
  request_extension: "request an extension for",
  extend_deadline: "extend the deadline of",
  resolve_dispute: "resolve",
  send_interest: "send interest in",
  review_interest: "review interest in",
  review: "review",
  receipt: "get a receipt for",
};

/** Refuses with 403 when the actor may never take this action here, 409 when the gig is in the wrong state. */
export function authorise(gig: GigRow, action: GigAction, actor: Viewer): void {
  const verdict = judge(action, gig.status, gig.gigType, rolesOf(gig, actor.userId, actor.isAdmin));
  if (verdict.ok) return;
  if (verdict.reason === "forbidden") throw forbidden(`You are not allowed to ${ACTION_VERBS[action]} this gig`);
  throw conflict(`You cannot ${ACTION_VERBS[action]} a gig that is ${statusLabel(gig.status)}`, "invalid_state");
}

interface Transition {
  set: Record<string, SqlValue | boolean | undefined>;
  /** Extra condition the compare-and-set must meet (e.g. an approved interest message). */
  also?: Guard;
  event: { type: string; data?: Record<string, unknown> };
  notify?: (gig: GigRow) => NotificationDraft[];
  /** Money and other rows that belong to the change. Returns payouts to attempt once committed. */
  rows?: (change: AtomicChange, won: Cas) => string[] | void;
}

/** Applies one transition as a compare-and-set; answers 409 when another request changed the gig first. */
export async function applyTransition(deps: Deps, gig: GigRow, actorId: string | null, t: Transition): Promise<void> {
  const change = new AtomicChange(deps.d1);
  const guard = where("status = ? AND version = ?", gig.status, gig.version);
  const won = change.compareAndSet("gigs", gig.id, t.set, t.also ? allOf(guard, t.also) : guard, { bumpVersion: true });
  addGigEvent(change, won, { gigId: gig.id, type: t.event.type, actorId, data: t.event.data });
  const payoutIds = t.rows?.(change, won) ?? [];
  if (t.notify) notify(change, won, ...t.notify(gig).map((n) => ({ ...n, gigId: gig.id, actorId })));
  await change.commit();
  if (!change.won(won)) throw conflict(STALE_GIG, "stale_gig");
  for (const id of payoutIds) deps.defer(() => attemptPayout(deps, id));
}

const counterpartOf = (gig: GigRow, userId: string) => (gig.hirerId === userId ? gig.workerId : gig.hirerId);
const daysFrom = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();

export async function claimGig(deps: Deps, me: UserRow, gigId: string): Promise<{ gig: GigView; paymentRequest: string | null; totalCharge: number }> {
  const gig = await loadGig(deps, gigId);
  const actor = { userId: me.id, isAdmin: false };
  authorise(gig, "claim", actor);
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
    await applyTransition(deps, gig, me.id, {
      set: { status: "claimed", workerId: me.id, claimedAt: now, deadline: daysFrom(now, gig.timeframe) },
      also: interestStillEnabled,
      event: { type: "claimed" },
      notify: (g) => [{ userId: g.hirerId, type: "claimed", title: "Gig Claimed", message: `A worker claimed "${g.title}".` }],
    });
    return { gig: await getGig(deps, gig.id, actor), paymentRequest: null, totalCharge: totalCharge(gig.payment) };
  }

  // Hiring a service offering: the hirer funds the escrow before work starts.
  const invoice = await requestFundingInvoice(deps, gig);
  await applyTransition(deps, gig, me.id, {
    set: { status: "pending_payment", hirerId: me.id, hiredAt: new Date().toISOString(), fundingInvoiceId: invoice.id },
    also: interestStillEnabled,
    event: { type: "hired", data: { amount: invoice.amount } },
    rows: (change, won) => recordInvoice(change, won, invoice, gig.id, me.id),
    notify: (g) => [{ userId: g.workerId, type: "hired", title: "Hire Requested", message: `Someone is hiring you for "${g.title}". Work starts once the escrow is funded.` }],
  });
  deps.defer(() => watchInvoice(deps, gig.id));
  return { gig: await getGig(deps, gig.id, actor), paymentRequest: invoice.bolt11, totalCharge: invoice.amount };
}

export async function startWork(deps: Deps, me: UserRow, gigId: string): Promise<void> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "start_work", { userId: me.id, isAdmin: false });
  await applyTransition(deps, gig, me.id, {
    set: { status: "in_progress" },
    event: { type: "work_started" },
    notify: (g) => [{ userId: g.hirerId, type: "work_started", title: "Work Started", message: `Work on "${g.title}" has started.` }],
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
): Promise<void> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "submit_work", { userId: me.id, isAdmin: false });
  await applyTransition(deps, gig, me.id, {
    set: { status: "work_submitted", workSubmission, submittedAt: new Date().toISOString(), remindersSent: 0 },
    event: { type: "work_submitted", data: { workSubmission, attachments } },
    rows: (change, won) => attachmentRows?.(change, won),
    notify: (g) => [{ userId: g.hirerId, type: "work_submitted", title: "Work Submitted", message: `Work for "${g.title}" was submitted. Please review it.` }],
  });
}

export async function requestRevision(deps: Deps, me: UserRow, gigId: string, note: string): Promise<void> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "request_revision", { userId: me.id, isAdmin: false });
  await applyTransition(deps, gig, me.id, {
    set: { status: "needs_revision", revisionNote: note },
    event: { type: "revision_requested", data: { note } },
    notify: (g) => [{ userId: g.workerId, type: "revision_requested", title: "Revision Requested", message: `The hirer asked for changes to "${g.title}": ${note}` }],
  });
}

/** Completion: escrow released to the worker, both parties' records updated. Shared by approve, auto-release and the admin. */
export function completionRows(gig: GigRow) {
  return (change: AtomicChange, won: Cas): string[] => {
    const payoutId = releaseEscrow(change, won, gig);
    change.increment("users", gig.workerId!, { completedGigs: 1, successfulGigs: 1 }, won);
    change.increment("users", gig.hirerId!, { completedGigs: 1, successfulGigs: 1 }, won);
    return [payoutId];
  };
}

export async function approveWork(deps: Deps, me: UserRow, gigId: string): Promise<void> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "approve", { userId: me.id, isAdmin: false });
  await applyTransition(deps, gig, me.id, {
    set: { status: "completed", escrowStatus: "released", completedAt: new Date().toISOString() },
    event: { type: "approved" },
    rows: completionRows(gig),
    notify: (g) => [{ userId: g.workerId, type: "approved", title: "Work Approved", message: `Your work on "${g.title}" was approved. Payment is on its way to your Lightning address.` }],
  });
}

export async function raiseDispute(deps: Deps, me: UserRow, gigId: string, reason: string): Promise<void> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "dispute", { userId: me.id, isAdmin: false });
  await applyTransition(deps, gig, me.id, {
    set: { status: "disputed", disputeReason: reason, disputedBy: me.id },
    event: { type: "disputed", data: { reason } },
    notify: (g) => [{ userId: counterpartOf(g, me.id), type: "disputed", title: "Dispute Raised", message: `A dispute was raised on "${g.title}". An admin will review it.` }],
  });
}

/**
 * Cancel (pending_payment, open, claimed; either party). Funded escrow goes back to the hirer in
 * full. A hirer withdrawing an unpaid hire of a service offering re-opens the offer instead.
 */
export async function cancelGig(deps: Deps, me: UserRow, gigId: string): Promise<{ refund?: { amount: number } }> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "cancel", { userId: me.id, isAdmin: false });

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

  const funded = gig.escrowStatus === "funded";
  await applyTransition(deps, gig, me.id, {
    set: { status: "cancelled", cancelledAt: new Date().toISOString(), fundingInvoiceId: null, ...(funded ? { escrowStatus: "refunded" } : {}) },
    event: { type: "cancelled", data: funded ? { refund: refundAmount(gig.payment) } : {} },
    rows: funded ? (change, won) => [refundEscrow(change, won, gig)] : undefined,
    notify: (g) => [
      {
        userId: counterpartOf(g, me.id),
        type: "cancelled",
        title: "Gig Cancelled",
        message: `"${g.title}" was cancelled.`,
      },
    ],
  });
  return funded ? { refund: { amount: refundAmount(gig.payment) } } : {};
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
  const gig = await loadGig(deps, gigId);
  const actor = { userId: me.id, isAdmin: false };
  authorise(gig, "edit", actor);
  // The compare-and-set on status and version keeps this true until the write.
  if (!editFundedOrOwner(rolesOf(gig, me.id), gig.escrowStatus)) throw forbidden("Only the gig's owner can edit it until the escrow is funded");
  if (edit.budget !== undefined && edit.budget !== gig.payment) authorise(gig, "change_budget", actor);
  await applyTransition(deps, gig, me.id, {
    set: { title: edit.title, description: edit.description, payment: edit.budget },
    // The old and new value of each changed field stay on the record (the admin reads them in a dispute).
    event: { type: "edited", data: { fields: Object.keys(edit).filter((k) => edit[k as keyof typeof edit] !== undefined), changes: editChanges(gig, edit) } },
  });
  return getGig(deps, gig.id, actor);
}

