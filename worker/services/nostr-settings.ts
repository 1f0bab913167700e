// The platform's Nostr identity and relays (DESIGN.md §11): NOSTR_SECRET_KEY (64 hex characters or an nsec, a
// secret) signs the gig listings, NOSTR_RELAYS (comma-separated ws:// or wss:// URLs) is where they go. A key
// that is missing or unreadable, or a relay list with anything but relay URLs in it, switches publishing off
// with the reason (the admin's dashboard shows it); nothing falls back to a key or relay of its own.
import { decode } from "nostr-tools/nip19";
import { getPublicKey } from "nostr-tools/pure";
import { hexToBytes } from "nostr-tools/utils";
import { LISTING_KIND } from "../../domain/nostr-listing";
import { DEFAULT_NOSTR_RELAYS } from "../../domain/nostr-relays";
import type { Env } from "../env";

export interface NostrSettings {
  /** The platform's secret key, or null when publishing is off. */
  secretKey: Uint8Array | null;
  /** Its public key (hex), or null when publishing is off. */
  pubkey: string | null;
  relays: string[];
  /** Why nothing is published, or null. */
  off: string | null;
}

type NostrEnv = Pick<Env, "NOSTR_SECRET_KEY" | "NOSTR_RELAYS">;

/** The secret key NOSTR_SECRET_KEY holds (hex or nsec), or null when it is neither. */
export function parseNostrSecretKey(value: string): Uint8Array | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    const key = hexToBytes(text.toLowerCase());
    try {
      getPublicKey(key); // 0 and values past the curve's order are no key
      return key;
    } catch {
      return null;
    }
  }
  if (text.startsWith("nsec1")) {
    try {
      const decoded = decode(text);
      return decoded.type === "nsec" ? decoded.data : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** NOSTR_RELAYS as a list (unset or empty: the default relays), or the entry that is no relay URL. */
export function parseNostrRelays(value: string | undefined): { relays: string[] } | { bad: string } {
  const entries = (value ?? "").split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return { relays: [...DEFAULT_NOSTR_RELAYS] };
  const relays: string[] = [];
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { bad: entry };
    }
    if ((url.protocol !== "ws:" && url.protocol !== "wss:") || !url.hostname) return { bad: entry };
    if (!relays.includes(entry)) relays.push(entry);
  }
  return { relays };
}

const known = new Map<string, NostrSettings>();

/** The settings this Worker publishes with; worked out once per isolate and setting. */
export function nostrSettings(env: NostrEnv): NostrSettings {
  const cacheKey = `${env.NOSTR_SECRET_KEY ?? ""}\n${env.NOSTR_RELAYS ?? ""}`;
  let settings = known.get(cacheKey);
  if (!settings) {
    settings = readSettings(env);
    if (known.size > 16) known.clear();
    known.set(cacheKey, settings);
  }
  return settings;
}

function readSettings(env: NostrEnv): NostrSettings {
  const parsed = parseNostrRelays(env.NOSTR_RELAYS);
  const relays = "relays" in parsed ? parsed.relays : [];
  const off = (off: string): NostrSettings => ({ secretKey: null, pubkey: null, relays, off });
  if ("bad" in parsed) return off(`Nostr publishing is off: NOSTR_RELAYS holds "${parsed.bad.slice(0, 100)}", which is not a ws:// or wss:// relay URL.`);
  if (!env.NOSTR_SECRET_KEY) return off("Nostr publishing is off: NOSTR_SECRET_KEY is not set.");
  const secretKey = parseNostrSecretKey(env.NOSTR_SECRET_KEY);
  if (!secretKey) return off("Nostr publishing is off: NOSTR_SECRET_KEY is neither 64 hex characters nor an nsec.");
  return { secretKey, pubkey: getPublicKey(secretKey), relays, off: null };
}

/**
 * The gig a listing's `naddr` names when it is one of ours (kind 30402 by the platform's key: its `d` is the gig's
 * id), else null. The NIP-89 announcement sends clients to `/gig/<naddr>`; the Worker answers that with the gig page.
 */
export function gigIdOfNaddr(env: NostrEnv, code: string): string | null {
  const pubkey = nostrSettings(env).pubkey;
  if (!pubkey || !code.startsWith("naddr1")) return null;
  try {
    const decoded = decode(code);
    if (decoded.type !== "naddr" || decoded.data.kind !== LISTING_KIND || decoded.data.pubkey !== pubkey) return null;
    return decoded.data.identifier || null;
  } catch {
    return null;
  }
}
