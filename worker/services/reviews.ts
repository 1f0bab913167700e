// Reviews: each party of a gig may review the other once, from work_submitted on. The reviewee's
// average (stored ×10) and count are recomputed from the reviews in the same batch, so they never drift.
// A review may come signed by the reviewer's Nostr key (docs/decisions/028): its signature is checked with
// nostr-tools, and what it says against the review (checkReviewEvent); a mismatch is refused and nothing is
// written. The signed event is stored with the review and, in the same batch, written unchanged to the Nostr
// outbox, which the cron sends to the relays. A review sent without one is stored as before, not verified.
import { desc, eq, sql } from "drizzle-orm";
import { neventEncode } from "nostr-tools/nip19";
import { verifyEvent, type Event } from "nostr-tools/pure";
import { listingAddress, isListedOnNostr } from "../../domain/nostr-listing";
import { checkReviewEvent, REVIEW_EVENT_TEXTS, REVIEW_KIND, type SignedReviewEvent } from "../../domain/nostr-review";
import type { UserRow } from "../db/client";
import { notifications, nostrOutbox, reviews, users } from "../db/schema";
import { badRequest, conflict } from "../errors";
import { gigToAct } from "./gig-transitions";
import { memberViewer } from "./gig-views";
import type { Deps } from "./deps";
import { notificationsWritten } from "./notifications";
import { nostrSettings } from "./nostr-settings";

/** Relay hints a review's nevent carries (the first of the platform's relays), as a listing's naddr does. */
export const NEVENT_RELAY_HINTS = 2;

const refused = (message: string) => badRequest(message, "review_event_refused");

export interface ReviewInput {
  rating: number;
  comment?: string | null;
  revieweeId: string;
  /** The review signed by the reviewer's key (kind 1985), or none: not verified. */
  event?: SignedReviewEvent;
}

