// Reviews anyone can verify (docs/decisions/028), inside the Worker's runtime: a review signed by the reviewer's key
// is checked (nostr-tools' verifyEvent, then checkReviewEvent), stored with its event and written unchanged to the
// Nostr outbox; a signature that does not match, another key's event, a tampered rating or text, another reviewee
// or gig are refused with 400 and nothing is written; a review sent unsigned is stored as before, not verified.
// The signed review on a real relay is worker/services/reviews.conformance.test.ts.
import { env } from "cloudflare:workers";
import { decode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { listingAddress, gigPageUrl } from "../../domain/nostr-listing";
import { REVIEW_EVENT_TEXTS, REVIEW_KIND, reviewTemplate, type GigReference } from "../../domain/nostr-review";
import { INVALID_SIGNED_EVENT } from "../../domain/collaboration-schemas";
import { statement } from "../db/test-statements";
import { api, BASE, call, statusAndBody, submittedJob, type Member } from "../test/factories";
import { nostrSettings } from "./nostr-settings";

const platform = nostrSettings(env).pubkey!;
const now = () => Math.floor(Date.now() / 1000);

/** The worker's review of the hirer as the web app signs it (defaults: 4 stars, "Clear brief", the gig's listing). */
function signedReview(
  key: Uint8Array,
  job: { gigId: string; hirer: Member },
  over: { rating?: number; comment?: string | null; reviewee?: string; reference?: GigReference; createdAt?: number } = {},
): Event {
  return finalizeEvent(
    reviewTemplate(
      { revieweePubkey: over.reviewee ?? job.hirer.pubkey, revieweeRole: "hirer", rating: over.rating ?? 4, comment: over.comment === undefined ? "Clear brief" : over.comment },
      over.reference ?? { listing: listingAddress(platform, job.gigId) },
      { createdAt: over.createdAt ?? now() },
    ),
    key,
  );
}

const review = (job: { gigId: string; worker: Member }, body: object) => call(`/api/gigs/${job.gigId}/review`, job.worker.token, "POST", body);

async function storedReview(gigId: string) {
  return statement("SELECT rating, comment, nostr_event, nostr_event_id FROM reviews WHERE gig_id = ?", gigId).first<{
    rating: number;
    comment: string | null;
    nostr_event: string | null;
    nostr_event_id: string | null;
  }>();
}

const outboxRow = (id: string) => statement("SELECT kind, event, recipient, address, done_at FROM nostr_outbox WHERE id = ?", id).first<{ kind: number; event: string; recipient: string | null; address: string | null; done_at: string | null }>();
const reviewRowsBy = async (pubkey: string) =>
  (await statement("SELECT id, event FROM nostr_outbox WHERE kind = ?", REVIEW_KIND).all<{ id: string; event: string }>()).results.filter((r) => (JSON.parse(r.event) as Event).pubkey === pubkey);

describe("a review signed by the reviewer's key", () => {
  it("is verified, stored with its event and written unchanged to the outbox; the profile's reviews link to it", async () => {
    const job = await submittedJob();
    const event = signedReview(job.worker.secretKey, job);
    const plain = JSON.parse(JSON.stringify(event)) as Event;
    const res = await review(job, { rating: 4, comment: "  Clear brief ", revieweeId: job.hirer.id, event });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ rating: 4, comment: "Clear brief", verified: true, nostrEventId: event.id });

    const stored = await storedReview(job.gigId);
    expect(stored).toMatchObject({ rating: 4, comment: "Clear brief", nostr_event_id: event.id });
    expect(JSON.parse(stored!.nostr_event!)).toEqual(plain);

    const row = await outboxRow(event.id);
    expect(row).toMatchObject({ kind: REVIEW_KIND, recipient: null, address: null, done_at: null });
    const queued = JSON.parse(row!.event) as Event;
    expect(queued).toEqual(plain);
    expect(verifyEvent(queued)).toBe(true);
    expect(queued.tags).toEqual(expect.arrayContaining([["p", job.hirer.pubkey], ["a", listingAddress(platform, job.gigId)], ["rating", "0.8"]]));

    const list = (await call(`/api/reviews/user/${job.hirer.id}`, undefined)).body as unknown as Record<string, unknown>[];
    expect(list).toEqual([expect.objectContaining({ rating: 4, comment: "Clear brief", verified: true, nostrEventId: event.id })]);
    const nevent = decode(list[0]!.nevent as string);
    expect(nevent.type).toBe("nevent");
    expect(nevent.data).toMatchObject({ id: event.id, author: job.worker.pubkey, kind: REVIEW_KIND, relays: nostrSettings(env).relays.slice(0, 2) });
    expect((await call(`/api/users/${job.hirer.id}`, undefined)).body).toMatchObject({ averageRating: 40, totalReviews: 1 });
  });

  it("names the gig's page instead while nothing is published (no platform key): its listing is then refused", async () => {
    const job = await submittedJob();
    const off = { NOSTR_SECRET_KEY: undefined };
    const post = (event: Event) =>
      api(`/api/gigs/${job.gigId}/review`, { method: "POST", token: job.worker.token, json: { rating: 5, comment: null, revieweeId: job.hirer.id, event }, env: off }).then(statusAndBody);

    const listed = await post(signedReview(job.worker.secretKey, job, { rating: 5, comment: null }));
    expect(listed).toMatchObject({ status: 400, body: { message: REVIEW_EVENT_TEXTS.gig, error: "review_event_refused" } });
    const page = signedReview(job.worker.secretKey, job, { rating: 5, comment: null, reference: { page: gigPageUrl(BASE, job.gigId) } });
    expect(await post(page)).toMatchObject({ status: 201, body: { verified: true, nostrEventId: page.id } });
    expect((await outboxRow(page.id))?.kind).toBe(REVIEW_KIND);
  });
});

