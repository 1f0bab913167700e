import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { listingAddress } from "./nostr-listing";
import {
  checkReviewEvent,
  gigReference,
  ratingTagValue,
  REVIEW_EVENT_TEXTS,
  REVIEW_KIND,
  REVIEW_MAX_AGE_SECONDS,
  REVIEW_MAX_AHEAD_SECONDS,
  reviewTemplate,
  type ExpectedReview,
  type GigReference,
} from "./nostr-review";

const reviewerKey = generateSecretKey();
const reviewer = getPublicKey(reviewerKey);
const reviewee = getPublicKey(generateSecretKey());
const platform = getPublicKey(generateSecretKey());
const gigId = "3f1c2a9e-1111-4222-8333-444455556666";
const NOW = 1_790_000_000;
const listing: GigReference = { listing: listingAddress(platform, gigId) };
const page: GigReference = { page: `https://gigstr.example/gig/${gigId}` };

const expected: ExpectedReview = {
  reviewerPubkey: reviewer,
  revieweePubkey: reviewee,
  revieweeRole: "worker",
  rating: 4,
  comment: "Delivered on time",
  gigId,
  listingAddress: listingAddress(platform, gigId),
  now: NOW,
};

const sign = (reference: GigReference = listing, over: Partial<ExpectedReview> = {}, createdAt = NOW, key = reviewerKey) =>
  finalizeEvent(reviewTemplate({ ...expected, ...over }, reference, { createdAt }), key);

describe("the review event", () => {
  it("is a NIP-32 label (kind 1985) of the reviewee in the gig's listing, with the rating on the 0-1 scale and the comment as content", () => {
    const template = reviewTemplate(expected, listing, { createdAt: NOW });
    expect(template).toEqual({
      kind: REVIEW_KIND,
      created_at: NOW,
      tags: [
        ["L", "review"],
        ["l", "review/person", "review"],
        ["rating", "0.8"],
        ["L", "gigstr"],
        ["l", "worker", "gigstr"],
        ["p", reviewee],
        ["a", `30402:${platform}:${gigId}`],
        ["alt", "A review on Gigstr: 4 of 5 stars for the worker of a gig"],
      ],
      content: "Delivered on time",
    });
    expect(REVIEW_KIND).toBe(1985);
  });

  it("names the gig's page (NIP-73 `i`, `k` web) when the gig is not listed, and has empty content without a comment", () => {
    const template = reviewTemplate({ ...expected, comment: null, rating: 1, revieweeRole: "hirer" }, page, { createdAt: NOW });
    expect(template.tags).toContainEqual(["i", page.page]);
    expect(template.tags).toContainEqual(["k", "web"]);
    expect(template.tags.some((t) => t[0] === "a")).toBe(false);
    expect(template.tags).toContainEqual(["alt", "A review on Gigstr: 1 of 5 stars for the hirer of a gig"]);
    expect(template.content).toBe("");
  });

  it("rates 1-5 stars as 0.2-1", () => {
    expect([1, 2, 3, 4, 5].map(ratingTagValue)).toEqual(["0.2", "0.4", "0.6", "0.8", "1"]);
  });

  it("references the listing of a listed gig while the platform publishes, else the gig's page", () => {
    const gig = { id: gigId, gigType: "job_request" as const, status: "completed", escrowStatus: "released", resolution: null };
    expect(gigReference(gig, platform, "https://gigstr.example/")).toEqual(listing);
    expect(gigReference(gig, null, "https://gigstr.example")).toEqual(page);
    expect(gigReference({ ...gig, status: "pending_payment", escrowStatus: "pending" }, platform, "https://gigstr.example")).toEqual(page);
    expect(gigReference({ ...gig, resolution: "deleted_by_admin" }, platform, "https://gigstr.example")).toEqual(page);
  });
});

