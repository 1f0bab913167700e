// Gigstr on Nostr inside the Worker's runtime: each gig's NIP-99 listing follows its changes into the outbox
// (through Deps.committed, whatever the path), the cron sends due rows with back-off, the dashboard counts what
// is stuck; GET /api/config names the platform's key and relays; NIP-05 names with CORS. The same flow against
// a real relay is worker/services/nostr-outbox.conformance.test.ts.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { nsecEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { listingAddress } from "../../domain/nostr-listing";
import { listingNaddr } from "../../domain/nostr-naddr";
import { makeDeps } from "../composition";
import { statement } from "../db/test-statements";
import { adminSignIn, asAdmin } from "../test/admin";
import { api, call, claimedJob, payWithDevWallet, postGig, signUp, statusAndBody, type Member } from "../test/factories";
import { eq } from "drizzle-orm";
import { ESCROW_STATUSES, GIG_STATUSES, GIG_TYPES, REMOVED_BY_ADMIN } from "../../domain/gig";
import { isListedOnNostr } from "../../domain/nostr-listing";
import { users } from "../db/schema";
import { deleteGigAsAdmin } from "./admin";
import { runNostrJobs } from "./cron";
import { cancelGig, startWork } from "./gig-actions";
import {
  enqueueEvent,
  ensureHandlerAnnouncement,
  gigsBehindOnNostr,
  nostrOutboxHealth,
  publishNostrOutbox,
  retryDelayMs,
  STUCK_AFTER_ATTEMPTS,
  sweepGigListings,
  syncGigListing,
} from "./nostr-outbox";
import type { NostrRelayTransport, RelayOutcomes } from "./nostr-relays";
import { nostrSettings, parseNostrRelays, parseNostrSecretKey } from "./nostr-settings";

const platform = nostrSettings(env).pubkey!;
const deps = () => makeDeps(env, () => {});

interface Row {
  id: string;
  kind: number;
  address: string | null;
  event: string;
  attempts: number;
  next_attempt_at: string;
  published_at: string | null;
  done_at: string | null;
  last_error: string | null;
  relays: string;
}

const rowsOf = async (gigId: string) =>
  (await statement("SELECT * FROM nostr_outbox WHERE address = ? ORDER BY event_created_at", listingAddress(platform, gigId)).all<Row>()).results;
const eventsOf = async (gigId: string) => (await rowsOf(gigId)).map((r) => JSON.parse(r.event) as Event);
const tagOf = (event: Event, name: string) => event.tags.find((t) => t[0] === name)?.[1];

/** Makes every row of these gigs due now (no back-off left), and the rest of the outbox (the NIP-89 announcement too) not due. */
async function onlyDue(...gigIds: string[]) {
  await ensureHandlerAnnouncement({ db: deps().db, env });
  await statement("UPDATE nostr_outbox SET next_attempt_at = '9999-01-01T00:00:00.000Z' WHERE done_at IS NULL").run();
  for (const gigId of gigIds) {
    await statement("UPDATE nostr_outbox SET next_attempt_at = ? WHERE address = ? AND done_at IS NULL", new Date(Date.now() - 1000).toISOString(), listingAddress(platform, gigId)).run();
  }
}

/** A relay that answers what the test says (a test double for the transport: the real one is tested against a real relay). */
function scriptedRelays(answer: (relay: string, event: Event) => string | null) {
  const seen: { relay: string; id: string }[] = [];
  const transport: NostrRelayTransport = {
    async publish(relay, events) {
      const outcomes: RelayOutcomes = new Map();
      for (const e of events) {
        seen.push({ relay, id: e.id });
        outcomes.set(e.id, answer(relay, e));
      }
      return outcomes;
    },
  };
  return { transport, seen };
}

async function fundedJob(poster?: Member) {
  const hirer = poster ?? (await signUp({ lightningAddress: `nostr-hirer-${crypto.randomUUID().slice(0, 6)}@wallet.test` }));
  const posted = await postGig(hirer, { title: "Translate a README", description: "English to Spanish, 2 pages.\nMarkdown kept.", category: "Writing", payment: 21_000 });
  return { hirer, gigId: posted.gig.id as string, paymentRequest: posted.paymentRequest! };
}

