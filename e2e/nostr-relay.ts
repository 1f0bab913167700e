// A tiny NIP-01 relay on 127.0.0.1 for tests: events kept in memory, signatures verified, REQ answered
// with the stored matches (newest first, up to the filter's limit) then EOSE, and kept open for live
// events until CLOSE. Replaceable kinds (0, 3, 10000-19999) keep only the latest event per author and kind,
// as real relays do. Not for production: no auth, no rate limits, no persistence.
import type { AddressInfo } from "node:net";
import { matchFilter, type Filter } from "nostr-tools/filter";
import { verifyEvent, type Event } from "nostr-tools/pure";
import { type WebSocket, WebSocketServer } from "ws";
import { z } from "zod";

const eventSchema = z.object({
  id: z.string(),
  pubkey: z.string(),
  created_at: z.number().int(),
  kind: z.number().int(),
  tags: z.array(z.array(z.string())),
  content: z.string(),
  sig: z.string(),
});

/** Tag filters (#e, #p, ...) are dropped: this relay then answers with more, never with less. */
const filterSchema = z.object({
  ids: z.array(z.string()).optional(),
  authors: z.array(z.string()).optional(),
  kinds: z.array(z.number().int()).optional(),
  since: z.number().int().optional(),
  until: z.number().int().optional(),
  limit: z.number().int().nonnegative().optional(),
});

const clientMessageSchema = z.union([
  z.tuple([z.literal("EVENT"), eventSchema]),
  z.tuple([z.literal("REQ"), z.string()], filterSchema),
  z.tuple([z.literal("CLOSE"), z.string()]),
]);

export interface TestRelay {
  /** ws://127.0.0.1:<port> */
  url: string;
  /** What the relay holds now (tests may push to seed it, or read it to assert). */
  events: Event[];
  close: () => Promise<void>;
}

function isReplaceable(kind: number): boolean {
  return kind === 0 || kind === 3 || (kind >= 10000 && kind < 20000);
}

/** NIP-01 order: newest first, ties broken by the lowest id. */
function newestFirst(a: Event, b: Event): number {
  return b.created_at - a.created_at || a.id.localeCompare(b.id);
}

export async function startRelay(): Promise<TestRelay> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const events: Event[] = [];
  const subscriptions = new Map<WebSocket, Map<string, Filter[]>>();

  const send = (socket: WebSocket, message: unknown[]) => socket.send(JSON.stringify(message));

  /** Stores the event; false when an equal or newer replaceable event is already held. */
  const store = (event: Event): boolean => {
    if (isReplaceable(event.kind)) {
      const index = events.findIndex((e) => e.kind === event.kind && e.pubkey === event.pubkey);
      if (index >= 0) {
        if (newestFirst(event, events[index]!) >= 0) return false;
        events.splice(index, 1);
      }
    }
    events.push(event);
    return true;
  };

  const onEvent = (socket: WebSocket, event: Event) => {
    if (!verifyEvent(event)) return send(socket, ["OK", event.id, false, "invalid: bad signature or id"]);
    if (events.some((e) => e.id === event.id)) return send(socket, ["OK", event.id, true, "duplicate: already have this event"]);
    const stored = store(event);
    send(socket, ["OK", event.id, true, stored ? "" : "duplicate: a newer event replaces this one"]);
    if (!stored) return;
    for (const [other, subs] of subscriptions) {
      for (const [subId, filters] of subs) {
        if (filters.some((f) => matchFilter(f, event))) send(other, ["EVENT", subId, event]);
      }
    }
  };

  const onReq = (socket: WebSocket, subId: string, filters: Filter[]) => {
    const found = new Map<string, Event>();
    for (const filter of filters) {
      const matches = events.filter((e) => matchFilter(filter, e)).sort(newestFirst);
      for (const e of filter.limit === undefined ? matches : matches.slice(0, filter.limit)) found.set(e.id, e);
    }
    for (const e of [...found.values()].sort(newestFirst)) send(socket, ["EVENT", subId, e]);
    send(socket, ["EOSE", subId]);
    subscriptions.get(socket)?.set(subId, filters);
  };

  server.on("connection", (socket) => {
    subscriptions.set(socket, new Map());
    socket.on("close", () => subscriptions.delete(socket));
    socket.on("message", (data) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(data));
      } catch {
        return send(socket, ["NOTICE", "invalid: not JSON"]);
      }
      const parsed = clientMessageSchema.safeParse(frame);
      if (!parsed.success) return send(socket, ["NOTICE", "invalid: unsupported or malformed message"]);
      const message = parsed.data;
      switch (message[0]) {
        case "EVENT":
          return onEvent(socket, message[1]);
        case "REQ": {
          const [, subId, ...filters] = message;
          return onReq(socket, subId, filters);
        }
        case "CLOSE":
          subscriptions.get(socket)?.delete(message[1]);
          return;
      }
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
