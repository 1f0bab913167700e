// Notifications as NIP-17 private messages, inside the Worker's runtime (docs/decisions/026): the member's
// setting (GET/PATCH /api/user/me), one gift wrap in the outbox per notification for a member who turned it on
// and none for one who did not, whatever path wrote the notification; the cron sends it to the member's DM relays
// (kind 10050) or else NOSTR_RELAYS. The same against a real relay: nostr-dms.conformance.test.ts.
import { env } from "cloudflare:workers";
import { unwrapEvent } from "nostr-tools/nip17";
import { finalizeEvent, generateSecretKey, getPublicKey, type Event } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { makeDeps } from "../composition";
import { statement } from "../db/test-statements";
import { api, call, payWithDevWallet, postGig, signUp, type Member } from "../test/factories";
import { DM_RELAYS_TTL_MS } from "./nostr-dm-relays";
import { eq } from "drizzle-orm";
import { users } from "../db/schema";
import { sendInterest } from "./interest";
import { DM_SWEEP_WINDOW_MS, enqueueNotificationDms, sweepNotificationDms } from "./nostr-dms";
import { ensureHandlerAnnouncement, MAX_RELAYS_PER_RUN, publishNostrOutbox } from "./nostr-outbox";
import type { NostrRelayTransport, RelayOutcomes } from "./nostr-relays";
import { nostrSettings } from "./nostr-settings";

const platform = nostrSettings(env).pubkey!;
const deps = () => makeDeps(env, () => {});

interface WrapRow {
  id: string;
  kind: number;
  recipient: string | null;
  notification_id: string | null;
  event: string;
  relays: string;
  attempts: number;
  published_at: string | null;
  done_at: string | null;
}

const wrapsFor = async (member: Member) =>
  (await statement("SELECT * FROM nostr_outbox WHERE recipient = ? ORDER BY created_at", member.pubkey).all<WrapRow>()).results;
const notificationsOf = async (member: Member) => (await call("/api/notifications", member.token)).body as unknown as { id: string; title: string; message: string; gigId: string | null }[];

const patchMe = (member: Member, json: unknown) => call("/api/user/me", member.token, "PATCH", json);

async function memberWithDms(on: boolean) {
  const member = await signUp({ lightningAddress: `dm-${crypto.randomUUID().slice(0, 8)}@wallet.test` });
  if (on) expect((await patchMe(member, { nostrDmNotifications: true })).body.nostrDmNotifications).toBe(true);
  return member;
}

/** An open (funded) job request by `hirer`; `interested` sends interest in it, which notifies the hirer. */
async function interestIn(hirer: Member, interested: Member) {
  const posted = await postGig(hirer, { title: "Port a Nostr bot to Rust", description: "Keep its behaviour.", category: "Development", payment: 12_000 });
  expect((await payWithDevWallet(posted.paymentRequest!)).status).toBe(200);
  const gigId = posted.gig.id as string;
  expect((await call(`/api/gigs/${gigId}/pre-claim-messages`, interested.token, "POST", { message: "I write Rust." })).status).toBe(201);
  return gigId;
}

describe("the setting: Send my notifications as Nostr DMs", () => {
  it("is off for a new member, and only they can turn it on and off (PATCH /api/user/me answers it)", async () => {
    const member = await signUp();
    expect((await call("/api/user/me", member.token)).body.nostrDmNotifications).toBe(false);

    const on = await patchMe(member, { nostrDmNotifications: true });
    expect(on.status).toBe(200);
    expect(on.body.nostrDmNotifications).toBe(true);
    expect((await call("/api/user/me", member.token)).body.nostrDmNotifications).toBe(true);
    // Another edit leaves it as it is.
    expect((await patchMe(member, { displayName: "Dee" })).body.nostrDmNotifications).toBe(true);

    expect((await patchMe(member, { nostrDmNotifications: false })).body.nostrDmNotifications).toBe(false);
    expect((await call("/api/user/me", member.token)).body.nostrDmNotifications).toBe(false);
  });

  it("takes a boolean only, and is not part of the public profile", async () => {
    const member = await signUp();
    for (const value of ["yes", 1, null]) {
      const res = await patchMe(member, { nostrDmNotifications: value });
      expect(res.status).toBe(400);
    }
    expect((await call("/api/user/me", member.token)).body.nostrDmNotifications).toBe(false);
    await patchMe(member, { nostrDmNotifications: true });
    expect((await call(`/api/users/${member.id}`, undefined)).body).not.toHaveProperty("nostrDmNotifications");
  });

  it("needs a session", async () => {
    expect((await api("/api/user/me", { method: "PATCH", json: { nostrDmNotifications: true } })).status).toBe(401);
  });
});