describe("a gig's listing follows the gig into the outbox", () => {
  it("an unpaid job request is never written; once funded it is, active, signed by the platform's key", async () => {
    const { hirer, gigId, paymentRequest } = await fundedJob();
    expect(await rowsOf(gigId)).toEqual([]);

    expect((await payWithDevWallet(paymentRequest)).status).toBe(200);
    const [listing, ...more] = await eventsOf(gigId);
    expect(more).toEqual([]);
    expect(verifyEvent(listing!)).toBe(true);
    expect(listing).toMatchObject({ kind: 30402, pubkey: platform, content: "English to Spanish, 2 pages.\nMarkdown kept." });
    expect(tagOf(listing!, "d")).toBe(gigId);
    expect(tagOf(listing!, "status")).toBe("active");
    expect(tagOf(listing!, "title")).toBe("Translate a README");
    expect(tagOf(listing!, "summary")).toBe("English to Spanish, 2 pages.");
    expect(listing!.tags.find((t) => t[0] === "price")).toEqual(["price", "21000", "SATS"]);
    expect(tagOf(listing!, "t")).toBe("writing");
    expect(tagOf(listing!, "p")).toBe(hirer.pubkey);
    // The request's origin on a local run (the tests' BASE).
    expect(tagOf(listing!, "r")).toBe(`https://gigstr.test/gig/${gigId}`);
  });

  it("an unpaid job request that is cancelled or expires is never written", async () => {
    const { hirer, gigId } = await fundedJob();
    expect((await call(`/api/gigs/${gigId}/cancel`, hirer.token, "POST")).status).toBe(200);
    expect(await rowsOf(gigId)).toEqual([]);
  });

  it("a service offering is written as soon as it is posted", async () => {
    const seller = await signUp({ lightningAddress: `nostr-seller-${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(seller, { gigType: "service_offering", title: "Logo in a day", category: "Design", payment: 50_000 });
    const [listing] = await eventsOf(posted.gig.id);
    expect(tagOf(listing!, "status")).toBe("active");
    expect(listing!.tags).toContainEqual(["l", "service_offering", "gigstr"]);
    expect(tagOf(listing!, "p")).toBe(seller.pubkey);
  });

  it("is replaced when the gig is claimed (status no longer active), each replacement newer than the last", async () => {
    const job = await claimedJob();
    const events = await eventsOf(job.gigId);
    expect(events.map((e) => tagOf(e, "status"))).toEqual(["active", "sold"]);
    expect(events[1]!.created_at).toBeGreaterThan(events[0]!.created_at);
    expect(tagOf(events[1]!, "published_at")).toBe(tagOf(events[0]!, "published_at"));
    // Starting work changes nothing a listing says: no new event.
    expect((await call(`/api/gigs/${job.gigId}/start-work`, job.worker.token, "POST")).status).toBe(200);
    expect(await rowsOf(job.gigId)).toHaveLength(2);
  });

  it("is replaced when an open gig is cancelled, and when its title is edited", async () => {
    const { hirer, gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    expect((await call(`/api/gigs/${gigId}`, hirer.token, "PATCH", { title: "Translate a README (ES)" })).status).toBe(200);
    expect((await call(`/api/gigs/${gigId}/cancel`, hirer.token, "POST")).status).toBe(200);
    const events = await eventsOf(gigId);
    expect(events.map((e) => [tagOf(e, "title"), tagOf(e, "status")])).toEqual([
      ["Translate a README", "active"],
      ["Translate a README (ES)", "active"],
      ["Translate a README (ES)", "sold"],
    ]);
  });

  it("a gig that was open before its listing was written (publishing turned on since) is listed at its next change, as sold", async () => {
    const { hirer, gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await statement("DELETE FROM nostr_outbox WHERE gig_id = ?", gigId).run();
    expect((await call(`/api/gigs/${gigId}/cancel`, hirer.token, "POST")).status).toBe(200);
    // The gig page shows "Also on Nostr" for it (isListedOnNostr): the listing it names exists.
    expect((await eventsOf(gigId)).map((e) => [tagOf(e, "d"), tagOf(e, "status")])).toEqual([[gigId, "sold"]]);
  });

  it("is deleted (NIP-09) when the admin removes the gig, and nothing more is written for it", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/gigs/${gigId}`, "DELETE")).status).toBe(200);
    const rows = await rowsOf(gigId);
    expect(rows.map((r) => r.kind)).toEqual([30402, 5]);
    const deletion = JSON.parse(rows[1]!.event) as Event;
    expect(deletion.tags).toEqual([["a", listingAddress(platform, gigId)], ["e", rows[0]!.id], ["k", "30402"]]);
    expect(verifyEvent(deletion)).toBe(true);
    expect(await syncGigListing({ db: deps().db, env }, gigId)).toBe("deleted");
    expect(await rowsOf(gigId)).toHaveLength(2);
  });

  it("a gig the admin removes before it was ever listed gets no deletion either", async () => {
    const { gigId } = await fundedJob();
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/gigs/${gigId}`, "DELETE")).status).toBe(200);
    expect(await rowsOf(gigId)).toEqual([]);
  });

  it("writing again what is already written changes nothing: the same gig version, the same event", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    expect(await syncGigListing({ db: deps().db, env }, gigId)).toBe("unchanged");
    const [row] = await rowsOf(gigId);
    const event = JSON.parse(row!.event) as Event & { id: string; sig: string };
    expect(await enqueueEvent(deps(), event as Parameters<typeof enqueueEvent>[1])).toBe(false);
    expect(await enqueueEvent(deps(), event as Parameters<typeof enqueueEvent>[1])).toBe(false);
    expect(await rowsOf(gigId)).toHaveLength(1);
  });

  it("enqueueing the same event twice is one row", async () => {
    const event = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: `hello ${crypto.randomUUID()}` }, generateSecretKey());
    expect(await enqueueEvent(deps(), event)).toBe(true);
    expect(await enqueueEvent(deps(), event)).toBe(false);
    expect((await statement("SELECT COUNT(*) AS n FROM nostr_outbox WHERE id = ?", event.id).first<{ n: number }>())?.n).toBe(1);
  });

  it("nothing is written while publishing is off (no NOSTR_SECRET_KEY)", async () => {
    const off = { ...env, NOSTR_SECRET_KEY: undefined };
    const hirer = await signUp({ lightningAddress: `nostr-off-${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(hirer);
    await payWithDevWallet(posted.paymentRequest!);
    await statement("DELETE FROM nostr_outbox WHERE gig_id = ?", posted.gig.id).run();
    expect(await syncGigListing({ db: deps().db, env: off }, posted.gig.id)).toBe("off");
    expect(await rowsOf(posted.gig.id)).toEqual([]);
    expect(await publishNostrOutbox({ db: deps().db, env: off })).toMatchObject({ off: "Nostr publishing is off: NOSTR_SECRET_KEY is not set." });
  });
});

