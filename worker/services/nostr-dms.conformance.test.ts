// Notifications as NIP-17 private messages on a real relay, as the member's Nostr client sees them
// (docs/decisions/026): the Worker's own services (a funded gig, interest in it: the notification, through
// Deps.committed as composition.ts builds it) on a real D1 (wrangler's platform proxy), the outbox sent by the
// cron's job over its real transport to @nostr-relay/core on 127.0.0.1 (scripts/local-nostr/w.relay().ts, the relay
// `npm start` runs), and a client subscribed there to kind 1059 for the member's key, which unwraps what it gets
// with the member's secret key (nostr-tools' nip17). Runs in Node (the "nwc" test project): the relay cannot run
// inside workerd. The rules are tested inside workerd too (nostr-dms.test.ts).
import { unwrapEvent } from "nostr-tools/nip17";
import { Relay } from "nostr-tools/relay";
import { finalizeEvent, generateSecretKey, type Event } from "nostr-tools/pure";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startRelay } from "../../scripts/local-nostr/relay";
import type { UserRow } from "../db/client";
import { notifications } from "../db/schema";
import { decodeInvoice } from "../lightning/invoice";
import { NOSTR_WORLD_ORIGIN, useNostrWorld } from "../test/nostr-world";
import { markInvoicePaid } from "./escrow";
import { postGig } from "./gigs";
import { sendInterest } from "./interest";

const w = useNostrWorld();
const { platformKey, platform } = w;
/** Every gift wrap the subscribed client received on the default relay. */
const received: Event[] = [];

/** A member with their own secret key (their Nostr client has it), with the DM setting as given. */
const member = (name: string, dms: boolean) => w.member(name, { nostrDmNotifications: dms });

/** `hirer` posts and funds a job; `interested` sends interest in it, which notifies the hirer. Answers the gig and that notification. */
async function interestIn(hirer: UserRow, interested: UserRow) {
  const deps = w.deps();
  const posted = await postGig(deps, hirer, { gigType: "job_request", title: "Relay monitoring", description: "Watch five relays.", category: "Development", payment: 18_000, timeframe: 7 });
  const bolt11 = posted.paymentRequest!;
  await deps.devWallet!.payDevInvoice(bolt11);
  expect(await markInvoicePaid(deps, decodeInvoice(bolt11).paymentHash)).toBe("funded");
  await sendInterest(w.deps(), interested, posted.gig.id, "I run relays.");
  await w.settle();
  const notice = await w.d1().db.query.notifications.findFirst({ where: and(eq(notifications.userId, hirer.id), eq(notifications.gigId, posted.gig.id)) });
  expect(notice).toMatchObject({ type: "interest" });
  return { gigId: posted.gig.id, notice: notice! };
}

/** Waits until `events` holds one matching `match` (a relay pushes it to a live subscription). */
async function seen(events: Event[], match: (e: Event) => boolean, what: string): Promise<Event> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = events.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const addressedTo = (pubkey: string) => (e: Event) => e.kind === 1059 && e.tags.some((t) => t[0] === "p" && t[1] === pubkey);

describe("a notification as a NIP-17 private message on a real relay", () => {
  it("after the cron sends it, the member's client gets one gift wrap that only the member's key opens: a kind 14 from the platform with the notification and the gig's link", async () => {
    const hirer = await member("dm-hirer", true);
    const quiet = await member("quiet-hirer", false);
    const worker = await member("dm-worker", false);
    w.client().subscribe([{ kinds: [1059], "#p": [hirer.pubkey, quiet.pubkey] }], { onevent: (e) => void received.push(e) });

    const { gigId, notice } = await interestIn(hirer.row, worker.row);
    await interestIn(quiet.row, worker.row);
    expect(received.filter(addressedTo(hirer.pubkey))).toEqual([]); // nothing before the cron

    const run = await w.cron();
    expect(run.failed).toBe(0);
    const wrap = await seen(received, addressedTo(hirer.pubkey), "the member's gift wrap");
    expect(wrap.pubkey).not.toBe(platform); // a one-time key signs the wrap

    const rumor = unwrapEvent(wrap, hirer.secretKey);
    expect(rumor.kind).toBe(14);
    expect(rumor.pubkey).toBe(platform);
    expect(rumor.tags).toContainEqual(["p", hirer.pubkey]);
    expect(rumor.content).toContain(notice.title);
    expect(rumor.content).toContain(notice.message);
    expect(rumor.content).toContain(`${NOSTR_WORLD_ORIGIN}/gig/${gigId}`);

    // Nobody else's key opens it: not another member's, not even the platform's own.
    expect(() => unwrapEvent(wrap, generateSecretKey())).toThrow();
    expect(() => unwrapEvent(wrap, worker.secretKey)).toThrow();
    expect(() => unwrapEvent(wrap, platformKey)).toThrow();

    // One wrap, sent once; the member without the setting gets nothing on Nostr.
    await w.cron(120);
    await new Promise((r) => setTimeout(r, 200));
    expect(received.filter(addressedTo(hirer.pubkey))).toHaveLength(1);
    expect(w.relay().events.filter(addressedTo(hirer.pubkey))).toHaveLength(1);
    expect(w.relay().events.filter(addressedTo(quiet.pubkey))).toEqual([]);
    expect(received.filter(addressedTo(quiet.pubkey))).toEqual([]);
  });

  it("a member whose kind 10050 list names a relay gets the message on that relay", async () => {
    const inbox = await startRelay();
    try {
      const hirer = await member("inbox-hirer", true);
      const worker = await member("inbox-worker", false);
      // The member's client publishes their DM relay list where clients look for it (the default relays).
      await w.client().publish(finalizeEvent({ kind: 10050, created_at: Math.floor(Date.now() / 1000), tags: [["relay", inbox.url]], content: "" }, hirer.secretKey));

      const inboxEvents: Event[] = [];
      const inboxClient = await Relay.connect(inbox.url);
      try {
        inboxClient.subscribe([{ kinds: [1059], "#p": [hirer.pubkey] }], { onevent: (e) => void inboxEvents.push(e) });
        const { gigId, notice } = await interestIn(hirer.row, worker.row);
        expect((await w.cron()).failed).toBe(0);

        const wrap = await seen(inboxEvents, addressedTo(hirer.pubkey), "the gift wrap on the member's DM relay");
        const rumor = unwrapEvent(wrap, hirer.secretKey);
        expect(rumor).toMatchObject({ kind: 14, pubkey: platform });
        expect(rumor.content).toBe(`${notice.title}\n\n${notice.message}\n\n${NOSTR_WORLD_ORIGIN}/gig/${gigId}`);
        // On their DM relay, not on the default one.
        expect(inbox.events.filter(addressedTo(hirer.pubkey))).toHaveLength(1);
        expect(w.relay().events.filter(addressedTo(hirer.pubkey))).toEqual([]);
      } finally {
        inboxClient.close();
      }
    } finally {
      await inbox.close();
    }
  });
});
