// How a gig is read and shown: loading it, who may know it exists, and the fields of SPEC.md §3 Gig with
// what only the parties may see.
import { platformFee, totalCharge } from "../../domain/fees";
import { isParty, REMOVED_BY_ADMIN } from "../../domain/gig";
import type { GigDetail, GigView } from "../../domain/gig-view";
import { successRate } from "../../domain/reputation";
import { and, asc, eq, sql } from "drizzle-orm";
import { milestoneMoney, milestoneStep, type MilestoneProposalView, type MilestoneView, type MilestonePlanItem } from "../../domain/milestones";
import { bound, queryBuilder } from "../db/built-once";
import type { UserRow } from "../db/client";
import { gigMilestones, gigs, invoices, milestoneProposals, payouts, users } from "../db/schema";
import { totalChargeSql } from "./ledger";
import { notFound } from "../errors";
import type { Deps } from "./deps";

export type { GigDetail, GigView };
export type GigRow = typeof gigs.$inferSelect;
/** The gig columns a view reads (a list page selects only these). */
export const GIG_VIEW_FIELDS = [
  "id", "gigType", "title", "description", "category", "status", "payment", "timeframe", "deadline", "createdAt", "claimedAt",
  "submittedAt", "completedAt", "posterId", "hirerId", "workerId", "escrowStatus", "workSubmission", "revisionNote",
  "disputeReason", "resolution", "currentMilestone", "milestoneCount",
] as const satisfies readonly (keyof GigRow)[];
export type GigViewRow = Pick<GigRow, (typeof GIG_VIEW_FIELDS)[number]>;
export type PosterRow = Pick<UserRow, "id" | "username" | "displayName" | "profilePicture" | "completedGigs" | "successfulGigs">;

/** The columns of a gig view and its poster's, each named by its key so rows need no mapping (a list page, a gig page). */
export const GIG_VIEW_COLUMNS = {
  ...Object.fromEntries(GIG_VIEW_FIELDS.map((key) => [key, sql`${gigs[key]}`.as(key)])),
  posterUsername: sql`${users.username}`.as("posterUsername"),
  posterDisplayName: sql`${users.displayName}`.as("posterDisplayName"),
  posterProfilePicture: sql`${users.profilePicture}`.as("posterProfilePicture"),
  posterCompletedGigs: sql`${users.completedGigs}`.as("posterCompletedGigs"),
  posterSuccessfulGigs: sql`${users.successfulGigs}`.as("posterSuccessfulGigs"),
};
export type GigViewJoinedRow = GigViewRow & {
  posterUsername: string;
  posterDisplayName: string | null;
  posterProfilePicture: string | null;
  posterCompletedGigs: number;
  posterSuccessfulGigs: number;
};

/** The poster's part of a joined row. */
export function posterOf(row: GigViewJoinedRow): PosterRow {
  return {
    id: row.posterId,
    username: row.posterUsername,
    displayName: row.posterDisplayName,
    profilePicture: row.posterProfilePicture,
    completedGigs: row.posterCompletedGigs,
    successfulGigs: row.posterSuccessfulGigs,
  };
}


/** Sats held in a gig's escrow (every funded milestone's total charge), as SQL over its milestones. */
export const ESCROW_HELD_SQL = sql`(SELECT COALESCE(SUM(${totalChargeSql("m.amount")}), 0) FROM ${gigMilestones} m WHERE m.gig_id = ${gigs.id} AND m.escrow = 'funded')`;

