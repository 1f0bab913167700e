// A chat client for tests: opens `/ws?gigId=` through the Worker like a browser would, and reads frames.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { openDb } from "../db/client";
import { createSession } from "../services/auth";
import { INBOX_PROTOCOL, INBOX_TOKEN_PREFIX } from "../../domain/notifications";
import { api, BASE, type Json, type Member } from "./factories";

export class TestSocket {
  private readonly frames: Json[] = [];
  private readonly waiters: ((frame: Json) => void)[] = [];
  closed: { code: number; reason: string } | null = null;
  private closeWaiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data as ArrayBuffer)) as Json;
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.frames.push(frame);
    });
    ws.addEventListener("close", (event) => {
      this.closed = { code: event.code, reason: event.reason };
      for (const w of this.closeWaiters.splice(0)) w();
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The next frame the server sends (fails after 5 s). */
  next(): Promise<Json> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no frame within 5 s")), 5_000);
      this.waiters.push((frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
    });
  }

  /** Sends a frame and answers the server's reply. */
  async ask(frame: unknown): Promise<Json> {
    this.send(frame);
    return this.next();
  }

  waitForClose(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("not closed within 5 s")), 5_000);
      this.closeWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.closed!);
      });
    });
  }

  close(): void {
    try {
      this.ws.close(1000, "done");
    } catch {
      /* already closed */
    }
  }
}

/** Upgrades `/ws?gigId=` with this page's Origin (or `origin`; null sends none). */
export async function openSocket(gigId: string, opts: { origin?: string | null } = {}): Promise<{ status: number; socket: TestSocket | null; body: string }> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (opts.origin !== null) headers.Origin = opts.origin ?? BASE;
  const res = await api(`/ws?gigId=${encodeURIComponent(gigId)}`, { headers });
  if (res.status !== 101 || !res.webSocket) return { status: res.status, socket: null, body: await res.text() };
  return { status: 101, socket: new TestSocket(res.webSocket), body: "" };
}

/** A socket signed in as `member` and joined to the gig's room. */
export async function joinedSocket(gigId: string, member: Member): Promise<TestSocket> {
  const { socket } = await openSocket(gigId);
  if (!socket) throw new Error("upgrade refused");
  expect(await socket.ask({ type: "auth", sessionToken: member.token })).toEqual({ type: "auth_success" });
  expect(await socket.ask({ type: "join_gig", gigId })).toEqual({ type: "join_success", gigId });
  return socket;
}

/** The same member signed in once more (another device): a second session token. */
export async function anotherSession(member: Member): Promise<Member> {
  return { ...member, token: await createSession(openDb(env.DB), member.id) };
}

/**
 * Opens `member`'s inbox socket (`/api/notifications/socket`) as a tab would: the session token offered as a
 * sub-protocol beside INBOX_PROTOCOL, with this page's Origin (or `origin`; null sends none).
 */
export async function openInboxSocket(
  member: Pick<Member, "token"> | null,
  opts: { origin?: string | null; protocols?: string[] } = {},
): Promise<{ status: number; socket: TestSocket | null; body: string; protocol: string | null }> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (opts.origin !== null) headers.Origin = opts.origin ?? BASE;
  const protocols = opts.protocols ?? [INBOX_PROTOCOL, ...(member ? [`${INBOX_TOKEN_PREFIX}${member.token}`] : [])];
  headers["Sec-WebSocket-Protocol"] = protocols.join(", ");
  const res = await api("/api/notifications/socket", { headers });
  const protocol = res.headers.get("sec-websocket-protocol");
  if (res.status !== 101 || !res.webSocket) return { status: res.status, socket: null, body: await res.text(), protocol };
  return { status: 101, socket: new TestSocket(res.webSocket), body: "", protocol };
}
