import { decode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import {
  deletionTemplate,
  gigPageUrl,
  handlerTemplate,
  isActiveListing,
  isListedOnNostr,
  listingAddress,
  listingTemplate,
  originOfListing,
  sameContent,
  summaryOf,
  SUMMARY_MAX_CHARS,
  type ListedGig,
} from "./nostr-listing";
import { listingNaddr } from "./nostr-naddr";

const platform = getPublicKey(generateSecretKey());
const poster = getPublicKey(generateSecretKey());

const gig: ListedGig = {
  id: "3f1c2a9e-1111-4222-8333-444455556666",
  gigType: "job_request",
  title: "Design a logo",
  description: "A clean logo for a bitcoin meetup.\n\nSVG please, two colours.",
  category: "Design",
  payment: 10_000,
  status: "open",
  posterPubkey: poster,
  listedAt: "2026-11-20T10:00:05.123Z",
};
const url = gigPageUrl("https://gigstr.example", gig.id);
const tag = (tags: string[][], name: string) => tags.filter((t) => t[0] === name);

describe("a gig's NIP-99 listing (kind 30402)", () => {
  it("has d = the gig id, title, summary, published_at, price in SATS, t = category, p = poster, r = gig page, status active; the description is the content", () => {
    const event = listingTemplate(gig, { createdAt: 1_795_000_000, gigUrl: url });
    expect(event.kind).toBe(30402);
    expect(event.created_at).toBe(1_795_000_000);
    expect(event.content).toBe(gig.description);
    expect(tag(event.tags, "d")).toEqual([["d", gig.id]]);
    expect(tag(event.tags, "title")).toEqual([["title", "Design a logo"]]);
    expect(tag(event.tags, "summary")).toEqual([["summary", "A clean logo for a bitcoin meetup."]]);
    expect(tag(event.tags, "published_at")).toEqual([["published_at", String(Math.floor(Date.parse(gig.listedAt) / 1000))]]);
    expect(tag(event.tags, "price")).toEqual([["price", "10000", "SATS"]]);
    expect(tag(event.tags, "t")).toEqual([["t", "design"], ["t", "gigstr"]]);
    expect(tag(event.tags, "p")).toEqual([["p", poster]]);
    expect(tag(event.tags, "r")).toEqual([["r", "https://gigstr.example/gig/3f1c2a9e-1111-4222-8333-444455556666"]]);
    expect(tag(event.tags, "status")).toEqual([["status", "active"]]);
    expect(tag(event.tags, "l")).toEqual([["l", "job_request", "gigstr"]]);
    // Signed by the platform's key, it is a valid event whose address names the gig.
    const signed = finalizeEvent(event, generateSecretKey());
    expect(verifyEvent(signed)).toBe(true);
  });

  it("is not active once the gig is no longer open (claimed, in progress, completed, cancelled, waiting for a hirer's payment)", () => {
    for (const status of ["claimed", "in_progress", "needs_revision", "work_submitted", "completed", "disputed", "cancelled", "pending_payment"]) {
      expect(isActiveListing(status)).toBe(false);
      expect(tag(listingTemplate({ ...gig, status }, { createdAt: 1, gigUrl: url }).tags, "status")).toEqual([["status", "sold"]]);
    }
    expect(isActiveListing("open")).toBe(true);
  });

  it("a gig is listed once it has been open: a service offering from its posting, a job request once funded; never unpaid or removed", () => {
    const job = { gigType: "job_request", resolution: null } as const;
    const offer = { gigType: "service_offering", resolution: null } as const;
    // A job request: waiting for its payment, or cancelled (or expired) before it, is not; funded, whatever came after, is.
    expect(isListedOnNostr({ ...job, status: "pending_payment", escrowStatus: "pending" })).toBe(false);
    expect(isListedOnNostr({ ...job, status: "cancelled", escrowStatus: "pending" })).toBe(false);
    for (const [status, escrowStatus] of [["open", "funded"], ["claimed", "funded"], ["work_submitted", "funded"], ["disputed", "funded"], ["completed", "released"], ["cancelled", "refunded"]]) {
      expect(isListedOnNostr({ ...job, status: status!, escrowStatus: escrowStatus! }), `${status}/${escrowStatus}`).toBe(true);
    }
    // A service offering is open from its posting: every status after it was listed, a hire waiting for payment too.
    for (const status of ["open", "pending_payment", "claimed", "completed", "cancelled"]) {
      expect(isListedOnNostr({ ...offer, status, escrowStatus: status === "completed" ? "released" : "pending" }), status).toBe(true);
    }
    // The admin's removal deletes the listing.
    expect(isListedOnNostr({ ...job, status: "open", escrowStatus: "funded", resolution: "deleted_by_admin" })).toBe(false);
    expect(isListedOnNostr({ ...offer, status: "open", escrowStatus: "pending", resolution: "deleted_by_admin" })).toBe(false);
  });

  it("leaves out p when the poster has no key any more and r when the public origin is unknown", () => {
    const event = listingTemplate({ ...gig, posterPubkey: null }, { createdAt: 1, gigUrl: null });
    expect(tag(event.tags, "p")).toEqual([]);
    expect(tag(event.tags, "r")).toEqual([]);
    expect(originOfListing(event.tags)).toBeNull();
    expect(originOfListing(listingTemplate(gig, { createdAt: 1, gigUrl: url }).tags)).toBe("https://gigstr.example");
  });

  it("labels a service offering as one", () => {
    expect(tag(listingTemplate({ ...gig, gigType: "service_offering" }, { createdAt: 1, gigUrl: url }).tags, "l")).toEqual([["l", "service_offering", "gigstr"]]);
  });

  it("says the same thing for the same gig, whenever it is made; a change of title, price or status is a different listing", () => {
    const a = listingTemplate(gig, { createdAt: 1, gigUrl: url });
    expect(sameContent(a, listingTemplate(gig, { createdAt: 99, gigUrl: url }))).toBe(true);
    expect(sameContent(a, listingTemplate({ ...gig, title: "Design two logos" }, { createdAt: 1, gigUrl: url }))).toBe(false);
    expect(sameContent(a, listingTemplate({ ...gig, payment: 12_000 }, { createdAt: 1, gigUrl: url }))).toBe(false);
    expect(sameContent(a, listingTemplate({ ...gig, status: "claimed" }, { createdAt: 1, gigUrl: url }))).toBe(false);
  });
});

describe("the summary", () => {
  it("is the first non-empty line, whitespace collapsed", () => {
    expect(summaryOf("\n\n  Make   a\tvideo \nmore")).toBe("Make a video");
  });

  it("is cut at a word, with an ellipsis, to at most SUMMARY_MAX_CHARS characters", () => {
    const long = "word ".repeat(60);
    const summary = summaryOf(long);
    expect([...summary].length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(summary.endsWith("word…")).toBe(true);
    const oneWord = "x".repeat(400);
    expect([...summaryOf(oneWord)].length).toBe(SUMMARY_MAX_CHARS);
  });
});

describe("the listing's address and naddr", () => {
  it("names kind 30402, the platform's key and the gig id", () => {
    expect(listingAddress(platform, gig.id)).toBe(`30402:${platform}:${gig.id}`);
    const decoded = decode(listingNaddr(platform, gig.id, ["wss://relay.example"]));
    expect(decoded).toEqual({ type: "naddr", data: { kind: 30402, pubkey: platform, identifier: gig.id, relays: ["wss://relay.example"] } });
  });
});

describe("the NIP-09 deletion (kind 5)", () => {
  it("names the listing's address with an a tag, the versions sent with e tags, and their kind", () => {
    const address = listingAddress(platform, gig.id);
    const event = deletionTemplate(address, ["aa".repeat(32)], { createdAt: 5, reason: "Removed" });
    expect(event).toEqual({ kind: 5, created_at: 5, content: "Removed", tags: [["a", address], ["e", "aa".repeat(32)], ["k", "30402"]] });
  });
});

describe("the NIP-89 handler announcement (kind 31990)", () => {
  it("says Gigstr's gig page opens kind 30402 listings given as an naddr", () => {
    const event = handlerTemplate("https://gigstr.example/", { createdAt: 7 });
    expect(event.kind).toBe(31990);
    expect(tag(event.tags, "d")).toEqual([["d", "gigstr-gig-listings"]]);
    expect(tag(event.tags, "k")).toEqual([["k", "30402"]]);
    expect(tag(event.tags, "web")).toEqual([["web", "https://gigstr.example/gig/<bech32>", "naddr"]]);
    expect(JSON.parse(event.content)).toMatchObject({ name: "Gigstr", website: "https://gigstr.example" });
  });
});
