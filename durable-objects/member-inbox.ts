// MemberInbox: one per member. Holds their open tabs' notification sockets (hibernation API): the unread
// count as a socket opens, then each new notification as it is written (announced after the change that
// wrote it commits: worker/composition.ts). It reads through the notifications service only; a tab whose
// session ended is told so and closed. Tabs send nothing: any frame they send is ignored.
import { DurableObject } from "cloudflare:workers";
import { INBOX_PROTOCOL, type InboxFrame } from "../domain/notifications";
import { makeDeps } from "../worker/composition";
import type { Env, MemberInboxApi } from "../worker/env";
import { inboxNews, unreadCount } from "../worker/services/notifications";
import type { Deps } from "../worker/services/deps";
import { closeSocket } from "./close-socket";

/** Close code for a tab whose session ended (policy violation), as the chat room's. */
export const INBOX_SESSION_ENDED_CLOSE_CODE = 1008;

/** What a socket is, kept on it (serializeAttachment) so it survives hibernation. */
interface TabState {
  userId: string;
  sessionId: string;
}

function tabStateOf(raw: unknown): TabState | null {
  if (raw === null || typeof raw !== "object") return null;
  const { userId, sessionId } = raw as Record<string, unknown>;
  return typeof userId === "string" && typeof sessionId === "string" ? { userId, sessionId } : null;
}

function send(ws: WebSocket, frame: InboxFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    /* the socket is closing; nothing to tell it */
  }
}

export class MemberInbox extends DurableObject<Env> implements MemberInboxApi {
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
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId, sessionId } satisfies TabState);
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

  async announce(notificationIds: string[]): Promise<void> {
    await this.serially(async () => {
      const tabs = this.ctx.getWebSockets().flatMap((ws) => {
        const state = tabStateOf(ws.deserializeAttachment());
        return state ? [{ ws, state }] : [];
      });
      // No open tab: nothing to read or tell (the bell reads the count when it next opens).
      if (tabs.length === 0) return;
      const userId = tabs[0]!.state.userId;
      const news = await inboxNews(this.deps(), userId, [...new Set(tabs.map((t) => t.state.sessionId))], notificationIds);
      const frames = news.notifications.map((notification) => JSON.stringify({ type: "notification", notification, unreadCount: news.unreadCount } satisfies InboxFrame));
      for (const { ws, state } of tabs) {
        if (!news.liveSessions.has(state.sessionId)) {
          send(ws, { type: "error", message: "Your session has ended. Please sign in again." });
          closeSocket(ws, INBOX_SESSION_ENDED_CLOSE_CODE, "Session ended");
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
