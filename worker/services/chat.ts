// Chat per gig (DESIGN.md §7). The gig's GigRoom holds the sockets and keeps the gig's messages in its own
// storage (decision 031); each frame it parses is one call here, which checks the sessions, the gig and the text,
// writes the gig's chat summary and the notifications to D1, and hands the message to the room to keep; the room
// broadcasts what the call answers. The REST history, the admin's view and the archive read the room.
import { and, count, desc, eq, exists, gte, inArray, isNotNull, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { ADMIN_SENDER_ID, chatMessageText, type ChatMessageView } from "../../domain/chat-protocol";
import { isParty } from "../../domain/gig";
import type { AttachmentRef } from "../../domain/files";
import type { UserRow } from "../db/client";
import { isAdminToken } from "../auth/admin";
import { adminTokensLookup, liveAdminTokens, memberSessionsLookup, membersForTokens, WHILE_ADMIN_SESSION, WHILE_MEMBER_SESSION } from "../auth/live-sessions";
import { bound, offlineDb, param, placeholder, queryBuilder, rowReader, type BuiltQuery } from "../db/built-once";
import { rowFields } from "../auth/guarded-rows";
import { AtomicChange, ALWAYS, where } from "../db/atomic";
import { openDb, type Db } from "../db/client";
import { attachments, chatMessages, gigChatSummaries, gigs, notifications, users } from "../db/schema";
import type { Env, RoomChatMessage, RoomHistoryQuery } from "../env";
import { badRequest } from "../errors";
import { attachmentRaceAsConflict, attachmentView, insertAttachments, prepareAttachments } from "./files";
import { archivedChatPage } from "./archived-gig";
import { gigHistoryForParty } from "./gig-access";
import { notificationsWritten, notify } from "./notifications";
import { loadGig, PLATFORM, type GigRow, type Viewer } from "./gig-views";
import { memberForToken } from "./auth";
import type { Deps } from "./deps";
import { decodePageCursor, encodePageCursor } from "./page-cursor";

/** Where a gig's room keeps a message once D1 took its summary and notifications (the room's own storage). */
export interface ChatRoomStore {
  keep(message: RoomChatMessage): void;
}

/** The gig's room, through its RPC (the Worker never imports the room's class). */
const roomOf = (env: Env, gigId: string) => env.GIG_ROOM.get(env.GIG_ROOM.idFromName(gigId));

/** Who wrote a message: a member, or the platform admin. */
export type ChatSender = { kind: "member"; user: UserRow } | { kind: "admin" };

const ADMIN_SENDER = { username: "admin", displayName: "Platform Admin", profilePicture: null };

/** What a chat socket signed in with: a member's session token (and whom it was opened for), or an admin token. */
export type ChatCredential = { kind: "member"; sessionToken: string; userId: string } | { kind: "admin"; adminToken: string };

/**
 * One key per credential: many sockets (tabs, devices) share one session. Kept per credential object, which a
 * socket's state keeps: a broadcast asks it of every socket, and building the string each time was about a quarter
 * of the garbage a broadcast left (docs/decisions/039).
 */
export function chatCredentialKey(c: ChatCredential): string {
  let key = credentialKeys.get(c);
  if (key === undefined) {
    key = c.kind === "member" ? `m:${c.sessionToken}` : `a:${c.adminToken}`;
    credentialKeys.set(c, key);
  }
  return key;
}
const credentialKeys = new WeakMap<ChatCredential, string>();

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
  room: ChatRoomStore,
): Promise<ChatOutcome<{ gig: ChatGig; message: ChatMessageView }>> {
  const text = chatText(send.text);
  if (send.joined && text.ok && !send.fileAttachment) return storeInOneBatch(deps, send, text.text, room);
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
  const message = await storeChatMessage(deps, gig, sender, text.text, send.fileAttachment, send.createdAt, room);
  return { kind: "done", checked, gig, message };
}

