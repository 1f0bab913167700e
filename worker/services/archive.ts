// Old gigs to R2 (decision 033). A gig that ended (completed, cancelled or refunded) more than ARCHIVE_AFTER_DAYS
// ago, whose payouts are all paid and whose invoices nobody waits for, moves its events, interest messages,
// notifications and chat into one JSON document in R2 (worker/services/archived-gig.ts reads it back). D1 keeps
// the gig's row and every money row (ledger, payouts, invoices, milestones) for good, marked `archived_at`.
//
// Safe under faults, and when two runs meet: the document is written first and read back, then one D1 batch
// marks the gig archived and deletes exactly the rows the document holds, only while the gig is still in the
// final state it was read in and D1 holds none of its rows the document lacks (compare-and-set). A run stopped
// between the two is done again by the next one; the chat's copy in the gig's room is forgotten after both. The
// document only grows: each write holds what the one before held, and is accepted by R2 only if nobody wrote it
// meanwhile, so rows once deleted from D1 are never written away.
import { and, asc, eq, lt, sql } from "drizzle-orm";
import { AtomicChange, where } from "../db/atomic";
import { nowIso } from "../db/client";
import { chatMessages, gigEvents, gigs, notifications, preClaimMessages } from "../db/schema";
import { archiveKey, oldestFirst, type ArchivedGig } from "./archived-gig";
import { forgetGigChat, gigChatHistory } from "./chat";
import { archiveAfterDays, type Deps } from "./deps";

/** Gigs archived per cron run: a few, so one run stays short and a slow R2 delays nothing else for long. */
export const ARCHIVE_GIGS_PER_RUN = 5;

const DAY_MS = 86_400_000;

/** When an ended gig ended; written as in the index gigs_archive_due_idx (migrations/0019), so SQLite uses it. */
const ENDED_AT = sql`coalesce(${gigs.completedAt}, ${gigs.cancelledAt})`;

/** A payout not yet paid (pending, in flight, in doubt or failed and waiting for the admin) keeps its gig in D1. */
const OWES_NOTHING = `NOT EXISTS (SELECT 1 FROM payouts p WHERE p.gig_id = gigs.id AND p.status <> 'succeeded')
  AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.gig_id = gigs.id AND (i.status = 'pending' OR i.late_check_at IS NOT NULL))`;

/**
 * The cron's step: archives up to `limit` of the gigs due, oldest end first. Answers how many it archived.
 * A gig it could not archive this time (it changed meanwhile) is simply due again next run.
 */
export async function archiveOldGigs(deps: Pick<Deps, "db" | "env" | "committed">, now = new Date(), limit = ARCHIVE_GIGS_PER_RUN): Promise<number> {
  const cutoff = new Date(now.getTime() - archiveAfterDays(deps.env) * DAY_MS).toISOString();
  const due = await dueGigs(deps, cutoff, limit);
  let archived = 0;
  for (const { id } of due) if (await archiveGig(deps, id)) archived++;
  return archived;
}

/** The ended gigs due (ended before `cutoff`, not archived, owing nothing), oldest end first, by gigs_archive_due_idx. */
export function dueGigs(deps: Pick<Deps, "db">, cutoff: string, limit: number) {
  return deps.db
    .select({ id: sql<string>`${gigs.id}` })
    // Named: without statistics SQLite would rather walk a browse index over every ended gig.
    .from(sql`${gigs} INDEXED BY gigs_archive_due_idx`)
    // Written as the index's own condition (not bound values), so that SQLite sees the index holds every answer.
    .where(and(sql.raw(`gigs.archived_at IS NULL AND gigs.status IN ('completed', 'cancelled')`), lt(ENDED_AT, cutoff), sql.raw(OWES_NOTHING)))
    .orderBy(asc(ENDED_AT))
    .limit(limit);
}

/** One gig: its document written and checked, then its rows retired from D1. False when it was not archived now. */
export async function archiveGig(deps: Pick<Deps, "db" | "env" | "committed">, gigId: string): Promise<boolean> {
  const written = await writeArchive(deps, gigId);
  return written ? retireRows(deps, written) : false;
}

/** What a run wrote: the gig as it was read (the compare-and-set's expectation) and the document R2 now holds. */
export interface WrittenArchive {
  gigId: string;
  status: string;
  version: number;
  doc: ArchivedGig;
}

/**
 * Step 1: the gig's document in R2, holding every row D1 has of it now (and whatever an earlier write held),
 * read back to check it. Null when the gig is not an ended gig waiting to be archived, or another run wrote the
 * document between this run's read and write (the next run tries again).
 */
