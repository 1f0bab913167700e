// Relay I/O for the Nostr profile (SPEC.md §7 Other services): publish a signed kind 0 to the relays and
// read the latest kind 0 of a key back. nostr-tools' pool is heavy, so screens import this module lazily.
// The relay list (and the socket implementation) can be swapped, so tests talk to a relay of their own.
import { AbstractSimplePool } from "nostr-tools/abstract-pool";
import { verifyEvent, type Event } from "nostr-tools/pure";
import type { SignedNostrEvent } from "../../lib/nostr";

import { DEFAULT_NOSTR_RELAYS } from "../../../../domain/nostr-relays";

export { DEFAULT_NOSTR_RELAYS };

/** SPEC.md §9: the profile publish waits 3 s; reads get the same patience. */
export const RELAY_WAIT_MS = 3000;

export const PROFILE_METADATA_KIND = 0;

export interface RelayOptions {
  relays?: readonly string[];
  /** How long to wait for the relays' answers before going on with what arrived. */
  waitMs?: number;
  /** The WebSocket class to dial with (the browser's by default). */
  WebSocket?: typeof WebSocket;
}

export interface PublishOutcome {
  /** Relays that answered OK true. */
  accepted: string[];
  /** Relays that refused, failed to connect or did not answer in time, with why. */
  failed: { url: string; reason: string }[];
  /** How many relays did not fail to connect (0: none could be reached at all). */
  reached: number;
}

export const RELAYS_UNREACHABLE = "Could not reach any Nostr relay. Please try again.";

function openPool(
  options: RelayOptions,
  waitMs: number,
  hooks: { onRelayConnectionSuccess?: (url: string) => void; onRelayConnectionFailure?: (url: string) => void } = {},
): AbstractSimplePool {
  return new AbstractSimplePool({
    verifyEvent: (event) => verifyEvent(event),
    websocketImplementation: options.WebSocket,
    maxWaitForConnection: waitMs,
    enableReconnect: false,
    ...hooks,
  });
}

function relayList(options: RelayOptions): string[] {
  return [...new Set(options.relays ?? DEFAULT_NOSTR_RELAYS)];
}

function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * Sends a signed event to every relay and waits until all have answered or the wait is over, whichever
 * comes first. A relay that has not answered by then counts as failed.
 */
export async function publishEvent(event: SignedNostrEvent, options: RelayOptions = {}): Promise<PublishOutcome> {
  // A fresh object: nostr-tools caches a verdict on the event itself, and a copy would carry it along.
  const { id, pubkey, created_at, kind, tags, content, sig } = event;
  if (!verifyEvent({ id, pubkey, created_at, kind, tags, content, sig })) throw new Error("The signed event is not valid.");
  const waitMs = options.waitMs ?? RELAY_WAIT_MS;
  const urls = relayList(options);
  // (nostr-tools reports failed connections on publish, not successful ones.)
  let unreachable = 0;
  const pool = openPool(options, waitMs, { onRelayConnectionFailure: () => unreachable++ });
  const answers = new Map<string, { ok: true } | { ok: false; reason: string }>();
  const attempts = pool.publish(urls, event).map((attempt, i) =>
    attempt.then(
      () => answers.set(urls[i]!, { ok: true }),
      (err: unknown) => answers.set(urls[i]!, { ok: false, reason: reasonOf(err) }),
    ),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.all(attempts), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  pool.destroy();

  const outcome: PublishOutcome = { accepted: [], failed: [], reached: urls.length - unreachable };
  for (const url of urls) {
    const answer = answers.get(url);
    if (answer?.ok) outcome.accepted.push(url);
    else outcome.failed.push({ url, reason: answer ? answer.reason : "no answer in time" });
  }
  return outcome;
}

/** NIP-01: the newest event wins; between two of the same second, the lowest id. */
function newestFirst(a: Event, b: Event): number {
  return b.created_at - a.created_at || a.id.localeCompare(b.id);
}

/**
 * The latest profile metadata (kind 0) of a public key (hex) across the relays, or null when none has one.
 * Relays may hold different versions; the newest signed one wins. Signatures are checked by the pool.
 * Throws when no relay could be reached at all: that is not "no profile".
 */
export async function fetchLatestProfileEvent(pubkey: string, options: RelayOptions = {}): Promise<SignedNostrEvent | null> {
  const waitMs = options.waitMs ?? RELAY_WAIT_MS;
  const urls = relayList(options);
  let reached = 0;
  const pool = openPool(options, waitMs, { onRelayConnectionSuccess: () => reached++ });
  const found: Event[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  await new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
    pool.subscribeEose(
      urls,
      { kinds: [PROFILE_METADATA_KIND], authors: [pubkey], limit: 1 },
      {
        maxWait: waitMs,
        onevent: (event) => {
          if (event.kind === PROFILE_METADATA_KIND && event.pubkey === pubkey) found.push(event);
        },
        // Every relay sent EOSE, refused, or could not be reached.
        onclose: () => resolve(),
      },
    );
  });
  clearTimeout(timer);
  pool.destroy();
  if (found.length === 0 && reached === 0) throw new Error(RELAYS_UNREACHABLE);
  return found.sort(newestFirst)[0] ?? null;
}
