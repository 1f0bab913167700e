// How a gig is read and shown: loading it, who may know it exists, and the fields of SPEC.md §3 Gig with
// what only the parties may see.
import { platformFee, totalCharge } from "../../domain/fees";
import { isParty, REMOVED_BY_ADMIN } from "../../domain/gig";
import type { GigDetail, GigView } from "../../domain/gig-view";
import { successRate } from "../../domain/reputation";
import { eq, fillPlaceholders, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { allMeasured, type UserRow } from "../db/client";
import { gigs, invoices, users } from "../db/schema";
import { notFound } from "../errors";
import type { Deps } from "./deps";

export type { GigDetail, GigView };
export type GigRow = typeof gigs.$inferSelect;
/** The gig columns a view reads (a list page selects only these). */
export const GIG_VIEW_FIELDS = [
  "id", "gigType", "title", "description", "category", "status", "payment", "timeframe", "deadline", "createdAt", "claimedAt",
  "submittedAt", "completedAt", "posterId", "hirerId", "workerId", "escrowStatus", "workSubmission", "revisionNote",
  "disputeReason", "resolution",
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


export function gigView(gig: GigViewRow, poster: PosterRow, viewer: { userId: string | null; isAdmin: boolean }): GigView {
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

export async function loadGig(deps: Pick<Deps, "db">, gigId: string): Promise<GigRow> {
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) });
  if (!gig) throw notFound("Gig not found", "gig_not_found");
  return gig;
}

/** The gig, when this viewer may know it exists (visibleTo); otherwise 404, as for a gig that never was. */
export async function loadVisibleGig(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<GigRow> {
  const gig = await loadGig(deps, gigId);
  if (!visibleTo(gig, viewer)) throw notFound("Gig not found", "gig_not_found");
  return gig;
}

/**
 * A gig page's one query, its SQL built once: the builder's work per request was a quarter of a gig page's CPU
 * (README, "Where the CPU goes").
 */
const GIG_PAGE_QUERY = new QueryBuilder()
  .select({ ...GIG_VIEW_COLUMNS, fundingInvoiceId: sql`${gigs.fundingInvoiceId}`.as("fundingInvoiceId") })
  .from(gigs)
  .innerJoin(users, eq(users.id, gigs.posterId))
  .where(eq(gigs.id, sql.placeholder("gigId")))
  .limit(1)
  .toSQL();

export async function getGig(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<GigDetail> {
  const { rows } = await allMeasured<GigViewJoinedRow & Pick<GigRow, "fundingInvoiceId">>(deps.db, {
    sql: GIG_PAGE_QUERY.sql,
    params: fillPlaceholders(GIG_PAGE_QUERY.params, { gigId }),
  });
  const row = rows[0];
  if (!row || !visibleTo(row, viewer)) throw notFound("Gig not found", "gig_not_found");
  let paymentRequest: string | null = null;
  if (row.status === "pending_payment" && row.fundingInvoiceId && viewer.userId === row.hirerId) {
    const invoice = await deps.db.query.invoices.findFirst({ where: eq(invoices.id, row.fundingInvoiceId) });
    paymentRequest = invoice?.status === "pending" ? invoice.bolt11 : null;
  }
  return { ...gigView(row, posterOf(row), viewer), paymentRequest };
}