describe("the cron's sweep writes what a change's deferred work missed", () => {
  // deps() drops deferred work, as an isolate that ends before its waitUntil ran would: the change commits, and
  // its listing is not written.
  const lost = () => deps();
  const memberRow = async (m: Member) => (await deps().db.query.users.findFirst({ where: eq(users.id, m.id) }))!;
  /** Sweeps until no gig is behind (other tests' gigs share this D1); fails if a gig were found behind forever. */
  async function sweepUntilDone() {
    for (let round = 0; round < 20; round++) {
      const sweep = await sweepGigListings({ db: deps().db, env }, 100);
      if (!("behind" in sweep)) throw new Error(sweep.off);
      if (sweep.behind === 0) return;
    }
    throw new Error("some gig is still behind its listing after 20 sweeps");
  }

  it("a removal whose deferred work was lost: the sweep writes the deletion, and the cron sends it", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await deleteGigAsAdmin(lost(), gigId);
    // On relays the listing would still offer a gig the admin removed.
    expect((await rowsOf(gigId)).map((r) => r.kind)).toEqual([30402]);
    expect(await gigsBehindOnNostr({ db: deps().db, env }, 10_000)).toContain(gigId);

    await sweepUntilDone();
    const rows = await rowsOf(gigId);
    expect(rows.map((r) => r.kind)).toEqual([30402, 5]);
    const deletion = JSON.parse(rows[1]!.event) as Event;
    expect(deletion.tags).toEqual([["a", listingAddress(platform, gigId)], ["e", rows[0]!.id], ["k", "30402"]]);
    expect(verifyEvent(deletion)).toBe(true);

    await onlyDue(gigId);
    const relay = scriptedRelays(() => null);
    await publishNostrOutbox({ db: deps().db, env }, { transport: relay.transport });
    expect(relay.seen.map((s) => s.id)).toEqual([deletion.id]);
    // Done for good: no sweep asks about it again.
    expect(await gigsBehindOnNostr({ db: deps().db, env }, 10_000)).not.toContain(gigId);
  });

  it("a gig open before publishing was turned on is listed by the sweep, active, without waiting for a change", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await statement("DELETE FROM nostr_outbox WHERE gig_id = ?", gigId).run();
    await sweepUntilDone();
    // The gig page shows "Also on Nostr" for it: the listing it names now exists, and says the gig is open.
    expect((await eventsOf(gigId)).map((e) => [tagOf(e, "d"), tagOf(e, "status")])).toEqual([[gigId, "active"]]);
  });

  it("a lost cancel: the sweep replaces the active listing with a sold one", async () => {
    const { hirer, gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await cancelGig(lost(), await memberRow(hirer), gigId);
    expect((await eventsOf(gigId)).map((e) => tagOf(e, "status"))).toEqual(["active"]);
    await sweepUntilDone();
    expect((await eventsOf(gigId)).map((e) => tagOf(e, "status"))).toEqual(["active", "sold"]);
  });

  it("a change that alters nothing a listing says is looked at once: no sweep signs it again", async () => {
    const job = await claimedJob();
    await startWork(lost(), await memberRow(job.worker), job.gigId);
    expect(await gigsBehindOnNostr({ db: deps().db, env }, 10_000)).toContain(job.gigId);
    await sweepUntilDone();
    expect((await eventsOf(job.gigId)).map((e) => tagOf(e, "status"))).toEqual(["active", "sold"]);
    expect(await gigsBehindOnNostr({ db: deps().db, env }, 10_000)).not.toContain(job.gigId);
  });

  it("never lists what may not be listed: an unpaid job request, a removed gig that never was", async () => {
    const unpaid = await fundedJob();
    const removed = await fundedJob();
    await deleteGigAsAdmin(lost(), removed.gigId);
    await sweepUntilDone();
    expect(await rowsOf(unpaid.gigId)).toEqual([]);
    expect(await rowsOf(removed.gigId)).toEqual([]);
  });

  it("finds a gig with no listing behind exactly when isListedOnNostr says it is listed, for every state a gig can be in", async () => {
    const { gigId } = await fundedJob();
    const disagree: string[] = [];
    for (const gigType of GIG_TYPES)
      for (const status of GIG_STATUSES)
        for (const escrowStatus of ESCROW_STATUSES)
          for (const resolution of [null, REMOVED_BY_ADMIN, "pay_worker"]) {
            await statement("UPDATE gigs SET gig_type = ?, status = ?, escrow_status = ?, resolution = ? WHERE id = ?", gigType, status, escrowStatus, resolution, gigId).run();
            const behind = (await gigsBehindOnNostr({ db: deps().db, env }, 10_000)).includes(gigId);
            if (behind !== isListedOnNostr({ gigType, status, escrowStatus, resolution })) disagree.push([gigType, status, escrowStatus, resolution].join("/"));
          }
    await statement("UPDATE gigs SET gig_type = 'job_request', status = 'pending_payment', escrow_status = 'pending', resolution = NULL WHERE id = ?", gigId).run();
    expect(disagree).toEqual([]);
    expect(await rowsOf(gigId)).toEqual([]);
  });

  it("runs on the cron's tick of every tenth minute, before the outbox is sent", async () => {
    await sweepUntilDone();
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await deleteGigAsAdmin(lost(), gigId);
    const other = await runNostrJobs(deps(), new Date("2026-12-02T10:07:00.000Z"));
    expect(other).not.toHaveProperty("listingSweep");
    expect((await rowsOf(gigId)).map((r) => r.kind)).toEqual([30402]);
    const tenth = await runNostrJobs(deps(), new Date("2026-12-02T10:10:00.000Z"));
    expect(tenth.listingSweep).toMatchObject({ behind: 1, deleted: 1, failed: 0 });
    const rows = await rowsOf(gigId);
    expect(rows.map((r) => r.kind)).toEqual([30402, 5]);
    // The same run tried to send it (the tests' relay is a closed port): it waits for its next attempt.
    expect(rows[1]!.attempts).toBe(1);
  });
});

