// Notifications: written inside the same atomic change as the event that causes them.
// Every written notification goes through notificationsWritten: it is announced to the member's open tabs through
// their inbox (durable-objects/member-inbox.ts) and, when the member turned it on, written to the Nostr outbox as a
// NIP-17 private message (nostr-dms.ts, docs/decisions/026).
import type { AtomicChange, Guard } from "../db/atomic";
import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { bound, builtPerLength, listValues, placeholder, queryBuilder, rowReader } from "../db/built-once";
import type { NotificationView } from "../../domain/notifications";
import { liveSession } from "../auth/live-sessions";
import type { Db } from "../db/client";
import { nowIso } from "../db/client";
import { notifications, sessions, users } from "../db/schema";
import type { Env } from "../env";
import { notFound } from "../errors";
import type { Deps } from "./deps";
import { enqueueNotificationDms } from "./nostr-dms";

export interface NotificationDraft {
  userId: string | null | undefined;
  gigId?: string | null;
  type: string;
  title: string;
  message: string;
  actorId?: string | null;
}

export function notify(change: AtomicChange, when: Guard, ...drafts: NotificationDraft[]): void {
  for (const d of drafts) {
    if (!d.userId || d.userId === d.actorId) continue;
    change.insert(
      notifications,
      {
        id: crypto.randomUUID(),
        userId: d.userId,
        gigId: d.gigId ?? null,
        type: d.type,
        title: d.title,
        message: d.message,
        actorId: d.actorId ?? null,
        isRead: false,
        createdAt: change.at,
      },
      when,
    );
  }
}

// ---- Reading and marking (the bell) ---------------------------------------------------------


export async function listNotifications({ db }: Pick<Deps, "db">, userId: string, limit = 50): Promise<NotificationView[]> {
  return notificationViews(db, eq(notifications.userId, userId), limit);
}

/** A notification's columns with its actor's name and picture (its actor's row, left-joined). */
const VIEW_COLUMNS = { n: notifications, actorName: users.displayName, actorUsername: users.username, actorPicture: users.profilePicture };

/** Newest first, each with its actor's name and picture. */
async function notificationViews(db: Db, where: SQL | undefined, limit: number): Promise<NotificationView[]> {
  const rows = await db
    .select(VIEW_COLUMNS)
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  return rows.map(notificationView);
}

function notificationView({ n, actorName, actorUsername, actorPicture }: { n: typeof notifications.$inferSelect; actorName: string | null; actorUsername: string | null; actorPicture: string | null }): NotificationView {
  return {
    id: n.id,
    isRead: n.isRead,
    gigId: n.gigId,
    type: n.type,
    title: n.title,
    message: n.message,
    createdAt: n.createdAt,
    actorName: actorName ?? actorUsername ?? null,
    actorPicture: actorPicture ?? null,
  };
}

export async function unreadCount({ db }: Pick<Deps, "db">, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)));
  return row?.n ?? 0;
}

/** Marks one of the member's own notifications read; someone else's is "not found". */
export async function markRead({ db }: Pick<Deps, "db">, userId: string, id: string): Promise<void> {
  const updated = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (updated.length === 0) throw notFound("Notification not found", "notification_not_found");
}

export async function markAllRead({ db }: Pick<Deps, "db">, userId: string): Promise<number> {
  const updated = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
    .returning({ id: notifications.id });
  return updated.length;
}


// ---- After they are written: open tabs, and Nostr DMs ---------------------------------------------

/**
 * The one place every written notification goes through, after its write committed (Deps.committed for those of
 * an AtomicChange; the profile's and the review's own batches call it too): each member's open tabs hear of it,
 * and a member who turned on "Send my notifications as Nostr DMs" gets it in the Nostr outbox as a private
 * message (the cron sends it; no request waits on a relay). `requestOrigin` is the origin of the request that
 * wrote it, for the gig's link on a local run. Never fails.
 * A writer that already knows whether the member wants DMs says so (`nostrDm`: a chat message's notifications
 * say it as they are written), and those that do not are not read again for it.
 */
export async function notificationsWritten(
  deps: Pick<Deps, "db" | "env">,
  written: { id?: string; userId: string; nostrDm?: boolean }[],
  requestOrigin?: string,
): Promise<void> {
  await Promise.all([
    announceNotifications(deps.env, written),
    enqueueNotificationDms(
      deps,
      written.flatMap((n) => (n.id && n.nostrDm !== false ? [n.id] : [])),
      requestOrigin,
    ).catch((err) => console.error("could not write notifications to the Nostr outbox as DMs", err)),
  ]);
}

