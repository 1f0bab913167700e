// Chat per gig (DESIGN.md §7). The gig's GigRoom holds the sockets; each frame it parses is one call here,
// which checks the sessions, the gig and the text and stores the message in D1 (`chat_messages`, so the REST
// history and the admin views read one place); the room broadcasts what the call answers.
import { and, desc, eq, exists, gte, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import { ADMIN_SENDER_ID, chatMessageText, type ChatMessageView } from "../../domain/chat-protocol";
import { isParty } from "../../domain/gig";
import type { AttachmentRef } from "../../domain/files";
import type { UserRow } from "../db/client";
import { isAdminToken } from "../auth/admin";
import { adminTokensLookup, liveAdminTokens, memberSessionsLookup, membersForTokens, whileAdminSession, whileMemberSession } from "../auth/live-sessions";
import { rowFields } from "../auth/guarded-rows";
import { AtomicChange, ALWAYS } from "../db/atomic";
import { nowIso } from "../db/client";
import { attachments, chatMessages, gigs, notifications, users } from "../db/schema";
import { badRequest } from "../errors";
import { attachmentRaceAsConflict, attachmentView, insertAttachments, prepareAttachments } from "./files";
import { gigHistoryForParty } from "./gig-access";
import { notificationsWritten, notify } from "./notifications";
import { loadGig, type GigRow, type Viewer } from "./gig-views";
import { memberForToken } from "./auth";
import type { Deps } from "./deps";
import { decodePageCursor, encodePageCursor } from "./page-cursor";

/** Who wrote a message: a member, or the platform admin. */
export type ChatSender = { kind: "member"; user: UserRow } | { kind: "admin" };

const ADMIN_SENDER = { username: "admin", displayName: "Platform Admin", profilePicture: null };

/** What a chat socket signed in with: a member's session token (and whom it was opened for), or an admin token. */
export type ChatCredential = { kind: "member"; sessionToken: string; userId: string } | { kind: "admin"; adminToken: string };

/** One key per credential: many sockets (tabs, devices) share one session. */
export const chatCredentialKey = (c: ChatCredential): string => (c.kind === "member" ? `m:${c.sessionToken}` : `a:${c.adminToken}`);

/** Sessions checked together, at `at`: each credential's key with who it stands for now (null: ended). */
export interface SessionCheck {
  at: number;
  senders: Map<string, ChatSender | null>;
}

/**
 * Who each credential stands for now, by its key: null when its session or admin token has ended, or the
 * session now belongs to someone else. All are checked at once: one D1 query for the member sessions and
 * one for the admin tokens, however many sockets and sessions there are.
 */
export async function checkSessions(deps: Pick<Deps, "db">, credentials: ChatCredential[]): Promise<SessionCheck> {
  const at = Date.now();
  const { members, admins } = tokensOf(credentials);
  const [users, liveAdmins] = await Promise.all([
    members.length ? membersForTokens(deps.db, members) : new Map<string, UserRow>(),
    admins.length ? liveAdminTokens(deps.db, admins) : new Set<string>(),
  ]);
  return sessionCheck(at, credentials, users, liveAdmins);
}

/** The member session tokens and the admin tokens among `credentials`. */
function tokensOf(credentials: ChatCredential[]): { members: string[]; admins: string[] } {
  return {
    members: credentials.flatMap((c) => (c.kind === "member" ? [c.sessionToken] : [])),
    admins: credentials.flatMap((c) => (c.kind === "admin" ? [c.adminToken] : [])),
  };
}

/** Who each credential stands for, from the live sessions and admin tokens found for them. */
function sessionCheck(at: number, credentials: ChatCredential[], users: Map<string, UserRow>, liveAdmins: Set<string>): SessionCheck {
  const senders = new Map<string, ChatSender | null>();
  for (const c of credentials) {
    const key = chatCredentialKey(c);
    if (senders.has(key)) continue;
    if (c.kind === "admin") senders.set(key, liveAdmins.has(c.adminToken) ? { kind: "admin" } : null);
    else {
      const user = users.get(c.sessionToken);
      senders.set(key, user && user.id === c.userId ? { kind: "member", user } : null);
    }
  }
  return { at, senders };
}

/** May this sender be in the gig's room? Parties (hirer, worker, poster) and the admin. */
export function mayChat(gig: ChatGig, sender: ChatSender): boolean {
  return sender.kind === "admin" || isParty(gig, sender.user.id);
}

/** What the room needs of its gig to decide who may listen, and what a message's notification names. */
export type ChatGig = Pick<GigRow, "id" | "title" | "gigType" | "posterId" | "hirerId" | "workerId">;

/** The `auth` frame: the credential the socket signs in with, or 400 with what is wrong. */
export async function signInToChat(deps: Pick<Deps, "db" | "env">, frame: { sessionToken?: string; adminToken?: string }): Promise<ChatCredential> {
  if (frame.sessionToken !== undefined) {
    const user = await memberForToken(deps.db, frame.sessionToken);
    if (!user) throw badRequest("Invalid or expired session. Please log in again.");
    return { kind: "member", sessionToken: frame.sessionToken, userId: user.id };
  }
  // As on HTTP: an admin token holds only while its key is in ADMIN_PUBKEYS (worker/auth/admin.ts).
  if (frame.adminToken === undefined || !(await isAdminToken(deps.db, frame.adminToken, new Date(), deps.env))) throw badRequest("Invalid admin token");
  return { kind: "admin", adminToken: frame.adminToken };
}

/** What became of a frame: the sender's session ended, the frame was refused (perhaps leaving the room), or it went through. */
export type ChatOutcome<T> =
  | { kind: "ended" }
  | { kind: "refused"; error: string; leave?: boolean; checked: SessionCheck }
  | ({ kind: "done"; checked: SessionCheck } & T);

/** The `join_gig` frame: the sender's session still holds, the gig exists, and they are one of its parties (or the admin). */
export async function joinChat(deps: Pick<Deps, "db">, gigId: string, credential: ChatCredential): Promise<ChatOutcome<{ gig: ChatGig }>> {
  const [checked, gig] = await Promise.all([checkSessions(deps, [credential]), findGig(deps, gigId)]);
  const sender = checked.senders.get(chatCredentialKey(credential));
  if (!sender) return { kind: "ended" };
  if (!gig) return { kind: "refused", error: "Gig not found", checked };
  if (!mayChat(gig, sender)) return { kind: "refused", error: "Only the gig's hirer and worker can join this chat", checked };
  return { kind: "done", checked, gig };
}

export interface ChatSend {
  gigId: string;
  credential: ChatCredential;
  /** Whether the socket joined the gig's chat. */
  joined: boolean;
  text: string;
  fileAttachment: AttachmentRef | null;
  /** From the room, which keeps it increasing, so history order is broadcast order. */
  createdAt: string;
  /** Listeners whose session is due for a re-check: checked in the same lookup as the sender's. */
  recheck: ChatCredential[];
}

/**
 * The `chat_message` frame, in one call: the sender's session (with the listeners' due for a re-check), the
 * join, the text, the gig and the sender's place in it are checked; the message is stored with its file and
 * the other parties' notification; the room broadcasts what this answers.
 *
 * A text message is one D1 batch (`storeInOneBatch`): the sessions and the gig are read, and the message and its
 * notifications written only while the sender's session holds and they are a party of the gig, in one
 * transaction. A message with a file reads first (its upload is checked before anything is written), then
 * stores the message and the file in one batch.
 */
export async function sendChatMessage(
  deps: Pick<Deps, "db" | "env" | "defer" | "committed">,
  send: ChatSend,
): Promise<ChatOutcome<{ gig: ChatGig; message: ChatMessageView }>> {
  const text = chatText(send.text);
  if (send.joined && text.ok && !send.fileAttachment) return storeInOneBatch(deps, send, text.text);
  // A message that will be sent: the sessions and the gig are read together, before the message is stored.
  const sending = send.joined && text.ok;
  const [checked, gig] = await Promise.all([
    checkSessions(deps, sending ? [send.credential, ...send.recheck] : [send.credential]),
    sending ? findGig(deps, send.gigId) : undefined,
  ]);
  const sender = checked.senders.get(chatCredentialKey(send.credential));
  if (!sender) return { kind: "ended" };
  if (!send.joined) return { kind: "refused", error: "Join the gig's chat first: send {type:'join_gig', gigId}", checked };
  if (!text.ok) return { kind: "refused", error: text.error, checked };
  if (!gig) return { kind: "refused", error: "Gig not found", checked };
  if (!mayChat(gig, sender)) return { kind: "refused", error: "You are no longer a party of this gig", leave: true, checked };
  const message = await storeChatMessage(deps, gig, sender, text.text, send.fileAttachment, send.createdAt);
  return { kind: "done", checked, gig, message };
}

/** What a chat room reads of its gig. */
const CHAT_GIG_COLUMNS = { id: gigs.id, title: gigs.title, gigType: gigs.gigType, posterId: gigs.posterId, hirerId: gigs.hirerId, workerId: gigs.workerId };
/** Whom a message notifies: the gig's poster, hirer and worker, each once, but not its sender. */
const PARTIES = [gigs.posterId, gigs.hirerId, gigs.workerId] as const;

/**
 * A text message in one D1 batch, one transaction: the sender's and the due listeners' sessions are read, and the
 * gig; the message and a notification for each other party (their names and the gig's title as the rows have
 * them) are written only while the sender's session holds (or their admin token) and they are one of the gig's
 * parties (or the admin). So the checks and the write cannot disagree; when the reads say the sender may not
 * send, nothing was written, and the answer is as the checks in their order would give.
 */
async function storeInOneBatch(
  deps: Pick<Deps, "db" | "env" | "defer">,
  send: ChatSend,
  text: string,
): Promise<ChatOutcome<{ gig: ChatGig; message: ChatMessageView }>> {
  const { db } = deps;
  const now = new Date();
  const at = now.toISOString();
  const credentials = [send.credential, ...send.recheck];
  const tokens = tokensOf(credentials);
  const [members, admins] = await Promise.all([memberSessionsLookup(db, tokens.members, now), adminTokensLookup(db, tokens.admins, now)]);
  const c = send.credential;
  const senderId = c.kind === "member" ? c.userId : null;
  const mayWrite = and(
    eq(gigs.id, send.gigId),
    c.kind === "member"
      ? and(or(eq(gigs.posterId, c.userId), eq(gigs.hirerId, c.userId), eq(gigs.workerId, c.userId)), await whileMemberSession(db, c.sessionToken, c.userId, now))
      : await whileAdminSession(db, c.adminToken, now),
  );
  const id = crypto.randomUUID();
  const senderType = c.kind === "member" ? ("user" as const) : ("admin" as const);
  const senderName =
    c.kind === "member" ? sql`(SELECT COALESCE(NULLIF(${users.displayName}, ''), ${users.username}) FROM ${users} WHERE ${users.id} = ${c.userId})` : sql`${ADMIN_SENDER.displayName}`;
  const notice = sql`${senderName} || ${' about "'} || ${gigs.title} || ${`": ${preview(text)}`}`;
  // A notification is written with its message: the message's checks are its own.
  const messageStored = exists(db.select({ one: sql`1` }).from(chatMessages).where(eq(chatMessages.id, id)));
  const lookups = [...members.queries, ...admins.queries];
  const results = await db.batch([
    db.select(CHAT_GIG_COLUMNS).from(gigs).where(eq(gigs.id, send.gigId)).limit(1),
    db
      .insert(chatMessages)
      .select((qb) => qb.select(rowFields(chatMessages, { id, gigId: gigs.id, senderId, senderType, message: text, attachmentId: null, createdAt: send.createdAt })).from(gigs).where(mayWrite))
      .returning({ id: chatMessages.id }),
    ...PARTIES.map((party, i) =>
      db
        .insert(notifications)
        .select((qb) =>
          qb
            .select(
              rowFields(notifications, { id: crypto.randomUUID(), userId: party, gigId: gigs.id, type: "message", title: "New Message", message: notice, actorId: senderId, isRead: false, createdAt: at }),
            )
            .from(gigs)
            .where(and(eq(gigs.id, send.gigId), messageStored, isNotNull(party), senderId === null ? undefined : ne(party, senderId), ...PARTIES.slice(0, i).map((earlier) => sql`${party} IS NOT ${earlier}`))),
        )
        .returning({ id: notifications.id, userId: notifications.userId }),
    ),
    ...lookups,
  ]);
  const [gigRows, stored, ...rest] = results as unknown as [ChatGig[], { id: string }[], ...unknown[][]];
  const written = rest.slice(0, PARTIES.length).flat() as { id: string; userId: string }[];
  const answers = rest.slice(PARTIES.length);
  const checked = sessionCheck(
    now.getTime(),
    credentials,
    members.read(answers.slice(0, members.queries.length) as Parameters<typeof members.read>[0]),
    admins.read(answers.slice(members.queries.length) as Parameters<typeof admins.read>[0]),
  );
  const sender = checked.senders.get(chatCredentialKey(c));
  if (!sender) return { kind: "ended" };
  const gig = gigRows[0];
  if (!gig) return { kind: "refused", error: "Gig not found", checked };
  if (!mayChat(gig, sender)) return { kind: "refused", error: "You are no longer a party of this gig", leave: true, checked };
  if (stored.length === 0) throw new Error("a chat message whose checks held was not stored");
  // As Deps.committed does for a change's notifications: to the members' open tabs, and as Nostr DMs.
  if (written.length > 0) deps.defer(() => notificationsWritten({ db, env: deps.env }, written));
  return { kind: "done", checked, gig, message: messageView(id, gig.id, sender, text, send.createdAt, null) };
}

/** A stored message as the room broadcasts it. */
function messageView(id: string, gigId: string, sender: ChatSender, text: string, createdAt: string, file: ChatMessageView["fileAttachment"]): ChatMessageView {
  return {
    id,
    gigId,
    senderId: sender.kind === "member" ? sender.user.id : ADMIN_SENDER_ID,
    senderType: sender.kind === "member" ? "user" : "admin",
    sender:
      sender.kind === "member"
        ? { username: sender.user.username, displayName: sender.user.displayName, profilePicture: sender.user.profilePicture }
        : ADMIN_SENDER,
    message: text,
    createdAt,
    fileAttachment: file,
  };
}

/** For a broadcast the room did not start (an admin's post): the gig's parties and the due listeners' sessions. */
export async function chatAudience(deps: Pick<Deps, "db">, gigId: string, recheck: ChatCredential[]): Promise<{ gig: ChatGig | null; checked: SessionCheck }> {
  const [checked, gig] = await Promise.all([checkSessions(deps, recheck), findGig(deps, gigId)]);
  return { gig: gig ?? null, checked };
}

async function findGig(deps: Pick<Deps, "db">, gigId: string): Promise<ChatGig | undefined> {
  return (await deps.db.select(CHAT_GIG_COLUMNS).from(gigs).where(eq(gigs.id, gigId)).limit(1))[0];
}

/** The one check of a message's text (domain's chatMessageText), for the room's frames and the admin's posts alike. */
function chatText(raw: unknown): { ok: true; text: string } | { ok: false; error: string } {
  const parsed = chatMessageText.safeParse(raw);
  return parsed.success ? { ok: true, text: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid message" };
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/**
 * Stores one message (with its file, if any) and notifies the other parties in one batch; answers the
 * message as the room broadcasts it. The text was checked (chatMessageText) by the caller.
 */
async function storeChatMessage(
  deps: Pick<Deps, "db" | "committed">,
  gig: ChatGig,
  sender: ChatSender,
  text: string,
  fileRef: AttachmentRef | null,
  createdAt: string,
): Promise<ChatMessageView> {
  if (fileRef && sender.kind !== "member") throw badRequest("Only the gig's parties can attach files");
  const files = fileRef && sender.kind === "member" ? await prepareAttachments(deps, sender.user.id, gig.id, [fileRef]) : [];

  const id = crypto.randomUUID();
  const senderId = sender.kind === "member" ? sender.user.id : null;
  const change = new AtomicChange(deps.db, deps.committed);
  insertAttachments(change, ALWAYS, files);
  change.insert(
    chatMessages,
    { id, gigId: gig.id, senderId, senderType: sender.kind === "member" ? "user" : "admin", message: text, attachmentId: files[0]?.view.id ?? null, createdAt },
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
      message: `${senderName} about "${gig.title}": ${preview(text)}`,
    })),
  );
  try {
    await change.commit();
  } catch (err) {
    throw attachmentRaceAsConflict(err, "This file is already attached to a gig. Please upload it again.");
  }

  return messageView(id, gig.id, sender, text, createdAt, files[0]?.view ?? null);
}

