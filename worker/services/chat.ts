// Chat per gig (DESIGN.md §7): messages are stored in D1 (`chat_messages`, so the REST history and the
// admin views read one place) by the gig's GigRoom, which then broadcasts them to the room's sockets.
import { and, desc, eq, gte, lt, or } from "drizzle-orm";
import { ADMIN_SENDER_ID, chatMessageText, type ChatMessageView } from "../../domain/chat-protocol";
import { isParty } from "../../domain/gig";
import type { AttachmentRef } from "../../domain/files";
import type { UserRow } from "../context";
import { isAdminToken } from "../auth/admin";
import { liveAdminTokens, membersForTokens } from "../auth/live-sessions";
import { AtomicChange, ALWAYS } from "../db/atomic";
import { attachments, chatMessages, users } from "../db/schema";
import { badRequest } from "../errors";
import { attachmentRaceAsConflict, attachmentView, insertAttachments, prepareAttachments } from "./files";
import { gigHistoryForParty } from "./gig-access";
import { notify } from "./notifications";
import type { GigRow } from "./gig-views";
import { loadGig, type Viewer } from "./gigs";
import type { Deps } from "./deps";

/** Who wrote a message: a member, or the platform admin. */
export type ChatSender = { kind: "member"; user: UserRow } | { kind: "admin" };

const ADMIN_SENDER = { username: "admin", displayName: "Platform Admin", profilePicture: null };

/** Whether an admin token may open the chat as the platform admin; the room asks on auth and on every frame. */
export async function isChatAdminToken(deps: Pick<Deps, "d1">, adminToken: string): Promise<boolean> {
  return isAdminToken(deps.d1, adminToken);
}

/** What a chat socket signed in with: a member's session token (and whom it was opened for), or an admin token. */
export type ChatCredential = { kind: "member"; sessionToken: string; userId: string } | { kind: "admin"; adminToken: string };

/** One key per credential: many sockets (tabs, devices) share one session. */
export const chatCredentialKey = (c: ChatCredential): string => (c.kind === "member" ? `m:${c.sessionToken}` : `a:${c.adminToken}`);

/**
 * Who each credential stands for now, by its key: null when its session or admin token has ended, or the
 * session now belongs to someone else. All are checked at once: one D1 query for the member sessions and
 * one for the admin tokens, however many sockets and sessions there are.
 */
export async function chatSendersFor(deps: Pick<Deps, "db" | "d1">, credentials: ChatCredential[]): Promise<Map<string, ChatSender | null>> {
  const distinct = new Map(credentials.map((c) => [chatCredentialKey(c), c]));
  const members = [...distinct.values()].flatMap((c) => (c.kind === "member" ? [c.sessionToken] : []));
  const admins = [...distinct.values()].flatMap((c) => (c.kind === "admin" ? [c.adminToken] : []));
  const [users, liveAdmins] = await Promise.all([
    members.length ? membersForTokens(deps.db, members) : new Map<string, UserRow>(),
    admins.length ? liveAdminTokens(deps.d1, admins) : new Set<string>(),
  ]);
  const senders = new Map<string, ChatSender | null>();
  for (const [key, c] of distinct) {
    if (c.kind === "admin") senders.set(key, liveAdmins.has(c.adminToken) ? { kind: "admin" } : null);
    else {
      const user = users.get(c.sessionToken);
      senders.set(key, user && user.id === c.userId ? { kind: "member", user } : null);
    }
  }
  return senders;
}

