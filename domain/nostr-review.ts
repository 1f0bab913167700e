// Reviews anyone can verify (docs/decisions/028): a review is a Nostr event signed by the reviewer's own key in the
// browser, a NIP-32 label (kind 1985) of the reviewed member (`p`) in the context of the gig (its listing's `a`, or
// the gig page's URL as a NIP-73 `i` when the gig was never listed), with the rating on the 0-1 scale of the draft
// review NIPs and Shopstr (`["rating", "0.8"]` = 4 stars) and the comment as content. Pure: the web app builds the
// template (reviewTemplate) and has the member's signer sign it; the Worker checks the signature with nostr-tools,
// then that the event says what the review says (checkReviewEvent), stores it with the review and sends it
// unchanged to the relays through its outbox.
import { gigPageUrl, isListedOnNostr, listingAddress, type ListingState, type NostrEventTemplate } from "./nostr-listing";

/** NIP-32's label event: a review labels the reviewed member. */
export const REVIEW_KIND = 1985;
/** The namespace and label the draft review NIPs use, so a client that looks for reviews (`#L: ["review"]`) finds ours. */
export const REVIEW_NAMESPACE = "review";
export const REVIEW_LABEL = "review/person";
/** Gigstr's own namespace (as on its listings): the reviewed member's part in the gig. */
export const GIGSTR_NAMESPACE = "gigstr";

/** How far a signed review's created_at may be from the server's clock: signed a while ago, or a clock ahead. */
export const REVIEW_MAX_AGE_SECONDS = 10 * 60;
export const REVIEW_MAX_AHEAD_SECONDS = 5 * 60;

/** The reviewed member's part in the gig. */
export type ReviewedRole = "worker" | "hirer";

/** What a review event names its gig by: the listing's address when the gig is on Nostr, else the gig's page. */
export type GigReference = { listing: string } | { page: string };

/** The signed event as it arrives (nostr-tools' Event). */
export interface SignedReviewEvent extends NostrEventTemplate {
  id: string;
  pubkey: string;
  sig: string;
}

/** What a review says, as the member sends it. */
export interface ReviewContent {
  revieweePubkey: string;
  revieweeRole: ReviewedRole;
  /** 1-5 stars. */
  rating: number;
  comment: string | null;
}

export const REVIEW_EVENT_TEXTS = {
  signature: "The review's signature does not match its author: it was refused.",
  kind: `The signed review is not a review event (kind ${REVIEW_KIND}).`,
  author: "The review is signed by another key than the one you logged in with.",
  reviewee: "The signed review names another member than the one you are reviewing.",
  rating: "The signed review gives another rating than the one sent.",
  comment: "The signed review's text is not the comment sent.",
  gig: "The signed review names another gig than this one.",
  time: "The signed review's time is too far from now. Please sign it again.",
  tags: "The signed review carries tags a Gigstr review does not have.",
  noReviewerKey: "Your account has no Nostr key to sign a review with. Send the review unsigned.",
  noRevieweeKey: "The member you are reviewing has no Nostr key. Send the review unsigned.",
} as const;

/** The rating tag's value: stars on the 0-1 scale (1 star = "0.2", 5 stars = "1"). */
export const ratingTagValue = (stars: number) => String(stars / 5);

/** How the review names its gig: the listing (a gig `isListedOnNostr` while the platform publishes) or the page. */
export function gigReference(gig: ListingState & { id: string }, platformPubkey: string | null, origin: string): GigReference {
  return platformPubkey && isListedOnNostr(gig) ? { listing: listingAddress(platformPubkey, gig.id) } : { page: gigPageUrl(origin, gig.id) };
}

