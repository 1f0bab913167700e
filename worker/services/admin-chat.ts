// The admin's window on gig chats (SPEC.md §3 Admin unread-chat notification, Admin chat message):
// which chats have members' messages the admin has not read, with the reason to look (the gig is
// disputed, or a message mentions @admin), and each gig's messages, which marks it read.
// Each gig's room keeps its messages (decision 031); the unread chats read D1's per-gig chat summary
// (gig_chat_summaries) against how far the admin read (admin_chat_reads). The admin's posts go through the room.
import { sql } from "drizzle-orm";
import type { ChatMessageView } from "../../domain/chat-protocol";
import type { Db } from "../db/client";
import { adminChatReads, gigChatSummaries, gigs } from "../db/schema";
import { archivedChatStored } from "./archived-gig";
import { gigChatHistory, memberMessagesUpTo, postAdminChatMessage, sendersOf, storedMessages } from "./chat";
import { loadGig, PLATFORM } from "./gig-views";
import type { Deps } from "./deps";
import type { AdminChatMessage, UnreadChat } from "../../domain/admin-views";

export type { AdminChatMessage, UnreadChat };

/**
 * Chats with members' messages newer than the admin's last read, where the gig is disputed or one of
 * those messages mentions @admin (as the summary has it: the newest member's mention). Newest first.
 * The candidates are the disputed gigs (by the status index) and the gigs whose summary has a mention newer
 * than the admin's read (by the summaries' partial index of mentions); only their summaries are then read.
 */
export async function unreadChats({ db }: Pick<Deps, "db">, limit = 50): Promise<UnreadChat[]> {
  const rows = await db.all<{ gigId: string; gigTitle: string; status: string; messageCount: number; lastMessageTime: string }>(
    sql`WITH candidates AS (
         SELECT g.id AS gig_id FROM ${gigs} g WHERE g.status = 'disputed'
         UNION
         SELECT s.gig_id FROM ${gigChatSummaries} s
         LEFT JOIN ${adminChatReads} r ON r.gig_id = s.gig_id
         WHERE s.last_mention_at IS NOT NULL AND (r.last_read_at IS NULL OR s.last_mention_at > r.last_read_at)
       )
       SELECT s.gig_id AS gigId, g.title AS gigTitle, g.status AS status,
              s.member_message_count - COALESCE(r.member_messages_read, 0) AS messageCount,
              s.last_member_message_at AS lastMessageTime
       FROM candidates c
       CROSS JOIN ${gigs} g
       CROSS JOIN ${gigChatSummaries} s
       LEFT JOIN ${adminChatReads} r ON r.gig_id = s.gig_id
       WHERE g.id = c.gig_id AND s.gig_id = c.gig_id
         AND s.last_member_message_at IS NOT NULL AND (r.last_read_at IS NULL OR s.last_member_message_at > r.last_read_at)
         AND (g.status = 'disputed' OR (s.last_mention_at IS NOT NULL AND (r.last_read_at IS NULL OR s.last_mention_at > r.last_read_at)))
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

/** A gig's latest messages, oldest first (from its room); marks the chat read up to the newest one shown. */
export async function readChatAsAdmin(deps: Pick<Deps, "db" | "env">, gigId: string): Promise<AdminChatMessage[]> {
  const gig = await loadGig(deps, gigId, PLATFORM);
  // An old gig's chat is in its document in R2 (decision 033).
  const stored = gig.archivedAt ? await archivedChatStored(deps, gigId, gigChatHistory, ADMIN_CHAT_PAGE) : await storedMessages(deps, gigId, { limit: ADMIN_CHAT_PAGE });
  const rows = stored.reverse();
  const senders = await sendersOf(deps.db, rows);
  const messages = rows.map((m) => {
    const sender = m.senderId ? senders.get(m.senderId) : undefined;
    return {
      id: m.id,
      gigId,
      message: m.message,
      senderType: m.senderType,
      senderId: m.senderType === "admin" ? "ADMIN" : m.senderId,
      sender: m.senderType === "admin" ? { displayName: "Platform Admin", username: "admin" } : { displayName: sender?.displayName ?? null, username: sender?.username ?? null },
      createdAt: m.createdAt,
      attachmentId: m.attachmentId,
    };
  });
  const newest = messages[messages.length - 1];
  // Read up to what was shown, not up to "now": a message stored meanwhile stays unread.
  if (newest) await markChatRead(deps, gigId, newest.createdAt);
  return messages;
}

/** Read up to `upTo`: the time, and how many members' messages the gig has up to it (never going back). */
export async function markChatRead(deps: Pick<Deps, "db" | "env">, gigId: string, upTo: string): Promise<void> {
  const read = await memberMessagesUpTo(deps, gigId, upTo);
  await markRead(deps.db, gigId, upTo, read);
}

async function markRead(db: Db, gigId: string, upTo: string, memberMessagesRead: number): Promise<void> {
  await db
    .insert(adminChatReads)
    .values({ gigId, lastReadAt: upTo, memberMessagesRead })
    .onConflictDoUpdate({
      target: adminChatReads.gigId,
      set: { lastReadAt: sql`MAX(${adminChatReads.lastReadAt}, excluded.last_read_at)`, memberMessagesRead: sql`MAX(${adminChatReads.memberMessagesRead}, excluded.member_messages_read)` },
    });
}

/**
 * Posts in a gig's chat as the platform admin: stored by the gig's room, which broadcasts it to the parties.
 * Writing in a chat means having read it.
 */
export async function postAsAdmin(deps: Pick<Deps, "db" | "env">, gigId: string, text: string): Promise<ChatMessageView> {
  const message = await postAdminChatMessage(deps, gigId, text);
  await markChatRead(deps, gigId, message.createdAt);
  return message;
}