describe("the cron sends the outbox to the relays", () => {
  const relays = { ...env, NOSTR_RELAYS: "wss://one.relay.test,wss://two.relay.test" };

  it("a relay's OK marks an event published; a failing relay is retried with back-off until it takes it, and each relay gets it once", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await onlyDue(gigId);
    const [row] = await rowsOf(gigId);
    let twoIsDown = true;
    const relay = scriptedRelays((r) => (r === "wss://two.relay.test" && twoIsDown ? "could not connect (refused)" : null));
    const t0 = new Date();

    const first = await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport, now: t0 });
    expect(first).toMatchObject({ sent: 1, published: 1, failed: 0 });
    let after = (await rowsOf(gigId))[0]!;
    expect(after.published_at).not.toBeNull();
    expect(after.done_at).toBeNull();
    expect(JSON.parse(after.relays)).toEqual({ "wss://one.relay.test": "ok", "wss://two.relay.test": "could not connect (refused)" });
    expect(after.last_error).toBe("wss://two.relay.test: could not connect (refused)");
    expect(after.next_attempt_at).toBe(new Date(t0.getTime() + retryDelayMs(1)).toISOString());

    // Not due before its back-off: nothing sent.
    expect(await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport, now: new Date(t0.getTime() + 30_000) })).toMatchObject({ sent: 0 });

    twoIsDown = false;
    const later = new Date(t0.getTime() + retryDelayMs(1));
    expect(await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport, now: later })).toMatchObject({ sent: 1, published: 0 });
    after = (await rowsOf(gigId))[0]!;
    expect(JSON.parse(after.relays)).toEqual({ "wss://one.relay.test": "ok", "wss://two.relay.test": "ok" });
    expect(after.done_at).not.toBeNull();
    expect(after.last_error).toBeNull();
    expect(relay.seen.filter((s) => s.id === row!.id)).toEqual([
      { relay: "wss://one.relay.test", id: row!.id },
      { relay: "wss://two.relay.test", id: row!.id },
      { relay: "wss://two.relay.test", id: row!.id },
    ]);
  });

  it("a row no relay takes is retried with a doubling back-off and counted stuck on the dashboard; once a relay takes it, it is not", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await onlyDue(gigId);
    const refusing = scriptedRelays(() => "blocked: not on the allow-list");
    let now = Date.now();
    for (let attempt = 1; attempt <= STUCK_AFTER_ATTEMPTS; attempt++) {
      expect(await publishNostrOutbox({ db: deps().db, env: relays }, { transport: refusing.transport, now: new Date(now) })).toMatchObject({ sent: 1, failed: 1 });
      const row = (await rowsOf(gigId))[0]!;
      expect(row.attempts).toBe(attempt);
      expect(Date.parse(row.next_attempt_at) - now).toBe(retryDelayMs(attempt));
      now = Date.parse(row.next_attempt_at);
    }
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000]);
    const health = await nostrOutboxHealth({ db: deps().db, env: relays }, new Date(now));
    expect(health.stuck).toBeGreaterThanOrEqual(1);
    expect(health.pending).toBeGreaterThanOrEqual(health.stuck);
    expect(health.off).toBeNull();

    const admin = await adminSignIn();
    const stats = await asAdmin(admin, "/api/admin/stats");
    expect(stats.body.nostrOutbox).toMatchObject({ pending: expect.any(Number), stuck: expect.any(Number), off: null });
    expect(stats.body.nostrOutbox.stuck).toBeGreaterThanOrEqual(1);

    const taking = scriptedRelays(() => null);
    expect(await publishNostrOutbox({ db: deps().db, env: relays }, { transport: taking.transport, now: new Date(now) })).toMatchObject({ sent: 1, published: 1 });
    const row = (await rowsOf(gigId))[0]!;
    expect(row.done_at).not.toBeNull();
    const stuckIds = (await statement("SELECT id FROM nostr_outbox WHERE done_at IS NULL AND published_at IS NULL AND attempts >= ?", STUCK_AFTER_ATTEMPTS).all<{ id: string }>()).results.map((r) => r.id);
    expect(stuckIds).not.toContain(row.id);
  });

  it("a listing replaced before it went out is never sent: only the newest goes", async () => {
    const job = await claimedJob();
    await onlyDue(job.gigId);
    const relay = scriptedRelays(() => null);
    const run = await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport });
    expect(run).toMatchObject({ superseded: 1, sent: 1, published: 1 });
    const [active, sold] = await rowsOf(job.gigId);
    expect(relay.seen.map((s) => s.id)).toEqual([sold!.id, sold!.id]);
    expect(active!.done_at).not.toBeNull();
    expect(active!.published_at).toBeNull();
  });

  it("two cron runs at once send each row once", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await onlyDue(gigId);
    const relay = scriptedRelays(() => null);
    const runs = await Promise.all([1, 2].map(() => publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport })));
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(relay.seen).toHaveLength(2); // one row, two relays
  });

  it("through the real WebSocket transport: a relay that is down fails the attempt, which is retried later", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await onlyDue(gigId);
    // The tests' NOSTR_RELAYS is a closed port on this machine (vitest.config.ts).
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const row = (await rowsOf(gigId))[0]!;
    expect(row.attempts).toBe(1);
    expect(row.published_at).toBeNull();
    expect(row.last_error).toMatch(/^ws:\/\/127\.0\.0\.1:1: /);
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(Date.now());
  });

  it("the first cron run writes the NIP-89 announcement once, from the origin the listings link to", async () => {
    const { gigId, paymentRequest } = await fundedJob();
    await payWithDevWallet(paymentRequest);
    await onlyDue(gigId);
    const relay = scriptedRelays(() => null);
    await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport });
    await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport });
    const announcements = (await statement("SELECT event FROM nostr_outbox WHERE kind = 31990 AND address = ?", `31990:${platform}:gigstr-gig-listings`).all<{ event: string }>()).results;
    expect(announcements).toHaveLength(1);
    const event = JSON.parse(announcements[0]!.event) as Event;
    expect(event.tags).toContainEqual(["k", "30402"]);
    expect(event.tags).toContainEqual(["web", "https://gigstr.test/gig/<bech32>", "naddr"]);
  });
});

