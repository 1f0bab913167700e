// The admin's window on gig chats (SPEC.md §3 Admin unread-chat notification, Admin chat message):
// which chats have members' messages the admin has not read, with the reason to look (the gig is
// disputed, or a message mentions @admin), and each gig's messages, which marks it read.
// Messages are stored by the chat service (chat_messages); the admin's own posts go through the room.
import { desc, eq } from "drizzle-orm";
import type { UnreadChatReason } from "../../domain/admin";
import type { ChatMessageView } from "../../domain/chat-protocol";
import { chatMessages, users } from "../db/schema";
import { postAdminChatMessage } from "./chat";
import { loadGig } from "./gigs";
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
export async function unreadChats(d1: D1Database, limit = 50): Promise<UnreadChat[]> {
  const rows = await d1
    .prepare(
      `WITH candidates AS (
         SELECT g.id AS gig_id FROM gigs g WHERE g.status = 'disputed'
         UNION
         SELECT m.gig_id FROM chat_messages m
         LEFT JOIN admin_chat_reads r ON r.gig_id = m.gig_id
         WHERE m.sender_type = 'user' AND m.message LIKE '%@admin%' AND (r.last_read_at IS NULL OR m.created_at > r.last_read_at)
       )
       SELECT m.gig_id AS gigId, g.title AS gigTitle, g.status AS status,
              COUNT(*) AS messageCount, MAX(m.created_at) AS lastMessageTime,
              SUM(m.message LIKE '%@admin%') AS mentions
       FROM candidates c
       CROSS JOIN gigs g
       CROSS JOIN chat_messages m
       LEFT JOIN admin_chat_reads r ON r.gig_id = m.gig_id
       WHERE g.id = c.gig_id AND m.gig_id = c.gig_id AND m.sender_type = 'user' AND (r.last_read_at IS NULL OR m.created_at > r.last_read_at)
       GROUP BY m.gig_id
       HAVING g.status = 'disputed' OR mentions > 0
       ORDER BY lastMessageTime DESC
       LIMIT ?`,
    )
    .bind(limit)
    .all<{ gigId: string; gigTitle: string; status: string; messageCount: number; lastMessageTime: string; mentions: number }>();
  return rows.results.map((r) => ({
    gigId: r.gigId,
    gigTitle: r.gigTitle,
    reason: r.status === "disputed" ? "disputed" : "mention",
    messageCount: r.messageCount,
    lastMessageTime: r.lastMessageTime,
  }));
}

export const ADMIN_CHAT_PAGE = 200;

/** A gig's latest messages, oldest first; marks the chat read up to the newest one shown. */
export async function readChatAsAdmin(deps: Pick<Deps, "db" | "d1">, gigId: string): Promise<AdminChatMessage[]> {
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
  if (newest) await markChatRead(deps.d1, gigId, newest.createdAt);
  return messages;
}

export async function markChatRead(d1: D1Database, gigId: string, upTo: string): Promise<void> {
  await d1
    .prepare(
      `INSERT INTO admin_chat_reads (gig_id, last_read_at) VALUES (?, ?)
       ON CONFLICT (gig_id) DO UPDATE SET last_read_at = MAX(last_read_at, excluded.last_read_at)`,
    )
    .bind(gigId, upTo)
    .run();
}

/**
 * Posts in a gig's chat as the platform admin: the gig's room stores the message and broadcasts it to
 * the parties (chat service). Writing in a chat means having read it.
 */
export async function postAsAdmin(deps: Pick<Deps, "db" | "d1" | "env">, gigId: string, text: string): Promise<ChatMessageView> {
  const message = await postAdminChatMessage(deps, gigId, text);
  await markChatRead(deps.d1, gigId, message.createdAt);
  return message;
}