/** Most notification ids one announcement carries (a bound parameter each). */
const ANNOUNCE_MAX = 50;

/**
 * Tells each member's inbox which of their notifications were just written; it pushes them to the open tabs.
 * Never fails the change that wrote them: a tab that misses one still has the poll.
 */
export async function announceNotifications(env: Pick<Env, "MEMBER_INBOX">, written: { id?: string; userId: string }[]): Promise<void> {
  const byMember = new Map<string, string[]>();
  for (const n of written) if (n.id) byMember.set(n.userId, [...(byMember.get(n.userId) ?? []), n.id]);
  await Promise.all(
    [...byMember].map(async ([userId, ids]) => {
      try {
        await env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(userId)).announce(ids.slice(-ANNOUNCE_MAX));
      } catch (err) {
        console.error("could not announce notifications to a member's tabs", userId, err);
      }
    }),
  );
}

/** A member's tab asks for its inbox socket (the route checked the session): the inbox accepts it. */
export async function openInbox(deps: Pick<Deps, "env">, member: { userId: string; sessionId: string }, upgrade: Request): Promise<Response> {
  const inbox = deps.env.MEMBER_INBOX.get(deps.env.MEMBER_INBOX.idFromName(member.userId));
  const url = new URL("https://member-inbox.invalid/");
  url.searchParams.set("userId", member.userId);
  url.searchParams.set("sessionId", member.sessionId);
  return inbox.fetch(new Request(url, upgrade));
}

/**
 * Which of these sessions of the member are live in the database: for the inbox's tabs whose session it does not
 * hold itself (a token from before decision 032, read from the sessions list as requests with one are).
 */
export async function liveSessionsInDatabase({ db }: Pick<Deps, "db">, userId: string, sessionIds: string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const live = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.userId, userId), inArray(sessions.id, sessionIds.slice(0, 90)), liveSession(nowIso())));
  return new Set(live.map((s) => s.id ?? ""));
}

/** The member's unread notifications, counted beside the rows the inbox pushes (its own name for the table). */
const unread = alias(notifications, "unread");
const NOTIFICATION_ROW = rowReader<typeof notifications.$inferSelect>(notifications);

/**
 * What the inbox pushes when notifications were written, its SQL built once per number of ids (it runs for every
 * chat message: worker/db/built-once.ts): the new notifications (newest first) with their actor, and the member's
 * unread count as a column of each row.
 */
const INBOX_NEWS = builtPerLength("id", (ids) =>
  queryBuilder
    .select({
      ...NOTIFICATION_ROW.fields,
      actorName: sql`${users.displayName}`.as("actorName"),
      actorUsername: sql`${users.username}`.as("actorUsername"),
      actorPicture: sql`${users.profilePicture}`.as("actorPicture"),
      unreadCount: sql`(${queryBuilder.select({ n: count() }).from(unread).where(and(eq(unread.userId, placeholder("userId")), eq(unread.isRead, false)))})`.as("unreadCount"),
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(and(eq(notifications.userId, placeholder("userId")), inArray(notifications.id, ids)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(ANNOUNCE_MAX)
    .toSQL(),
);

/**
 * What the inbox pushes when notifications were written: the new notifications (oldest first) and the unread
 * count after them, in one statement (the count is a column of each row). No notification found, nothing to push:
 * the count is then not read (0).
 */
export async function inboxNews(
  { db }: Pick<Deps, "db">,
  userId: string,
  notificationIds: string[],
): Promise<{ notifications: NotificationView[]; unreadCount: number }> {
  if (notificationIds.length === 0) return { notifications: [], unreadCount: 0 };
  const ids = notificationIds.slice(0, ANNOUNCE_MAX);
  const { results } = await bound(db.$client, INBOX_NEWS(ids.length), listValues("id", ids, { userId })).all<Record<string, unknown>>();
  const views = results.map((raw) =>
    notificationView({
      n: NOTIFICATION_ROW.read(raw),
      actorName: raw.actorName as string | null,
      actorUsername: raw.actorUsername as string | null,
      actorPicture: raw.actorPicture as string | null,
    }),
  );
  return { notifications: views.reverse(), unreadCount: Number(results[0]?.unreadCount ?? 0) };
}
