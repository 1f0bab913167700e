// Gig reports: a member reports a gig they do not own (SPEC.md §2 Report Gig, §9 reasons); the admin
// reads them and sets their status and notes (SPEC.md §4 Report). Deleting a gig resolves its
// reports (services/admin.ts).
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { ReportReason, ReportStatus } from "../../domain/admin";
import type { UserRow } from "../db/client";
import { gigReports, gigs, users } from "../db/schema";
import { forbidden, notFound } from "../errors";
import { DELETED_BY_ADMIN } from "./admin";
import { getGig } from "./gig-views";
import type { Deps } from "./deps";
import type { AdminReportView } from "../../domain/admin-views";
import { decodePageCursor, encodePageCursor } from "./page-cursor";

export type { AdminReportView };

export type GigReportRow = typeof gigReports.$inferSelect;

export interface NewReport {
  gigId: string;
  reason: ReportReason;
  details?: string | null;
}

export async function reportGig(deps: Pick<Deps, "db">, me: UserRow, input: NewReport): Promise<GigReportRow> {
  // getGig answers 404 for a gig this member may not see (someone else's unpaid job request).
  const gig = await getGig(deps, input.gigId, { userId: me.id, isAdmin: false });
  if (gig.posterId === me.id) throw forbidden("You cannot report your own gig", "own_gig");
  const [row] = await deps.db
    .insert(gigReports)
    .values({ id: crypto.randomUUID(), gigId: gig.id, reporterId: me.id, reason: input.reason, details: input.details ?? null, status: "pending" })
    .returning();
  return row!;
}

export interface ReportQuery {
  status?: ReportStatus;
  limit: number;
  cursor?: string;
}

/** Reports, newest first, with the gig's title and the reporter's names. */
export async function listReports(deps: Pick<Deps, "db">, query: ReportQuery): Promise<{ reports: AdminReportView[]; nextCursor: string | null }> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(gigReports.status, query.status));
  if (query.cursor) {
    const c = decodePageCursor(query.cursor);
    conditions.push(sql`(${gigReports.createdAt}, ${gigReports.id}) < (${c.createdAt}, ${c.id})`);
  }
  const rows = await deps.db
    .select({ r: gigReports, gigTitle: gigs.title, gigStatus: gigs.status, gigResolution: gigs.resolution, displayName: users.displayName, username: users.username })
    .from(gigReports)
    .leftJoin(gigs, eq(gigs.id, gigReports.gigId))
    .leftJoin(users, eq(users.id, gigReports.reporterId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(gigReports.createdAt), desc(gigReports.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    reports: page.map(({ r, gigTitle, gigStatus, gigResolution, displayName, username }) => ({
      id: r.id,
      gigId: r.gigId,
      gig: gigTitle !== null && gigStatus !== null ? { title: gigTitle, status: gigStatus, deleted: gigResolution === DELETED_BY_ADMIN } : null,
      reporterId: r.reporterId,
      reporter: { displayName, username },
      reason: r.reason,
      details: r.details,
      status: r.status,
      adminNotes: r.adminNotes,
      createdAt: r.createdAt,
    })),
    nextCursor: rows.length > query.limit && last ? encodePageCursor(last.r) : null,
  };
}

export async function updateReport(
  deps: Pick<Deps, "db">,
  id: string,
  update: { status?: ReportStatus; adminNotes?: string | null },
): Promise<GigReportRow> {
  const [row] = await deps.db
    .update(gigReports)
    .set({
      ...(update.status !== undefined ? { status: update.status } : {}),
      ...(update.adminNotes !== undefined ? { adminNotes: update.adminNotes || null } : {}),
    })
    .where(eq(gigReports.id, id))
    .returning();
  if (!row) throw notFound("Report not found", "report_not_found");
  return row;
}