/** What a chat room reads of its gig. */
const CHAT_GIG_COLUMNS = { id: gigs.id, title: gigs.title, gigType: gigs.gigType, posterId: gigs.posterId, hirerId: gigs.hirerId, workerId: gigs.workerId };
/** Whom a message notifies: the gig's poster, hirer and worker, each once, but not its sender. */
const PARTIES = [gigs.posterId, gigs.hirerId, gigs.workerId] as const;
/** One row for each of PARTIES, by its place there: crossed with the gig's row, one candidate notification each. */
const PARTY_ROWS = sql`(SELECT 0 AS place UNION ALL SELECT 1 UNION ALL SELECT 2) AS parties`;
/** Of one value for each of PARTIES, the one of the row's party. */
const partyPick = (values: readonly SQL[]): SQL => sql`(CASE parties.place ${sql.join(values.map((v, i) => sql`WHEN ${sql.raw(String(i))} THEN ${v} `))}END)`;
/** The row's party. */
const party = partyPick(PARTIES.map((column) => sql`${column}`));
/** The row's party was not already a party in an earlier column (each party is notified once). */
const notNamedEarlier = or(...PARTIES.map((column, i) => and(sql`parties.place = ${sql.raw(String(i))}`, ...PARTIES.slice(0, i).map((earlier) => sql`${column} IS NOT ${earlier}`))));

/** Whether a message counts for the admin's unread chats: a member's, and one that mentions @admin (any case). */
function summaryMarks(message: Pick<RoomChatMessage, "senderType" | "message">): { member: boolean; mention: boolean } {
  const member = message.senderType === "user";
  return { member, mention: member && /@admin/i.test(message.message) };
}

/**
 * Whether a just-written notification's member wants it as a Nostr DM (as enqueueNotificationDms reads it), told by
 * the insert that writes it: the common member, who does not, costs no second read of the notification.
 */
const WANTS_NOSTR_DM = sql<boolean>`EXISTS (SELECT 1 FROM users AS recipient WHERE recipient.id = notifications.user_id AND recipient.nostr_dm_notifications = 1 AND recipient.nostr_pubkey IS NOT NULL AND recipient.deleted_at IS NULL)`.mapWith(Boolean);

/** A message's summary row counted up (the upsert's new row is the message's own: `excluded`). */
const SUMMARY_COUNTED_UP = {
  messageCount: sql`message_count + 1`,
  lastMessageId: sql`excluded.last_message_id`,
  lastMessageAt: sql`excluded.last_message_at`,
  lastSenderId: sql`excluded.last_sender_id`,
  lastSenderType: sql`excluded.last_sender_type`,
  memberMessageCount: sql`member_message_count + excluded.member_message_count`,
  lastMemberMessageAt: sql`COALESCE(excluded.last_member_message_at, last_member_message_at)`,
  lastMentionAt: sql`COALESCE(excluded.last_mention_at, last_mention_at)`,
};

// ---- A text message's one batch, its SQL built once -------------------------------------------------------------
// Built per message by drizzle, these statements were the largest part of the garbage a chat message left
// (docs/decisions/039): so they are built here once, one of each for a member's message and an admin's, with
// placeholders for the message's values (worker/db/built-once.ts).

const CHAT_GIG = rowReader<ChatGig>(CHAT_GIG_COLUMNS);
/** The gig, as the room reads it. */
const GIG_QUERY = queryBuilder.select(CHAT_GIG.fields).from(gigs).where(eq(gigs.id, placeholder("gigId"))).limit(1).toSQL();

/** The sender may write: a member who is one of the gig's parties, with their live session; or a live admin token. */
const MAY_WRITE = {
  member: and(or(...PARTIES.map((column) => eq(column, placeholder("userId")))), WHILE_MEMBER_SESSION)!,
  admin: WHILE_ADMIN_SESSION,
};

/** The gig's chat summary: its row, counted up, written only while the sender may write. */
const summaryUpsert = (mayWrite: SQL): BuiltQuery =>
  offlineDb
    .insert(gigChatSummaries)
    .select((qb) =>
      qb
        .select(
          rowFields(gigChatSummaries, {
            gigId: gigs.id,
            messageCount: 1,
            lastMessageId: param("id"),
            lastMessageAt: param("createdAt"),
            lastSenderId: param("senderId"),
            lastSenderType: param("senderType"),
            memberMessageCount: param("memberCount"),
            lastMemberMessageAt: param("memberAt"),
            lastMentionAt: param("mentionAt"),
          }),
        )
        .from(gigs)
        .where(and(eq(gigs.id, placeholder("gigId")), mayWrite)),
    )
    .onConflictDoUpdate({ target: gigChatSummaries.gigId, set: SUMMARY_COUNTED_UP })
    .returning({ gigId: gigChatSummaries.gigId })
    .toSQL();

/** A notification is written with its message's summary: the message's checks are its own. */
const MESSAGE_STORED = exists(
  queryBuilder
    .select({ one: sql`1` })
    .from(gigChatSummaries)
    .where(and(eq(gigChatSummaries.gigId, placeholder("gigId")), eq(gigChatSummaries.lastMessageId, placeholder("id")))),
);