describe("a notification for a member who turned the setting on", () => {
  it("writes exactly one gift wrap (kind 1059, p = the member) to the outbox: a kind 14 from the platform's key with the notification and the gig's link", async () => {
    const hirer = await memberWithDms(true);
    const gigId = await interestIn(hirer, await signUp());

    const [notification, ...others] = await notificationsOf(hirer);
    expect(others).toEqual([]);
    expect(notification).toMatchObject({ gigId, title: "New Interest" });

    const wraps = await wrapsFor(hirer);
    expect(wraps).toHaveLength(1);
    const [row] = wraps;
    expect(row).toMatchObject({ kind: 1059, recipient: hirer.pubkey, notification_id: notification!.id, attempts: 0, done_at: null });
    const wrap = JSON.parse(row!.event) as Event;
    expect(wrap.kind).toBe(1059);
    expect(wrap.tags).toEqual([["p", hirer.pubkey]]);
    // Signed by a one-time key, not the platform's: a relay sees nothing of who wrote to whom but the recipient.
    expect(wrap.pubkey).not.toBe(platform);
    expect(wrap.id).toBe(row!.id);

    const rumor = unwrapEvent(wrap, hirer.secretKey);
    expect(rumor.kind).toBe(14);
    expect(rumor.pubkey).toBe(platform);
    expect(rumor.tags).toContainEqual(["p", hirer.pubkey]);
    expect(rumor.content).toBe(`${notification!.title}\n\n${notification!.message}\n\nhttps://gigstr.test/gig/${gigId}`);
  });

  it("whatever path wrote it: the review's own batch too", async () => {
    const hirer = await memberWithDms(false);
    const worker = await memberWithDms(true);
    const gigId = await interestIn(hirer, worker);
    const before = (await wrapsFor(worker)).length;
    // The review path writes its notification in its own batch (services/reviews.ts), not through notify().
    const { id: noticeId } = await insertReviewNotice(hirer, worker, gigId);
    expect((await wrapsFor(worker)).length).toBe(before + 1);
    expect((await wrapsFor(worker)).map((w) => w.notification_id)).toContain(noticeId);
  });

  it("is written once per notification, however often the enqueue runs", async () => {
    const hirer = await memberWithDms(true);
    await interestIn(hirer, await signUp());
    const [notification] = await notificationsOf(hirer);
    expect(await enqueueNotificationDms(deps(), [notification!.id, notification!.id])).toBe(0);
    expect(await wrapsFor(hirer)).toHaveLength(1);
  });
});