export async function reviewGig(deps: Deps, me: UserRow, gigId: string, input: ReviewInput, clock = new Date()) {
  const gig = await gigToAct(deps, gigId, "review", memberViewer(me));
  const counterpart = gig.hirerId === me.id ? gig.workerId : gig.hirerId;
  if (!counterpart || input.revieweeId !== counterpart) throw badRequest("You can only review the other party of this gig", "invalid_reviewee");

  let signed: Event | null = null;
  if (input.event) {
    // A fresh copy of the event's own fields: what is checked is exactly what is stored and sent (and no verdict
    // nostr-tools may have cached on the object it was given counts).
    const given = input.event;
    const event = { id: given.id, pubkey: given.pubkey, created_at: given.created_at, kind: given.kind, tags: given.tags.map((t) => [...t]), content: given.content, sig: given.sig };
    if (!me.nostrPubkey) throw refused(REVIEW_EVENT_TEXTS.noReviewerKey);
    const reviewee = await deps.db.select({ pubkey: users.nostrPubkey }).from(users).where(eq(users.id, counterpart)).get();
    if (!reviewee?.pubkey) throw refused(REVIEW_EVENT_TEXTS.noRevieweeKey);
    if (!verifyEvent(event)) throw refused(REVIEW_EVENT_TEXTS.signature);
    const platformPubkey = nostrSettings(deps.env).pubkey;
    const check = checkReviewEvent(event, {
      reviewerPubkey: me.nostrPubkey,
      revieweePubkey: reviewee.pubkey,
      revieweeRole: counterpart === gig.workerId ? "worker" : "hirer",
      rating: input.rating,
      comment: input.comment ?? null,
      gigId: gig.id,
      listingAddress: platformPubkey && isListedOnNostr(gig) ? listingAddress(platformPubkey, gig.id) : null,
      now: Math.floor(clock.getTime() / 1000),
    });
    if (!check.ok) throw refused(check.reason);
    signed = event;
  }

  const id = crypto.randomUUID();
  const noticeId = crypto.randomUUID();
  const now = clock.toISOString();
  const eventJson = signed ? JSON.stringify(signed) : null;
  try {
    await deps.db.batch([
      deps.db.insert(reviews).values({
        id,
        gigId: gig.id,
        reviewerId: me.id,
        revieweeId: counterpart,
        rating: input.rating,
        comment: input.comment ?? null,
        nostrEvent: eventJson,
        nostrEventId: signed?.id ?? null,
        createdAt: now,
      }),
      deps.db
        .update(users)
        .set({
          averageRating: sql`(SELECT CAST(ROUND(AVG(rating) * 10) AS INTEGER) FROM ${reviews} WHERE reviewee_id = ${counterpart})`,
          totalReviews: sql`(SELECT COUNT(*) FROM ${reviews} WHERE reviewee_id = ${counterpart})`,
        })
        .where(eq(users.id, counterpart)),
      deps.db.insert(notifications).values({
        id: noticeId,
        userId: counterpart,
        gigId: gig.id,
        type: "review",
        title: "New Review",
        message: `You received a ${input.rating}-star review for "${gig.title}".`,
        actorId: me.id,
        isRead: false,
        createdAt: now,
      }),
      // The signed review goes to the relays as it was signed: a row of the outbox (keyed by its id), sent by the cron.
      ...(signed && eventJson
        ? [
            deps.db
              .insert(nostrOutbox)
              .values({ id: signed.id, kind: signed.kind, gigId: gig.id, eventCreatedAt: signed.created_at, event: eventJson, nextAttemptAt: now, createdAt: now })
              .onConflictDoNothing(),
          ]
        : []),
    ]);
  } catch (err) {
    if (/UNIQUE constraint failed/.test(String(err))) throw conflict("You have already submitted a review for this gig", "review_already_submitted");
    throw err;
  }
  deps.defer(() => notificationsWritten(deps, [{ id: noticeId, userId: counterpart }]));
  return {
    id,
    gigId: gig.id,
    rating: input.rating,
    comment: input.comment ?? null,
    revieweeId: counterpart,
    createdAt: now,
    ...nostrLink(deps.env, signed ? { id: signed.id, pubkey: signed.pubkey } : null),
  };
}

/** Whether a review is verified (signed by its reviewer), and its event's id and NIP-19 nevent for a link. */
function nostrLink(env: Deps["env"], event: { id: string; pubkey: string | null } | null) {
  if (!event) return { verified: false, nostrEventId: null, nevent: null };
  const relays = nostrSettings(env).relays.slice(0, NEVENT_RELAY_HINTS);
  const nevent = neventEncode({ id: event.id, kind: REVIEW_KIND, relays, ...(event.pubkey ? { author: event.pubkey } : {}) });
  return { verified: true, nostrEventId: event.id, nevent };
}

/** The reviewer's key of a stored signed review (its event's author). */
function authorOf(eventJson: string | null): string | null {
  if (!eventJson) return null;
  try {
    const pubkey = (JSON.parse(eventJson) as { pubkey?: unknown }).pubkey;
    return typeof pubkey === "string" ? pubkey : null;
  } catch {
    return null;
  }
}

export async function reviewsOf({ db, env }: Pick<Deps, "db" | "env">, userId: string) {
  const rows = await db
    .select({ r: reviews, name: users.displayName, username: users.username, picture: users.profilePicture })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.reviewerId))
    .where(eq(reviews.revieweeId, userId))
    .orderBy(desc(reviews.createdAt))
    .limit(100);
  return rows.map(({ r, name, username, picture }) => ({
    id: r.id,
    gigId: r.gigId,
    rating: r.rating,
    comment: r.comment,
    revieweeId: r.revieweeId,
    createdAt: r.createdAt,
    reviewerName: name ?? username,
    reviewerPicture: picture,
    reviewerUsername: username,
    ...nostrLink(env, r.nostrEventId ? { id: r.nostrEventId, pubkey: authorOf(r.nostrEvent) } : null),
  }));
}
