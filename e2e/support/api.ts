// Talking to the app's API directly, to set up what a test needs without the UI.
import { finalizeEvent, generateSecretKey, getPublicKey, nip19 } from "nostr-tools";

export interface SignedInUser {
  sessionToken: string;
  user: { id: string; username: string; displayName?: string | null; [field: string]: unknown };
  secretKey: Uint8Array;
  pubkey: string;
  npub: string;
}

/**
 * A client address of its own for each simulated person, sent as `CF-Connecting-IP` (wrangler dev keeps it):
 * the Worker counts sign-in attempts per address (worker/rate-limits.ts), and the tests' many people all
 * come from this one machine.
 */
export function clientAddress(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/**
 * Signs in with a Nostr key the way the web client does (DESIGN.md §6): ask for a challenge,
 * sign a kind 22242 event carrying it in a `challenge` tag and naming this site in a `relay` tag,
 * and trade it for a session.
 * A new key (so a new user) unless one is given.
 */
export async function createSignedInUser(baseUrl: string, secretKey: Uint8Array = generateSecretKey()): Promise<SignedInUser> {
  const { challenge, challengeId } = await apiJson<{ challenge: string; challengeId: string }>(
    baseUrl,
    "POST",
    "/api/auth/nostr/challenge",
    { headers: { "CF-Connecting-IP": clientAddress() } },
  );
  const event = finalizeEvent(
    { kind: 22242, created_at: Math.floor(Date.now() / 1000), tags: [["challenge", challenge], ["relay", new URL(baseUrl).origin]], content: challenge },
    secretKey,
  );
  const { sessionToken, user } = await apiJson<{ sessionToken: string; user: SignedInUser["user"] }>(
    baseUrl,
    "POST",
    "/api/auth/nostr/verify",
    { body: { event, challengeId } },
  );
  const pubkey = getPublicKey(secretKey);
  return { sessionToken, user, secretKey, pubkey, npub: nip19.npubEncode(pubkey) };
}

export interface ApiOptions {
  body?: unknown;
  sessionToken?: string;
  headers?: Record<string, string>;
}

/** One API call; a non-2xx answer throws with the status and the body. */
export async function apiJson<T = unknown>(baseUrl: string, method: string, path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.sessionToken) headers.Authorization = `Bearer ${options.sessionToken}`;
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers,
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
