// Where a member's private messages go (NIP-17; docs/decisions/026): the relays of their kind 10050 list, else
// the platform's relays (NOSTR_RELAYS). Looked up by the cron's sender, never by a request: the outbox holds gift
// wraps without relays, and each run asks NOSTR_RELAYS once for the lists of the recipients it does not know yet
// (one filter, every author at once), keeping what it found for DM_RELAYS_TTL_MS in D1 (nostr_dm_relays).
import { and, gt, inArray } from "drizzle-orm";
import { verifyEvent, type Event } from "nostr-tools/pure";
import { DM_RELAYS_KIND, dmRelaysOfList } from "../../domain/nostr-dm";
import { nostrDmRelays } from "../db/schema";
import type { NostrRelayTransport } from "./nostr-relays";
import type { Deps } from "./deps";

/** How long a member's DM relays (or that they have none) are used before their list is asked for again. */
export const DM_RELAYS_TTL_MS = 10 * 60_000;

/** Keys read per query (D1 binds at most 100 parameters to a statement). */
const KEYS_PER_QUERY = 90;

const chunks = <T>(items: readonly T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * The relays each recipient's private messages go to: their kind 10050 list as last found (at most
 * DM_RELAYS_MAX relays), else `defaults`. What is not known from the last DM_RELAYS_TTL_MS is asked of the
 * `defaults` relays (where clients publish the list); when none of them answers, nothing is cached and this run
 * uses the defaults.
 */
export async function dmRelaysOf(
  deps: Pick<Deps, "db">,
  recipients: readonly string[],
  opts: { defaults: readonly string[]; transport: NostrRelayTransport; now: Date; timeoutMs: number },
): Promise<Map<string, string[]>> {
  const keys = [...new Set(recipients)];
  const found = new Map<string, string[]>();
  if (keys.length === 0) return found;
  const freshAfter = new Date(opts.now.getTime() - DM_RELAYS_TTL_MS).toISOString();
  for (const part of chunks(keys, KEYS_PER_QUERY)) {
    const rows = await deps.db
      .select()
      .from(nostrDmRelays)
      .where(and(inArray(nostrDmRelays.pubkey, part), gt(nostrDmRelays.checkedAt, freshAfter)));
    for (const row of rows) found.set(row.pubkey, JSON.parse(row.relays) as string[]);
  }

  const unknown = keys.filter((k) => !found.has(k));
  if (unknown.length > 0 && opts.transport.query) {
    const lists = await lookUpLists(unknown, opts.defaults, opts.transport, opts.timeoutMs);
    if (lists) {
      const checkedAt = opts.now.toISOString();
      const writes = unknown.map((pubkey) => {
        const relays = dmRelaysOfList(lists.get(pubkey)?.tags ?? []);
        found.set(pubkey, relays);
        return deps.db
          .insert(nostrDmRelays)
          .values({ pubkey, relays: JSON.stringify(relays), checkedAt })
          .onConflictDoUpdate({ target: nostrDmRelays.pubkey, set: { relays: JSON.stringify(relays), checkedAt } });
      });
      await deps.db.batch(writes as [(typeof writes)[number], ...(typeof writes)[number][]]);
    }
  }

  const relaysOf = new Map<string, string[]>();
  for (const key of keys) {
    const listed = found.get(key);
    relaysOf.set(key, listed && listed.length > 0 ? listed : [...opts.defaults]);
  }
  return relaysOf;
}

/** The newest kind 10050 list of each key that any of the relays has; null when no relay answered at all. */
async function lookUpLists(pubkeys: readonly string[], relays: readonly string[], transport: NostrRelayTransport, timeoutMs: number): Promise<Map<string, Event> | null> {
  const wanted = new Set(pubkeys);
  const answers = await Promise.all(
    relays.map(async (relay) => {
      try {
        return await transport.query!(relay, { kinds: [DM_RELAYS_KIND], authors: [...pubkeys] }, timeoutMs);
      } catch {
        return null;
      }
    }),
  );
  if (answers.every((a) => a === null)) return null;
  const newest = new Map<string, Event>();
  for (const event of answers.flatMap((a) => a ?? [])) {
    if (event.kind !== DM_RELAYS_KIND || !wanted.has(event.pubkey) || !verifyEvent(event)) continue;
    const known = newest.get(event.pubkey);
    if (!known || event.created_at > known.created_at) newest.set(event.pubkey, event);
  }
  return newest;
}