/** The event to sign: kind 1985, labelled a review, the rating, the reviewee, the gig; the comment is the content. */
export function reviewTemplate(review: ReviewContent, reference: GigReference, opts: { createdAt: number }): NostrEventTemplate {
  return {
    kind: REVIEW_KIND,
    created_at: opts.createdAt,
    tags: [
      ["L", REVIEW_NAMESPACE],
      ["l", REVIEW_LABEL, REVIEW_NAMESPACE],
      ["rating", ratingTagValue(review.rating)],
      ["L", GIGSTR_NAMESPACE],
      ["l", review.revieweeRole, GIGSTR_NAMESPACE],
      ["p", review.revieweePubkey],
      ...("listing" in reference ? [["a", reference.listing]] : [["i", reference.page], ["k", "web"]]),
      ["alt", `A review on Gigstr: ${review.rating} of 5 stars for the ${review.revieweeRole} of a gig`],
    ],
    content: review.comment ?? "",
  };
}

/** What the server expects the signed review to say. */
export interface ExpectedReview extends ReviewContent {
  /** The reviewer's key (hex): the event's author. */
  reviewerPubkey: string;
  gigId: string;
  /** The gig's listing address when it is on Nostr, else null (then only the gig page names it). */
  listingAddress: string | null;
  /** The server's clock, Unix seconds. */
  now: number;
}

export type ReviewCheck = { ok: true; reference: GigReference } | { ok: false; reason: string };

const refuse = (reason: string): ReviewCheck => ({ ok: false, reason });
const tagsNamed = (tags: readonly string[][], name: string) => tags.filter((t) => t[0] === name);

/** An http(s) URL of this gig's page, written as gigPageUrl writes it (any origin: a local run's differs). */
function isGigPage(value: string | undefined, gigId: string): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === "https:" || url.protocol === "http:") &&
      url.href === value &&
      url.pathname === `/gig/${encodeURIComponent(gigId)}` &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}

function referenceOf(tags: readonly string[][], expected: Pick<ExpectedReview, "gigId" | "listingAddress">): GigReference | null {
  const a = tagsNamed(tags, "a");
  const i = tagsNamed(tags, "i");
  if (a.length === 1 && i.length === 0 && expected.listingAddress && a[0]![1] === expected.listingAddress) return { listing: expected.listingAddress };
  if (i.length === 1 && a.length === 0 && isGigPage(i[0]![1], expected.gigId)) return { page: i[0]![1]! };
  return null;
}

const sortedTags = (tags: readonly string[][]) => tags.map((t) => JSON.stringify(t)).sort();

/**
 * Whether a signed review says what the review being posted says: kind 1985 by the reviewer's key, the reviewee as
 * its one `p`, the same rating and comment, this gig (its listing, or its page), made within minutes of now, and
 * no tag but those of reviewTemplate. The signature itself is checked by the caller (nostr-tools' verifyEvent).
 */
export function checkReviewEvent(event: SignedReviewEvent, expected: ExpectedReview): ReviewCheck {
  if (event.kind !== REVIEW_KIND) return refuse(REVIEW_EVENT_TEXTS.kind);
  if (event.pubkey !== expected.reviewerPubkey) return refuse(REVIEW_EVENT_TEXTS.author);
  const p = tagsNamed(event.tags, "p");
  if (p.length !== 1 || p[0]![1] !== expected.revieweePubkey) return refuse(REVIEW_EVENT_TEXTS.reviewee);
  const rating = tagsNamed(event.tags, "rating");
  if (rating.length !== 1 || rating[0]!.length !== 2 || rating[0]![1] !== ratingTagValue(expected.rating)) return refuse(REVIEW_EVENT_TEXTS.rating);
  if (event.content !== (expected.comment ?? "")) return refuse(REVIEW_EVENT_TEXTS.comment);
  const reference = referenceOf(event.tags, expected);
  if (!reference) return refuse(REVIEW_EVENT_TEXTS.gig);
  const age = expected.now - event.created_at;
  if (age > REVIEW_MAX_AGE_SECONDS || age < -REVIEW_MAX_AHEAD_SECONDS) return refuse(REVIEW_EVENT_TEXTS.time);
  const template = reviewTemplate(expected, reference, { createdAt: event.created_at });
  if (JSON.stringify(sortedTags(event.tags)) !== JSON.stringify(sortedTags(template.tags))) return refuse(REVIEW_EVENT_TEXTS.tags);
  return { ok: true, reference };
}
