// The world of a test that watches Gigstr on a real relay (the "nwc" project, in Node): a platform key, the
// relay `npm start` runs (@nostr-relay/core, scripts/local-nostr/relay.ts), a real D1 (wrangler's platform
// proxy), a client connected to the relay, and the Worker's deps as a request makes them (composition.ts) with
// their deferred work collected, so a test can wait for it and then run the cron's Nostr job.
import { eq } from "drizzle-orm";
import { Relay } from "nostr-tools/relay";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { bytesToHex } from "nostr-tools/utils";
import { afterAll, beforeAll } from "vitest";
import { startRelay, type LocalRelay } from "../../scripts/local-nostr/relay";
import { makeDeps } from "../composition";
import type { UserRow } from "../db/client";
import { users } from "../db/schema";
import type { Env } from "../env";
import { publishNostrOutbox } from "../services/nostr-outbox";
import { startNodeD1, type NodeD1 } from "./node-d1";

export const NOSTR_WORLD_ORIGIN = "http://127.0.0.1:8787";

export interface NostrWorld {
  platformKey: Uint8Array;
  platform: string;
  relay: () => LocalRelay;
  d1: () => NodeD1;
  /** A client connected to the relay before the tests, for their subscriptions. */
  client: () => Relay;
  /** The Worker's settings: the platform key, and the relays the outbox sends to (default: the local relay). */
  env: (relays?: string) => Env;
  /** The Worker's deps as a request makes them; their deferred work is collected (see settle). */
  deps: (relays?: string) => ReturnType<typeof makeDeps>;
  /** Waits for every piece of deferred work the deps were given, and what that work deferred in turn. */
  settle: () => Promise<void>;
  /** The cron's Nostr job, `minutesLater` into the future (so every back-off has run out). */
  cron: (minutesLater?: number, relays?: string) => ReturnType<typeof publishNostrOutbox>;
  /** A member whose Nostr client holds their secret key. */
  member: (name: string, extra?: Partial<typeof users.$inferInsert>) => Promise<{ row: UserRow; secretKey: Uint8Array; pubkey: string }>;
}

/** Starts the world before the file's tests and stops it after them. */
export function useNostrWorld(): NostrWorld {
  const platformKey = generateSecretKey();
  let relay: LocalRelay | undefined;
  let d1: NodeD1 | undefined;
  let client: Relay | undefined;
  const pending: Promise<unknown>[] = [];

  beforeAll(async () => {
    // The services forget a gig's cached page after each change (the Workers Cache API, which Node lacks).
    (globalThis as { caches?: unknown }).caches ??= { default: { delete: async () => true } };
    relay = await startRelay();
    d1 = await startNodeD1();
    client = await Relay.connect(relay.url);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await relay?.close();
    await d1?.dispose();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`nostr world: ${what} is not started (use it inside tests)`);
    return value;
  };
  const env = (relays = started(relay, "the relay").url): Env => {
    const noObject = { idFromName: () => ({}), get: () => ({ watchFunding: async () => {}, announce: async () => {} }) };
    return {
      LIGHTNING_BACKEND: "dev",
      LOCAL_DEV: "1",
      NOSTR_SECRET_KEY: bytesToHex(platformKey),
      NOSTR_RELAYS: relays,
      GIG_ROOM: noObject,
      MEMBER_INBOX: noObject,
    } as unknown as Env;
  };
  const db = () => started(d1, "D1").db;
  const settle = async () => {
    while (pending.length > 0) await Promise.all(pending.splice(0));
  };

  return {
    platformKey,
    platform: getPublicKey(platformKey),
    relay: () => started(relay, "the relay"),
    d1: () => started(d1, "D1"),
    client: () => started(client, "the client"),
    env,
    deps: (relays) => makeDeps(env(relays), (work) => void pending.push(work()), { db: db(), origin: NOSTR_WORLD_ORIGIN }),
    settle,
    cron: async (minutesLater = 0, relays) => {
      await settle();
      return publishNostrOutbox({ db: db(), env: env(relays) }, { now: new Date(Date.now() + minutesLater * 60_000), timeoutMs: 3_000 });
    },
    member: async (name, extra = {}) => {
      const id = crypto.randomUUID();
      const secretKey = generateSecretKey();
      const pubkey = getPublicKey(secretKey);
      await db().insert(users).values({ id, username: `${name}-${id.slice(0, 6)}`, nostrPubkey: pubkey, lightningAddress: `${name}@wallet.test`, ...extra });
      return { row: (await db().query.users.findFirst({ where: eq(users.id, id) }))!, secretKey, pubkey };
    },
  };
}
