// Sign-in with a remote signer (NIP-46, decision 027) end to end in Node: a real signer (applesauce-signers'
// NostrConnectProvider, scripts/local-nostr/bunker.ts) holding the member's key on the real local relay
// (@nostr-relay/core, scripts/local-nostr/relay.ts), a client through nostr-tools' BunkerSigner (what the web app
// uses), and the Worker's own sign-in routes (POST /api/auth/nostr/challenge and /verify, then GET /api/user/me
// with the session) on a real D1 (wrangler's platform proxy). The "nwc" test project: the relay cannot run inside
// workerd. The web app's wrapper around BunkerSigner has its own test (web/src/features/auth/remote-signer.relay.test.ts).
import { Hono } from "hono";
import { BunkerSigner, createNostrConnectURI, parseBunkerInput } from "nostr-tools/nip46";
import { useWebSocketImplementation } from "nostr-tools/pool";
import { generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as NodeWebSocket } from "ws";
import { startBunker, type LocalBunker } from "../../scripts/local-nostr/bunker";
import { startRelay, type LocalRelay } from "../../scripts/local-nostr/relay";
import type { AppEnv } from "../context";
import type { Env } from "../env";
import { AppError } from "../errors";
import { authRoutes } from "../routes/auth";
import { meRoutes } from "../routes/users";
import { startNodeD1, type NodeD1 } from "../test/node-d1";
import { identify } from "./middleware";

const ORIGIN = "http://127.0.0.1:8787";

let relay: LocalRelay;
let d1: NodeD1;
const bunkers: LocalBunker[] = [];
const clients: BunkerSigner[] = [];
const pending: Promise<unknown>[] = [];

beforeAll(async () => {
  // nostr-tools dials with the `ws` package, as the browser would with its own WebSocket.
  useWebSocketImplementation(NodeWebSocket);
  relay = await startRelay();
  d1 = await startNodeD1();
}, 60_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(bunkers.splice(0).map((b) => b.close()));
});

afterAll(async () => {
  await Promise.all(pending);
  await relay?.close();
  await d1?.dispose();
});

/** The Worker's sign-in and "who am I" routes as app.ts mounts them, on the Node D1. */
function worker() {
  const app = new Hono<AppEnv>();
  app.use("/api/*", async (c, next) => {
    c.set("d1", d1.db.$client);
    await next();
  });
  app.use("/api/*", identify(async () => false));
  app.route("/api/auth", authRoutes);
  app.route("/api/user/me", meRoutes);
  app.onError((err, c) => {
    if (err instanceof AppError) return c.json({ message: err.message, error: err.code }, err.status);
    throw err;
  });
  const noObject = { idFromName: () => ({}), get: () => ({}) };
  const env = { LIGHTNING_BACKEND: "dev", LOCAL_DEV: "1", GIG_ROOM: noObject, MEMBER_INBOX: noObject } as unknown as Env;
  const ctx = { waitUntil: (work: Promise<unknown>) => void pending.push(work.catch(() => undefined)), passThroughOnException() {}, props: {} };
  return async <T>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; json: T }> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await app.request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, env, ctx);
    return { status: res.status, json: (await res.json()) as T };
  };
}

async function bunker(userKey = generateSecretKey()): Promise<LocalBunker> {
  const started = await startBunker({ relays: [relay.url], userKey });
  bunkers.push(started);
  return started;
}

/** The web client's sign-in (web/src/features/auth/nostr-sign-in.ts) with a remote signer doing the signing. */
async function signIn(signer: BunkerSigner) {
  const call = worker();
  const { json: challenge } = await call<{ challenge: string; challengeId: string }>("POST", "/api/auth/nostr/challenge");
  const event = await signer.signEvent({
    kind: 22242,
    created_at: Math.floor(Date.now() / 1000),
    tags: [
      ["challenge", challenge.challenge],
      ["relay", ORIGIN],
    ],
    content: "",
  });
  const verified = await call<{ sessionToken: string; user: { username: string; nostrPubkey: string } }>("POST", "/api/auth/nostr/verify", {
    event,
    challengeId: challenge.challengeId,
  });
  return { event, ...verified, me: (token: string) => call<{ nostrPubkey: string }>("GET", "/api/user/me", undefined, token) };
}

describe("signing in with a remote signer", () => {
  it("with a bunker:// link: connect, the member's key, a signed challenge, a session for that key", async () => {
    const userKey = generateSecretKey();
    const member = getPublicKey(userKey);
    const remote = await bunker(userKey);
    const pointer = (await parseBunkerInput(remote.bunkerUrl))!;
    expect(pointer.relays).toEqual([relay.url]);

    const client = BunkerSigner.fromBunker(generateSecretKey(), pointer);
    clients.push(client);
    await client.connect();
    expect(await client.getPublicKey()).toBe(member);
    // The bunker:// link names the signer's own key, never the member's.
    expect(pointer.pubkey).not.toBe(member);

    const { event, status, json, me } = await signIn(client);
    expect(status).toBe(200);
    expect(verifyEvent(event)).toBe(true);
    expect(event.pubkey).toBe(member);
    expect(remote.signed.map((e) => e.id)).toEqual([event.id]);
    expect(json.user.nostrPubkey).toBe(member);
    const whoAmI = await me(json.sessionToken);
    expect(whoAmI).toMatchObject({ status: 200, json: { nostrPubkey: member } });
  });

  it("with a nostrconnect:// code the signer app opens: the same member, signed in again", async () => {
    const userKey = generateSecretKey();
    const member = getPublicKey(userKey);
    const remote = await bunker(userKey);
    const clientKey = generateSecretKey();
    const uri = createNostrConnectURI({ clientPubkey: getPublicKey(clientKey), relays: [relay.url], secret: "5ec7e7", name: "Gigstr", perms: ["sign_event:22242"] });

    const connecting = BunkerSigner.fromURI(clientKey, uri, {}, 10_000);
    // Give the client's subscription a moment to open: the signer's answer is an ephemeral event.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await remote.connectTo(uri);
    const client = await connecting;
    clients.push(client);
    expect(await client.getPublicKey()).toBe(member);

    const first = await signIn(client);
    const second = await signIn(client);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json.user.username).toBe(first.json.user.username);
    expect(second.json.sessionToken).not.toBe(first.json.sessionToken);
    expect((await second.me(second.json.sessionToken)).json.nostrPubkey).toBe(member);
  });

  it("signs nobody in when the person declines in their signer", async () => {
    const remote = await bunker();
    const client = BunkerSigner.fromBunker(generateSecretKey(), (await parseBunkerInput(remote.bunkerUrl))!);
    clients.push(client);
    await client.connect();
    remote.refuseSigning(true);
    await expect(signIn(client)).rejects.toBe("Sign event denied");
    expect(remote.refused).toHaveLength(1);
    expect(remote.signed).toEqual([]);
  });
});
