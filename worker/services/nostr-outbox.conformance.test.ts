// Gigstr's gig listings on a real relay, as any Nostr client sees them: the Worker's own services (posting,
// funding, claims, cancels, the admin's removal, through Deps.committed as composition.ts builds it) on a real D1
// (wrangler's platform proxy), the outbox sent by the cron's job over its real transport (nostr-tools' relay
// client on Node's WebSocket) to @nostr-relay/core on 127.0.0.1 (scripts/local-nostr/w.relay().ts, the relay
// `npm start` runs), and a client subscribed there to kind 30402 by the platform's key. Runs in Node (the "nwc"
// test project): the relay cannot run inside workerd. The outbox's rules are tested inside workerd too
// (nostr-outbox.test.ts).
import { createServer } from "node:net";
import { Relay } from "nostr-tools/relay";
import { verifyEvent, type Event } from "nostr-tools/pure";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startDropProxy } from "../../scripts/local-nostr/drop-proxy";
import { startRelay } from "../../scripts/local-nostr/relay";
import { listingAddress } from "../../domain/nostr-listing";
import type { UserRow } from "../db/client";
import { nostrOutbox } from "../db/schema";
import { decodeInvoice } from "../lightning/invoice";
import { makeDeps } from "../composition";
import { NOSTR_WORLD_ORIGIN, useNostrWorld } from "../test/nostr-world";
import { deleteGigAsAdmin } from "./admin";
import { runNostrJobs } from "./cron";
import { markInvoicePaid } from "./escrow";
import { cancelGig, claimGig } from "./gig-actions";
import { postGig } from "./gigs";
import { decideInterest, sendInterest } from "./interest";

const w = useNostrWorld();
const { platformKey, platform } = w;
/** Every event the subscribed client received (kinds 30402 and 5 by the platform's key), in order. */
const received: Event[] = [];

beforeAll(() => {
  w.client().subscribe([{ kinds: [30402, 5], authors: [platform] }], { onevent: (e) => void received.push(e) });
});

const member = async (name: string) => (await w.member(name)).row;

async function postJob(hirer: UserRow, title: string) {
  const deps = w.deps();
  const posted = await postGig(deps, hirer, { gigType: "job_request", title, description: `${title}: details inside.`, category: "Development", payment: 15_000, timeframe: 7 });
  await w.settle();
  return { gigId: posted.gig.id, bolt11: posted.paymentRequest! };
}

async function fund(bolt11: string) {
  const deps = w.deps();
  await deps.devWallet!.payDevInvoice(bolt11);
  expect(await markInvoicePaid(deps, decodeInvoice(bolt11).paymentHash)).toBe("funded");
  await w.settle();
}

async function claim(gigId: string, hirer: UserRow, worker: UserRow) {
  const deps = w.deps();
  const interest = await sendInterest(deps, worker, gigId, "I can do this.");
  await decideInterest(deps, hirer, interest.id, "approve");
  await decideInterest(deps, hirer, interest.id, "enable-claim");
  await claimGig(deps, worker, gigId);
  await w.settle();
}

/** Waits until the client received an event matching `match` (the relay pushes it to the live subscription). */
async function seen(match: (e: Event) => boolean, what: string): Promise<Event> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = received.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the subscriber never saw ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const tag = (e: Event, name: string) => e.tags.find((t) => t[0] === name)?.[1];
const listingOf = (gigId: string, status: string) => (e: Event) => e.kind === 30402 && tag(e, "d") === gigId && tag(e, "status") === status;

/** What a client that connects now gets for the gig's listing (the relay keeps the newest version only). */
async function storedListings(gigId: string): Promise<Event[]> {
  const fresh = await Relay.connect(w.relay().url);
  try {
    return await new Promise<Event[]>((resolve) => {
      const events: Event[] = [];
      const sub = fresh.subscribe([{ kinds: [30402], authors: [platform], "#d": [gigId] }], {
        onevent: (e) => void events.push(e),
        oneose: () => {
          sub.close();
          resolve(events);
        },
      });
    });
  } finally {
    fresh.close();
  }
}

