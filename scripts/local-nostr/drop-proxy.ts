// A relay proxy for tests, in Node: a WebSocket server on 127.0.0.1 that passes frames between each client
// and a real relay (one upstream connection per client) and, for the client's request events, can fail the
// way a relay or the network fails, at a chosen moment: the client's socket dropped before or after its
// request went on to the relay, the relay's answer lost, an explicit refusal. What it did is counted.
//
//   const proxy = await startDropProxy(relay.url);
//   proxy.nextEvent("drop_after_forward");   // the next request reaches the relay, then the client's socket drops
//   ... client on proxy.url ...
//   proxy.stats.faults.drop_after_forward;  // 1
//   await proxy.close();
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocket, WebSocketServer, type RawData } from "ws";

/**
 * What the proxy does with one request event (an EVENT frame from a client that `isRequest` selects):
 * - `pass`: forwards it; everything flows as without the proxy.
 * - `drop_before_forward`: does not forward it and drops the client's socket at once: the relay never sees
 *   the request (nothing is paid), though the client did write it.
 * - `drop_after_forward`: forwards it and, once the frame is written to the relay, drops the client's socket;
 *   the upstream connection stays until the relay's OK for it (at most `upstreamGraceMs`), so the relay has
 *   taken and broadcast it: the wallet receives it and pays, the client hears nothing (no OK, no answer).
 * - `drop_after_ok`: forwards it, lets the relay's OK true through, then drops the client's socket: the
 *   client hears the OK but never the answer.
 * - `swallow_answer`: forwards it and keeps from the client everything about it the relay sends back: its OK
 *   and every event with an `e` tag naming it (the wallet's reply). The socket stays open: the client waits.
 * - `swallow_ok`: forwards it and keeps only its OK from the client; the wallet's reply still arrives.
 * - `refuse`: does not forward it and answers ["OK", id, false, refuseReason] itself: an explicit refusal.
 */
export type ProxyFault = "pass" | "drop_before_forward" | "drop_after_forward" | "drop_after_ok" | "swallow_answer" | "swallow_ok" | "refuse";

export const PROXY_FAULTS: readonly ProxyFault[] = ["pass", "drop_before_forward", "drop_after_forward", "drop_after_ok", "swallow_answer", "swallow_ok", "refuse"];

/** A Nostr event as a client sent it (not verified by the proxy: the relay behind does that). */
export interface ProxiedEvent {
  id: string;
  kind: number;
  pubkey: string;
  created_at: number;
  tags: string[][];
  content: string;
  sig: string;
}

/** One request event the proxy saw, and what it did with it. */
export interface ProxyRequest {
  /** 0, 1, 2… over the proxy's life, in the order request events arrived. */
  index: number;
  /** The client connection it came on: 0, 1, 2… in the order clients connected. */
  connection: number;
  event: ProxiedEvent;
  fault: ProxyFault;
}

/** Decides the fault for a request event that `nextEvent` queued none for; undefined means `pass`. */
export type FaultDecider = (request: Omit<ProxyRequest, "fault">) => ProxyFault | undefined;

export interface ProxyStats {
  /** Client connections accepted (each with its own upstream connection). */
  connections: number;
  /** Client connections refused while `refuseConnections(true)`, or because the relay could not be reached. */
  refusedConnections: number;
  /** Request events seen (selected by `isRequest`). */
  requests: number;
  /** Request events forwarded to the relay (every fault but drop_before_forward and refuse). */
  forwarded: number;
  /** How many request events got each fault. */
  faults: Record<ProxyFault, number>;
  /** Frames from the relay kept from a client (swallow_answer, swallow_ok). */
  swallowedFrames: number;
  /** Client sockets the proxy dropped (by a fault or dropConnections). */
  droppedSockets: number;
}

export interface DropProxyOptions {
  /** 0 (default): any free port. */
  port?: number;
  /** Which client EVENT frames are requests subject to faults. Default: kind 23194 (NIP-47 requests). */
  isRequest?: (event: ProxiedEvent) => boolean;
  /** The fault for requests with none queued (also settable later with `decide`). */
  decide?: FaultDecider;
  /** The reason in the proxy's own ["OK", id, false, reason] (`refuse`). Default "blocked: refused by the proxy". */
  refuseReason?: string;
  /** How a client socket is dropped: `terminate` (default: the TCP connection destroyed, no close frame) or `close` (a close frame, 1001). */
  dropWith?: "terminate" | "close";
  /** After drop_after_forward, how long the upstream connection waits for the relay's OK before it closes. Default 2000 ms. */
  upstreamGraceMs?: number;
}

