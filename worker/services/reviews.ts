// Reviews: each party of a gig may review the other once, from work_submitted on. The reviewee's
// average (stored ×10) and count are recomputed from the reviews in the same batch, so they never drift.
import { desc, eq, sql } from "drizzle-orm";
import type { UserRow } from "../db/client";
import { notifications, reviews, users } from "../db/schema";
import { badRequest, conflict } from "../errors";
import { authorise } from "./gig-transitions";
import { loadGig } from "./gig-views";
import type { Deps } from "./deps";
import { notificationsWritten } from "./notifications";

export async function reviewGig(deps: Deps, me: UserRow, gigId: string, input: { rating: number; comment?: string | null; revieweeId: string }) {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "review", { userId: me.id, isAdmin: false });
  const counterpart = gig.hirerId === me.id ? gig.workerId : gig.hirerId;
  if (!counterpart || input.revieweeId !== counterpart) throw badRequest("You can only review the other party of this gig", "invalid_reviewee");

  const id = crypto.randomUUID();
  const noticeId = crypto.randomUUID();
  const now = new Date().toISOString();
  try {
    await deps.db.batch([
      deps.db.insert(reviews).values({ id, gigId: gig.id, reviewerId: me.id, revieweeId: counterpart, rating: input.rating, comment: input.comment ?? null, createdAt: now }),
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
    ]);
  } catch (err) {
    if (/UNIQUE constraint failed/.test(String(err))) throw conflict("You have already submitted a review for this gig", "review_already_submitted");
    throw err;
  }
  deps.defer(() => notificationsWritten(deps, [{ id: noticeId, userId: counterpart }]));
  return { id, gigId: gig.id, rating: input.rating, comment: input.comment ?? null, revieweeId: counterpart, createdAt: now };
}

export async function reviewsOf({ db }: Pick<Deps, "db">, userId: string) {
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
  }));
}