describe("the gig listings on a real relay, as a subscribed Nostr client sees them", () => {
  it("a funded gig appears, active, signed by the platform; claimed, it is replaced by one no longer active; an unpaid gig never appears", async () => {
    const hirer = await member("hirer");
    const worker = await member("worker");
    const unpaid = await postJob(hirer, "Never paid for");
    const job = await postJob(hirer, "Write a Nostr bot");
    await w.cron();
    expect(received.filter((e) => tag(e, "d") === job.gigId)).toEqual([]);

    await fund(job.bolt11);
    // With the first listing, the cron knows the public origin: the NIP-89 announcement goes out with it.
    expect(await w.cron()).toMatchObject({ published: 2, failed: 0, announcement: "announced" });
    const handler = w.relay().events.find((e) => e.kind === 31990 && e.pubkey === platform);
    expect(handler?.tags).toContainEqual(["web", "http://127.0.0.1:8787/gig/<bech32>", "naddr"]);
    const active = await seen(listingOf(job.gigId, "active"), "the funded gig's listing");
    expect(verifyEvent(active)).toBe(true);
    expect(active.pubkey).toBe(platform);
    expect(tag(active, "title")).toBe("Write a Nostr bot");
    expect(active.tags).toContainEqual(["price", "15000", "SATS"]);
    expect(tag(active, "p")).toBe(hirer.nostrPubkey);
    expect(tag(active, "r")).toBe(`http://127.0.0.1:8787/gig/${job.gigId}`);

    await claim(job.gigId, hirer, worker);
    await w.cron();
    const sold = await seen(listingOf(job.gigId, "sold"), "the claimed gig's replacement");
    expect(sold.created_at).toBeGreaterThan(active.created_at);
    expect(await storedListings(job.gigId)).toEqual([sold]);

    await w.cron(120);
    expect(received.some((e) => tag(e, "d") === unpaid.gigId)).toBe(false);
    expect(w.relay().events.some((e) => e.tags.some((t) => t[0] === "d" && t[1] === unpaid.gigId))).toBe(false);
  });

  it("a cancelled gig's listing is replaced by one no longer active; a gig the admin removes is deleted (NIP-09)", async () => {
    const hirer = await member("hirer");
    const cancelled = await postJob(hirer, "Design a flyer");
    const removed = await postJob(hirer, "Something against the rules");
    await fund(cancelled.bolt11);
    await fund(removed.bolt11);
    await w.cron();
    await seen(listingOf(cancelled.gigId, "active"), "the first listing");
    await seen(listingOf(removed.gigId, "active"), "the second listing");

    await cancelGig(w.deps(), hirer, cancelled.gigId);
    await deleteGigAsAdmin(w.deps(), removed.gigId);
    await w.cron();
    await seen(listingOf(cancelled.gigId, "sold"), "the cancelled gig's replacement");
    const deletion = await seen((e) => e.kind === 5 && e.tags.some((t) => t[0] === "a" && t[1] === listingAddress(platform, removed.gigId)), "the removed gig's deletion");
    expect(verifyEvent(deletion)).toBe(true);
    expect(deletion.tags).toContainEqual(["k", "30402"]);
    expect(await storedListings(removed.gigId)).toEqual([]);
  });

  it("a removal whose deferred work was lost (the isolate ended first): the cron's sweep deletes the listing from the relay", async () => {
    const hirer = await member("hirer");
    const removed = await postJob(hirer, "Against the rules, quietly");
    await fund(removed.bolt11);
    await w.cron();
    const listing = await seen(listingOf(removed.gigId, "active"), "the listing");

    // The removal commits; the deferred work that would write its deletion never runs.
    await deleteGigAsAdmin(makeDeps(w.env(), () => {}, { db: w.d1().db, origin: NOSTR_WORLD_ORIGIN }), removed.gigId);
    await w.cron(5);
    // The relay still offers the gig the admin removed (its store, read directly: a query now would be cached).
    expect(w.relay().events.map((e) => e.id)).toContain(listing.id);

    // The cron's tick of a tenth minute sweeps first, then sends what it wrote, as the deployed cron does.
    const tick = new Date(Math.ceil(Date.now() / 600_000) * 600_000 + 600_000);
    expect(await runNostrJobs({ db: w.d1().db, env: w.env() }, tick)).toMatchObject({ listingSweep: { deleted: 1, failed: 0 }, nostrOutbox: { published: 1 } });
    const deletion = await seen((e) => e.kind === 5 && e.tags.some((t) => t[0] === "a" && t[1] === listingAddress(platform, removed.gigId)), "the deletion");
    expect(verifyEvent(deletion)).toBe(true);
    expect(deletion.tags).toContainEqual(["e", listing.id]);
    expect(w.relay().events.map((e) => e.id)).not.toContain(listing.id);
    expect(await storedListings(removed.gigId)).toEqual([]);
  });

  it("a relay that refuses, then one that is down: the event is retried later and published once", async () => {
    const hirer = await member("hirer");
    const proxy = await startDropProxy(w.relay().url, { isRequest: (e) => e.kind === 30402 });
    try {
      const job = await postJob(hirer, "Retry me");
      await fund(job.bolt11);
      const rowOf = async () => (await w.d1().db.select().from(nostrOutbox).where(eq(nostrOutbox.address, listingAddress(platform, job.gigId))))[0]!;

      proxy.nextEvent("refuse");
      expect(await w.cron(0, proxy.url)).toMatchObject({ failed: 1, published: 0 });
      let row = await rowOf();
      expect(row).toMatchObject({ attempts: 1, publishedAt: null });
      expect(row.lastError).toContain("blocked: refused by the proxy");
      // Not due again before its back-off.
      expect(await w.cron(0, proxy.url)).toMatchObject({ sent: 0 });

      proxy.refuseConnections(true);
      expect(await w.cron(2, proxy.url)).toMatchObject({ failed: 1 });
      row = await rowOf();
      expect(row.attempts).toBe(2);
      expect(row.lastError).toMatch(/could not connect/);

      proxy.refuseConnections(false);
      expect(await w.cron(10, proxy.url)).toMatchObject({ published: 1, failed: 0 });
      row = await rowOf();
      expect(row.publishedAt).not.toBeNull();
      expect(row.doneAt).not.toBeNull();
      await seen(listingOf(job.gigId, "active"), "the retried listing");

      // Done: later runs send it no more, and the relay has it once.
      await w.cron(180, proxy.url);
      expect(proxy.stats.forwarded).toBe(1);
      expect(w.relay().events.filter((e) => e.id === row.id)).toHaveLength(1);
      expect(received.filter((e) => e.id === row.id)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("a relay that is down and comes back on the same address", async () => {
    const port = await freePort();
    const address = `ws://127.0.0.1:${port}`;
    const hirer = await member("hirer");
    const job = await postJob(hirer, "Wait for the relay");
    await fund(job.bolt11);
    expect(await w.cron(0, address)).toMatchObject({ failed: 1 });
    const back = await startRelay(port);
    try {
      expect(await w.cron(2, address)).toMatchObject({ published: 1 });
      expect(back.events.filter((e) => e.kind === 30402 && tag(e as Event, "d") === job.gigId)).toHaveLength(1);
    } finally {
      await back.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