export async function writeArchive(deps: Pick<Deps, "db" | "env">, gigId: string): Promise<WrittenArchive | null> {
  const gig = await deps.db.query.gigs.findFirst({ where: (g, { eq }) => eq(g.id, gigId), columns: { id: true, status: true, version: true, archivedAt: true } });
  if (!gig || gig.archivedAt || (gig.status !== "completed" && gig.status !== "cancelled")) return null;
  const key = archiveKey(gigId);
  const [rows, chat, earlier] = await Promise.all([gigRowsInD1(deps, gigId), gigChatHistory(deps.env, gigId), deps.env.FILES.get(key)]);
  const before = earlier ? ((await earlier.json()) as ArchivedGig) : null;
  const doc: ArchivedGig = {
    format: 1,
    gigId,
    writtenAt: nowIso(),
    events: oldestFirst(before?.events ?? [], rows.events),
    interestMessages: oldestFirst(before?.interestMessages ?? [], rows.interestMessages),
    notifications: oldestFirst(before?.notifications ?? [], rows.notifications),
    chat: oldestFirst(before?.chat ?? [], chat),
  };
  // Only over the version this run read (or where there was none): a run that wrote meanwhile may hold rows that
  // D1 no longer has, and they must not be written away.
  const put = await deps.env.FILES.put(key, JSON.stringify(doc), {
    httpMetadata: { contentType: "application/json" },
    onlyIf: earlier ? { etagMatches: earlier.etag } : new Headers({ "If-None-Match": "*" }),
  });
  if (!put) return null;
  const stored = await deps.env.FILES.get(key);
  const readBack = stored ? ((await stored.json()) as ArchivedGig) : null;
  if (!readBack || !holdsAll(readBack, doc)) throw new Error(`the archive document of gig ${gigId} did not read back as written`);
  return { gigId, status: gig.status, version: gig.version, doc: readBack };
}

/**
 * Step 2, one D1 batch: the gig marked archived only while it is still in the final state and version the
 * document was made from, owes nothing, and D1 holds none of its rows the document lacks; and, only then, exactly
 * the document's rows deleted. True when this run archived it.
 */
export async function retireRows(deps: Pick<Deps, "db" | "env" | "committed">, written: WrittenArchive): Promise<boolean> {
  const { gigId, doc } = written;
  const ids = {
    events: JSON.stringify(doc.events.map((r) => r.id)),
    interest: JSON.stringify(doc.interestMessages.map((r) => r.id)),
    notifications: JSON.stringify(doc.notifications.map((r) => r.id)),
    chat: JSON.stringify(doc.chat.map((r) => r.id)),
  };
  const inDocument = (table: string, idsJson: string) =>
    where(`NOT EXISTS (SELECT 1 FROM ${table} r WHERE r.gig_id = ? AND r.id NOT IN (SELECT value FROM json_each(?)))`, gigId, idsJson);
  const change = new AtomicChange(deps.db, deps.committed);
  const archived = change.compareAndSet(
    gigs,
    gigId,
    { archivedAt: change.at },
    where(
      `archived_at IS NULL AND status = ? AND version = ? AND ${OWES_NOTHING}
       AND ${inDocument("gig_events", ids.events).sql} AND ${inDocument("pre_claim_messages", ids.interest).sql}
       AND ${inDocument("notifications", ids.notifications).sql} AND ${inDocument("chat_messages", ids.chat).sql}
       AND NOT EXISTS (SELECT 1 FROM gig_chat_summaries s WHERE s.gig_id = ? AND s.last_message_id NOT IN (SELECT value FROM json_each(?)))`,
      written.status,
      written.version,
      ...[ids.events, ids.interest, ids.notifications, ids.chat].flatMap((json) => [gigId, json]),
      // The room's chat: a message is counted in the gig's D1 summary before its room keeps it, so a message sent
      // since the document was read shows here as a newest message the document lacks.
      gigId,
      ids.chat,
    ),
  );
  const theirs = (idsJson: string) => where("gig_id = ? AND id IN (SELECT value FROM json_each(?))", gigId, idsJson);
  change.delete(gigEvents, theirs(ids.events), archived);
  change.delete(preClaimMessages, theirs(ids.interest), archived);
  change.delete(notifications, theirs(ids.notifications), archived);
  change.delete(chatMessages, theirs(ids.chat), archived);
  await change.commit();
  if (!change.won(archived)) return false;
  // The room forgets exactly the messages the document holds; one sent in the meantime stays in the room (the
  // archived chat reads the document and whatever the room still holds, each message once).
  if (doc.chat.length > 0) await forgetGigChat(deps.env, gigId, doc.chat.map((m) => m.id));
  return true;
}

/** What D1 holds of the gig's events, interest messages and notifications, oldest first (the document's D1 part). */
export async function gigRowsInD1(deps: Pick<Deps, "db">, gigId: string) {
  const [events, interestMessages, gigNotifications] = await Promise.all([
    deps.db.select().from(gigEvents).where(eq(gigEvents.gigId, gigId)).orderBy(asc(gigEvents.createdAt), asc(gigEvents.id)),
    deps.db.select().from(preClaimMessages).where(eq(preClaimMessages.gigId, gigId)).orderBy(asc(preClaimMessages.createdAt), asc(preClaimMessages.id)),
    deps.db.select().from(notifications).where(eq(notifications.gigId, gigId)).orderBy(asc(notifications.createdAt), asc(notifications.id)),
  ]);
  return { events, interestMessages, notifications: gigNotifications };
}

/** Does the document read back hold every row that was written? */
function holdsAll(stored: ArchivedGig, written: ArchivedGig): boolean {
  const has = (a: { id: string }[] | undefined, b: { id: string }[]) => {
    const ids = new Set((a ?? []).map((r) => r.id));
    return b.every((r) => ids.has(r.id));
  };
  return (
    stored.gigId === written.gigId &&
    has(stored.events, written.events) &&
    has(stored.interestMessages, written.interestMessages) &&
    has(stored.notifications, written.notifications) &&
    has(stored.chat, written.chat)
  );
}