describe("GET /api/config", () => {
  it("names the platform's Nostr key and the relays", async () => {
    const body = (await (await api("/api/config")).json()) as { nostr: { platformPubkey: string | null; relays: string[] } };
    expect(body.nostr).toEqual({ platformPubkey: getPublicKey(parseNostrSecretKey(env.NOSTR_SECRET_KEY!)!), relays: ["ws://127.0.0.1:1"] });
    const off = (await (await api("/api/config", { env: { NOSTR_SECRET_KEY: undefined, NOSTR_RELAYS: undefined } })).json()) as typeof body;
    expect(off.nostr.platformPubkey).toBeNull();
    expect(off.nostr.relays).toHaveLength(5);
  });
});

describe("the settings", () => {
  it("take the key as hex or nsec, and refuse anything else", () => {
    const key = generateSecretKey();
    const hex = [...key].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(parseNostrSecretKey(hex)).toEqual(key);
    expect(parseNostrSecretKey(hex.toUpperCase())).toEqual(key);
    expect(parseNostrSecretKey(nsecEncode(key))).toEqual(key);
    expect(parseNostrSecretKey("npub1xyz")).toBeNull();
    expect(parseNostrSecretKey("00".repeat(32))).toBeNull();
    expect(nostrSettings({ NOSTR_SECRET_KEY: "nope" }).off).toMatch(/neither 64 hex characters nor an nsec/);
  });

  it("take the relays comma-separated, ws or wss only; unset is the five defaults", () => {
    expect(parseNostrRelays("wss://a.example, ws://127.0.0.1:7000 ,wss://a.example")).toEqual({ relays: ["wss://a.example", "ws://127.0.0.1:7000"] });
    expect(parseNostrRelays(undefined)).toMatchObject({ relays: expect.arrayContaining(["wss://relay.damus.io"]) });
    expect(parseNostrRelays("https://a.example")).toEqual({ bad: "https://a.example" });
    expect(nostrSettings({ NOSTR_SECRET_KEY: env.NOSTR_SECRET_KEY, NOSTR_RELAYS: "relay.example" }).off).toMatch(/NOSTR_RELAYS/);
  });
});

