// How the outbox's events reach a relay: nostr-tools' relay client (AbstractRelay, as the NWC backend's
// `latest` uses it) over the runtime's WebSocket, one connection per relay per run. A relay took an event
// when it answered ["OK", id, true] (or false with "duplicate:": it already has that very event).
import { AbstractRelay } from "nostr-tools/abstract-relay";
import { verifyEvent, type Event } from "nostr-tools/pure";

/** Each event's outcome at one relay: null when the relay took it, else why not. */
export type RelayOutcomes = Map<string, string | null>;

export interface NostrRelayTransport {
  /** Sends the events to one relay over one connection; never throws (a relay that cannot be reached fails every event). */
  publish(relayUrl: string, events: readonly Event[], timeoutMs: number): Promise<RelayOutcomes>;
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
  return {
    async publish(relayUrl, events, timeoutMs) {
      const outcomes: RelayOutcomes = new Map();
      const relay = new AbstractRelay(relayUrl, {
        verifyEvent,
        websocketImplementation: closingOnce(webSocket ?? globalThis.WebSocket),
        enablePing: false,
        enableReconnect: false,
      });
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
