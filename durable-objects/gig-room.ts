// GigRoom: one per gig. Holds the gig's chat sockets (hibernation API, DESIGN.md §7) and watches the
// gig's open funding invoice with alarms, which re-arm only while an invoice is still pending.
import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { z } from "zod";
import {
  chatMessageText,
  clientFrameSchema,
  frameJson,
  type ChatMessageView,
  type ClientFrame,
  type ServerFrame,
} from "../domain/chat-protocol";
import { isParty } from "../domain/gig";
import type { Env } from "../worker/env";
import { makeDeps } from "../worker/composition";
import { gigs, invoices } from "../worker/db/schema";
import { AppError } from "../worker/errors";
import { CHAT_RATE_LIMITED_MESSAGE, countChatMessage } from "../worker/rate-limits";
import { memberForToken } from "../worker/services/auth";
import { chatCredentialKey, chatSendersFor, isChatAdminToken, mayChat, storeChatMessage, type ChatCredential, type ChatSender } from "../worker/services/chat";
import { checkInvoice, expireInvoice } from "../worker/services/escrow";
import type { Deps } from "../worker/services/deps";
import type { GigRow } from "../worker/services/gig-views";

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
}

const isString = (x: unknown): x is string => typeof x === "string";

/** The attachment as a SocketState, or null when it is not one. Checked by hand: a broadcast reads every socket's. */
function socketStateOf(raw: unknown): SocketState | null {
  if (raw === null || typeof raw !== "object") return null;
  const { gigId, credential: c, joined, checkedAt, sent } = raw as Record<string, unknown>;
  if (!isString(gigId) || typeof joined !== "boolean" || typeof checkedAt !== "number" || c === null || typeof c !== "object") return null;
  const cred = c as Record<string, unknown>;
  let credential: Credential;
  if (cred.kind === "none") credential = { kind: "none" };
  else if (cred.kind === "member" && isString(cred.sessionToken) && isString(cred.userId)) credential = { kind: "member", sessionToken: cred.sessionToken, userId: cred.userId };
  else if (cred.kind === "admin" && isString(cred.adminToken)) credential = { kind: "admin", adminToken: cred.adminToken };
  else return null;
  const window = sent as { windowStart?: unknown; count?: unknown } | undefined;
  const counted = window && typeof window.windowStart === "number" && typeof window.count === "number" ? { windowStart: window.windowStart, count: window.count } : undefined;
  return { gigId, credential, joined, checkedAt, sent: counted };
}

