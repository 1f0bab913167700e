// The administrator's view of the marketplace: stats from the ledger and the gigs table, every gig,
// and deleting gigs without losing a sat (docs/decisions/006-admin-deletes-refund.md).
import { and, desc, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { refundAmount } from "../../domain/fees";
import type { GigStatus, GigType } from "../../domain/gig";
import { where, type SetColumns } from "../db/atomic";
import { gigReports, gigs, ledgerEntries, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import { fundedFrom, loadMilestones, refundFundedFrom } from "./escrow";
import { applyTransition } from "./gig-transitions";
import { nostrOutboxHealth } from "./nostr-outbox";
import { gigView, posterColumns, REMOVED_BY_ADMIN as DELETED_BY_ADMIN, type GigView, type PosterRow } from "./gig-views";
import type { Deps } from "./deps";
import type { AdminStats } from "../../domain/admin-views";
import { decodePageCursor, encodePageCursor } from "./page-cursor";

export type { AdminStats };

/** `gigs.resolution` of a gig the admin deleted: hidden from the admin's lists, and from everyone but its parties. */
export { DELETED_BY_ADMIN };

/** Gigs with a worker at it (DESIGN.md §4): the stats' activeGigs. Open listings and disputes are counted apart. */
export const ACTIVE_STATUSES = ["claimed", "in_progress", "needs_revision", "work_submitted"] as const;

/** Computed from the ledger and the gigs table each time, never from counters that could drift. */
export async function adminStats(deps: Pick<Deps, "db" | "env">): Promise<AdminStats> {
  const { db } = deps;
  const [money, counts, people, nostrOutbox] = await Promise.all([
    // `account >= 'escrow:' AND account < 'escrow;'` is the prefix range that the account index serves.
    db.get<{ escrow: number; fees: number }>(
      sql`SELECT
         COALESCE(SUM(CASE WHEN account >= 'escrow:' AND account < 'escrow;' THEN amount END), 0) AS escrow,
         COALESCE(SUM(CASE WHEN account = 'fees' THEN amount END), 0) AS fees
       FROM ${ledgerEntries} WHERE (account >= 'escrow:' AND account < 'escrow;') OR account = 'fees'`,
    ),
    db.get<{ active: number; open: number; completed: number; disputed: number }>(
      sql`SELECT
         COALESCE(SUM(status IN ${ACTIVE_STATUSES}), 0) AS active,
         COALESCE(SUM(status = 'open'), 0) AS open,
         COALESCE(SUM(status = 'completed'), 0) AS completed,
         COALESCE(SUM(status = 'disputed'), 0) AS disputed
       FROM ${gigs}`,
    ),
    db.get<{ users: number }>(sql`SELECT COUNT(*) AS users FROM ${users} WHERE deleted_at IS NULL`),
    nostrOutboxHealth(deps),
  ]);
  const m: Partial<typeof money> = money ?? {};
  const g: Partial<typeof counts> = counts ?? {};
  const u: Partial<typeof people> = people ?? {};
  return {
    totalEscrow: m.escrow ?? 0,
    totalRevenue: m.fees ?? 0,
    activeGigs: g.active ?? 0,
    openGigs: g.open ?? 0,
    completedGigs: g.completed ?? 0,
    disputedGigs: g.disputed ?? 0,
    totalUsers: u.users ?? 0,
    nostrOutbox,
  };
}

// ---- Every gig --------------------------------------------------------------------------------

export interface AdminGigQuery {
  status?: GigStatus;
  gigType?: GigType;
  limit: number;
  cursor?: string;
}

export type AdminGigView = GigView & { disputedBy: string | null; fundedAt: string | null; cancelledAt: string | null };

const notDeleted = or(isNull(gigs.resolution), ne(gigs.resolution, DELETED_BY_ADMIN))!;

/** Every gig but the deleted ones, pending_payment included, newest first, by keyset. */
export async function listAdminGigs(deps: Pick<Deps, "db">, query: AdminGigQuery): Promise<{ gigs: AdminGigView[]; nextCursor: string | null }> {
  const conditions: SQL[] = [notDeleted];
  if (query.status) conditions.push(eq(gigs.status, query.status));
  if (query.gigType) conditions.push(eq(gigs.gigType, query.gigType));
  if (query.cursor) {
    const c = decodePageCursor(query.cursor);
    conditions.push(sql`(${gigs.createdAt}, ${gigs.id}) < (${c.createdAt}, ${c.id})`);
  }
  const rows = await deps.db
    .select({ gig: gigs, poster: posterColumns })
    .from(gigs)
    .innerJoin(users, eq(users.id, gigs.posterId))
    .where(and(...conditions))
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    gigs: page.map(({ gig, poster }) => ({
      ...gigView(gig, poster as PosterRow, { userId: null, isAdmin: true }),
      disputedBy: gig.disputedBy,
      fundedAt: gig.fundedAt,
      cancelledAt: gig.cancelledAt,
    })),
    nextCursor: rows.length > query.limit ? encodePageCursor(page[page.length - 1]!.gig) : null,
  };
}

// ---- Deleting ---------------------------------------------------------------------------------

export interface DeletedGig {
  id: string;
  /** Sats on their way back to the hirer, when the escrow was funded. */
  refund?: { amount: number };
}

/**
 * Deletes a gig as the admin: one compare-and-set that cancels it (a completed gig stays completed),
 * refunds funded escrow to the hirer in full, marks it deleted, resolves its reports and tells the
 * parties. The refund is paid out right after the commit. An unpaid funding invoice that is paid
 * later is refunded by markInvoicePaid, because the gig no longer waits for it.
 */
export async function deleteGigAsAdmin(deps: Deps, gigId: string): Promise<DeletedGig> {
  const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) });
  if (!gig || gig.resolution === DELETED_BY_ADMIN) throw notFound("Gig not found", "gig_not_found");

  // Every funded milestone not yet settled goes back to the hirer in full (a completed gig has none).
  const milestones = await loadMilestones(deps, gig);
  const refund = gig.status === "completed" ? 0 : fundedFrom(milestones, 1).reduce((sum, m) => sum + refundAmount(m.amount), 0);
  const funded = refund > 0;
  const now = new Date().toISOString();
  const set: SetColumns<typeof gigs> =
    gig.status === "completed"
      ? { resolution: DELETED_BY_ADMIN }
      : {
          status: "cancelled",
          cancelledAt: gig.cancelledAt ?? now,
          fundingInvoiceId: null,
          resolution: DELETED_BY_ADMIN,
          ...(funded ? { escrowStatus: "refunded" } : {}),
        };

  await applyTransition(deps, gig, null, {
    set,
    event: { type: "deleted_by_admin", data: { previousStatus: gig.status, ...(funded ? { refund } : {}) } },
    rows: (change, won) => {
      change.update(gigReports, { status: "resolved" }, where("gig_id = ? AND status <> 'resolved'", gig.id), won);
      return funded ? refundFundedFrom(change, won, gig, milestones, 1).payoutIds : [];
    },
    notify: (g) =>
      [...new Set([g.posterId, g.hirerId, g.workerId])].map((userId) => ({
        userId,
        type: "gig_deleted",
        title: "Gig Removed",
        message:
          funded && userId === g.hirerId
            ? `"${g.title}" was removed by the platform admin. Your ${refund.toLocaleString("en-US")} sats are being refunded to your Lightning address.`
            : `"${g.title}" was removed by the platform admin.`,
      })),
  });
  return funded ? { id: gig.id, refund: { amount: refund } } : { id: gig.id };
}

/** Deletes several gigs, each on its own (one that fails does not stop the others). */
export async function deleteGigsAsAdmin(deps: Deps, ids: readonly string[]): Promise<{ deleted: DeletedGig[]; failed: { id: string; message: string }[] }> {
  const deleted: DeletedGig[] = [];
  const failed: { id: string; message: string }[] = [];
  for (const id of new Set(ids)) {
    try {
      deleted.push(await deleteGigAsAdmin(deps, id));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed.push({ id, message: err.message });
    }
  }
  return { deleted, failed };
}
