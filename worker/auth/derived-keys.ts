// Keys derived from the platform's Nostr key (NOSTR_SECRET_KEY, DESIGN.md §11), the one secret of 32 random bytes
// every deployment that publishes has: one HMAC-SHA256 key per purpose (login challenges, session tokens), each the
// HMAC of its purpose's label under the platform key, so no use of one can stand for another and the Nostr key
// never signs anything here itself. Without the setting (publishing off) there is no key, and each use falls back
// to what it stored before (docs/decisions/034, 035).
import { parseNostrSecretKey } from "../services/nostr-settings";
import type { Env } from "../env";

/** What each derived key is for: the label keeps it apart from any other use of the platform's key. */
export const KEY_PURPOSES = {
  loginChallenge: "gigstr/login-challenge/v1",
  sessionToken: "gigstr/session-token/v1",
} as const;

export type KeyPurpose = keyof typeof KEY_PURPOSES;

const HMAC = { name: "HMAC", hash: "SHA-256" } as const;

// Deriving a key is two HMACs and two key imports: done once per isolate, Nostr key and purpose, not per request.
const keys = new Map<string, Promise<CryptoKey | null>>();

async function deriveKey(secretKey: Uint8Array, purpose: KeyPurpose): Promise<CryptoKey> {
  const platform = await crypto.subtle.importKey("raw", secretKey, HMAC, false, ["sign"]);
  const derived = await crypto.subtle.sign("HMAC", platform, new TextEncoder().encode(KEY_PURPOSES[purpose]));
  return crypto.subtle.importKey("raw", derived, HMAC, false, ["sign", "verify"]);
}

/** The key for `purpose`, or null when NOSTR_SECRET_KEY is unset or not a key. */
export function derivedKeyOf(env: Pick<Env, "NOSTR_SECRET_KEY"> | undefined, purpose: KeyPurpose): Promise<CryptoKey | null> {
  const setting = env?.NOSTR_SECRET_KEY ?? "";
  const cacheKey = `${purpose}\n${setting}`;
  let key = keys.get(cacheKey);
  if (!key) {
    const secretKey = setting ? parseNostrSecretKey(setting) : null;
    key = secretKey ? deriveKey(secretKey, purpose) : Promise.resolve(null);
    keys.set(cacheKey, key);
  }
  return key;
}

/** Bytes in lower-case hex. */
export function hex(bytes: ArrayBuffer | Uint8Array): string {
  let out = "";
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) out += b.toString(16).padStart(2, "0");
  return out;
}
