// Test factories: members signed in through the real Nostr login, and small request helpers.
import { exports } from "cloudflare:workers";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nip19 } from "nostr-tools";

export const BASE = "https://gigstr.test";

export async function api(path: string, init: RequestInit & { token?: string; json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers, body }));
}

export async function getChallenge() {
  const res = await api("/api/auth/nostr/challenge", { method: "POST" });
  return (await res.json()) as { challenge: string; challengeId: string };
}

export function loginEvent(secretKey: Uint8Array, challenge: string, opts: { kind?: number; createdAt?: number } = {}) {
  const kind = opts.kind ?? 22242;
  return finalizeEvent(
    {
      kind,
      created_at: opts.createdAt ?? Math.floor(Date.now() / 1000),
      tags: kind === 22242 ? [["challenge", challenge]] : [],
      content: kind === 1 ? challenge : "",
    },
    secretKey,
  );
}

export interface Member {
  token: string;
  id: string;
  username: string;
  secretKey: Uint8Array;
  pubkey: string;
  npub: string;
}

/** A new member, signed in; with `lightningAddress` it is also set on the profile. */
export async function signUp(profile: { lightningAddress?: string; displayName?: string } = {}): Promise<Member> {
  const secretKey = generateSecretKey();
  const { challenge, challengeId } = await getChallenge();
  const res = await api("/api/auth/nostr/verify", { method: "POST", json: { event: loginEvent(secretKey, challenge), challengeId } });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const { sessionToken, user } = (await res.json()) as { sessionToken: string; user: { id: string; username: string } };
  if (Object.keys(profile).length > 0) {
    const patch = await api("/api/user/me", { method: "PATCH", token: sessionToken, json: profile });
    if (patch.status !== 200) throw new Error(`profile failed: ${patch.status} ${await patch.text()}`);
  }
  const pubkey = getPublicKey(secretKey);
  return { token: sessionToken, id: user.id, username: user.username, secretKey, pubkey, npub: nip19.npubEncode(pubkey) };
}
