// A Nostr relay on 127.0.0.1 for local runs and tests: @nostr-relay/core (an independent NIP-01 relay:
// signature and id checks, ephemeral events broadcast and never stored, replaceable events kept once)
// behind a `ws` server, with the events it stores kept in memory. Ours is only the socket wiring and the
// in-memory store; the relay's rules are the package's.
import type { AddressInfo } from "node:net";
import { NostrRelay } from "@nostr-relay/core";
import { EventRepository, type Event, type EventRepositoryUpsertResult, type Filter, type IncomingMessage } from "@nostr-relay/common";
import { matchFilter } from "nostr-tools/filter";
import { WebSocketServer, type WebSocket } from "ws";

/** Regular, replaceable and addressable events in memory (the relay never hands us ephemeral ones). */
class MemoryEvents extends EventRepository {
  readonly events: Event[] = [];

  isSearchSupported(): boolean {
    return false;
  }

  upsert(event: Event): EventRepositoryUpsertResult {
    if (this.events.some((e) => e.id === event.id)) return { isDuplicate: true };
    const replaceable = event.kind === 0 || event.kind === 3 || (event.kind >= 10_000 && event.kind < 20_000);
    const addressable = event.kind >= 30_000 && event.kind < 40_000;
    const dTag = (e: Event) => e.tags.find((t) => t[0] === "d")?.[1] ?? "";
    const older = this.events.findIndex(
      (e) => e.pubkey === event.pubkey && e.kind === event.kind && (replaceable || (addressable && dTag(e) === dTag(event))),
    );
    if (older >= 0 && (replaceable || addressable)) {
      if (this.events[older]!.created_at > event.created_at) return { isDuplicate: true };
      this.events.splice(older, 1);
    }
    this.events.push(event);
    return { isDuplicate: false };
  }

  find(filter: Filter): Event[] {
    const found = this.events.filter((e) => matchFilter(filter as Parameters<typeof matchFilter>[0], e)).sort((a, b) => b.created_at - a.created_at);
    return filter.limit === undefined ? found : found.slice(0, filter.limit);
  }

  async destroy(): Promise<void> {
    this.events.length = 0;
  }
}

export interface LocalRelay {
  /** ws://127.0.0.1:<port> */
  url: string;
  /** The stored (non-ephemeral) events, newest last. */
  events: Event[];
  /** Publishes an event as any client would (a test playing a stranger). */
  inject(event: Event): Promise<void>;
  /** Drops every open connection (a relay restart, as clients see it); the relay keeps serving. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 (`port` 0: any free port). */
export async function startRelay(port = 0): Promise<LocalRelay> {
  const store = new MemoryEvents();
  const relay = new NostrRelay(store);
  const server = new WebSocketServer({ host: "127.0.0.1", port });
  server.on("connection", (ws: WebSocket, req) => {
    relay.handleConnection(ws, req.socket.remoteAddress);
    ws.on("message", async (data) => {
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        ws.send(JSON.stringify(["NOTICE", "invalid: not JSON"]));
        return;
      }
      if (!Array.isArray(message) || typeof message[0] !== "string") {
        ws.send(JSON.stringify(["NOTICE", "invalid: not a message"]));
        return;
      }
      await relay.handleMessage(ws, message as IncomingMessage);
    });
    ws.on("close", () => relay.handleDisconnect(ws));
    ws.on("error", () => relay.handleDisconnect(ws));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${bound}`,
    events: store.events,
    async inject(event) {
      await relay.handleEvent(event);
    },
    dropConnections() {
      for (const client of server.clients) client.terminate();
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await relay.destroy();
    },
  };
}