describe("checkReviewEvent", () => {
  it("accepts the review as the template makes it, signed by the reviewer (by the listing, or by the page)", () => {
    const signed = sign();
    expect(verifyEvent(signed)).toBe(true);
    expect(checkReviewEvent(signed, expected)).toEqual({ ok: true, reference: listing });
    expect(checkReviewEvent(sign(page), expected)).toEqual({ ok: true, reference: page });
    expect(checkReviewEvent(sign(page), { ...expected, listingAddress: null })).toEqual({ ok: true, reference: page });
    const local = { page: `http://127.0.0.1:8787/gig/${gigId}` };
    expect(checkReviewEvent(sign(local), expected)).toEqual({ ok: true, reference: local });
    expect(checkReviewEvent(sign(listing, { comment: null }), { ...expected, comment: null }).ok).toBe(true);
  });

  it("accepts the same tags in another order", () => {
    const signed = sign();
    expect(checkReviewEvent({ ...signed, tags: [...signed.tags].reverse() }, expected).ok).toBe(true);
  });

  it.each<[string, () => ReturnType<typeof sign>, Partial<ExpectedReview>, string]>([
    ["another kind", () => ({ ...sign(), kind: 1 }), {}, REVIEW_EVENT_TEXTS.kind],
    ["another author", () => sign(listing, {}, NOW, generateSecretKey()), {}, REVIEW_EVENT_TEXTS.author],
    ["another reviewee", () => sign(listing, { revieweePubkey: getPublicKey(generateSecretKey()) }), {}, REVIEW_EVENT_TEXTS.reviewee],
    ["a second p", () => ({ ...sign(), tags: [...sign().tags, ["p", getPublicKey(generateSecretKey())]] }), {}, REVIEW_EVENT_TEXTS.reviewee],
    ["another rating", () => sign(listing, { rating: 5 }), {}, REVIEW_EVENT_TEXTS.rating],
    ["a rating with a category", () => ({ ...sign(), tags: sign().tags.map((t) => (t[0] === "rating" ? [...t, "quality"] : t)) }), {}, REVIEW_EVENT_TEXTS.rating],
    ["two ratings", () => ({ ...sign(), tags: [...sign().tags, ["rating", "0.8"]] }), {}, REVIEW_EVENT_TEXTS.rating],
    ["another comment", () => sign(listing, { comment: "Late" }), {}, REVIEW_EVENT_TEXTS.comment],
    ["a comment where none was sent", () => sign(), { comment: null }, REVIEW_EVENT_TEXTS.comment],
    ["another gig's listing", () => sign({ listing: listingAddress(platform, "another") }), {}, REVIEW_EVENT_TEXTS.gig],
    ["a listing by another key", () => sign({ listing: listingAddress(reviewer, gigId) }), {}, REVIEW_EVENT_TEXTS.gig],
    ["a listing of a gig that is not listed", () => sign(), { listingAddress: null }, REVIEW_EVENT_TEXTS.gig],
    ["another gig's page", () => sign({ page: "https://gigstr.example/gig/another" }), {}, REVIEW_EVENT_TEXTS.gig],
    ["a page that is no gig page", () => sign({ page: `https://gigstr.example/user/${gigId}` }), {}, REVIEW_EVENT_TEXTS.gig],
    ["a page with a query", () => sign({ page: `https://gigstr.example/gig/${gigId}?x=1` }), {}, REVIEW_EVENT_TEXTS.gig],
    ["a page that is not http", () => sign({ page: `javascript://x/gig/${gigId}` }), {}, REVIEW_EVENT_TEXTS.gig],
    ["both the listing and a page", () => ({ ...sign(), tags: [...sign().tags, ["i", page.page]] }), {}, REVIEW_EVENT_TEXTS.gig],
    ["no gig at all", () => ({ ...sign(), tags: sign().tags.filter((t) => t[0] !== "a") }), {}, REVIEW_EVENT_TEXTS.gig],
    ["an event signed too long ago", () => sign(listing, {}, NOW - REVIEW_MAX_AGE_SECONDS - 1), {}, REVIEW_EVENT_TEXTS.time],
    ["an event from the future", () => sign(listing, {}, NOW + REVIEW_MAX_AHEAD_SECONDS + 1), {}, REVIEW_EVENT_TEXTS.time],
    ["another role", () => sign(listing, { revieweeRole: "hirer" }), {}, REVIEW_EVENT_TEXTS.tags],
    ["a tag more", () => ({ ...sign(), tags: [...sign().tags, ["e", "0".repeat(64)]] }), {}, REVIEW_EVENT_TEXTS.tags],
    ["a label missing", () => ({ ...sign(), tags: sign().tags.filter((t) => t[1] !== "review/person") }), {}, REVIEW_EVENT_TEXTS.tags],
  ])("refuses %s", (_what, make, over, reason) => {
    expect(checkReviewEvent(make(), { ...expected, ...over })).toEqual({ ok: false, reason });
  });

  it("accepts an event made up to the allowed minutes before or after the server's clock", () => {
    expect(checkReviewEvent(sign(listing, {}, NOW - REVIEW_MAX_AGE_SECONDS), expected).ok).toBe(true);
    expect(checkReviewEvent(sign(listing, {}, NOW + REVIEW_MAX_AHEAD_SECONDS), expected).ok).toBe(true);
  });
});
