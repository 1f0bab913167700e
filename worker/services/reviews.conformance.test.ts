// A review signed by the reviewer's key on a real relay, as any Nostr client sees it (docs/decisions/028): the
// Worker's own services (a funded gig, claimed, worked and submitted; the worker's review of the hirer, signed with
// the worker's key as the web app signs it) on a real D1 (wrangler's platform proxy), the outbox sent by the cron's
// job over its real transport to @nostr-relay/core on 127.0.0.1 (scripts/local-nostr/relay.ts, the relay
// `npm start` runs), and a client subscribed there to kind 1985 naming the hirer. Runs in Node (the "nwc" test
// project): the relay cannot run inside workerd. The rules are tested inside workerd too (reviews.test.ts).
import { decode } from "nostr-tools/nip19";
import { Relay } from "nostr-tools/relay";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event } from "nostr-tools/pure";
import { bytesToHex } from "nostr-tools/utils";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelay, type LocalRelay } from "../../scripts/local-nostr/relay";
import { listingAddress } from "../../domain/nostr-listing";
import { REVIEW_KIND, gigReference, reviewTemplate } from "../../domain/nostr-review";
import { makeDeps } from "../composition";
import type { UserRow } from "../db/client";
import { gigs, users } from "../db/schema";
import type { Env } from "../env";
import { decodeInvoice } from "../lightning/invoice";
import { startNodeD1, type NodeD1 } from "../test/node-d1";
import { markInvoicePaid } from "./escrow";
import { claimGig, startWork, submitWork } from "./gig-actions";
import { postGig } from "./gigs";
import { decideInterest, sendInterest } from "./interest";
import { publishNostrOutbox } from "./nostr-outbox";
import { reviewGig, reviewsOf } from "./reviews";

const platformKey = generateSecretKey();
const platform = getPublicKey(platformKey);

let relay: LocalRelay;
let d1: NodeD1;
let client: Relay;
/** Every review (kind 1985) the subscribed client received. */
const received: Event[] = [];
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

function envWith(relays: string): Env {
  const noObject = { idFromName: () => ({}), get: () => ({ watchFunding: async () => {}, announce: async () => {} }) };
  return {
    LIGHTNING_BACKEND: "dev",
    LOCAL_DEV: "1",
    NOSTR_SECRET_KEY: bytesToHex(platformKey),
    NOSTR_RELAYS: relays,
    GIG_ROOM: noObject,
    MEMBER_INBOX: noObject,
  } as unknown as Env;
}

const ORIGIN = "http://127.0.0.1:8787";
const depsFor = () => makeDeps(envWith(relay.url), (work) => void pending.push(work()), { db: d1.db, origin: ORIGIN });

async function settle() {
  while (pending.length > 0) await Promise.all(pending.splice(0));
}

/** A member whose Nostr client holds their secret key. */
async function member(name: string): Promise<{ row: UserRow; secretKey: Uint8Array; pubkey: string }> {
  const id = crypto.randomUUID();
  const secretKey = generateSecretKey();
  const pubkey = getPublicKey(secretKey);
  await d1.db.insert(users).values({ id, username: `${name}-${id.slice(0, 6)}`, nostrPubkey: pubkey, lightningAddress: `${name}@wallet.test` });
  return { row: (await d1.db.query.users.findFirst({ where: eq(users.id, id) }))!, secretKey, pubkey };
}