/** May this sender be in the gig's room? Parties (hirer, worker, poster) and the admin. */
export function mayChat(gig: GigRow, sender: ChatSender): boolean {
  return sender.kind === "admin" || isParty(gig, sender.user.id);
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/**
 * Stores one message (with its file, if any) and notifies the other party in one batch; answers the
 * message as the room broadcasts it. `createdAt` comes from the room, which keeps it increasing.
 */
export async function storeChatMessage(
  deps: Pick<Deps, "db" | "d1">,
  gig: GigRow,
  sender: ChatSender,
  text: string,
  fileRef: AttachmentRef | null,
  createdAt: string,
): Promise<ChatMessageView> {
  const message = chatMessageText.safeParse(text);
  if (!message.success) throw badRequest(message.error.issues[0]?.message ?? "Invalid message");
  if (fileRef && sender.kind !== "member") throw badRequest("Only the gig's parties can attach files");
  const files = fileRef && sender.kind === "member" ? await prepareAttachments(deps.db, sender.user.id, gig.id, [fileRef]) : [];

  const id = crypto.randomUUID();
  const senderId = sender.kind === "member" ? sender.user.id : null;
  const change = new AtomicChange(deps.d1);
  insertAttachments(change, ALWAYS, files);
  change.insert(
    "chat_messages",
    { id, gigId: gig.id, senderId, senderType: sender.kind === "member" ? "user" : "admin", message: message.data, attachmentId: files[0]?.view.id ?? null, createdAt },
    ALWAYS,
  );
  const senderName = sender.kind === "member" ? sender.user.displayName || sender.user.username : ADMIN_SENDER.displayName;
  const recipients = new Set([gig.posterId, gig.hirerId, gig.workerId].filter((u): u is string => !!u && u !== senderId));
  notify(
    change,
    ALWAYS,
    ...[...recipients].map((userId) => ({
      userId,
      gigId: gig.id,
      actorId: senderId,
      type: "message",
      title: "New Message",
      message: `${senderName} about "${gig.title}": ${preview(message.data)}`,
    })),
  );
  try {
    await change.commit();
  } catch (err) {
    throw attachmentRaceAsConflict(err, "This file is already attached to a gig. Please upload it again.");
  }

  return {
    id,
    gigId: gig.id,
    senderId: senderId ?? ADMIN_SENDER_ID,
    senderType: sender.kind === "member" ? "user" : "admin",
    sender:
      sender.kind === "member"
        ? { username: sender.user.username, displayName: sender.user.displayName, profilePicture: sender.user.profilePicture }
        : ADMIN_SENDER,
    message: message.data,
    createdAt,
    fileAttachment: files[0]?.view ?? null,
  };
}

// ---- History ----------------------------------------------------------------------------------

export const HISTORY_PAGE_MAX = 100;

export function encodeChatCursor(m: { createdAt: string; id: string }): string {
  return btoa(`${m.createdAt}|${m.id}`);
}

function decodeChatCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = atob(cursor).split("|");
    if (createdAt && id) return { createdAt, id };
  } catch {
    /* fall through */
  }
  throw badRequest("Invalid cursor");
}

/**
 * `GET /api/gigs/{id}/messages`: the latest `limit` messages before `before` (a cursor), oldest first,
 * to the gig's parties and the admin. `nextCursor` pages further back.
 */
export async function listChatMessages(
  deps: Pick<Deps, "db">,
  gigId: string,
  viewer: Viewer,
  page: { limit: number; before?: string },
): Promise<{ messages: ChatMessageView[]; nextCursor: string | null }> {
  const { since } = await gigHistoryForParty(deps, gigId, viewer);
  const before = page.before ? decodeChatCursor(page.before) : null;
  const rows = await deps.db
    .select({ m: chatMessages, user: { username: users.username, displayName: users.displayName, profilePicture: users.profilePicture }, file: attachments })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .leftJoin(attachments, eq(attachments.id, chatMessages.attachmentId))
    .where(
      and(
        eq(chatMessages.gigId, gigId),
        since ? gte(chatMessages.createdAt, since) : undefined,
        before
          ? or(lt(chatMessages.createdAt, before.createdAt), and(eq(chatMessages.createdAt, before.createdAt), lt(chatMessages.id, before.id)))
          : undefined,
      ),
    )
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const newestFirst = rows.slice(0, page.limit);
  const messages = newestFirst.reverse().map(({ m, user, file }) => chatMessageViewOf(m, user, file));
  return { messages, nextCursor: more && messages[0] ? encodeChatCursor(messages[0]) : null };
}

type SenderColumns = { username: string; displayName: string | null; profilePicture: string | null } | null;

export function chatMessageViewOf(m: typeof chatMessages.$inferSelect, user: SenderColumns, file: typeof attachments.$inferSelect | null): ChatMessageView {
  const admin = m.senderType === "admin";
  return {
    id: m.id,
    gigId: m.gigId,
    senderId: admin ? ADMIN_SENDER_ID : m.senderId,
    senderType: m.senderType,
    sender: admin ? ADMIN_SENDER : { username: user?.username ?? null, displayName: user?.displayName ?? null, profilePicture: user?.profilePicture ?? null },
    message: m.message,
    createdAt: m.createdAt,
    fileAttachment: file ? attachmentView(file) : null,
  };
}

// ---- Admin messages ---------------------------------------------------------------------------

/**
 * Posts a message as the platform admin (the admin REST endpoint calls this): the gig's room stores
 * it and broadcasts it to whoever is connected. Answers the stored message.
 */
export async function postAdminChatMessage(deps: Pick<Deps, "db" | "env">, gigId: string, text: string): Promise<ChatMessageView> {
  const message = chatMessageText.safeParse(text);
  if (!message.success) throw badRequest(message.error.issues[0]?.message ?? "Invalid message");
  await loadGig(deps, gigId); // 404 here, where the error keeps its status
  const room = deps.env.GIG_ROOM.get(deps.env.GIG_ROOM.idFromName(gigId));
  return room.postAdminMessage(gigId, message.data);
}
