// How the outbox's events reach a relay: nostr-tools' relay client (AbstractRelay, as the NWC backend's
// `latest` uses it) over the runtime's WebSocket, one connection per relay per run. A relay took an event
// when it answered ["OK", id, true] (or false with "duplicate:": it already has that very event). The same
// client asks a relay what it stores (the members' DM relay lists, kind 10050: docs/decisions/026).
import { AbstractRelay } from "nostr-tools/abstract-relay";
import type { Filter } from "nostr-tools/filter";
import { verifyEvent, type Event } from "nostr-tools/pure";

/** Each event's outcome at one relay: null when the relay took it, else why not. */
export type RelayOutcomes = Map<string, string | null>;

export interface NostrRelayTransport {
  /** Sends the events to one relay over one connection; never throws (a relay that cannot be reached fails every event). */
  publish(relayUrl: string, events: readonly Event[], timeoutMs: number): Promise<RelayOutcomes>;
  /**
   * The events one relay stores that match the filter, up to its end-of-stored-events; throws when the relay
   * cannot be reached or does not finish in time (then nothing is known). A transport without it looks nothing up.
   */
  query?(relayUrl: string, filter: Filter, timeoutMs: number): Promise<Event[]>;
}

/**
 * The runtime's WebSocket, closed at most once. nostr-tools closes the socket from its error handler; Node's
 * WebSocket (undici) answers a close while still connecting with another error event, and so on until the stack
 * runs out. A second close is a no-op anyway.
 */
function closingOnce(Base: typeof WebSocket): typeof WebSocket {
  function GuardedWebSocket(url: string, protocols?: string | string[]) {
    const ws = new Base(url, protocols);
    const close = ws.close.bind(ws);
    let closing = false;
    ws.close = (code?: number, reason?: string) => {
      if (closing) return;
      closing = true;
      close(code, reason);
    };
    return ws;
  }
  return GuardedWebSocket as unknown as typeof WebSocket;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200) || "no reason given";

export function relayPublisher(webSocket?: typeof WebSocket): NostrRelayTransport {
  const relayAt = (relayUrl: string) =>
    new AbstractRelay(relayUrl, {
      verifyEvent,
      websocketImplementation: closingOnce(webSocket ?? globalThis.WebSocket),
      enablePing: false,
      enableReconnect: false,
    });
  return {
    async query(relayUrl, filter, timeoutMs) {
      const relay = relayAt(relayUrl);
      try {
        await relay.connect({ timeout: timeoutMs });
        return await new Promise<Event[]>((resolve, reject) => {
          const events: Event[] = [];
          let settled = false;
          const timer = setTimeout(() => {
            settled = true;
            sub.close();
            reject(new Error("no end of stored events in time"));
          }, timeoutMs);
          const sub = relay.subscribe([filter], {
            onevent: (event) => void events.push(event),
            oneose: () => {
              if (settled) return;
              settled = true;
              clearTimeout(timer);
              sub.close();
              resolve(events);
            },
            onclose: (reason) => {
              if (settled) return;
              settled = true;
              clearTimeout(timer);
              reject(new Error(`subscription closed: ${reason}`));
            },
            // nostr-tools calls oneose after this long even without the relay's EOSE: ours times out first.
            eoseTimeout: timeoutMs * 2,
          });
        });
      } finally {
        relay.close();
      }
    },
    async publish(relayUrl, events, timeoutMs) {
      const outcomes: RelayOutcomes = new Map();
      const relay = relayAt(relayUrl);
      relay.publishTimeout = timeoutMs;
      try {
        await relay.connect({ timeout: timeoutMs });
      } catch (err) {
        for (const event of events) outcomes.set(event.id, `could not connect (${errorText(err)})`);
        relay.close();
        return outcomes;
      }
      try {
        await Promise.all(
          events.map(async (event) => {
            try {
              await relay.publish(event);
              outcomes.set(event.id, null);
            } catch (err) {
              const reason = errorText(err);
              // OK false with its reason, a time-out, or the connection lost before the OK.
              outcomes.set(event.id, /^duplicate:/i.test(reason) ? null : reason);
            }
          }),
        );
      } finally {
        relay.close();
      }
      return outcomes;
    },
  };
}