export interface DropProxy {
  /** ws://127.0.0.1:<port>: give this to the client instead of the relay's URL. */
  url: string;
  /** The relay behind. */
  upstreamUrl: string;
  /** Queues faults for the next request events, one each, in order; they take precedence over `decide`. */
  nextEvent(...faults: ProxyFault[]): void;
  /** Faults queued by nextEvent and not used yet. */
  queuedFaults(): ProxyFault[];
  /** Sets (or with null removes) the decider for requests with no queued fault. */
  decide(decider: FaultDecider | null): void;
  /** While on, new clients are refused at the handshake (HTTP 503): their connection fails, nothing is sent. */
  refuseConnections(on: boolean): void;
  /** Live counters. */
  readonly stats: ProxyStats;
  /** Every request event seen, in order, with its fault. */
  readonly requests: ProxyRequest[];
  /** Resets stats and requests (not the queue or the decider). */
  resetStats(): void;
  /** Drops every client socket now (and its upstream connection); the proxy keeps serving. */
  dropConnections(): void;
  /** Resolves once no dropped client's upstream connection is still waiting for the relay's OK. */
  settled(): Promise<void>;
  /** Drops everything and stops listening. */
  close(): Promise<void>;
}

const NWC_REQUEST_KIND = 23194;

const emptyStats = (): ProxyStats => ({
  connections: 0,
  refusedConnections: 0,
  requests: 0,
  forwarded: 0,
  faults: Object.fromEntries(PROXY_FAULTS.map((f) => [f, 0])) as Record<ProxyFault, number>,
  swallowedFrames: 0,
  droppedSockets: 0,
});

function parseFrame(data: RawData): unknown[] | null {
  try {
    const frame: unknown = JSON.parse(Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as Buffer).toString("utf8"));
    return Array.isArray(frame) ? frame : null;
  } catch {
    return null;
  }
}

function asEvent(value: unknown): ProxiedEvent | null {
  if (typeof value !== "object" || value === null) return null;
  const e = value as Record<string, unknown>;
  if (typeof e.id !== "string" || typeof e.kind !== "number" || typeof e.pubkey !== "string" || !Array.isArray(e.tags)) return null;
  return value as ProxiedEvent;
}