/** `hirer` posts and funds a job, `worker` claims it, works and submits: the two may now review each other. */
async function submittedJob(hirer: UserRow, worker: UserRow) {
  const deps = depsFor();
  const posted = await postGig(deps, hirer, { gigType: "job_request", title: "Review relay", description: "Review five relays.", category: "Development", payment: 12_000, timeframe: 7 });
  const bolt11 = posted.paymentRequest!;
  await deps.devWallet!.payDevInvoice(bolt11);
  expect(await markInvoicePaid(deps, decodeInvoice(bolt11).paymentHash)).toBe("funded");
  const gigId = posted.gig.id;
  const interest = await sendInterest(depsFor(), worker, gigId, "I review relays.");
  await decideInterest(depsFor(), hirer, interest.id, "approve");
  await decideInterest(depsFor(), hirer, interest.id, "enable-claim");
  await claimGig(depsFor(), worker, gigId);
  await startWork(depsFor(), worker, gigId);
  await submitWork(depsFor(), worker, gigId, "The five reviews.", []);
  await settle();
  return (await d1.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) }))!;
}

async function seen(match: (e: Event) => boolean, what: string): Promise<Event> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = received.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("a signed review on a real relay", () => {
  it("after the cron, a client subscribed to reviews of the hirer gets the worker's event, unchanged; it verifies with nostr-tools and names the hirer and the gig", async () => {
    const hirer = await member("rv-hirer");
    const worker = await member("rv-worker");
    client.subscribe([{ kinds: [REVIEW_KIND], "#p": [hirer.pubkey] }], { onevent: (e) => void received.push(e) });
    const gig = await submittedJob(hirer.row, worker.row);

    // What the web app signs: the worker's own key, the gig's listing (it is listed: funded), 5 stars and the text.
    const event = finalizeEvent(
      reviewTemplate(
        { revieweePubkey: hirer.pubkey, revieweeRole: "hirer", rating: 5, comment: "Quick answers, clear brief." },
        gigReference(gig, platform, ORIGIN),
        { createdAt: Math.floor(Date.now() / 1000) },
      ),
      worker.secretKey,
    );
    const answer = await reviewGig(depsFor(), worker.row, gig.id, { rating: 5, comment: "Quick answers, clear brief.", revieweeId: hirer.row.id, event });
    expect(answer).toMatchObject({ verified: true, nostrEventId: event.id });
    await settle();
    expect(received.filter((e) => e.id === event.id)).toEqual([]); // nothing before the cron

    const run = await publishNostrOutbox({ db: d1.db, env: envWith(relay.url) }, { timeoutMs: 3_000 });
    expect(run.published).toBeGreaterThanOrEqual(1);
    const got = await seen((e) => e.id === event.id, "the signed review");
    expect(verifyEvent(JSON.parse(JSON.stringify(got)) as Event)).toBe(true); // a fresh copy: nothing cached on it
    expect(got).toMatchObject({ kind: REVIEW_KIND, pubkey: worker.pubkey, content: "Quick answers, clear brief." });
    expect(got.tags).toEqual(expect.arrayContaining([["p", hirer.pubkey], ["a", listingAddress(platform, gig.id)], ["rating", "1"], ["L", "review"]]));
    expect(got.sig).toBe(event.sig);

    // The profile's reviews link to that event: its nevent names it, its author, and the relay it is on.
    const [listed] = await reviewsOf({ db: d1.db, env: envWith(relay.url) }, hirer.row.id);
    expect(listed).toMatchObject({ verified: true, nostrEventId: event.id });
    const nevent = decode(listed!.nevent!);
    expect(nevent).toMatchObject({ type: "nevent", data: { id: event.id, author: worker.pubkey, kind: REVIEW_KIND, relays: [relay.url] } });

    // A client that connects later finds it on the relay by the reviewer's key.
    const later = await Relay.connect(relay.url);
    try {
      const stored = await new Promise<Event[]>((resolve) => {
        const events: Event[] = [];
        const sub = later.subscribe([{ kinds: [REVIEW_KIND], authors: [worker.pubkey] }], {
          onevent: (e) => void events.push(e),
          oneose: () => {
            sub.close();
            resolve(events);
          },
        });
      });
      expect(stored.map((e) => e.id)).toEqual([event.id]);
      expect(verifyEvent(JSON.parse(JSON.stringify(stored[0])) as Event)).toBe(true);
    } finally {
      later.close();
    }
  });
});
