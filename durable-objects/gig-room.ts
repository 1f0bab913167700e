// GigRoom: one per gig. Holds the gig's chat sockets (hibernation API, DESIGN.md §7): it parses frames, keeps
// who each socket is, and broadcasts; every check and every D1 write is one call to the chat service. It keeps
// the gig's chat messages in its own SQLite storage (decision 031): it is their one writer, so their order and
// ids are its own. It also wakes the gig's funding-invoice check with alarms, which re-arm only while an
// invoice is still pending.
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { clientFrameSchema, frameJson, type ChatMessageView, type ClientFrame, type ServerFrame } from "../domain/chat-protocol";
import { isParty } from "../domain/gig";
import type { Env, GigRoomApi, RoomChatMessage, RoomHistoryQuery } from "../worker/env";
import { rememberChatRoom, type EndedSessionsApi } from "../worker/services/session-sockets";
import { makeDeps } from "../worker/composition";
import { AppError } from "../worker/errors";
import { CHAT_RATE_LIMITED_MESSAGE, countChatMessage } from "../worker/rate-limits";
import {
  chatAudience,
  chatCredentialKey,
  checkSessions,
  joinChat,
  mayChat,
  sendChatMessage,
  signInToChat,
  storeAdminChatMessage,
  writeChatSummary,
  type ChatRoomStore,
  type ChatCredential,
  type ChatGig,
  type ChatOutcome,
  type SessionCheck,
} from "../worker/services/chat";
import { checkFunding } from "../worker/services/escrow";
import type { Deps } from "../worker/services/deps";
import { closeSocket } from "./close-socket";

/** Poll quickly at first (a payer is usually at the screen), then back off. */
export function nextCheckDelayMs(watchingSinceMs: number, nowMs: number): number {
  const elapsed = nowMs - watchingSinceMs;
  if (elapsed < 2 * 60_000) return 2_000;
  if (elapsed < 10 * 60_000) return 10_000;
  return 60_000;
}

/** How stale a listener's session check may be before a broadcast re-checks it. */
const RECHECK_LISTENERS_MS = 60_000;

/** Close code for a socket whose session ended (policy violation). */
export const SESSION_ENDED_CLOSE_CODE = 1008;

/**
 * What one socket may try in a minute before it is told so and closed (1008): `auth` frames that fail
 * (unknown session, bad admin token, malformed), `auth` frames in all, and `join_gig` frames. A tab signs in
 * and joins once per connection; only a guesser comes near these.
 */
export const SOCKET_ATTEMPTS = { windowMs: 60_000, authFailures: 5, auths: 10, joins: 10 } as const;
export const TOO_MANY_SIGN_INS = "Too many sign-in attempts on this connection. Please reconnect later.";
export const TOO_MANY_JOINS = "Too many join attempts on this connection. Please reconnect later.";

/** The `auth` and `join_gig` frames a socket sent in its current minute, and how many of its sign-ins failed. */
interface Attempts {
  windowStart: number;
  auths: number;
  authFailures: number;
  joins: number;
}

/**
 * What a socket is, kept on the socket itself (serializeAttachment) so it survives hibernation.
 * The credential is kept so that every frame can re-check that the session still holds.
 */
type Credential = { kind: "none" } | ChatCredential;
interface SocketState {
  gigId: string;
  credential: Credential;
  joined: boolean;
  checkedAt: number;
  /** Chat messages this socket sent in the current window (CHAT_MESSAGES_PER_SOCKET), and when it began. */
  sent?: { windowStart: number; count: number };
  /** Sign-ins and joins in the current minute (SOCKET_ATTEMPTS). */
  attempts?: Attempts;
}

/** The attempts counted afresh when the socket's minute has passed (a copy: the caller counts on it). */
function currentAttempts(attempts: Attempts | undefined, now: number): Attempts {
  return attempts && now - attempts.windowStart < SOCKET_ATTEMPTS.windowMs ? { ...attempts } : { windowStart: now, auths: 0, authFailures: 0, joins: 0 };
}

