// Login challenges that prove themselves (docs/decisions/034): the challenge is the HMAC of its id under a key
// only this Worker holds, and the id carries the challenge's expiry. Asking for a challenge then writes nothing;
// the sign-in that uses one records its use, in the same batch that opens the session, as a row keyed by the
// challenge's id, so a second use of it (a replay, a second tab, a race) finds that row and is refused.
//
// The key is derived from the platform's Nostr key (NOSTR_SECRET_KEY, DESIGN.md §11), the one secret of 32
// random bytes every deployment that publishes has. Without it (publishing off) there is no key, and challenges
// are stored in the database as before (services/auth.ts): sign-in costs a write more, nothing else changes.
import { derivedKeyOf, hex } from "./derived-keys";
import type { Env } from "../env";

/**
 * A signed challenge's id: 36 characters as a UUID is, the first 8 hex digits its expiry (Unix seconds), then 12
 * random bytes; the third group starts with `0`, where a random UUID (a stored challenge's id) has its version, 4.
 */
const SIGNED_ID = /^([0-9a-f]{8})-[0-9a-f]{4}-0[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The key that signs login challenges, or null when NOSTR_SECRET_KEY is unset or not a key (challenges are then stored). */
export const challengeKeyOf = (env: Pick<Env, "NOSTR_SECRET_KEY"> | undefined): Promise<CryptoKey | null> => derivedKeyOf(env, "loginChallenge");

/** Whether login challenges are stored in the database here (no key signs them): each one asked for is then a write. */
export const storesLoginChallenges = async (env: Pick<Env, "NOSTR_SECRET_KEY"> | undefined): Promise<boolean> => (await challengeKeyOf(env)) === null;

/** The challenge text of an id: 32 bytes in hex, as a random challenge is. */
async function challengeOf(key: CryptoKey, challengeId: string): Promise<string> {
  return hex(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(challengeId)));
}

/** A new challenge, valid for `ttlMs` from `nowMs`. */
export async function signedChallenge(key: CryptoKey, ttlMs: number, nowMs = Date.now()): Promise<{ challenge: string; challengeId: string }> {
  const expiry = Math.ceil((nowMs + ttlMs) / 1000).toString(16).padStart(8, "0");
  const r = hex(crypto.getRandomValues(new Uint8Array(12)));
  const challengeId = `${expiry}-${r.slice(0, 4)}-0${r.slice(4, 7)}-${r.slice(7, 11)}-${r.slice(11, 23)}`;
  return { challenge: await challengeOf(key, challengeId), challengeId };
}

/** Whether an id has a signed challenge's form (else it is a stored challenge's, or nobody's). */
export const isSignedChallengeId = (challengeId: string): boolean => SIGNED_ID.test(challengeId);

/**
 * What a signed challenge's id says: its challenge text and expiry (ms), when it is open at `nowMs`; null when
 * it expired, or is not in the signed form. Whether the challenge was used is the database's to say.
 */
export async function openSignedChallenge(key: CryptoKey, challengeId: string, nowMs = Date.now()): Promise<{ challenge: string; expiresAt: number } | null> {
  const match = SIGNED_ID.exec(challengeId);
  if (!match) return null;
  const expiresAt = parseInt(match[1]!, 16) * 1000;
  if (expiresAt <= nowMs) return null;
  return { challenge: await challengeOf(key, challengeId), expiresAt };
}
