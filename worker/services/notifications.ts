// Notifications: written inside the same atomic change as the event that causes them.
import type { AtomicChange, Guard } from "../db/atomic";
import { and, count, desc, eq } from "drizzle-orm";
import { notifications, users } from "../db/schema";
import { notFound } from "../errors";
import type { Deps } from "./deps";

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


export async function listNotifications({ db }: Pick<Deps, "db">, userId: string, limit = 50) {
  const rows = await db
    .select({ n: notifications, actorName: users.displayName, actorUsername: users.username, actorPicture: users.profilePicture })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  return rows.map(({ n, actorName, actorUsername, actorPicture }) => ({
    id: n.id,
    isRead: n.isRead,
    gigId: n.gigId,
    type: n.type,
    title: n.title,
    message: n.message,
    createdAt: n.createdAt,
    actorName: actorName ?? actorUsername ?? null,
    actorPicture: actorPicture ?? null,
  }));
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