describe("the cron's sweep writes the DMs a change's deferred work missed", () => {
  const memberRow = async (m: Member) => (await deps().db.query.users.findFirst({ where: eq(users.id, m.id) }))!;
  /** An open job request by `hirer`, and interest in it sent with deps that drop deferred work (an isolate that ended first). */
  async function lostInterest(hirer: Member) {
    const posted = await postGig(hirer, { title: "Audit a zap splitter", description: "Small codebase.", category: "Development", payment: 9_000 });
    expect((await payWithDevWallet(posted.paymentRequest!)).status).toBe(200);
    const gigId = posted.gig.id as string;
    await sendInterest(deps(), await memberRow(await signUp()), gigId, "I audit Lightning code.");
    return gigId;
  }
  const inTwoMinutes = () => new Date(Date.now() + 2 * 60_000);

  it("a notification whose DM was never written gets its gift wrap from the sweep, once, as the request would have written it", async () => {
    const hirer = await memberWithDms(true);
    const gigId = await lostInterest(hirer);
    const [notification] = await notificationsOf(hirer);
    expect(notification).toMatchObject({ gigId, title: "New Interest" });
    expect(await wrapsFor(hirer)).toEqual([]);

    // The last minute's are left to the deferred write on its way.
    await sweepNotificationDms(deps());
    expect(await wrapsFor(hirer)).toEqual([]);

    await sweepNotificationDms(deps(), inTwoMinutes());
    const wraps = await wrapsFor(hirer);
    expect(wraps.map((w) => [w.kind, w.recipient, w.notification_id])).toEqual([[1059, hirer.pubkey, notification!.id]]);
    const rumor = unwrapEvent(JSON.parse(wraps[0]!.event) as Event, hirer.secretKey);
    expect(rumor.pubkey).toBe(platform);
    expect(rumor.content).toBe(`${notification!.title}\n\n${notification!.message}\n\nhttps://gigstr.test/gig/${gigId}`);

    await sweepNotificationDms(deps(), inTwoMinutes());
    expect(await wrapsFor(hirer)).toHaveLength(1);
  });

  it("only notifications written since the member turned DMs on, and none older than a day", async () => {
    const hirer = await memberWithDms(false);
    await lostInterest(hirer);
    await patchMe(hirer, { nostrDmNotifications: true });
    await sweepNotificationDms(deps(), inTwoMinutes());
    // Turning DMs on does not send the notifications from before.
    expect(await wrapsFor(hirer)).toEqual([]);

    await lostInterest(hirer);
    const [newest] = await notificationsOf(hirer);
    await sweepNotificationDms(deps(), new Date(Date.now() + DM_SWEEP_WINDOW_MS + 60_000));
    expect(await wrapsFor(hirer)).toEqual([]);
    await sweepNotificationDms(deps(), inTwoMinutes());
    expect((await wrapsFor(hirer)).map((w) => w.notification_id)).toEqual([newest!.id]);
  });

  it("nothing for a member who turned DMs off again, or deleted their account", async () => {
    const off = await memberWithDms(true);
    await lostInterest(off);
    await patchMe(off, { nostrDmNotifications: false });
    const gone = await memberWithDms(true);
    await lostInterest(gone);
    await statement("UPDATE users SET deleted_at = ? WHERE id = ?", new Date().toISOString(), gone.id).run();
    await sweepNotificationDms(deps(), inTwoMinutes());
    expect(await wrapsFor(off)).toEqual([]);
    expect(await wrapsFor(gone)).toEqual([]);
  });

  it("migration 0020 gives the members who had DMs on a start of now, and none to the others", async () => {
    const on = await memberWithDms(true);
    const offMember = await memberWithDms(false);
    await statement("UPDATE users SET nostr_dm_since = NULL WHERE id IN (?, ?)", on.id, offMember.id).run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0020_"))!;
    const before = new Date().toISOString();
    const backfill = migration.queries.filter((q) => q.includes("UPDATE `users`"));
    expect(backfill).toHaveLength(1);
    await statement(backfill[0]!).run();
    expect((await memberRow(on)).nostrDmSince! >= before).toBe(true);
    expect((await memberRow(offMember)).nostrDmSince).toBeNull();
  });
});

describe("a member without the setting", () => {
  it("gets the in-app notification and nothing on Nostr; turned off again, nothing more", async () => {
    const hirer = await memberWithDms(false);
    await interestIn(hirer, await signUp());
    expect(await notificationsOf(hirer)).toHaveLength(1);
    expect(await wrapsFor(hirer)).toEqual([]);

    const other = await memberWithDms(true);
    await interestIn(other, await signUp());
    expect(await wrapsFor(other)).toHaveLength(1);
    await patchMe(other, { nostrDmNotifications: false });
    await interestIn(other, await signUp());
    expect(await notificationsOf(other)).toHaveLength(2);
    expect(await wrapsFor(other)).toHaveLength(1);
  });

  it("nothing is written while the platform has no Nostr key", async () => {
    const hirer = await memberWithDms(true);
    await interestIn(hirer, await signUp());
    const [notification] = await notificationsOf(hirer);
    await statement("DELETE FROM nostr_outbox WHERE recipient = ?", hirer.pubkey).run();
    const off = { ...env, NOSTR_SECRET_KEY: undefined };
    expect(await enqueueNotificationDms({ db: deps().db, env: off }, [notification!.id])).toBe(0);
    expect(await wrapsFor(hirer)).toEqual([]);
  });
});