// ---- History ----------------------------------------------------------------------------------

export const HISTORY_PAGE_MAX = 100;

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
  const before = page.before ? decodePageCursor(page.before) : null;
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
  return { messages, nextCursor: more && messages[0] ? encodePageCursor(messages[0]) : null };
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

/** The `/ws` upgrade, once the route has checked it: to the gig's room (404 for a gig that does not exist). */
export async function connectToRoom(deps: Pick<Deps, "db" | "env">, gigId: string, upgrade: Request): Promise<Response> {
  await loadGig(deps, gigId);
  return deps.env.GIG_ROOM.get(deps.env.GIG_ROOM.idFromName(gigId)).fetch(upgrade);
}

/**
 * Posts a message as the platform admin (the admin REST endpoint calls this): stored here, then the gig's
 * room broadcasts it to whoever is connected. Answers the stored message.
 */
export async function postAdminChatMessage(deps: Pick<Deps, "db" | "env" | "committed">, gigId: string, text: string): Promise<ChatMessageView> {
  const checked = chatText(text);
  if (!checked.ok) throw badRequest(checked.error);
  const gig = await loadGig(deps, gigId);
  const stored = await storeChatMessage(deps, gig, { kind: "admin" }, checked.text, null, nowIso());
  await deps.env.GIG_ROOM.get(deps.env.GIG_ROOM.idFromName(gigId)).broadcastMessage(gigId, stored);
  return stored;
}