export function gigView(gig: GigViewRow & { escrowHeld?: number }, poster: PosterRow, viewer: { userId: string | null; isAdmin: boolean }): GigView {
  const privileged = viewer.isAdmin || isParty(gig, viewer.userId);
  return {
    id: gig.id,
    gigType: gig.gigType,
    title: gig.title,
    description: gig.description,
    category: gig.category,
    status: gig.status,
    payment: gig.payment,
    budget: gig.payment,
    platformFee: platformFee(gig.payment),
    totalCharge: totalCharge(gig.payment),
    timeframe: gig.timeframe,
    deadline: gig.deadline,
    createdAt: gig.createdAt,
    claimedAt: gig.claimedAt,
    submittedAt: gig.submittedAt,
    completedAt: gig.completedAt,
    posterId: gig.posterId,
    hirerId: gig.hirerId,
    workerId: gig.workerId,
    escrowStatus: gig.escrowStatus,
    workSubmission: privileged ? gig.workSubmission : null,
    revisionNote: privileged ? gig.revisionNote : null,
    disputeReason: privileged ? gig.disputeReason : null,
    resolution: gig.resolution,
    currentMilestone: gig.currentMilestone,
    milestoneCount: gig.milestoneCount,
    ...(gig.escrowHeld !== undefined ? { escrowHeld: gig.escrowHeld } : {}),
    poster: {
      id: poster.id,
      username: poster.username,
      displayName: poster.displayName,
      profilePicture: poster.profilePicture,
      completedGigs: poster.completedGigs,
      successRate: successRate(poster.completedGigs, poster.successfulGigs),
    },
  };
}

export interface Viewer {
  userId: string | null;
  isAdmin: boolean;
}

/** A gig's poster as a gig view shows them, for a select joined with users. */
export const posterColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  profilePicture: users.profilePicture,
  completedGigs: users.completedGigs,
  successfulGigs: users.successfulGigs,
};

/** Marks a gig the admin removed (moderation): hidden from everyone but its parties and the admin (defined in domain/gig.ts). */
export { REMOVED_BY_ADMIN };

/** Unfunded job requests are the poster's business until paid; removed gigs their parties'. */
export function visibleTo(gig: Pick<GigRow, "status" | "gigType" | "posterId" | "hirerId" | "workerId" | "resolution">, viewer: Viewer): boolean {
  if (viewer.isAdmin) return true;
  if (gig.resolution === REMOVED_BY_ADMIN) return isParty(gig, viewer.userId);
  if (gig.status !== "pending_payment" || gig.gigType !== "job_request") return true;
  return viewer.userId === gig.posterId;
}

/** The platform itself (the admin's screens, the chat socket's upgrade): may know of every gig. */
export const PLATFORM: Viewer = { userId: null, isAdmin: true };

/** A signed-in member, as the viewer of a gig they ask about or act on. */
export const memberViewer = (me: { id: string }): Viewer => ({ userId: me.id, isAdmin: false });

/**
 * The gig, when this viewer may know it exists (visibleTo); otherwise 404 gig_not_found, as for a gig that never
 * was. Every load of a gig on someone's behalf comes through here, so a gig hidden from a member (an unpaid job
 * request, a removed gig) is "not found" on every route of it, never 403 or a 409 naming its status.
 */
export async function loadGig(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<GigRow> {
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) });
  if (!gig || !visibleTo(gig, viewer)) throw notFound("Gig not found", "gig_not_found");
  return gig;
}

/**
 * A gig page's one query, its SQL built once: the builder's work per request was a quarter of a gig page's CPU
 * (README, "Where the CPU goes").
 */
const GIG_PAGE_QUERY = queryBuilder
  .select({ ...GIG_VIEW_COLUMNS, fundingInvoiceId: sql`${gigs.fundingInvoiceId}`.as("fundingInvoiceId") })
  .from(gigs)
  .innerJoin(users, eq(users.id, gigs.posterId))
  .where(eq(gigs.id, sql.placeholder("gigId")))
  .limit(1)
  .toSQL();

