// MemberInbox: one per member. Holds their open tabs' notification sockets (hibernation API): the unread
// count as a socket opens, then each new notification as it is written (announced after the change that
// wrote it commits: worker/composition.ts). It reads through the notifications service only; a tab whose
// session ended is told so and closed. Tabs send nothing: any frame they send is ignored. It also keeps which
// gigs' chat rooms the member joined, so that when their sessions end (worker/services/auth.ts) it closes its
// own tabs and the member's sockets in those rooms at once.
// It also holds the member's live sessions (docs/decisions/032): every request of the member is checked here,
// not in the database, and signing out, "sign out everywhere" and deleting the account end them here first. So
// whether a tab's session still holds is told from here too; only a tab whose session it never held (a token
// from before 032) is checked in the database.
import { DurableObject } from "cloudflare:workers";
import { INBOX_PROTOCOL, type InboxFrame } from "../domain/notifications";
import { makeDeps } from "../worker/composition";
import type { Env, InboxSession, MemberInboxApi, OpenedSession } from "../worker/env";
import { inboxNews, liveSessionsInDatabase, unreadCount } from "../worker/services/notifications";
import { chatRoomOf, type InboxRoomsApi } from "../worker/services/session-sockets";
import { LAST_USED_GRANULARITY_MS, removeEndedSessionRow, SESSION_TTL_MS } from "../worker/services/auth";
import type { Deps } from "../worker/services/deps";
import { closeSocket } from "./close-socket";
import { openSealedSessionToken } from "../worker/auth/signed-sessions";

/** Close code for a tab whose session ended (policy violation), as the chat room's. */
export const INBOX_SESSION_ENDED_CLOSE_CODE = 1008;

/** What a socket is, kept on it (serializeAttachment) so it survives hibernation. */
interface TabState {
  userId: string;
  sessionId: string;
  /**
   * The inbox held the tab's session when it opened: once it no longer does, the session ended. Absent on a tab
   * of a session from before (and on sockets opened before this was kept): checked in the database.
   */
  heldHere?: boolean;
}

function tabStateOf(raw: unknown): TabState | null {
  if (raw === null || typeof raw !== "object") return null;
  const { userId, sessionId, heldHere } = raw as Record<string, unknown>;
  return typeof userId === "string" && typeof sessionId === "string" ? { userId, sessionId, heldHere: heldHere === true } : null;
}

function send(ws: WebSocket, frame: InboxFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    /* the socket is closing; nothing to tell it */
  }
}

/** Storage keys of the rooms the member joined: `room:<gigId>` → when last joined. */
const ROOM_KEY = "room:";

/** Storage keys of the member's live sessions: `session:<SHA-256 of the token's secret>` → StoredSession. */
const SESSION_KEY = "session:";
/** Sessions opened at or before this time (ms) may not be added any more: "sign out everywhere" ran then. */
const ENDED_BEFORE_KEY = "sessions-ended-before";
/**
 * When the first of the sessions held here ends (ms), or later (a session that ended early is not taken off it):
 * until then none has expired, so a sign-in need not look through them. Absent: not known yet (look).
 */
const FIRST_EXPIRY_KEY = "sessions-first-expiry";
/** Set once the account is deleted: no session of it opens again. */
const REMOVED_KEY = "account-removed";
/**
 * Sessions that ended (signed out, one device from the sessions list) while a sealed token of theirs may still be
 * offered: `ended:<session id>` → until when to remember it (ms, the session's own end at the latest), so the
 * token's seal cannot take the session in again (docs/decisions/035).
 */
const ENDED_KEY = "ended:";

interface StoredSession {
  id: string;
  /** When the session ends (ms). */
  expiresAt: number;
  nostrPubkey: string | null;
  /** When a request last used it (ms), kept at most every LAST_USED_GRANULARITY_MS. */
  lastUsedAt: number;
}

export class MemberInbox extends DurableObject<Env> implements MemberInboxApi, InboxRoomsApi {
  /** Openings and announcements are handled one at a time, so each tab's counts arrive in order. */
  private queue: Promise<unknown> = Promise.resolve();