/** A relay double that answers the DM relay lists the test gives and takes every event (the real one: the conformance test). */
function scriptedRelays(lists: Event[]) {
  const published: { relay: string; id: string }[] = [];
  const queried: string[] = [];
  const transport: NostrRelayTransport = {
    async publish(relay, events) {
      const outcomes: RelayOutcomes = new Map();
      for (const e of events) {
        published.push({ relay, id: e.id });
        outcomes.set(e.id, null);
      }
      return outcomes;
    },
    async query(relay, filter) {
      queried.push(relay);
      return lists.filter((e) => filter.kinds?.includes(e.kind) && filter.authors?.includes(e.pubkey));
    },
  };
  return { transport, published, queried };
}

/** Only these members' gift wraps are due: the rest of the outbox (the NIP-89 announcement too) waits. */
async function onlyWrapsOf(...members: Member[]) {
  await ensureHandlerAnnouncement({ db: deps().db, env });
  await statement("UPDATE nostr_outbox SET next_attempt_at = '9999-01-01T00:00:00.000Z' WHERE done_at IS NULL").run();
  for (const m of members) {
    await statement("UPDATE nostr_outbox SET next_attempt_at = ? WHERE recipient = ? AND done_at IS NULL", new Date(Date.now() - 1000).toISOString(), m.pubkey).run();
  }
}

