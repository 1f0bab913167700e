// A review signed by the reviewer's key on a real relay, as any Nostr client sees it (docs/decisions/028): the
// Worker's own services (a funded gig, claimed, worked and submitted; the worker's review of the hirer, signed with
// the worker's key as the web app signs it) on a real D1 (wrangler's platform proxy), the outbox sent by the cron's
// job over its real transport to @nostr-relay/core on 127.0.0.1 (scripts/local-nostr/w.relay().ts, the relay
// `npm start` runs), and a client subscribed there to kind 1985 naming the hirer. Runs in Node (the "nwc" test
// project): the relay cannot run inside workerd. The rules are tested inside workerd too (reviews.test.ts).
import { decode } from "nostr-tools/nip19";
import { Relay } from "nostr-tools/relay";
import { finalizeEvent, verifyEvent, type Event } from "nostr-tools/pure";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listingAddress } from "../../domain/nostr-listing";
import { REVIEW_KIND, gigReference, reviewTemplate } from "../../domain/nostr-review";
import type { UserRow } from "../db/client";
import { gigs } from "../db/schema";
import { decodeInvoice } from "../lightning/invoice";
import { NOSTR_WORLD_ORIGIN, useNostrWorld } from "../test/nostr-world";
import { markInvoicePaid } from "./escrow";
import { claimGig, startWork, submitWork } from "./gig-actions";
import { postGig } from "./gigs";
import { decideInterest, sendInterest } from "./interest";
import { reviewGig, reviewsOf } from "./reviews";

const w = useNostrWorld();
const { platformKey, platform } = w;
/** Every review (kind 1985) the subscribed client received. */
const received: Event[] = [];

const member = (name: string) => w.member(name);

/** `hirer` posts and funds a job, `worker` claims it, works and submits: the two may now review each other. */
async function submittedJob(hirer: UserRow, worker: UserRow) {
  const deps = w.deps();
  const posted = await postGig(deps, hirer, { gigType: "job_request", title: "Review relay", description: "Review five relays.", category: "Development", payment: 12_000, timeframe: 7 });
  const bolt11 = posted.paymentRequest!;
  await deps.devWallet!.payDevInvoice(bolt11);
  expect(await markInvoicePaid(deps, decodeInvoice(bolt11).paymentHash)).toBe("funded");
  const gigId = posted.gig.id;
  const interest = await sendInterest(w.deps(), worker, gigId, "I review relays.");
  await decideInterest(w.deps(), hirer, interest.id, "approve");
  await decideInterest(w.deps(), hirer, interest.id, "enable-claim");
  await claimGig(w.deps(), worker, gigId);
  await startWork(w.deps(), worker, gigId);
  await submitWork(w.deps(), worker, gigId, "The five reviews.", []);
  await w.settle();
  return (await w.d1().db.query.gigs.findFirst({ where: eq(gigs.id, gigId) }))!;
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
    w.client().subscribe([{ kinds: [REVIEW_KIND], "#p": [hirer.pubkey] }], { onevent: (e) => void received.push(e) });
    const gig = await submittedJob(hirer.row, worker.row);

    // What the web app signs: the worker's own key, the gig's listing (it is listed: funded), 5 stars and the text.
    const event = finalizeEvent(
      reviewTemplate(
        { revieweePubkey: hirer.pubkey, revieweeRole: "hirer", rating: 5, comment: "Quick answers, clear brief." },
        gigReference(gig, platform, NOSTR_WORLD_ORIGIN),
        { createdAt: Math.floor(Date.now() / 1000) },
      ),
      worker.secretKey,
    );
    const answer = await reviewGig(w.deps(), worker.row, gig.id, { rating: 5, comment: "Quick answers, clear brief.", revieweeId: hirer.row.id, event });
    expect(answer).toMatchObject({ verified: true, nostrEventId: event.id });
    await w.settle();
    expect(received.filter((e) => e.id === event.id)).toEqual([]); // nothing before the cron

    const run = await w.cron();
    expect(run.published).toBeGreaterThanOrEqual(1);
    const got = await seen((e) => e.id === event.id, "the signed review");
    expect(verifyEvent(JSON.parse(JSON.stringify(got)) as Event)).toBe(true); // a fresh copy: nothing cached on it
    expect(got).toMatchObject({ kind: REVIEW_KIND, pubkey: worker.pubkey, content: "Quick answers, clear brief." });
    expect(got.tags).toEqual(expect.arrayContaining([["p", hirer.pubkey], ["a", listingAddress(platform, gig.id)], ["rating", "1"], ["L", "review"]]));
    expect(got.sig).toBe(event.sig);

    // The profile's reviews link to that event: its nevent names it, its author, and the relay it is on.
    const [listed] = await reviewsOf({ db: w.d1().db, env: w.env(w.relay().url) }, hirer.row.id);
    expect(listed).toMatchObject({ verified: true, nostrEventId: event.id });
    const nevent = decode(listed!.nevent!);
    expect(nevent).toMatchObject({ type: "nevent", data: { id: event.id, author: worker.pubkey, kind: REVIEW_KIND, relays: [w.relay().url] } });

    // A client that connects later finds it on the relay by the reviewer's key.
    const later = await Relay.connect(w.relay().url);
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