/**
 * The other parties' notifications in one statement: the gig's row once for each party (PARTY_ROWS), each with its
 * own id, kept only for a party who is there, is not the sender and was not named by an earlier column (a poster who
 * hired themselves is notified once). The notice names the sender (`senderName`) and the gig as the rows have them.
 */
const notificationsInsert = (senderName: SQL, notTheSender: SQL | undefined): BuiltQuery =>
  offlineDb
    .insert(notifications)
    .select((qb) =>
      qb
        .select(
          rowFields(notifications, {
            id: partyPick(PARTIES.map((_, i) => param(`notification${i}`))),
            userId: party,
            gigId: gigs.id,
            type: "message",
            title: "New Message",
            message: sql`${senderName} || ${' about "'} || ${gigs.title} || ${param("noticeEnd")}`,
            actorId: param("senderId"),
            isRead: false,
            createdAt: param("at"),
          }),
        )
        .from(gigs)
        .crossJoin(PARTY_ROWS)
        .where(and(eq(gigs.id, placeholder("gigId")), MESSAGE_STORED, isNotNull(party), notTheSender, notNamedEarlier)),
    )
    .returning({ id: notifications.id, userId: sql<string>`${notifications.userId}`.as("userId"), nostrDm: WANTS_NOSTR_DM.as("nostrDm") })
    .toSQL();

const MEMBER_NAME = sql`(SELECT COALESCE(NULLIF(${users.displayName}, ''), ${users.username}) FROM ${users} WHERE ${users.id} = ${placeholder("userId")})`;

const STORE_MESSAGE = {
  member: { summary: summaryUpsert(MAY_WRITE.member), notifications: notificationsInsert(MEMBER_NAME, ne(party, placeholder("userId"))) },
  admin: { summary: summaryUpsert(MAY_WRITE.admin), notifications: notificationsInsert(sql`${ADMIN_SENDER.displayName}`, undefined) },
};

/**
 * A text message in one D1 batch, one transaction: the sender's and the due listeners' sessions are read, and the
 * gig; the gig's chat summary (one row per gig, counted up) and a notification for each other party (their names
 * and the gig's title as the rows have them) are written only while the sender's session holds (or their admin
 * token) and they are one of the gig's parties (or the admin). So the checks and the write cannot disagree; when
 * the reads say the sender may not send, nothing was written, and the answer is as the checks in their order
 * would give. Only when the summary was written does the room keep the message.
 */