describe("a signed review that does not match is refused, and nothing is written", () => {
  it.each([
    {
      what: "a signature that does not match its author (the event changed after signing)",
      make: (job: Job) => ({ ...signedReview(job.worker.secretKey, job), content: "Clear brief, and I changed this" }),
      body: { comment: "Clear brief, and I changed this" },
      message: REVIEW_EVENT_TEXTS.signature,
    },
    {
      what: "a forged signature",
      make: (job: Job) => {
        const event = signedReview(job.worker.secretKey, job);
        return { ...event, sig: (event.sig[0] === "0" ? "1" : "0") + event.sig.slice(1) };
      },
      message: REVIEW_EVENT_TEXTS.signature,
    },
    {
      what: "an event signed by another key than the reviewer's",
      make: (job: Job) => signedReview(generateSecretKey(), job),
      message: REVIEW_EVENT_TEXTS.author,
    },
    {
      what: "the hirer's own key signing the worker's review",
      make: (job: Job) => signedReview(job.hirer.secretKey, job),
      message: REVIEW_EVENT_TEXTS.author,
    },
    { what: "another rating than the one sent", make: (job: Job) => signedReview(job.worker.secretKey, job, { rating: 5 }), message: REVIEW_EVENT_TEXTS.rating },
    { what: "another text than the one sent", make: (job: Job) => signedReview(job.worker.secretKey, job, { comment: "Terrible" }), message: REVIEW_EVENT_TEXTS.comment },
    {
      what: "another reviewee",
      make: (job: Job) => signedReview(job.worker.secretKey, job, { reviewee: getPublicKey(generateSecretKey()) }),
      message: REVIEW_EVENT_TEXTS.reviewee,
    },
    {
      what: "another gig",
      make: (job: Job) => signedReview(job.worker.secretKey, job, { reference: { listing: listingAddress(platform, crypto.randomUUID()) } }),
      message: REVIEW_EVENT_TEXTS.gig,
    },
    {
      what: "an event signed an hour ago",
      make: (job: Job) => signedReview(job.worker.secretKey, job, { createdAt: now() - 3600 }),
      message: REVIEW_EVENT_TEXTS.time,
    },
  ])("$what", async ({ make, body, message }) => {
    const job = await submittedJob();
    const res = await review(job, { rating: 4, comment: "Clear brief", revieweeId: job.hirer.id, ...body, event: make(job) });
    expect(res).toMatchObject({ status: 400, body: { message, error: "review_event_refused" } });
    await nothingWritten(job);
  });

  it("refuses what is not a signed event at all", async () => {
    const job = await submittedJob();
    const { sig: _sig, ...unsigned } = signedReview(job.worker.secretKey, job);
    const res = await review(job, { rating: 4, comment: "Clear brief", revieweeId: job.hirer.id, event: unsigned });
    expect(res).toMatchObject({ status: 400, body: { message: INVALID_SIGNED_EVENT } });
    await nothingWritten(job);
  });

  it("is refused with 400 before the review, so the member may then send it right (or unsigned)", async () => {
    const job = await submittedJob();
    expect((await review(job, { rating: 4, comment: "Clear brief", revieweeId: job.hirer.id, event: signedReview(job.worker.secretKey, job, { rating: 2 }) })).status).toBe(400);
    const event = signedReview(job.worker.secretKey, job);
    expect((await review(job, { rating: 4, comment: "Clear brief", revieweeId: job.hirer.id, event })).status).toBe(201);
    expect((await storedReview(job.gigId))?.nostr_event_id).toBe(event.id);
  });
});

describe("a review sent unsigned", () => {
  it("is stored as the spec's API has it, not verified, and nothing goes to the relays", async () => {
    const job = await submittedJob();
    const res = await review(job, { rating: 3, comment: "Fine", revieweeId: job.hirer.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ rating: 3, verified: false, nostrEventId: null, nevent: null });
    expect(await storedReview(job.gigId)).toMatchObject({ rating: 3, comment: "Fine", nostr_event: null, nostr_event_id: null });
    expect(await reviewRowsBy(job.worker.pubkey)).toEqual([]);
    const list = (await call(`/api/reviews/user/${job.hirer.id}`, undefined)).body as unknown as Record<string, unknown>[];
    expect(list).toEqual([expect.objectContaining({ rating: 3, verified: false, nevent: null })]);
  });
});

type Job = Awaited<ReturnType<typeof submittedJob>>;

async function nothingWritten(job: Job) {
  expect(await storedReview(job.gigId)).toBeNull();
  expect(await reviewRowsBy(job.worker.pubkey)).toEqual([]);
  expect(await reviewRowsBy(job.hirer.pubkey)).toEqual([]);
  expect((await call(`/api/users/${job.hirer.id}`, undefined)).body).toMatchObject({ totalReviews: 0 });
  const notices = await statement("SELECT id FROM notifications WHERE user_id = ? AND type = 'review'", job.hirer.id).all();
  expect(notices.results).toEqual([]);
}
