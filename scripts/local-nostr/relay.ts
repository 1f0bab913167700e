// A Nostr relay on 127.0.0.1 for local runs and tests: @nostr-relay/core (an independent NIP-01 relay:
// signature and id checks, ephemeral events broadcast and never stored, replaceable events kept once)
// behind a `ws` server, with the events it stores kept in memory (and, for `npm start`, in a file, so a
// restart keeps them). Ours is only the socket wiring and the store; the relay's rules are the package's,
// but for NIP-09 deletions, which the package hands to the store: the store deletes what they name (by the
// same author, up to the deletion's time), keeps the deletion, and the relay sends it to subscribers.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { NostrRelay } from "@nostr-relay/core";
import { EventRepository, type Event, type EventRepositoryUpsertResult, type Filter, type IncomingMessage } from "@nostr-relay/common";
import { matchFilter } from "nostr-tools/filter";
import { WebSocketServer, type WebSocket } from "ws";

const dTag = (e: Event) => e.tags.find((t) => t[0] === "d")?.[1] ?? "";
const addressOf = (e: Event) => `${e.kind}:${e.pubkey}:${dTag(e)}`;

/** Regular, replaceable and addressable events in memory (the relay never hands us ephemeral ones). */
class MemoryEvents extends EventRepository {
  readonly events: Event[] = [];
  /** Told of each change (the file store writes itself). */
  onChange: () => void = () => {};
  /** Sends a deletion to the subscribers (the relay's broadcast). */
  broadcast: (event: Event) => Promise<void> = async () => {};

  isSearchSupported(): boolean {
    return false;
  }

  /** Whether a stored deletion by the same author names this event (by id, or by its address up to the deletion's time). */
  private deleted(event: Event): boolean {
    return this.events.some(
      (d) =>
        d.kind === 5 &&
        d.pubkey === event.pubkey &&
        d.tags.some((t) => (t[0] === "e" && t[1] === event.id) || (t[0] === "a" && t[1] === addressOf(event) && event.created_at <= d.created_at)),
    );
  }

  override async deleteByDeletionRequest(deletion: Event): Promise<void> {
    if (this.events.some((e) => e.id === deletion.id)) return;
    const ids = new Set(deletion.tags.filter((t) => t[0] === "e").map((t) => t[1]));
    const addresses = new Set(deletion.tags.filter((t) => t[0] === "a").map((t) => t[1]));
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i]!;
      if (e.pubkey !== deletion.pubkey || e.kind === 5) continue;
      if (ids.has(e.id) || (addresses.has(addressOf(e)) && e.created_at <= deletion.created_at)) this.events.splice(i, 1);
    }
    this.events.push(deletion);
    this.onChange();
    await this.broadcast(deletion);
  }

  upsert(event: Event): EventRepositoryUpsertResult {
    if (this.events.some((e) => e.id === event.id)) return { isDuplicate: true };
    if (this.deleted(event)) return { isDuplicate: true };
    const replaceable = event.kind === 0 || event.kind === 3 || (event.kind >= 10_000 && event.kind < 20_000);
    const addressable = event.kind >= 30_000 && event.kind < 40_000;
    const older = this.events.findIndex(
      (e) => e.pubkey === event.pubkey && e.kind === event.kind && (replaceable || (addressable && dTag(e) === dTag(event))),
    );
    if (older >= 0 && (replaceable || addressable)) {
      if (this.events[older]!.created_at > event.created_at) return { isDuplicate: true };
      this.events.splice(older, 1);
    }
    this.events.push(event);
    this.onChange();
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

/**
 * Starts a relay on 127.0.0.1 (`port` 0: any free port). With `file`, the stored events are read from it at
 * start and written to it after each change (`npm start` keeps them beside its state).
 */
export async function startRelay(port = 0, options: { file?: string } = {}): Promise<LocalRelay> {
  const store = new MemoryEvents();
  const relay = new NostrRelay(store);
  store.broadcast = (event) => relay.broadcast(event);
  const file = options.file;
  let pending: ReturnType<typeof setTimeout> | undefined;
  /** Writes the stored events to the file now, if a change is waiting to be written. */
  const flush = () => {
    if (!pending || !file) return;
    clearTimeout(pending);
    pending = undefined;
    writeFileSync(file, JSON.stringify(store.events));
  };
  if (file) {
    if (existsSync(file)) store.events.push(...(JSON.parse(readFileSync(file, "utf8")) as Event[]));
    store.onChange = () => {
      pending ??= setTimeout(flush, 200);
    };
    process.once("exit", flush);
  }
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
      flush();
      store.onChange = () => {};
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await relay.destroy();
    },
  };
}