function attemptsOf(raw: unknown): Attempts | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const { windowStart, auths, authFailures, joins } = raw as Record<string, unknown>;
  return [windowStart, auths, authFailures, joins].every((n) => typeof n === "number")
    ? { windowStart: windowStart as number, auths: auths as number, authFailures: authFailures as number, joins: joins as number }
    : undefined;
}

const isString = (x: unknown): x is string => typeof x === "string";

/** A stored message's row in the room's own SQLite storage. */
type MessageRow = { id: string; sender_id: string | null; sender_type: string; message: string; attachment_id: string | null; created_at: string };

const messageOf = (r: MessageRow): RoomChatMessage => ({
  id: r.id,
  senderId: r.sender_id,
  senderType: r.sender_type === "admin" ? "admin" : "user",
  message: r.message,
  attachmentId: r.attachment_id,
  createdAt: r.created_at,
});

/** The members' messages that count for the admin's unread chats as mentions (as D1's summary rule: ASCII case ignored). */
const MENTION = "sender_type = 'user' AND message LIKE '%@admin%'";

/** The attachment as a SocketState, or null when it is not one. Checked by hand: a broadcast reads every socket's. */
function socketStateOf(raw: unknown): SocketState | null {
  if (raw === null || typeof raw !== "object") return null;
  const { gigId, credential: c, joined, checkedAt, sent, attempts } = raw as Record<string, unknown>;
  if (!isString(gigId) || typeof joined !== "boolean" || typeof checkedAt !== "number" || c === null || typeof c !== "object") return null;
  const cred = c as Record<string, unknown>;
  let credential: Credential;
  if (cred.kind === "none") credential = { kind: "none" };
  else if (cred.kind === "member" && isString(cred.sessionToken) && isString(cred.userId)) credential = { kind: "member", sessionToken: cred.sessionToken, userId: cred.userId };
  else if (cred.kind === "admin" && isString(cred.adminToken)) credential = { kind: "admin", adminToken: cred.adminToken };
  else return null;
  const window = sent as { windowStart?: unknown; count?: unknown } | undefined;
  const counted = window && typeof window.windowStart === "number" && typeof window.count === "number" ? { windowStart: window.windowStart, count: window.count } : undefined;
  return { gigId, credential, joined, checkedAt, sent: counted, attempts: attemptsOf(attempts) };
}

function send(ws: WebSocket, frame: ServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    /* the socket is closing; nothing to tell it */
  }
}

const sendError = (ws: WebSocket, message: string) => send(ws, { type: "error", message });