describe("NIP-05 names (GET /.well-known/nostr.json)", () => {
  async function withAlias(alias: string) {
    const member = await signUp({ lightningAddress: `nip05-${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const set = await call("/api/user/me", member.token, "PATCH", { gigstrAlias: alias });
    expect(set.status).toBe(200);
    return member;
  }

  it("answers a member's key for their alias, with CORS for any origin", async () => {
    const alias = `nip${crypto.randomUUID().slice(0, 6)}`;
    const member = await withAlias(alias);
    const res = await api(`/.well-known/nostr.json?name=${alias.toUpperCase()}`, { headers: { origin: "https://client.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({ names: { [alias]: member.pubkey } });
  });

  it("answers no names for an unknown name, a malformed one, none at all, or a deleted account", async () => {
    for (const query of ["?name=nobody-here", "?name=%3Cscript%3E", ""]) {
      const res = await api(`/.well-known/nostr.json${query}`);
      expect(await statusAndBody(res)).toEqual({ status: 200, body: { names: {} } });
    }
    const alias = `gone${crypto.randomUUID().slice(0, 6)}`;
    const member = await withAlias(alias);
    expect((await call("/api/user/me", member.token, "DELETE")).status).toBe(200);
    expect((await statusAndBody(await api(`/.well-known/nostr.json?name=${alias}`))).body).toEqual({ names: {} });
  });

  it("names the platform's own key as _, with its relays", async () => {
    expect((await statusAndBody(await api("/.well-known/nostr.json?name=_"))).body).toEqual({ names: { _: platform }, relays: { [platform]: ["ws://127.0.0.1:1"] } });
  });

  it("answers a CORS preflight", async () => {
    const res = await api("/.well-known/nostr.json?name=x", { method: "OPTIONS", headers: { origin: "https://client.example", "access-control-request-method": "GET" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("is answered from the edge cache for visitors, CORS header included", async () => {
    const alias = `cache${crypto.randomUUID().slice(0, 6)}`;
    const member = await withAlias(alias);
    const cached = { PUBLIC_CACHE_SECONDS: "30" };
    const first = await api(`/.well-known/nostr.json?name=${alias}`, { env: cached });
    expect(first.headers.get("x-cache")).toBe("miss");
    await first.arrayBuffer();
    const second = await api(`/.well-known/nostr.json?name=${alias.toUpperCase()}`, { env: cached });
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(second.headers.get("access-control-allow-origin")).toBe("*");
    expect(await second.json()).toEqual({ names: { [alias]: member.pubkey } });
  });
});

describe("the gig page for a listing's naddr (the NIP-89 handler's URL)", () => {
  it("sends one of our listings' naddr to the gig's page; anything else is left alone", async () => {
    const gigId = crypto.randomUUID();
    const ours = await api(`/gig/${listingNaddr(platform, gigId, ["ws://127.0.0.1:1"])}`, { redirect: "manual" });
    expect(ours.status).toBe(302);
    expect(ours.headers.get("location")).toBe(`/gig/${gigId}`);
    const theirs = await api(`/gig/${listingNaddr(getPublicKey(generateSecretKey()), gigId)}`, { redirect: "manual" });
    expect(theirs.status).not.toBe(302);
  });
});
