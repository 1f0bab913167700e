// Sealed session tokens (docs/decisions/035): a sign-in writes its session to the database and hands the browser a
// token that states the session's facts (its id, when it opened and ends, the member's Nostr key) and its secret,
// sealed by an HMAC under a key derived from the platform's Nostr key. Nothing is handed to the member's inbox at
// sign-in: the inbox takes the session in at its first request, once the seal holds and nothing ended it meanwhile
// (signed out, "sign out everywhere" after it opened, the account deleted: durable-objects/member-inbox.ts).
// Without the key (NOSTR_SECRET_KEY unset) the sign-in hands the session over as before (services/auth.ts).
import { hexToBytes } from "nostr-tools/utils";
import type { Env, OpenedSession } from "../env";
import { derivedKeyOf, hex } from "./derived-keys";
import { parseMemberSessionToken, sealedSessionText, sha256Hex } from "./tokens";

/** The key that seals session tokens, or null when NOSTR_SECRET_KEY is unset or not a key. */
export const sessionSealKeyOf = (env: Pick<Env, "NOSTR_SECRET_KEY"> | undefined): Promise<CryptoKey | null> => derivedKeyOf(env, "sessionToken");

/** A new session's sealed token: its secret (whose hash the sign-in's batch wrote) with the session's facts, sealed. */
export async function sealSessionToken(key: CryptoKey, userId: string, secret: string, session: OpenedSession & { nostrPubkey: string }): Promise<string> {
  const text = sealedSessionText(userId, secret, { sessionId: session.id, openedAt: session.openedAt, expiresAt: session.expiresAt, nostrPubkey: session.nostrPubkey });
  return `${text}.${hex(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)))}`;
}

/**
 * The session a sealed token of member `userId` states, when its seal holds under this deployment's key, it is
 * this member's, and it has not expired at `now`; else null. `tokenKey` is the SHA-256 of its secret, as the
 * sessions table and the inbox key it. Whether it ended since is the inbox's to say.
 */
export async function openSealedSessionToken(
  env: Pick<Env, "NOSTR_SECRET_KEY">,
  userId: string,
  token: string,
  now = Date.now(),
): Promise<(OpenedSession & { nostrPubkey: string; tokenKey: string }) | null> {
  const parsed = parseMemberSessionToken(token);
  const claims = parsed?.claims;
  if (!parsed || !claims || parsed.userId !== userId || claims.expiresAt <= now) return null;
  const key = await sessionSealKeyOf(env);
  if (!key) return null;
  // WebCrypto's verify compares in constant time.
  if (!(await crypto.subtle.verify("HMAC", key, hexToBytes(claims.seal), new TextEncoder().encode(claims.sealed)))) return null;
  return { id: claims.sessionId, openedAt: claims.openedAt, expiresAt: claims.expiresAt, nostrPubkey: claims.nostrPubkey, tokenKey: await sha256Hex(parsed.secret) };
}