  /** The Worker checked the upgrade, the origin and the session (worker/routes/notifications.ts). */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const userId = url.searchParams.get("userId");
    const sessionId = url.searchParams.get("sessionId");
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !userId || !sessionId) {
      return Response.json({ message: "Expected a WebSocket upgrade for a member", error: "upgrade_required" }, { status: 426 });
    }
    const heldHere = (await this.heldSessionIds(Date.now())).has(sessionId);
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId, sessionId, heldHere } satisfies TabState);
    // Read after the socket is accepted: a notification written from now on is announced to it as well.
    this.serially(async () => send(server, { type: "unread_count", count: await unreadCount(this.deps(), userId) })).catch(() => undefined);
    return new Response(null, { status: 101, webSocket: client, headers: { "Sec-WebSocket-Protocol": INBOX_PROTOCOL } });
  }

  /** Tabs only listen. */
  async webSocketMessage(): Promise<void> {}

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeSocket(ws, code, reason);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    closeSocket(ws, 1011, "socket error");
  }

  /** A socket of the member joined a gig's chat (the GigRoom tells): remembered until their sockets there are gone. */
  async rememberRoom(gigId: string): Promise<void> {
    await this.ctx.storage.put(`${ROOM_KEY}${gigId}`, Date.now());
  }

  /**
   * Some of the member's sessions ended: the tabs whose session ended are told so and closed (1008), and every
   * room the member joined closes theirs. A room where none of the member's sockets stays open is forgotten.
   * Answers how many of the member's tabs stay open.
   */
  async closeEndedSessions(userId: string): Promise<number> {
    const [open] = await Promise.all([this.serially(() => this.closeEndedTabs(userId)), this.closeEndedInRooms(userId)]);
    return open;
  }

  private async closeEndedTabs(userId: string): Promise<number> {
    const tabs = this.tabs();
    if (tabs.length === 0) return 0;
    const liveSessions = await this.liveSessions(userId, tabs);
    let open = 0;
    for (const { ws, state } of tabs) {
      if (liveSessions.has(state.sessionId)) open++;
      else this.endTab(ws);
    }
    return open;
  }

  private async closeEndedInRooms(userId: string): Promise<void> {
    const rooms = await this.ctx.storage.list<number>({ prefix: ROOM_KEY });
    // Joined longer ago than a session lives: that socket's session has expired, and its room closes it itself.
    const expired = Date.now() - SESSION_TTL_MS;
    await Promise.all(
      [...rooms].map(async ([key, joinedAt]) => {
        try {
          if (joinedAt < expired) return await this.ctx.storage.delete(key);
          const open = await chatRoomOf(this.env, key.slice(ROOM_KEY.length)).closeEndedSessions(userId);
          if (open === 0) await this.ctx.storage.delete(key);
        } catch (err) {
          console.error("could not close a chat room's ended sockets", key, err);
        }
      }),
    );
  }

  // ---- The member's sessions (worker/auth/member-sessions.ts asks) ----------------------------------------
  // Not queued behind the tabs' work: a request's check must not wait for a notification to be read.

  /**
   * A sign-in wrote the session (its row in the database); from now on requests carrying its token open it.
   * Refused (false) when the account was deleted, or "sign out everywhere" ran after the sign-in began.
   */
  async openSession(tokenKey: string, session: OpenedSession): Promise<boolean> {
    // One read of the three marks, not a listing of every session the member holds on every sign-in.
    const marks = await this.ctx.storage.get<unknown>([REMOVED_KEY, ENDED_BEFORE_KEY, FIRST_EXPIRY_KEY]);
    if (marks.get(REMOVED_KEY)) return false;
    const endedBefore = (marks.get(ENDED_BEFORE_KEY) as number | undefined) ?? 0;
    if (session.openedAt <= endedBefore) return false;
    // Not used through here yet: its first request writes "last used" to the sessions list, then every few minutes.
    const stored: StoredSession = { id: session.id, expiresAt: session.expiresAt, nostrPubkey: session.nostrPubkey, lastUsedAt: 0 };
    await this.holdSession(tokenKey, stored, marks.get(FIRST_EXPIRY_KEY) as number | undefined, Date.now());
    return true;
  }

  /** Keeps a session here, and when the first of those held ends (`firstExpiry`: what that mark said when read). */
  private async holdSession(tokenKey: string, stored: StoredSession, firstExpiry: number | undefined, now: number): Promise<void> {
    // Some session held here has expired by now: drop those (and learn when the next one ends) as this one arrives.
    const held = firstExpiry === undefined || firstExpiry <= now ? await this.forgetExpiredSessions(now) : firstExpiry;
    const next = held === null ? stored.expiresAt : Math.min(held, stored.expiresAt);
    await this.ctx.storage.put<unknown>({ [`${SESSION_KEY}${tokenKey}`]: stored, ...(next !== firstExpiry ? { [FIRST_EXPIRY_KEY]: next } : {}) });
  }

  /**
   * The live session a token's key opens, or null (unknown, ended or expired). `touched` says its "last used"
   * moved on here, so the sessions list's copy is due to be written too (at most every few minutes). A sealed token
   * (docs/decisions/035) of a session not held here yet is taken in at its first request: see takeInSealedSession.
   */
  async checkSession(tokenKey: string, sealedToken?: string | null, now = Date.now()): Promise<InboxSession | null> {
    const key = `${SESSION_KEY}${tokenKey}`;
    const stored = await this.ctx.storage.get<StoredSession>(key);
    if (!stored) return sealedToken ? this.takeInSealedSession(tokenKey, sealedToken, now) : null;
    if (stored.expiresAt <= now) {
      await this.ctx.storage.delete(key);
      return null;
    }
    const touched = stored.lastUsedAt < now - LAST_USED_GRANULARITY_MS;
    if (touched) await this.ctx.storage.put(key, { ...stored, lastUsedAt: now } satisfies StoredSession);
    return { sessionId: stored.id, nostrPubkey: stored.nostrPubkey, expiresAt: stored.expiresAt, touched };
  }

  /**
   * A sealed token's session, not held here yet, at its first request: taken in when the seal holds (this
   * deployment's key, this member, this token's key, not expired) and nothing ended it meanwhile: not signed out
   * (an `ended:` mark), not "sign out everywhere" after it opened, the account not deleted. Its first request
   * writes "last used" to the sessions list (touched). A session refused here for having ended also leaves the
   * sessions list, should its row have outlived the ending (a sign-in that raced "sign out everywhere").
   */
  private async takeInSealedSession(tokenKey: string, token: string, now: number): Promise<InboxSession | null> {
    const userId = token.slice(0, token.indexOf("."));
    // All the checking that is not storage first: from the marks' read to the session's write nothing else runs
    // here (the input gate), so an ending that arrives meanwhile is either seen or sees the session.
    const opened = await openSealedSessionToken(this.env, userId, token, now);
    if (!opened || opened.tokenKey !== tokenKey) return null;
    const endedMark = `${ENDED_KEY}${opened.id}`;
    const marks = await this.ctx.storage.get<unknown>([REMOVED_KEY, ENDED_BEFORE_KEY, FIRST_EXPIRY_KEY, endedMark]);
    const endedBefore = (marks.get(ENDED_BEFORE_KEY) as number | undefined) ?? 0;
    if (marks.get(REMOVED_KEY) || marks.get(endedMark) !== undefined || opened.openedAt <= endedBefore) {
      await removeEndedSessionRow(this.deps(), opened.id);
      return null;
    }
    await this.holdSession(tokenKey, { id: opened.id, expiresAt: opened.expiresAt, nostrPubkey: opened.nostrPubkey, lastUsedAt: now }, marks.get(FIRST_EXPIRY_KEY) as number | undefined, now);
    return { sessionId: opened.id, nostrPubkey: opened.nostrPubkey, expiresAt: opened.expiresAt, touched: true };
  }

  /** Sign-out: the session a token's key opens ends (`sessionId`: the session the sign-out names, held here or not). */
  async endSessionByKey(tokenKey: string, sessionId?: string): Promise<void> {
    const key = `${SESSION_KEY}${tokenKey}`;
    const stored = await this.ctx.storage.get<StoredSession>(key);
    const id = stored?.id ?? sessionId;
    await this.ctx.storage.delete(key);
    if (id) await this.rememberEnded(id, stored?.expiresAt);
  }

  /** One device signed out from the sessions list: the session with this id ends. Answers whether it was here. */
  async endSessionById(sessionId: string): Promise<boolean> {
    const held = [...(await this.storedSessions())].filter(([, s]) => s.id === sessionId);
    await this.deleteKeys(held.map(([key]) => key));
    await this.rememberEnded(sessionId, held[0]?.[1].expiresAt);
    return held.length > 0;
  }

  /** A session that ended, remembered until it would have expired (`until`, else the longest a session lives). */
  private async rememberEnded(sessionId: string, until = Date.now() + SESSION_TTL_MS): Promise<void> {
    await this.ctx.storage.put<number>(`${ENDED_KEY}${sessionId}`, until);
  }

  /** "Sign out everywhere" (at `at`, ms): every session ends, and none opened by then may be added later. */
  async endAllSessions(at: number): Promise<void> {
    await this.deleteKeys([...(await this.storedSessions()).keys()]);
    const before = (await this.ctx.storage.get<number>(ENDED_BEFORE_KEY)) ?? 0;
    await this.ctx.storage.put(ENDED_BEFORE_KEY, Math.max(before, at));
  }

  /** The account was deleted: every session ends, and none opens again. */
  async accountRemoved(): Promise<void> {
    await this.ctx.storage.put(REMOVED_KEY, true);
    await this.deleteKeys([...(await this.storedSessions()).keys()]);
  }

  /** The ids of the live sessions this inbox holds (an expired one is not live). */
  private async heldSessionIds(now: number): Promise<Set<string>> {
    if (await this.ctx.storage.get<boolean>(REMOVED_KEY)) return new Set();
    return new Set([...(await this.storedSessions()).values()].filter((s) => s.expiresAt > now).map((s) => s.id));
  }

  /**
   * Which of the tabs' sessions are live: a session held here is; one held when its tab opened and gone since
   * has ended (signed out, everywhere, the account deleted, expired). Only a tab whose session was never held here
   * (a token from before decision 032, or a sign-in the inbox could not take) is asked of the database.
   */
  private async liveSessions(userId: string, tabs: { state: TabState }[]): Promise<Set<string>> {
    const held = await this.heldSessionIds(Date.now());
    const live = new Set<string>();
    const notHeld = new Set<string>();
    for (const { state } of tabs) {
      if (held.has(state.sessionId)) live.add(state.sessionId);
      else if (!state.heldHere) notHeld.add(state.sessionId);
    }
    if (notHeld.size > 0 && !(await this.ctx.storage.get<boolean>(REMOVED_KEY))) {
      for (const id of await liveSessionsInDatabase(this.deps(), userId, [...notHeld])) live.add(id);
    }
    return live;
  }

  private storedSessions(): Promise<Map<string, StoredSession>> {
    return this.ctx.storage.list<StoredSession>({ prefix: SESSION_KEY });
  }

  /**
   * Sessions past their expiry are dropped as new ones arrive, so the list stays as long as the live ones; only
   * when one has expired (FIRST_EXPIRY_KEY says when the first does). Answers when the first of the rest ends, or
   * null when none is left.
   */
  private async forgetExpiredSessions(now: number): Promise<number | null> {
    const expired: string[] = [];
    let first: number | null = null;
    for (const [key, s] of await this.storedSessions()) {
      if (s.expiresAt <= now) expired.push(key);
      else if (first === null || s.expiresAt < first) first = s.expiresAt;
    }
    // Ended sessions' marks outlive nothing: once the session would have expired, its token is refused as expired.
    for (const [key, until] of await this.ctx.storage.list<number>({ prefix: ENDED_KEY })) if (until <= now) expired.push(key);
    await this.deleteKeys(expired);
    return first;
  }

  /** Storage deletes at most 128 keys a call. */
  private async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 128) await this.ctx.storage.delete(keys.slice(i, i + 128));
  }

  private tabs(): { ws: WebSocket; state: TabState }[] {
    return this.ctx.getWebSockets().flatMap((ws) => {
      const state = tabStateOf(ws.deserializeAttachment());
      return state ? [{ ws, state }] : [];
    });
  }

  private endTab(ws: WebSocket): void {
    send(ws, { type: "error", message: "Your session has ended. Please log in again." });
    closeSocket(ws, INBOX_SESSION_ENDED_CLOSE_CODE, "Session ended");
  }

  async announce(notificationIds: string[]): Promise<void> {
    await this.serially(async () => {
      const tabs = this.tabs();
      // No open tab: nothing to read or tell (the bell reads the count when it next opens).
      if (tabs.length === 0) return;
      const userId = tabs[0]!.state.userId;
      const [liveSessions, news] = await Promise.all([this.liveSessions(userId, tabs), inboxNews(this.deps(), userId, notificationIds)]);
      const frames = news.notifications.map((notification) => JSON.stringify({ type: "notification", notification, unreadCount: news.unreadCount } satisfies InboxFrame));
      for (const { ws, state } of tabs) {
        if (!liveSessions.has(state.sessionId)) {
          this.endTab(ws);
          continue;
        }
        for (const text of frames) {
          try {
            ws.send(text);
          } catch {
            /* the socket is closing */
          }
        }
      }
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch((err) => console.error("member inbox", err));
    return run;
  }

  private deps(): Deps {
    return makeDeps(this.env, (work) => this.ctx.waitUntil(work()));
  }
}