async function storeInOneBatch(
  deps: Pick<Deps, "db" | "env" | "defer">,
  send: ChatSend,
  text: string,
  room: ChatRoomStore,
): Promise<ChatOutcome<{ gig: ChatGig; message: ChatMessageView }>> {
  const { db } = deps;
  const client = db.$client;
  const now = new Date();
  const at = now.toISOString();
  const credentials = [send.credential, ...send.recheck];
  const tokens = tokensOf(credentials);
  const c = send.credential;
  const [members, admins] = await Promise.all([memberSessionsLookup(client, tokens.members, now), adminTokensLookup(client, tokens.admins, now)]);
  const id = crypto.randomUUID();
  const senderId = c.kind === "member" ? c.userId : null;
  const senderType = c.kind === "member" ? ("user" as const) : ("admin" as const);
  const marks = summaryMarks({ senderType, message: text });
  const values = {
    gigId: send.gigId,
    id,
    createdAt: send.createdAt,
    senderId,
    senderType,
    memberCount: marks.member ? 1 : 0,
    memberAt: marks.member ? send.createdAt : null,
    mentionAt: marks.mention ? send.createdAt : null,
    userId: senderId,
    tokenHash: c.kind === "member" ? (members.keys.get(c.sessionToken) ?? null) : null,
    // A token that is no admin token has no key (adminTokensLookup leaves it out): bound as null, which no session has.
    adminKey: c.kind === "admin" ? (admins.keys.get(c.adminToken) ?? null) : null,
    now: at,
    notification0: crypto.randomUUID(),
    notification1: crypto.randomUUID(),
    notification2: crypto.randomUUID(),
    noticeEnd: `": ${preview(text)}`,
    at,
  };
  const statements = STORE_MESSAGE[c.kind];
  const results = await client.batch<Record<string, unknown>>([
    bound(client, GIG_QUERY, values),
    bound(client, statements.summary, values),
    bound(client, statements.notifications, values),
    ...members.statements,
    ...admins.statements,
  ]);
  const [gigRows, stored, written, ...answers] = results.map((result) => result.results);
  const checked = sessionCheck(now.getTime(), credentials, members.read(answers.slice(0, members.statements.length)), admins.read(answers.slice(members.statements.length)));
  const sender = checked.senders.get(chatCredentialKey(c));
  if (!sender) return { kind: "ended" };
  const gig = gigRows![0] ? CHAT_GIG.read(gigRows![0]) : undefined;
  if (!gig) return { kind: "refused", error: "Gig not found", checked };
  if (!mayChat(gig, sender)) return { kind: "refused", error: "You are no longer a party of this gig", leave: true, checked };
  if (stored!.length === 0) throw new Error("a chat message whose checks held was not stored");
  room.keep({ id, senderId, senderType, message: text, attachmentId: null, createdAt: send.createdAt });
  // As Deps.committed does for a change's notifications: to the members' open tabs, and as Nostr DMs.
  const notified = written!.map((row) => ({ id: row.id as string, userId: row.userId as string, nostrDm: Boolean(row.nostrDm) }));
  if (notified.length > 0) deps.defer(() => notificationsWritten({ db, env: deps.env }, notified));
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
 * Stores one message (with its file, if any): the file, the gig's chat summary and the other parties'
 * notifications in one D1 batch, then the message in the room. Answers the message as the room broadcasts it.
 * The text was checked (chatMessageText) by the caller.
 */
async function storeChatMessage(
  deps: Pick<Deps, "db" | "committed">,
  gig: ChatGig,
  sender: ChatSender,
  text: string,
  fileRef: AttachmentRef | null,
  createdAt: string,
  room: ChatRoomStore,
): Promise<ChatMessageView> {
  if (fileRef && sender.kind !== "member") throw badRequest("Only the gig's parties can attach files");
  const files = fileRef && sender.kind === "member" ? await prepareAttachments(deps, sender.user.id, gig.id, [fileRef]) : [];

  const senderId = sender.kind === "member" ? sender.user.id : null;
  const stored: RoomChatMessage = {
    id: crypto.randomUUID(),
    senderId,
    senderType: sender.kind === "member" ? "user" : "admin",
    message: text,
    attachmentId: files[0]?.view.id ?? null,
    createdAt,
  };
  const change = new AtomicChange(deps.db, deps.committed);
  insertAttachments(change, ALWAYS, files);
  countInSummary(change, gig.id, stored);
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
  room.keep(stored);
  return messageView(stored.id, gig.id, sender, text, createdAt, files[0]?.view ?? null);
}

/** The gig's summary counted up by one message, inside a change: its row made when it is the gig's first. */
function countInSummary(change: AtomicChange, gigId: string, message: RoomChatMessage): void {
  const marks = summaryMarks(message);
  change.insert(gigChatSummaries, { gigId }, where("NOT EXISTS (SELECT 1 FROM gig_chat_summaries WHERE gig_id = ?)", gigId));
  change.update(
    gigChatSummaries,
    {
      messageCount: sql`message_count + 1`,
      lastMessageId: message.id,
      lastMessageAt: message.createdAt,
      lastSenderId: message.senderId,
      lastSenderType: message.senderType,
      memberMessageCount: sql`member_message_count + ${marks.member ? 1 : 0}`,
      lastMemberMessageAt: marks.member ? message.createdAt : undefined,
      lastMentionAt: marks.mention ? message.createdAt : undefined,
    },
    where("gig_id = ?", gigId),
    ALWAYS,
  );
}

/**
 * The gig's summary as the messages in `held` give it (the room's, once the chat move copied the gig's D1
 * messages into it): written in the room's turn, so no message of the gig is being stored meanwhile.
 */
export async function writeChatSummary(
  deps: Pick<Deps, "db">,
  gigId: string,
  held: { count: number; members: number; last: RoomChatMessage | null; lastMemberAt: string | null; lastMentionAt: string | null },
): Promise<void> {
  if (!held.last) {
    await deps.db.delete(gigChatSummaries).where(eq(gigChatSummaries.gigId, gigId));
    return;
  }
  const row = {
    gigId,
    messageCount: held.count,
    lastMessageId: held.last.id,
    lastMessageAt: held.last.createdAt,
    lastSenderId: held.last.senderId,
    lastSenderType: held.last.senderType,
    memberMessageCount: held.members,
    lastMemberMessageAt: held.lastMemberAt,
    lastMentionAt: held.lastMentionAt,
  };
  await deps.db.insert(gigChatSummaries).values(row).onConflictDoUpdate({ target: gigChatSummaries.gigId, set: row });
}

// ---- History ----------------------------------------------------------------------------------

export const HISTORY_PAGE_MAX = 100;

/**
 * `GET /api/gigs/{id}/messages`: the latest `limit` messages before `before` (a cursor), oldest first,
 * to the gig's parties and the admin. `nextCursor` pages further back.
 */
export async function listChatMessages(
  deps: Pick<Deps, "db" | "env">,
  gigId: string,
  viewer: Viewer,
  page: { limit: number; before?: string },
): Promise<{ messages: ChatMessageView[]; nextCursor: string | null }> {
  const { gig, since } = await gigHistoryForParty(deps, gigId, viewer);
  // An old gig's chat is in its document in R2 (decision 033).
  if (gig.archivedAt) return archivedChatPage(deps, gigId, since, page, gigChatHistory);
  const before = page.before ? decodePageCursor(page.before) : null;
  const rows = await storedMessages(deps, gigId, { since, before, limit: page.limit + 1 });
  const more = rows.length > page.limit;
  const newestFirst = rows.slice(0, page.limit);
  const messages = await chatMessageViews(deps.db, gigId, newestFirst.reverse());
  return { messages, nextCursor: more && messages[0] ? encodePageCursor(messages[0]) : null };
}

/**
 * A gig's messages as stored, newest first: the room's, and any the chat move has not yet copied there from D1
 * (the same message in both is shown once), so a gig reads the same before, during and after its move.
 */
export async function storedMessages(deps: Pick<Deps, "db" | "env">, gigId: string, query: RoomHistoryQuery): Promise<RoomChatMessage[]> {
  const [inRoom, inD1] = await Promise.all([roomOf(deps.env, gigId).chatMessages(query), notYetMoved(deps.db, gigId, query)]);
  if (inD1.length === 0) return inRoom;
  const byId = new Map<string, RoomChatMessage>();
  for (const m of [...inRoom, ...inD1]) if (!byId.has(m.id)) byId.set(m.id, m);
  const merged = [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
  return query.limit ? merged.slice(0, query.limit) : merged;
}

/** A D1 chat row's columns as a room keeps a message (RoomChatMessage): what the move copies and reads join. */
export const STORED_MESSAGE_COLUMNS = {
  id: chatMessages.id,
  senderId: chatMessages.senderId,
  senderType: chatMessages.senderType,
  message: chatMessages.message,
  attachmentId: chatMessages.attachmentId,
  createdAt: chatMessages.createdAt,
};

/** The gig's messages still in D1 (written before each room kept its own), as the room would answer them. */
async function notYetMoved(db: Db, gigId: string, { since, before, limit }: RoomHistoryQuery): Promise<RoomChatMessage[]> {
  const q = db
    .select(STORED_MESSAGE_COLUMNS)
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.gigId, gigId),
        since ? gte(chatMessages.createdAt, since) : undefined,
        before ? or(lt(chatMessages.createdAt, before.createdAt), and(eq(chatMessages.createdAt, before.createdAt), lt(chatMessages.id, before.id))) : undefined,
      ),
    )
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id));
  return limit ? q.limit(limit) : q;
}