/** Sessions checked together, at `at`: each credential's key with who it stands for now (null: ended). */
interface Checked {
  at: number;
  senders: Map<string, ChatSender | null>;
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

export class GigRoom extends DurableObject<Env> {
  /** Frames and admin posts are handled one at a time, so messages are stored and broadcast in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private lastMessageMs = 0;

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
    server.serializeAttachment(state);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    await this.serially(() => this.handleFrame(ws, data));
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      /* already closed */
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1011, "socket error");
    } catch {
      /* already closed */
    }
  }

  /** Admin posts (the admin REST endpoints call this): stored as the platform admin and broadcast. */
  async postAdminMessage(gigId: string, text: string): Promise<ChatMessageView> {
    return this.serially(async () => {
      const deps = this.deps();
      const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) });
      if (!gig) throw new Error("Gig not found");
      const message = await storeChatMessage(deps, gig, { kind: "admin" }, chatMessageText.parse(text), null, this.nextCreatedAt());
      await this.broadcast(deps, gig, message);
      return message;
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
    return socketStateOf(ws.deserializeAttachment());
  }

  private setState(ws: WebSocket, state: SocketState): void {
    ws.serializeAttachment(state);
  }

  private async handleFrame(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const state = this.stateOf(ws);
    if (!state) {
      ws.close(1011, "Connection state lost; please reconnect");
      return;
    }
    const raw = frameJson(data);
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) return sendError(ws, frameProblem(raw, parsed.error));
    const frame = parsed.data;
    const deps = this.deps();
    try {
      switch (frame.type) {
        case "auth":
          return await this.authenticate(deps, ws, state, frame);
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

  private async authenticate(deps: Deps, ws: WebSocket, state: SocketState, frame: Extract<ClientFrame, { type: "auth" }>): Promise<void> {
    let credential: SocketState["credential"];
    if (frame.sessionToken !== undefined) {
      const user = await memberForToken(deps.db, frame.sessionToken);
      if (!user) return sendError(ws, "Invalid or expired session. Please sign in again.");
      credential = { kind: "member", sessionToken: frame.sessionToken, userId: user.id };
    } else {
      if (!(await isChatAdminToken(deps, frame.adminToken!))) return sendError(ws, "Invalid admin token");
      credential = { kind: "admin", adminToken: frame.adminToken! };
    }
    // Signing in again (perhaps as someone else) means joining again.
    this.setState(ws, { ...state, credential, joined: false, checkedAt: Date.now() });
    send(ws, { type: "auth_success" });
  }

  /** Who each credential stands for now (see chatSendersFor), with when that was checked. */
  private async check(deps: Deps, credentials: ChatCredential[]): Promise<Checked> {
    const at = Date.now();
    return { at, senders: await chatSendersFor(deps, credentials) };
  }

  /** Tells a socket that never authenticated; answers whether it is signed in. */
  private signedIn(ws: WebSocket, state: SocketState): state is SocketState & { credential: ChatCredential } {
    if (state.credential.kind !== "none") return true;
    sendError(ws, "Not authenticated: send {type:'auth', sessionToken} first");
    return false;
  }

  /** The socket's sender as `checked` found it; a socket whose session ended is told and closed. */
  private senderFrom(checked: Checked, ws: WebSocket, state: SocketState & { credential: ChatCredential }): ChatSender | null {
    const sender = checked.senders.get(chatCredentialKey(state.credential)) ?? null;
    if (!sender) {
      this.endSession(ws);
      return null;
    }
    this.setState(ws, { ...state, checkedAt: checked.at });
    return sender;
  }

  private endSession(ws: WebSocket): void {
    sendError(ws, "Your session has ended. Please sign in again.");
    try {
      ws.close(SESSION_ENDED_CLOSE_CODE, "Session ended");
    } catch {
      /* already closed */
    }
  }

  private wrongGig(ws: WebSocket, state: SocketState, gigId: string): boolean {
    if (gigId === state.gigId) return false;
    sendError(ws, `This connection is for gig ${state.gigId}; connect to /ws?gigId=${gigId} for that gig`);
    return true;
  }

  private async join(deps: Deps, ws: WebSocket, state: SocketState, frame: Extract<ClientFrame, { type: "join_gig" }>): Promise<void> {
    if (this.wrongGig(ws, state, frame.gigId) || !this.signedIn(ws, state)) return;
    const sender = this.senderFrom(await this.check(deps, [state.credential]), ws, state);
    if (!sender) return;
    const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, state.gigId) });
    if (!gig) return sendError(ws, "Gig not found");
    if (!mayChat(gig, sender)) return sendError(ws, "Only the gig's hirer and worker can join this chat");
    this.setState(ws, { ...this.stateOf(ws)!, joined: true });
    send(ws, { type: "join_success", gigId: gig.id });
  }

  private async chat(deps: Deps, ws: WebSocket, state: SocketState, frame: Extract<ClientFrame, { type: "chat_message" }>): Promise<void> {
    if (this.wrongGig(ws, state, frame.gigId) || !this.signedIn(ws, state)) return;
    const sent = countChatMessage(state.sent, Date.now());
    if (!sent) return sendError(ws, CHAT_RATE_LIMITED_MESSAGE);
    // Kept on the socket before anything else reads or writes its state (senderFrom below writes from it).
    state.sent = sent;
    this.setState(ws, state);
    const text = chatMessageText.safeParse(frame.message);
    // A message that will be sent: the sender's session, the listeners' sessions due for a re-check and the
    // gig are read together, before the message is stored (not later than the store by more than its time).
    const sending = state.joined && text.success;
    const [checked, gig] = await Promise.all([
      this.check(deps, sending ? [state.credential, ...this.staleListeners(state.gigId, Date.now())] : [state.credential]),
      sending ? deps.db.query.gigs.findFirst({ where: eq(gigs.id, state.gigId) }) : undefined,
    ]);
    const sender = this.senderFrom(checked, ws, state);
    if (!sender) return;
    if (!state.joined) return sendError(ws, "Join the gig's chat first: send {type:'join_gig', gigId}");
    if (!text.success) return sendError(ws, text.error.issues[0]?.message ?? "Invalid message");
    if (!gig) return sendError(ws, "Gig not found");
    if (!mayChat(gig, sender)) {
      this.setState(ws, { ...this.stateOf(ws)!, joined: false });
      return sendError(ws, "You are no longer a party of this gig");
    }
    const message = await storeChatMessage(deps, gig, sender, text.data, frame.fileAttachment ?? null, this.nextCreatedAt());
    await this.broadcast(deps, gig, message, checked);
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
   * Sends the message to every joined socket that may still listen. A listener whose session was checked more
   * than RECHECK_LISTENERS_MS ago is re-checked first: by `prechecked` when that covers its credential (the
   * sender's check a moment ago), else with the others in one lookup. A listener whose session ended is closed;
   * one who is no longer a party leaves the room.
   */
  private async broadcast(deps: Deps, gig: GigRow, message: ChatMessageView, prechecked?: Checked): Promise<void> {
    // One serialisation for every socket, and one session check for all the credentials due.
    const text = JSON.stringify({ type: "new_message", message } satisfies ServerFrame);
    const now = Date.now();
    const listeners: { ws: WebSocket; state: SocketState & { credential: ChatCredential }; due: boolean }[] = [];
    const unchecked: ChatCredential[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const state = this.stateOf(ws);
      if (!state?.joined || state.gigId !== gig.id || state.credential.kind === "none") continue;
      if (state.credential.kind === "member" && !isParty(gig, state.credential.userId)) {
        this.setState(ws, { ...state, joined: false });
        continue;
      }
      const signedIn = state as SocketState & { credential: ChatCredential };
      const due = now - state.checkedAt > RECHECK_LISTENERS_MS;
      listeners.push({ ws, state: signedIn, due });
      if (due && !prechecked?.senders.has(chatCredentialKey(signedIn.credential))) unchecked.push(signedIn.credential);
    }
    const checkedNow = unchecked.length ? await this.check(deps, unchecked) : null;
    for (const { ws, state, due } of listeners) {
      if (due) {
        const key = chatCredentialKey(state.credential);
        const checked = checkedNow?.senders.has(key) ? checkedNow : prechecked!;
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
    const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) });
    const invoiceId = gig?.status === "pending_payment" ? gig.fundingInvoiceId : null;
    const invoice = invoiceId ? await deps.db.query.invoices.findFirst({ where: eq(invoices.id, invoiceId) }) : undefined;
    if (!invoice || invoice.status !== "pending") return; // nothing to watch: do not re-arm

    let state: "pending" | "paid" | "expired";
    try {
      state = await checkInvoice(deps, invoice);
      if (state === "expired") await expireInvoice(deps, invoice);
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
