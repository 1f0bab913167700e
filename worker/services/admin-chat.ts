// The admin's window on gig chats (SPEC.md §3 Admin unread-chat notification, Admin chat message):
// which chats have members' messages the admin has not read, with the reason to look (the gig is
// disputed, or a message mentions @admin), and each gig's messages, which marks it read.
// Messages are stored by the chat service (chat_messages); the admin's own posts go through the room.
import { desc, eq, sql } from "drizzle-orm";
import type { ChatMessageView } from "../../domain/chat-protocol";
import type { Db } from "../db/client";
import { adminChatReads, chatMessages, gigs, users } from "../db/schema";
import { postAdminChatMessage } from "./chat";
import { loadGig } from "./gig-views";
import type { Deps } from "./deps";
import type { AdminChatMessage, UnreadChat } from "../../domain/admin-views";

export type { AdminChatMessage, UnreadChat };

/**
 * Chats with members' messages newer than the admin's last read, where the gig is disputed or one of
 * those messages mentions @admin (SQLite's LIKE ignores ASCII case). Newest first.
 * The candidates are the disputed gigs (by the status index) and the gigs with an unread mention (by the
 * partial index of members' messages that mention @admin, migration 0005); only their messages are then
 * read, not every chat's. The mention condition is written as in that index, so that SQLite uses it.
 */
export async function unreadChats({ db }: Pick<Deps, "db">, limit = 50): Promise<UnreadChat[]> {
  const rows = await db.all<{ gigId: string; gigTitle: string; status: string; messageCount: number; lastMessageTime: string; mentions: number }>(
    sql`WITH candidates AS (
         SELECT g.id AS gig_id FROM ${gigs} g WHERE g.status = 'disputed'
         UNION
         SELECT m.gig_id FROM ${chatMessages} m
         LEFT JOIN ${adminChatReads} r ON r.gig_id = m.gig_id
         WHERE m.sender_type = 'user' AND m.message LIKE '%@admin%' AND (r.last_read_at IS NULL OR m.created_at > r.last_read_at)
       )
       SELECT m.gig_id AS gigId, g.title AS gigTitle, g.status AS status,
              COUNT(*) AS messageCount, MAX(m.created_at) AS lastMessageTime,
              SUM(m.message LIKE '%@admin%') AS mentions
       FROM candidates c
       CROSS JOIN ${gigs} g
       CROSS JOIN ${chatMessages} m
       LEFT JOIN ${adminChatReads} r ON r.gig_id = m.gig_id
       WHERE g.id = c.gig_id AND m.gig_id = c.gig_id AND m.sender_type = 'user' AND (r.last_read_at IS NULL OR m.created_at > r.last_read_at)
       GROUP BY m.gig_id
       HAVING g.status = 'disputed' OR mentions > 0
       ORDER BY lastMessageTime DESC
       LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    gigId: r.gigId,
    gigTitle: r.gigTitle,
    reason: r.status === "disputed" ? "disputed" : "mention",
    messageCount: r.messageCount,
    lastMessageTime: r.lastMessageTime,
  }));
}

export const ADMIN_CHAT_PAGE = 200;

/** A gig's latest messages, oldest first; marks the chat read up to the newest one shown. */
export async function readChatAsAdmin(deps: Pick<Deps, "db">, gigId: string): Promise<AdminChatMessage[]> {
  await loadGig(deps, gigId);
  const rows = await deps.db
    .select({ m: chatMessages, username: users.username, displayName: users.displayName })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .where(eq(chatMessages.gigId, gigId))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(ADMIN_CHAT_PAGE);
  const messages = rows.reverse().map(({ m, username, displayName }) => ({
    id: m.id,
    gigId: m.gigId,
    message: m.message,
    senderType: m.senderType,
    senderId: m.senderType === "admin" ? "ADMIN" : m.senderId,
    sender: m.senderType === "admin" ? { displayName: "Platform Admin", username: "admin" } : { displayName, username },
    createdAt: m.createdAt,
    attachmentId: m.attachmentId,
  }));
  const newest = messages[messages.length - 1];
  // Read up to what was shown, not up to "now": a message stored meanwhile stays unread.
  if (newest) await markChatRead(deps.db, gigId, newest.createdAt);
  return messages;
}

export async function markChatRead(db: Db, gigId: string, upTo: string): Promise<void> {
  await db
    .insert(adminChatReads)
    .values({ gigId, lastReadAt: upTo })
    .onConflictDoUpdate({ target: adminChatReads.gigId, set: { lastReadAt: sql`MAX(${adminChatReads.lastReadAt}, excluded.last_read_at)` } });
}

/**
 * Posts in a gig's chat as the platform admin: stored by the chat service, which asks the gig's room to
 * broadcast it to the parties. Writing in a chat means having read it.
 */
export async function postAsAdmin(deps: Pick<Deps, "db" | "env" | "committed">, gigId: string, text: string): Promise<ChatMessageView> {
  const message = await postAdminChatMessage(deps, gigId, text);
  await markChatRead(deps.db, gigId, message.createdAt);
  return message;
}