export async function getGig(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<GigDetail> {
  const row = await bound(deps.db.$client, GIG_PAGE_QUERY, { gigId }).first<GigViewJoinedRow & Pick<GigRow, "fundingInvoiceId">>();
  if (!row || !visibleTo(row, viewer)) throw notFound("Gig not found", "gig_not_found");
  const view = gigView(row, posterOf(row), viewer);
  const { milestones, milestoneProposal } = await milestonesOf(deps, view, row.fundingInvoiceId, viewer);
  const escrowHeld = milestones.filter((m) => m.escrow === "funded").reduce((sum, m) => sum + m.totalCharge, 0);
  // The gig's own invoice is milestone 1's (fundingInvoiceOf), which milestonesOf offers only while the gig waits for it.
  const paymentRequest = milestones.find((m) => m.number === 1)?.paymentRequest ?? null;
  return { ...view, escrowHeld, paymentRequest, milestones, milestoneProposal };
}

/**
 * The one invoice that can fund a milestone: the one the gig names, for milestone 1 (the gig's funding invoice, set
 * by the hire or the posting), or the one the milestone's own row names, for a later one. Any other pending
 * invoice of the gig (a withdrawn hire's, a milestone's replaced one) funds nothing: paid, it is refunded to its
 * payer as a late payment (escrow.ts, markInvoicePaid), so it is never offered to anyone.
 */
function fundingInvoiceOf(milestone: { number: number; fundingInvoiceId: string | null }, gigFundingInvoiceId: string | null): string | null {
  return milestone.number === 1 ? gigFundingInvoiceId : milestone.fundingInvoiceId;
}

/**
 * A gig's milestones as its details show them: each one's money and step, the current one marked, a later
 * milestone's open invoice to the hirer, and a pending change of the plan to the parties.
 */
async function milestonesOf(
  deps: Pick<Deps, "db">,
  gig: GigView,
  gigFundingInvoiceId: string | null,
  viewer: Viewer,
): Promise<{ milestones: MilestoneView[]; milestoneProposal: MilestoneProposalView | null }> {
  const party = isParty(gig, viewer.userId);
  const [rows, paid, waiting, proposal] = await Promise.all([
    deps.db.select().from(gigMilestones).where(eq(gigMilestones.gigId, gig.id)).orderBy(asc(gigMilestones.number)),
    deps.db
      .select({ milestone: payouts.milestone })
      .from(payouts)
      .where(and(eq(payouts.gigId, gig.id), eq(payouts.purpose, "worker_payout"), eq(payouts.status, "succeeded"))),
    deps.db
      .select({ id: invoices.id, bolt11: invoices.bolt11 })
      .from(invoices)
      .where(and(eq(invoices.gigId, gig.id), eq(invoices.status, "pending"))),
    party ? deps.db.query.milestoneProposals.findFirst({ where: and(eq(milestoneProposals.gigId, gig.id), eq(milestoneProposals.status, "pending")) }) : undefined,
  ]);
  const paidOut = new Set(paid.map((p) => p.milestone));
  const list = rows.length
    ? rows
    : [{ number: 1, title: null, amount: gig.payment, days: null, escrow: gig.escrowStatus === "pending" ? ("unfunded" as const) : gig.escrowStatus, fundingInvoiceId: null, fundedAt: null, settledAt: null, resolution: null }];
  const milestones = list.map((m): MilestoneView => {
    // The first milestone is funded by the gig's own invoice, only while the gig waits for it; a later one by the
    // invoice it names, while the gig has not ended (paid after that, an invoice is refunded as a late payment).
    const waitsForInvoice = m.number === 1 ? gig.status === "pending_payment" : gig.status !== "completed" && gig.status !== "cancelled";
    const fundingInvoiceId = waitsForInvoice ? fundingInvoiceOf(m, gigFundingInvoiceId) : null;
    const invoice = fundingInvoiceId ? waiting.find((i) => i.id === fundingInvoiceId) : undefined;
    return {
      number: m.number,
      title: m.title ?? gig.title,
      amount: m.amount,
      days: m.days,
      escrow: m.escrow,
      step: milestoneStep({ number: m.number, escrow: m.escrow, resolution: m.resolution, awaitingPayment: !!invoice, paidOut: paidOut.has(m.number) }, gig),
      current: m.number === gig.currentMilestone,
      ...milestoneMoney(m.amount),
      fundedAt: m.fundedAt,
      settledAt: m.settledAt,
      resolution: m.resolution,
      paymentRequest: invoice && viewer.userId === gig.hirerId ? invoice.bolt11 : null,
    };
  });
  return {
    milestones,
    milestoneProposal: proposal
      ? {
          id: proposal.id,
          proposerId: proposal.proposerId,
          fromNumber: proposal.fromNumber,
          milestones: JSON.parse(proposal.plan) as MilestonePlanItem[],
          status: proposal.status,
          createdAt: proposal.createdAt,
        }
      : null,
  };
}