describe("the cron sends a gift wrap to the member's DM relays", () => {
  const relays = { ...env, NOSTR_RELAYS: "wss://one.relay.test,wss://two.relay.test" };

  it("to the relays of their kind 10050 list, looked up on NOSTR_RELAYS and kept a while; without a list, to NOSTR_RELAYS", async () => {
    const listed = await memberWithDms(true);
    const unlisted = await memberWithDms(true);
    await interestIn(listed, await signUp());
    await interestIn(unlisted, await signUp());
    await statement("DELETE FROM nostr_dm_relays WHERE pubkey IN (?, ?)", listed.pubkey, unlisted.pubkey).run();
    await onlyWrapsOf(listed, unlisted);
    const list = finalizeEvent(
      { kind: 10050, created_at: Math.floor(Date.now() / 1000), tags: [["relay", "wss://inbox.relay.test"], ["relay", "not a relay"], ["relay", "wss://inbox.relay.test"]], content: "" },
      listed.secretKey,
    );
    const relay = scriptedRelays([list]);
    const now = new Date();

    const run = await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport, now });
    expect(run).toMatchObject({ sent: 2, published: 2, failed: 0 });
    const [listedWrap] = await wrapsFor(listed);
    const [unlistedWrap] = await wrapsFor(unlisted);
    expect(relay.published.filter((p) => p.id === listedWrap!.id).map((p) => p.relay)).toEqual(["wss://inbox.relay.test"]);
    expect(relay.published.filter((p) => p.id === unlistedWrap!.id).map((p) => p.relay).sort()).toEqual(["wss://one.relay.test", "wss://two.relay.test"]);
    expect(listedWrap).toMatchObject({ relays: JSON.stringify({ "wss://inbox.relay.test": "ok" }) });
    expect(listedWrap!.done_at).not.toBeNull();
    expect(unlistedWrap!.done_at).not.toBeNull();
    // One look-up per relay of NOSTR_RELAYS for both members at once.
    expect(relay.queried.sort()).toEqual(["wss://one.relay.test", "wss://two.relay.test"]);

    // Within DM_RELAYS_TTL_MS what was found (a list, or none) is used again without asking.
    await interestIn(listed, await signUp());
    await onlyWrapsOf(listed);
    const again = scriptedRelays([]);
    await publishNostrOutbox({ db: deps().db, env: relays }, { transport: again.transport, now: new Date(now.getTime() + 60_000) });
    expect(again.queried).toEqual([]);
    expect(again.published.map((p) => p.relay)).toEqual(["wss://inbox.relay.test"]);

    // After it, the list is asked for again (here: the member removed it, so NOSTR_RELAYS it is).
    await interestIn(listed, await signUp());
    await onlyWrapsOf(listed);
    const later = scriptedRelays([]);
    await publishNostrOutbox({ db: deps().db, env: relays }, { transport: later.transport, now: new Date(now.getTime() + DM_RELAYS_TTL_MS + 120_000) });
    expect(later.queried.sort()).toEqual(["wss://one.relay.test", "wss://two.relay.test"]);
    expect(later.published.map((p) => p.relay).sort()).toEqual(["wss://one.relay.test", "wss://two.relay.test"]);
  });

  it("one run connects to at most MAX_RELAYS_PER_RUN relays: the wraps that would need more wait for the next run", async () => {
    await statement("UPDATE nostr_outbox SET next_attempt_at = '9999-01-01T00:00:00.000Z' WHERE done_at IS NULL").run();
    const keys = Array.from({ length: 8 }, () => generateSecretKey());
    const lists = keys.map((key, i) =>
      finalizeEvent({ kind: 10050, created_at: Math.floor(Date.now() / 1000), tags: [1, 2, 3].map((n) => ["relay", `wss://inbox-${i}-${n}.relay.test`]), content: "" }, key),
    );
    const due = new Date(Date.now() - 60_000);
    const ids = keys.map((key, i) => {
      const id = crypto.randomUUID().replaceAll("-", "").padEnd(64, "0");
      const at = new Date(due.getTime() + i).toISOString();
      return { id, recipient: getPublicKey(key), at };
    });
    for (const row of ids) {
      await statement(
        "INSERT INTO nostr_outbox (id, kind, recipient, event_created_at, event, next_attempt_at) VALUES (?, 1059, ?, 0, ?, ?)",
        row.id,
        row.recipient,
        JSON.stringify({ id: row.id, kind: 1059 }),
        row.at,
      ).run();
    }
    const relay = scriptedRelays(lists);
    const first = await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport });
    expect(Math.floor(MAX_RELAYS_PER_RUN / 3)).toBe(6);
    expect(first.sent).toBe(6);
    expect(new Set(relay.published.map((p) => p.relay)).size).toBe(18);
    expect(new Set(relay.published.map((p) => p.id))).toEqual(new Set(ids.slice(0, 6).map((r) => r.id)));
    const second = await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport });
    expect(second.sent).toBe(2);
    expect(new Set(relay.published.map((p) => p.id))).toEqual(new Set(ids.map((r) => r.id)));
  });

  it("when no relay answers the look-up, the wrap goes to NOSTR_RELAYS this time and nothing is kept", async () => {
    const member = await memberWithDms(true);
    await interestIn(member, await signUp());
    await onlyWrapsOf(member);
    const relay = scriptedRelays([]);
    relay.transport.query = async () => {
      throw new Error("could not connect");
    };
    await publishNostrOutbox({ db: deps().db, env: relays }, { transport: relay.transport });
    expect(relay.published.map((p) => p.relay).sort()).toEqual(["wss://one.relay.test", "wss://two.relay.test"]);
    expect(await statement("SELECT * FROM nostr_dm_relays WHERE pubkey = ?", member.pubkey).first()).toBeNull();
  });
});

/** Has `reviewer` review `reviewee` through the review path's own insert (the gig is set to where reviews are allowed). */
async function insertReviewNotice(reviewer: Member, reviewee: Member, gigId: string) {
  await statement("UPDATE gigs SET status = 'completed', worker_id = ? WHERE id = ?", reviewee.id, gigId).run();
  const res = await call(`/api/gigs/${gigId}/review`, reviewer.token, "POST", { rating: 5, comment: "Great work.", revieweeId: reviewee.id });
  expect(res.status).toBe(201);
  const notice = await statement("SELECT id FROM notifications WHERE user_id = ? AND type = 'review' AND gig_id = ?", reviewee.id, gigId).first<{ id: string }>();
  return notice!;
}

