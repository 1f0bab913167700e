// Test factories: members signed in through the real Nostr login, and small request helpers.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../index";
import type { Env } from "../env";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nip19 } from "nostr-tools";

export const BASE = "https://gigstr.test";

/** `env` overrides the Worker's settings for this request (e.g. `{ LOCAL_DEV: undefined }`: a deployed Worker). */
export async function api(path: string, init: RequestInit & { token?: string; json?: unknown; env?: Partial<Env> } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  // Called like the runtime calls the Worker, then waits for its waitUntil work (payouts, watchers),
  // so a test sees the state a user would see a moment later.
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${path}`, { ...init, headers, body }) as Parameters<typeof worker.fetch>[0];
  const res = await worker.fetch(request, { ...env, ...init.env }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export async function getChallenge() {
  const res = await api("/api/auth/nostr/challenge", { method: "POST" });
  return (await res.json()) as { challenge: string; challengeId: string };
}

/** A login as the web client signs it; `relay` names another site (or `null`: none) for attacks. */
export function loginEvent(
  secretKey: Uint8Array,
  challenge: string,
  opts: { kind?: number; createdAt?: number; relay?: string | null } = {},
) {
  const kind = opts.kind ?? 22242;
  const relay = opts.relay === undefined ? BASE : opts.relay;
  return finalizeEvent(
    {
      kind,
      created_at: opts.createdAt ?? Math.floor(Date.now() / 1000),
      tags: kind === 22242 ? [["challenge", challenge], ...(relay === null ? [] : [["relay", relay]])] : [],
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

export type Json = Record<string, any>;

/** A response's status and body: its JSON, or `{ text }` when the body is not JSON. */
export async function statusAndBody(res: Response): Promise<{ status: number; body: Json }> {
  const text = await res.text();
  let body: Json = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

export async function call(path: string, token: string | undefined, method = "GET", json?: unknown): Promise<{ status: number; body: Json }> {
  return statusAndBody(await api(path, { method, token, json }));
}

/** Posts a gig as `poster` (defaults: a 10,000 sat job request). */
export async function postGig(poster: Member, overrides: Json = {}) {
  const res = await call("/api/gigs", poster.token, "POST", {
    gigType: "job_request",
    title: "Design a logo",
    description: "A clean logo for a bitcoin meetup, SVG please.",
    category: "Design",
    payment: 10_000,
    timeframe: 7,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { gig: Json; paymentRequest: string | null; totalCharge: number };
}

export async function payWithDevWallet(paymentRequest: string) {
  return call("/api/dev/invoices/pay", undefined, "POST", { paymentRequest });
}

/** Sends interest as `member`, and has `owner` approve it and enable claiming. */
export async function approveInterest(gigId: string, owner: Member, member: Member) {
  const sent = await call(`/api/gigs/${gigId}/pre-claim-messages`, member.token, "POST", { message: "I would love to do this." });
  if (sent.status !== 201) throw new Error(`interest failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  for (const step of ["approve", "enable-claim"]) {
    const r = await call(`/api/pre-claim-messages/${sent.body.id}/${step}`, owner.token, "PATCH");
    if (r.status !== 200) throw new Error(`${step} failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return sent.body.id as string;
}

/** A funded job request, claimed by a worker: returns both members and the gig id. */
export async function claimedJob(opts: { payment?: number } = {}) {
  const tag = crypto.randomUUID().slice(0, 8);
  const hirer = await signUp({ lightningAddress: `hirer${tag}@wallet.test`, displayName: "Hirer" });
  const worker = await signUp({ lightningAddress: `worker${tag}@wallet.test`, displayName: "Worker" });
  const posted = await postGig(hirer, { payment: opts.payment ?? 10_000 });
  const paid = await payWithDevWallet(posted.paymentRequest!);
  if (paid.status !== 200) throw new Error(`pay failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  const gigId = posted.gig.id as string;
  await approveInterest(gigId, hirer, worker);
  const claim = await call(`/api/gigs/${gigId}/claim`, worker.token, "POST");
  if (claim.status !== 200) throw new Error(`claim failed: ${claim.status} ${JSON.stringify(claim.body)}`);
  return { hirer, worker, gigId, tag };
}

/** A job with work submitted and waiting for the hirer. */
export async function submittedJob(opts: { payment?: number } = {}) {
  const job = await claimedJob(opts);
  for (const [path, body] of [["start-work", undefined], ["submit", { workSubmission: "Here is the logo: https://example.com/logo.svg" }]] as const) {
    const r = await call(`/api/gigs/${job.gigId}/${path}`, job.worker.token, "POST", body);
    if (r.status !== 200) throw new Error(`${path} failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return job;
}

/**
 * Starts a test that fills a door's limit inside one counting window. The limiter's windows are aligned to the
 * wall clock (Cloudflare's binding and the local one alike), so a fill that straddles the moment the count starts
 * again would see its last request allowed. When fewer than `needSeconds` are left in the current window, this
 * waits for the next one; otherwise it returns at once. It measures nothing: it only picks when to begin.
 */
export async function inOneRateWindow(periodSeconds: 10 | 60, needSeconds = 20): Promise<void> {
  const periodMs = periodSeconds * 1000;
  const left = periodMs - (Date.now() % periodMs);
  if (left < Math.min(needSeconds * 1000, periodMs)) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