/** Starts a proxy on 127.0.0.1 in front of the relay at `upstreamUrl`. */
export async function startDropProxy(upstreamUrl: string, options: DropProxyOptions = {}): Promise<DropProxy> {
  const isRequest = options.isRequest ?? ((event: ProxiedEvent) => event.kind === NWC_REQUEST_KIND);
  const refuseReason = options.refuseReason ?? "blocked: refused by the proxy";
  const dropWith = options.dropWith ?? "terminate";
  const upstreamGraceMs = options.upstreamGraceMs ?? 2_000;
  let decider: FaultDecider | null = options.decide ?? null;
  const queue: ProxyFault[] = [];
  let refusing = false;
  let closing = false;
  let stats = emptyStats();
  const requests: ProxyRequest[] = [];
  let connectionCount = 0;
  /** Sockets still in their handshake (their upstream connection is opening). */
  const handshaking = new Set<Socket>();
  const pairs = new Set<{ client: WebSocket; upstream: WebSocket; drop: () => void; shutdown: () => void }>();
  /** Upstream connections of dropped clients still waiting for the relay's OK. */
  const lingering = new Set<Promise<void>>();
  /** Ends the waits of those upstream connections at once (close). */
  const graceEnds = new Set<() => void>();

  const server = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" });
    res.end("WebSocket only");
  });
  const wss = new WebSocketServer({ noServer: true });

  const refuseHandshake = (socket: Socket, status: string) => {
    stats.refusedConnections += 1;
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (closing) return void socket.destroy();
    if (refusing) return refuseHandshake(socket, "503 Service Unavailable");
    handshaking.add(socket);
    socket.on("error", () => undefined);
    // The client's handshake completes only once the relay is reached: a relay that cannot be reached is
    // a connection that fails for the client, as it would without the proxy.
    const upstream = new WebSocket(upstreamUrl);
    upstream.once("open", () => {
      handshaking.delete(socket);
      if (closing || socket.destroyed) return void upstream.terminate();
      wss.handleUpgrade(req, socket, head, (client) => pair(client, upstream));
    });
    upstream.once("error", () => {
      handshaking.delete(socket);
      if (!socket.destroyed) refuseHandshake(socket, "502 Bad Gateway");
    });
  });

  function pair(client: WebSocket, upstream: WebSocket) {
    const connection = connectionCount++;
    stats.connections += 1;
    /** Request ids whose OK and replies are kept from the client (swallow_answer). */
    const swallowAnswer = new Set<string>();
    /** Request ids whose OK only is kept from the client (swallow_ok). */
    const swallowOk = new Set<string>();
    /** Request ids after whose OK the client is dropped (drop_after_ok). */
    const dropAfterOk = new Set<string>();
    /** Forwarded request ids the relay has not answered OK yet: a dropped client's upstream waits for them. */
    const awaitingOk = new Map<string, () => void>();
    let clientGone = false;
    /** Nothing more reaches the client (set as a drop is decided, before the socket goes). */
    let muted = false;
    let upstreamClosing = false;

    const closeUpstream = () => {
      if (upstreamClosing) return;
      upstreamClosing = true;
      if (awaitingOk.size === 0 || closing) return void upstream.terminate();
      const waits = [...awaitingOk.keys()].map(
        (id) =>
          new Promise<void>((resolve) => {
            const end = () => {
              clearTimeout(timer);
              graceEnds.delete(end);
              resolve();
            };
            const timer = setTimeout(end, upstreamGraceMs);
            graceEnds.add(end);
            awaitingOk.set(id, end);
          }),
      );
      const done = Promise.all(waits).then(() => {
        upstream.terminate();
        lingering.delete(done);
      });
      lingering.add(done);
    };
    /** Drops the client's socket (a fault, dropConnections); its upstream follows once the relay answered what it was given. */
    const drop = () => {
      if (clientGone) return;
      clientGone = true;
      stats.droppedSockets += 1;
      if (dropWith === "close") client.close(1001, "dropped by the proxy");
      else client.terminate();
      closeUpstream();
    };
    const entry = {
      client,
      upstream,
      drop,
      shutdown: () => {
        clientGone = true;
        client.terminate();
        upstream.terminate();
      },
    };
    pairs.add(entry);

    const toUpstream = (data: RawData, isBinary: boolean, then?: () => void) => {
      if (upstream.readyState !== WebSocket.OPEN) return void then?.();
      upstream.send(data as Buffer, { binary: isBinary }, () => then?.());
    };
    const toClient = (data: RawData, isBinary: boolean, then?: () => void) => {
      if (clientGone || muted || client.readyState !== WebSocket.OPEN) return void then?.();
      client.send(data as Buffer, { binary: isBinary }, () => then?.());
    };

    client.on("message", (data, isBinary) => {
      if (clientGone) return;
      const frame = parseFrame(data);
      const event = frame && frame[0] === "EVENT" ? asEvent(frame[1]) : null;
      if (!event || !isRequest(event)) return toUpstream(data, isBinary);
      const seen = { index: stats.requests, connection, event };
      stats.requests += 1;
      const fault = queue.shift() ?? decider?.(seen) ?? "pass";
      stats.faults[fault] += 1;
      requests.push({ ...seen, fault });
      if (fault === "drop_before_forward") return drop();
      if (fault === "refuse") return toClient(Buffer.from(JSON.stringify(["OK", event.id, false, refuseReason])), false);
      if (fault === "swallow_answer") swallowAnswer.add(event.id);
      if (fault === "swallow_ok") swallowOk.add(event.id);
      if (fault === "drop_after_ok") dropAfterOk.add(event.id);
      awaitingOk.set(event.id, () => undefined);
      stats.forwarded += 1;
      // Not a frame more to the client (not even an OK that came back fast).
      if (fault === "drop_after_forward") muted = true;
      // Written to the relay's socket, then the client is dropped: the relay surely gets the request.
      toUpstream(data, isBinary, fault === "drop_after_forward" ? drop : undefined);
    });

    upstream.on("message", (data, isBinary) => {
      const frame = parseFrame(data);
      if (frame?.[0] === "OK" && typeof frame[1] === "string") {
        const id = frame[1];
        const waiting = awaitingOk.get(id);
        awaitingOk.delete(id);
        waiting?.();
        if (swallowAnswer.has(id) || swallowOk.has(id)) {
          stats.swallowedFrames += 1;
          return;
        }
        if (dropAfterOk.has(id)) {
          // The OK goes out, then nothing more: the client is dropped once it is written.
          toClient(data, isBinary, drop);
          muted = true;
          return;
        }
      }
      if (frame?.[0] === "EVENT" && swallowAnswer.size > 0) {
        const event = asEvent(frame[2]);
        if (event?.tags.some((t) => Array.isArray(t) && t[0] === "e" && swallowAnswer.has(t[1]!))) {
          stats.swallowedFrames += 1;
          return;
        }
      }
      toClient(data, isBinary);
    });

    client.on("close", () => {
      clientGone = true;
      closeUpstream();
      if (upstream.readyState === WebSocket.CLOSED) pairs.delete(entry);
    });
    // The relay went away: so does the client's connection, as it would without the proxy.
    upstream.on("close", () => {
      if (!clientGone) {
        clientGone = true;
        client.terminate();
      }
      pairs.delete(entry);
    });
    client.on("error", () => undefined);
    upstream.on("error", () => undefined);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://127.0.0.1:${port}`,
    upstreamUrl,
    nextEvent: (...faults) => void queue.push(...faults),
    queuedFaults: () => [...queue],
    decide: (next) => void (decider = next),
    refuseConnections: (on) => void (refusing = on),
    get stats() {
      return stats;
    },
    requests,
    resetStats() {
      stats = emptyStats();
      requests.length = 0;
    },
    dropConnections() {
      for (const p of pairs) p.drop();
    },
    async settled() {
      while (lingering.size > 0) await Promise.all([...lingering]);
    },
    async close() {
      closing = true;
      for (const end of [...graceEnds]) end();
      for (const p of pairs) p.shutdown();
      pairs.clear();
      for (const socket of handshaking) socket.destroy();
      handshaking.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