/** How many members' messages the gig has up to `at` (the room's and any not yet moved): the admin's read mark. */
export async function memberMessagesUpTo(deps: Pick<Deps, "db" | "env">, gigId: string, at: string): Promise<number> {
  const [inRoom, inD1] = await Promise.all([
    roomOf(deps.env, gigId).memberMessagesUpTo(at),
    deps.db
      .select({ n: count() })
      .from(chatMessages)
      .where(and(eq(chatMessages.gigId, gigId), eq(chatMessages.senderType, "user"), lte(chatMessages.createdAt, at))),
  ]);
  // A message copied into the room but not yet deleted from D1 is in both; the move deletes it right after.
  const moving = inD1[0]?.n ? await heldInBoth(deps, gigId, at) : 0;
  return inRoom + (inD1[0]?.n ?? 0) - moving;
}

/** Members' messages up to `at` that the room holds and D1 still has (a gig in the middle of its move). */
async function heldInBoth(deps: Pick<Deps, "db" | "env">, gigId: string, at: string): Promise<number> {
  const inRoom = new Set((await roomOf(deps.env, gigId).chatMessages({})).filter((m) => m.senderType === "user" && m.createdAt <= at).map((m) => m.id));
  const inD1 = await deps.db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.gigId, gigId), eq(chatMessages.senderType, "user"), lte(chatMessages.createdAt, at)));
  return inD1.filter((m) => inRoom.has(m.id)).length;
}

