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
// A session token names its member first, so a request is checked at the member's inbox
// (durable-objects/member-inbox.ts) and not in the database (docs/decisions/032). Two forms:
// - `<member id>.<secret>`: the secret is 32 random bytes in hex; the sign-in handed the session to the inbox.
// - `<member id>.<session id>.<opened>.<expires>.<Nostr key>.<secret>.<seal>` (docs/decisions/035): the
//   session's facts and its secret, sealed by the HMAC of everything before the seal under a key only this Worker
//   holds (./signed-sessions.ts). The sign-in hands nothing over; the inbox takes the session in at its first
//   request, once the seal holds. (The secret is made before the sign-in's batch, which writes its hash; the seal
//   after it, when the member's id is known.)
// Either way only the SHA-256 of the secret is kept, in the sessions table and the inbox. Tokens from before 032 (the bare secret, no member id) are still checked in the database until they expire.

const SECRET = /^[0-9a-f]{64}$/;
const MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SEALED = /^([A-Za-z0-9_-]{1,64})\.([0-9a-f-]{36})\.([0-9a-z]{1,11})\.([0-9a-z]{1,11})\.([0-9a-f]{64})\.([0-9a-f]{64})\.([0-9a-f]{64})$/;

/** The facts a sealed token states about its session (times in ms), and the text its seal signs. */
export interface SealedSessionClaims {
  sessionId: string;
  openedAt: number;
  expiresAt: number;
  nostrPubkey: string;
  /** The HMAC of `sealed`, in hex. */
  seal: string;
  /** Everything before the seal: what the seal is the HMAC of. */
  sealed: string;
}

/** The token a session handed to its member's inbox at sign-in gives the browser. */
export const memberSessionToken = (userId: string, secret: string): string => `${userId}.${secret}`;

/** The text a sealed token's seal signs: its member, its session's facts and its secret. */
export const sealedSessionText = (userId: string, secret: string, s: Omit<SealedSessionClaims, "seal" | "sealed">): string =>
  `${userId}.${s.sessionId}.${s.openedAt.toString(36)}.${s.expiresAt.toString(36)}.${s.nostrPubkey}.${secret}`;

/**
 * A session token's member and secret (and a sealed token's facts, unchecked: only the seal says they hold); null
 * when it is not one (a token from before has no member id).
 */
export function parseMemberSessionToken(token: string): { userId: string; secret: string; claims?: SealedSessionClaims } | null {
  const sealed = SEALED.exec(token);
  if (sealed) {
    const [, userId, sessionId, opened, expires, nostrPubkey, secret, seal] = sealed;
    return {
      userId: userId!,
      secret: secret!,
      claims: { sessionId: sessionId!, openedAt: parseInt(opened!, 36), expiresAt: parseInt(expires!, 36), nostrPubkey: nostrPubkey!, seal: seal!, sealed: token.slice(0, -65) },
    };
  }
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
