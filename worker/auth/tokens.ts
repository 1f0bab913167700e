// Random tokens and their hashes: only the SHA-256 of a session or admin token is stored (DESIGN.md §6).

export function randomHex(bytes = 32): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return [...buf].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two strings in time that does not depend on where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  let diff = ea.length ^ eb.length;
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}

// ---- Member session tokens --------------------------------------------------------------------------
// A session token is `<member id>.<secret>`: the member's id says whose inbox (durable-objects/member-inbox.ts)
// holds the session, so a request is checked there and not in the database (docs/decisions/032). The secret is
// 32 random bytes in hex, and only its SHA-256 is kept, in the sessions table and in the member's inbox. Tokens
// from before (the bare secret, no member id) are still checked in the database until they expire.

const SECRET = /^[0-9a-f]{64}$/;
const MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The token a new session hands the browser. */
export const memberSessionToken = (userId: string, secret: string): string => `${userId}.${secret}`;

/** A session token's member and secret; null when it is not one (a token from before has no member id). */
export function parseMemberSessionToken(token: string): { userId: string; secret: string } | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const userId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  return MEMBER_ID.test(userId) && SECRET.test(secret) ? { userId, secret } : null;
}

/** A token from before member ids were in tokens: the bare secret. */
export const isBareSessionSecret = (token: string): boolean => SECRET.test(token);

/**
 * What the sessions table keys a token by: the SHA-256 of its secret (of the whole token for one from before).
 * Anything else a client sends gets a key no session has.
 */
export async function sessionKeyOf(token: string): Promise<string> {
  return sha256Hex(parseMemberSessionToken(token)?.secret ?? token);
}