/** D1 binds at most 100 values a query: ids are looked up in groups. */
function inGroups<T>(ids: string[], size = 90): string[][] {
  const groups: string[][] = [];
  for (let i = 0; i < ids.length; i += size) groups.push(ids.slice(i, i + size));
  return groups;
}

/** The senders' names and pictures (as the members have them now), by id. */
export async function sendersOf(db: Db, rows: RoomChatMessage[]): Promise<Map<string, SenderColumns & object>> {
  const ids = [...new Set(rows.flatMap((m) => (m.senderType === "user" && m.senderId ? [m.senderId] : [])))];
  const found = new Map<string, SenderColumns & object>();
  for (const group of inGroups(ids)) {
    const list = await db
      .select({ id: users.id, username: users.username, displayName: users.displayName, profilePicture: users.profilePicture })
      .from(users)
      .where(inArray(users.id, group));
    for (const { id, ...user } of list) found.set(id, user);
  }
  return found;
}

/** Messages as the chat shows them (oldest first as given): the senders' names and the files from D1. */
async function chatMessageViews(db: Db, gigId: string, rows: RoomChatMessage[]): Promise<ChatMessageView[]> {
  const fileIds = [...new Set(rows.flatMap((m) => (m.attachmentId ? [m.attachmentId] : [])))];
  const [senders, files] = await Promise.all([
    sendersOf(db, rows),
    Promise.all(inGroups(fileIds).map((group) => db.select().from(attachments).where(inArray(attachments.id, group)))).then((lists) => new Map(lists.flat().map((f) => [f.id, f]))),
  ]);
  return rows.map((m) =>
    chatMessageViewOf({ ...m, gigId }, m.senderId ? (senders.get(m.senderId) ?? null) : null, m.attachmentId ? (files.get(m.attachmentId) ?? null) : null),
  );
}

/** Every message of the gig, oldest first (the room's and any not yet moved from D1): for the gig's archive. */
export async function gigChatHistory(env: Env, gigId: string): Promise<ChatMessageView[]> {
  const deps = { db: openDb(env.DB), env };
  const rows = await storedMessages(deps, gigId, {});
  return chatMessageViews(deps.db, gigId, rows.reverse());
}

/** The room deletes the gig's stored messages (its archive holds them now). Running it again does nothing more. */
export async function forgetGigChat(env: Env, gigId: string, ids?: string[]): Promise<void> {
  await roomOf(env, gigId).forgetChat(ids);
}

type SenderColumns = { username: string; displayName: string | null; profilePicture: string | null } | null;

export function chatMessageViewOf(m: RoomChatMessage & { gigId: string }, user: SenderColumns, file: typeof attachments.$inferSelect | null): ChatMessageView {
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
 * The `/ws` upgrade, once the route has checked it: to the gig's room (404 for a gig that does not exist). The
 * upgrade carries no credential (a browser's socket sends none), so who may join is the room's `join_gig` to
 * decide: this checks only that the gig exists, as the platform sees it.
 */
export async function connectToRoom(deps: Pick<Deps, "db" | "env">, gigId: string, upgrade: Request): Promise<Response> {
  await loadGig(deps, gigId, PLATFORM);
  return roomOf(deps.env, gigId).fetch(upgrade);
}

/**
 * Posts a message as the platform admin (the admin REST endpoint calls this): the gig's room stores it in its
 * turn, as it does its sockets' messages, and broadcasts it to whoever is connected. Answers the stored message.
 */
export async function postAdminChatMessage(deps: Pick<Deps, "db" | "env">, gigId: string, text: string): Promise<ChatMessageView> {
  const checked = chatText(text);
  if (!checked.ok) throw badRequest(checked.error);
  await loadGig(deps, gigId, PLATFORM);
  return roomOf(deps.env, gigId).postAdminMessage(gigId, checked.text);
}

/** The room's side of an admin's post: the gig read, then stored as any message is (summary, notifications, the room). */
export async function storeAdminChatMessage(
  deps: Pick<Deps, "db" | "committed">,
  gigId: string,
  text: string,
  createdAt: string,
  room: ChatRoomStore,
): Promise<ChatMessageView> {
  const gig = await findGig(deps, gigId);
  if (!gig) throw new Error("Gig not found");
  return storeChatMessage(deps, gig, { kind: "admin" }, text, null, createdAt, room);
}