/** A client-readable reason a frame was refused. */
function frameProblem(raw: unknown, error: z.ZodError): string {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return "Frames must be JSON objects";
  const type = (raw as { type?: unknown }).type;
  if (type !== "auth" && type !== "join_gig" && type !== "chat_message") return `Unknown frame type: ${String(type)}`;
  const issue = error.issues[0];
  if (!issue) return "Invalid frame";
  return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

export class GigRoom extends DurableObject<Env> implements GigRoomApi, EndedSessionsApi {
  /** Frames and admin posts are handled one at a time, so messages are stored and broadcast in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private lastMessageMs = 0;
  /**
   * Each socket's state as last kept (setState), while the room is awake: a broadcast reads every socket's, and
   * reading it back from the socket's attachment (a structured clone) for each of them on every message was most
   * of a broadcast's work. The attachment stays the copy that survives hibernation; after a wake the cache is
   * empty and each socket's state is read from it once.
   */
  private readonly states = new WeakMap<WebSocket, SocketState>();
  /** The chat service hands the room each message to keep once D1 has its summary and notifications. */
  private readonly keeper: ChatRoomStore = { keep: (message) => this.keep(message) };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(
      `CREATE TABLE IF NOT EXISTS chat_messages (
         id TEXT PRIMARY KEY, sender_id TEXT, sender_type TEXT NOT NULL, message TEXT NOT NULL, attachment_id TEXT, created_at TEXT NOT NULL
       )`,
    );
    sql.exec("CREATE INDEX IF NOT EXISTS chat_messages_order ON chat_messages (created_at, id)");
    // After a wake, new messages still come after every stored one.
    const newest = sql.exec<{ at: string | null }>("SELECT MAX(created_at) AS at FROM chat_messages").one().at;
    if (newest) this.lastMessageMs = Date.parse(newest);
  }

  // ---- Chat sockets ---------------------------------------------------------------------------

  /** The Worker checked the upgrade, the origin and the gig; the room accepts the socket. */
  async fetch(request: Request): Promise<Response> {
    const gigId = new URL(request.url).searchParams.get("gigId");
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !gigId) {
      return Response.json({ message: "Expected a WebSocket upgrade for a gig", error: "upgrade_required" }, { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    const state: SocketState = { gigId, credential: { kind: "none" }, joined: false, checkedAt: 0 };
    this.setState(server, state);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    await this.serially(() => this.handleFrame(ws, data));
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(ws, code, reason);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    closeSocket(ws, 1011, "socket error");
  }

  /** The admin's post: stored in the room's turn (its time after every message before it) and broadcast. */
  async postAdminMessage(gigId: string, text: string): Promise<ChatMessageView> {
    return this.serially(async () => {
      const message = await storeAdminChatMessage(this.deps(), gigId, text, this.nextCreatedAt(), this.keeper);
      const { gig, checked } = await chatAudience(this.deps(), gigId, this.staleListeners(gigId, Date.now()));
      if (gig) this.broadcast(gig, message, checked);
      return message;
    });
  }

  /** A message stored outside the room: sent to the sockets that may still listen, in turn with the room's own. */
  async broadcastMessage(gigId: string, message: ChatMessageView): Promise<void> {
    await this.serially(async () => {
      this.lastMessageMs = Math.max(this.lastMessageMs, Date.parse(message.createdAt));
      const { gig, checked } = await chatAudience(this.deps(), gigId, this.staleListeners(gigId, Date.now()));
      if (gig) this.broadcast(gig, message, checked);
    });
  }

  /**
   * The member's sessions changed (some ended: worker/services/auth.ts, through their inbox): their sockets in
   * this room whose session ended are told so and closed at once (1008), joined or not. One D1 query. Answers
   * how many of the member's sockets stay open here.
   */
  async closeEndedSessions(userId: string): Promise<number> {
    return this.serially(async () => {
      const theirs = this.ctx.getWebSockets().flatMap((ws) => {
        const state = this.stateOf(ws);
        return state && state.credential.kind === "member" && state.credential.userId === userId ? [{ ws, state, credential: state.credential }] : [];
      });
      if (theirs.length === 0) return 0;
      const checked = await checkSessions(this.deps(), theirs.map((t) => t.credential));
      let open = 0;
      for (const { ws, state, credential } of theirs) {
        if (!checked.senders.get(chatCredentialKey(credential))) {
          this.setState(ws, { ...state, joined: false });
          this.endSession(ws);
          continue;
        }
        this.setState(ws, { ...state, checkedAt: checked.at });
        open++;
      }
      return open;
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private deps(): Deps {
    return makeDeps(this.env, (work) => this.ctx.waitUntil(work()));
  }

  /** Strictly increasing per room, so history order is broadcast order. */
  private nextCreatedAt(): string {
    this.lastMessageMs = Math.max(Date.now(), this.lastMessageMs + 1);
    return new Date(this.lastMessageMs).toISOString();
  }

  private stateOf(ws: WebSocket): SocketState | null {
    const kept = this.states.get(ws);
    if (kept) return kept;
    const state = socketStateOf(ws.deserializeAttachment());
    if (state) this.states.set(ws, state);
    return state;
  }

  /** Keeps a socket's new state on the socket (for hibernation) and in the room's cache. States are never changed in place. */
  private setState(ws: WebSocket, state: SocketState): void {
    ws.serializeAttachment(state);
    this.states.set(ws, state);
  }

  private async handleFrame(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    let state = this.stateOf(ws);
    if (!state) {
      ws.close(1011, "Connection state lost; please reconnect");
      return;
    }
    const raw = frameJson(data);
    const type = raw !== null && typeof raw === "object" ? (raw as { type?: unknown }).type : undefined;
    if (type === "auth" || type === "join_gig") {
      // Counted before anything is checked, malformed frames too.
      const attempts = currentAttempts(state.attempts, Date.now());
      if (type === "auth") attempts.auths++;
      else attempts.joins++;
      if (attempts.auths > SOCKET_ATTEMPTS.auths) return this.tooMany(ws, TOO_MANY_SIGN_INS);
      if (attempts.joins > SOCKET_ATTEMPTS.joins) return this.tooMany(ws, TOO_MANY_JOINS);
      state = { ...state, attempts: { ...attempts } };
      this.setState(ws, state);
    }
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) {
      sendError(ws, frameProblem(raw, parsed.error));
      if (type === "auth") this.signInFailed(ws);
      return;
    }
    const frame = parsed.data;
    // What the chat service leaves to run after its answer (announcing a message's notifications to the members'
    // open tabs) starts once the frame is handled: after the message went out to every socket of the room, so that
    // work, on the same runtime, does not come between the room and its broadcast.
    const afterwards: (() => Promise<unknown>)[] = [];
    const deps = makeDeps(this.env, (work) => afterwards.push(work));
    try {
      return await this.handleParsedFrame(deps, ws, state, frame);
    } finally {
      for (const work of afterwards) this.ctx.waitUntil(Promise.resolve().then(work));
    }
  }

  private async handleParsedFrame(deps: Deps, ws: WebSocket, state: SocketState, frame: ClientFrame): Promise<void> {
    try {
      switch (frame.type) {
        case "auth":
          try {
            return await this.authenticate(deps, ws, state, frame);
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            sendError(ws, err.message);
            return this.signInFailed(ws);
          }
        case "join_gig":
          return await this.join(deps, ws, state, frame);
        case "chat_message":
          return await this.chat(deps, ws, state, frame);
        default: {
          const unknownFrame: never = frame;
          return sendError(ws, `Unknown frame type: ${String((unknownFrame as { type?: unknown }).type)}`);
        }
      }
    } catch (err) {
      if (err instanceof AppError) return sendError(ws, err.message);
      console.error("chat frame failed", err);
      sendError(ws, "Something went wrong. Please try again.");
    }
  }

  /** Counts a failed sign-in; the last one allowed in the minute closes the socket. */
  private signInFailed(ws: WebSocket): void {
    const state = this.stateOf(ws);
    if (!state) return;
    const attempts = currentAttempts(state.attempts, Date.now());
    const counted = { ...attempts, authFailures: attempts.authFailures + 1 };
    this.setState(ws, { ...state, attempts: counted });
    if (counted.authFailures >= SOCKET_ATTEMPTS.authFailures) this.tooMany(ws, TOO_MANY_SIGN_INS);
  }

  /** Tells a socket it tried too often, and closes it (policy violation). */
  private tooMany(ws: WebSocket, message: string): void {
    sendError(ws, message);
    closeSocket(ws, SESSION_ENDED_CLOSE_CODE, "Too many attempts");
  }

  private async authenticate(deps: Deps, ws: WebSocket, state: SocketState, frame: Extract<ClientFrame, { type: "auth" }>): Promise<void> {
    const credential = await signInToChat(deps, frame);
    // Signing in again (perhaps as someone else) means joining again.
    this.setState(ws, { ...state, credential, joined: false, checkedAt: Date.now() });
    send(ws, { type: "auth_success" });
  }

  /** Tells a socket that never authenticated; answers whether it is signed in. */
  private signedIn(ws: WebSocket, state: SocketState): state is SocketState & { credential: ChatCredential } {
    if (state.credential.kind !== "none") return true;
    sendError(ws, "Not authenticated: send {type:'auth', sessionToken} first");
    return false;
  }

  /**
   * Keeps what the chat service found on the socket: a session that ended closes it; otherwise the check's time
   * is kept, a refusal is told (leaving the room when the sender is no longer a party). Answers whether it went through.
   */
  private settle<T>(ws: WebSocket, outcome: ChatOutcome<T>): outcome is ChatOutcome<T> & { kind: "done" } {
    if (outcome.kind === "ended") {
      this.endSession(ws);
      return false;
    }
    const state = this.stateOf(ws)!;
    this.setState(ws, { ...state, checkedAt: outcome.checked.at, joined: outcome.kind === "refused" && outcome.leave ? false : state.joined });
    if (outcome.kind === "refused") {
      sendError(ws, outcome.error);
      return false;
    }
    return true;
  }

  private endSession(ws: WebSocket): void {
    sendError(ws, "Your session has ended. Please log in again.");
    closeSocket(ws, SESSION_ENDED_CLOSE_CODE, "Session ended");
  }

  private wrongGig(ws: WebSocket, state: SocketState, gigId: string): boolean {
    if (gigId === state.gigId) return false;
    sendError(ws, `This connection is for gig ${state.gigId}; connect to /ws?gigId=${gigId} for that gig`);
    return true;
  }

  private async join(deps: Deps, ws: WebSocket, state: SocketState, frame: Extract<ClientFrame, { type: "join_gig" }>): Promise<void> {
    if (this.wrongGig(ws, state, frame.gigId) || !this.signedIn(ws, state)) return;
    const outcome = await joinChat(deps, state.gigId, state.credential);
    if (!this.settle(ws, outcome)) return;
    this.setState(ws, { ...this.stateOf(ws)!, joined: true });
    // The member's inbox learns of this room, so that when their session ends this socket is closed at once.
    if (state.credential.kind === "member") await rememberChatRoom(this.env, state.credential.userId, state.gigId);
    send(ws, { type: "join_success", gigId: outcome.gig.id });
  }

  private async chat(deps: Deps, ws: WebSocket, state: SocketState, frame: Extract<ClientFrame, { type: "chat_message" }>): Promise<void> {
    if (this.wrongGig(ws, state, frame.gigId) || !this.signedIn(ws, state)) return;
    const sent = countChatMessage(state.sent, Date.now());
    if (!sent) return sendError(ws, CHAT_RATE_LIMITED_MESSAGE);
    // Kept on the socket before anything else reads or writes its state (settle below writes from it).
    this.setState(ws, { ...state, sent });
    const outcome = await sendChatMessage(deps, {
      gigId: state.gigId,
      credential: state.credential,
      joined: state.joined,
      text: frame.message,
      fileAttachment: frame.fileAttachment ?? null,
      createdAt: this.nextCreatedAt(),
      recheck: this.staleListeners(state.gigId, Date.now()),
    }, this.keeper);
    if (this.settle(ws, outcome)) this.broadcast(outcome.gig, outcome.message, outcome.checked);
  }

  /** The credentials of the joined sockets whose session was checked more than RECHECK_LISTENERS_MS before `now`. */
  private staleListeners(gigId: string, now: number): ChatCredential[] {
    const stale: ChatCredential[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const state = this.stateOf(ws);
      if (state?.joined && state.gigId === gigId && state.credential.kind !== "none" && now - state.checkedAt > RECHECK_LISTENERS_MS) {
        stale.push(state.credential);
      }
    }
    return stale;
  }

  /**
   * Sends the message to every joined socket that may still listen. A listener whose session was due for a
   * re-check was checked by the chat service with the message (`checked`): one whose session ended is closed,
   * one who is no longer a party leaves the room.
   */
  private broadcast(gig: ChatGig, message: ChatMessageView, checked: SessionCheck): void {
    // One serialisation for every socket.
    const text = JSON.stringify({ type: "new_message", message } satisfies ServerFrame);
    for (const ws of this.ctx.getWebSockets()) {
      const state = this.stateOf(ws);
      if (!state?.joined || state.gigId !== gig.id || state.credential.kind === "none") continue;
      if (state.credential.kind === "member" && !isParty(gig, state.credential.userId)) {
        this.setState(ws, { ...state, joined: false });
        continue;
      }
      const key = chatCredentialKey(state.credential);
      if (checked.senders.has(key)) {
        const sender = checked.senders.get(key) ?? null;
        if (!sender) {
          this.endSession(ws);
          continue;
        }
        if (!mayChat(gig, sender)) {
          this.setState(ws, { ...state, joined: false });
          continue;
        }
        this.setState(ws, { ...state, checkedAt: checked.at });
      }
      try {
        ws.send(text);
      } catch {
        /* the socket is closing; nothing to tell it */
      }
    }
  }

  // ---- The gig's chat history -----------------------------------------------------------------

  private keep(message: RoomChatMessage): void {
    this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO chat_messages (id, sender_id, sender_type, message, attachment_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      message.id,
      message.senderId,
      message.senderType,
      message.message,
      message.attachmentId,
      message.createdAt,
    );
  }

  async chatMessages(query: RoomHistoryQuery): Promise<RoomChatMessage[]> {
    const conditions: string[] = [];
    const params: (string | number)[] = [];
    if (query.since) {
      conditions.push("created_at >= ?");
      params.push(query.since);
    }
    if (query.before) {
      conditions.push("(created_at < ? OR (created_at = ? AND id < ?))");
      params.push(query.before.createdAt, query.before.createdAt, query.before.id);
    }
    const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
    params.push(query.limit ?? -1);
    return this.ctx.storage.sql
      .exec<MessageRow>(`SELECT id, sender_id, sender_type, message, attachment_id, created_at FROM chat_messages ${where} ORDER BY created_at DESC, id DESC LIMIT ?`, ...params)
      .toArray()
      .map(messageOf);
  }

  async memberMessagesUpTo(at: string): Promise<number> {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM chat_messages WHERE sender_type = 'user' AND created_at <= ?", at).one().n;
  }

  /** In the room's turn, so a message being sent meanwhile keeps its place after these. */
  async importChatMessages(_gigId: string, messages: RoomChatMessage[]): Promise<string[]> {
    return this.serially(async () => {
      const held: string[] = [];
      for (const message of messages) {
        this.keep(message);
        if (this.ctx.storage.sql.exec("SELECT 1 FROM chat_messages WHERE id = ?", message.id).toArray().length) held.push(message.id);
        this.lastMessageMs = Math.max(this.lastMessageMs, Date.parse(message.createdAt));
      }
      return held;
    });
  }

  async settleChatSummary(gigId: string): Promise<void> {
    await this.serially(async () => {
      const sql = this.ctx.storage.sql;
      const totals = sql
        .exec<{ count: number; members: number; lastMemberAt: string | null; lastMentionAt: string | null }>(
          `SELECT COUNT(*) AS count, COALESCE(SUM(sender_type = 'user'), 0) AS members,
                  MAX(CASE WHEN sender_type = 'user' THEN created_at END) AS lastMemberAt,
                  MAX(CASE WHEN ${MENTION} THEN created_at END) AS lastMentionAt
           FROM chat_messages`,
        )
        .one();
      const last = sql.exec<MessageRow>("SELECT id, sender_id, sender_type, message, attachment_id, created_at FROM chat_messages ORDER BY created_at DESC, id DESC LIMIT 1").toArray()[0];
      await writeChatSummary(this.deps(), gigId, { ...totals, last: last ? messageOf(last) : null });
    });
  }

  /** Forgets the stored messages named (an archive holds them now); all of them when none are named. */
  async forgetChat(ids?: string[]): Promise<void> {
    await this.serially(async () => {
      if (ids) this.ctx.storage.sql.exec("DELETE FROM chat_messages WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
      else this.ctx.storage.sql.exec("DELETE FROM chat_messages");
    });
  }

  // ---- Funding invoice watcher ----------------------------------------------------------------

  /** Starts (or keeps) watching the gig's funding invoice. */
  async watchFunding(gigId: string): Promise<void> {
    await this.ctx.storage.put("gigId", gigId);
    await this.ctx.storage.put("watchingSince", Date.now());
    const current = await this.ctx.storage.getAlarm();
    if (current === null) await this.ctx.storage.setAlarm(Date.now() + 2_000);
  }

  async alarm(): Promise<void> {
    const gigId = await this.ctx.storage.get<string>("gigId");
    if (!gigId) return;
    const pending: Promise<unknown>[] = [];
    const deps = makeDeps(this.env, (work) => pending.push(work()));
    let state: "pending" | "done";
    try {
      state = await checkFunding(deps, gigId);
    } catch (err) {
      console.error("invoice check failed; will try again", err);
      state = "pending";
    }
    await Promise.allSettled(pending);
    if (state === "pending") {
      const since = (await this.ctx.storage.get<number>("watchingSince")) ?? Date.now();
      await this.ctx.storage.setAlarm(Date.now() + nextCheckDelayMs(since, Date.now()));
    }
  }
}
