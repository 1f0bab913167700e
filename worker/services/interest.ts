// Interest (pre-claim) messages: a non-owner says why they want the gig; the owner approves or
// rejects, then enables claiming for an approved one. Once per user per gig, only while open.
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { rolesOf } from "../../domain/gig";
import type { Db, UserRow } from "../db/client";
import { AtomicChange, where, type Guard, type SetColumns } from "../db/atomic";
import { gigs, preClaimMessages, users } from "../db/schema";
import { conflict, notFound } from "../errors";
import { gigToAct } from "./gig-transitions";
import { loadGig, memberViewer } from "./gig-views";
import { notify } from "./notifications";
import type { Deps } from "./deps";

export type InterestRow = typeof preClaimMessages.$inferSelect;

/**
 * Part of a change where a member's hire of a service offering ends unpaid (withdrawn, or its invoice
 * expired): their claim is off again, so only the owner's "enable claim" lets them hold the offer again.
 */
export function disableClaim(change: AtomicChange, when: Guard, gigId: string, memberId: string): void {
  change.update(preClaimMessages, { claimEnabled: false }, where("gig_id = ? AND sender_id = ?", gigId, memberId), when);
}

async function view(db: Db, rows: InterestRow[]) {
  if (rows.length === 0) return [];
  const senders = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName, profilePicture: users.profilePicture })
    .from(users)
    .where(inArray(users.id, [...new Set(rows.map((r) => r.senderId))]));
  const byId = new Map(senders.map((s) => [s.id, s]));
  return rows.map((r) => {
    const s = byId.get(r.senderId);
    return {
      id: r.id,
      gigId: r.gigId,
      senderId: r.senderId,
      sender: { username: s?.username ?? "", displayName: s?.displayName ?? null, profilePicture: s?.profilePicture ?? null },
      message: r.message,
      status: r.status,
      claimEnabled: r.claimEnabled,
      createdAt: r.createdAt,
    };
  });
}

export async function sendInterest(deps: Deps, me: UserRow, gigId: string, message: string) {
  const gig = await gigToAct(deps, gigId, "send_interest", memberViewer(me));
  const id = crypto.randomUUID();
  const change = new AtomicChange(deps.db, deps.committed);
  // The gig must still be open when the message lands; the unique (gig, sender) index makes it once only.
  const stillOpen = change.compareAndSet(gigs, gig.id, {}, where("status = 'open'"));
  change.insert(preClaimMessages, { id, gigId: gig.id, senderId: me.id, message, status: "pending", claimEnabled: false, createdAt: change.at }, stillOpen);
  notify(change, stillOpen, {
    userId: gig.posterId,
    gigId: gig.id,
    type: "interest",
    title: "New Interest",
    message: `Someone is interested in "${gig.title}".`,
    actorId: me.id,
  });
  try {
    await change.commit();
  } catch (err) {
    if (/UNIQUE constraint failed/.test(String(err))) throw conflict("You have already sent an interest message for this gig", "interest_exists");
    throw err;
  }
  if (!change.won(stillOpen)) throw conflict("This gig is no longer open", "invalid_state");
  const row = await deps.db.query.preClaimMessages.findFirst({ where: eq(preClaimMessages.id, id) });
  return (await view(deps.db, [row!]))[0]!;
}

/** The owner sees every message on their gig; anyone else only their own. Only while the gig is open. */
export async function listInterest(deps: Deps, me: UserRow, gigId: string) {
  const gig = await loadGig(deps, gigId, memberViewer(me));
  if (gig.status !== "open") return [];
  const isOwner = rolesOf(gig, me.id).includes("owner");
  const rows = await deps.db
    .select()
    .from(preClaimMessages)
    .where(isOwner ? eq(preClaimMessages.gigId, gig.id) : and(eq(preClaimMessages.gigId, gig.id), eq(preClaimMessages.senderId, me.id)))
    .orderBy(asc(preClaimMessages.createdAt));
  return view(deps.db, rows);
}

type Decision = "approve" | "reject" | "enable-claim";

/** Approve, reject or enable claiming: the gig's owner, while the gig is open. */
export async function decideInterest(deps: Deps, me: UserRow, messageId: string, decision: Decision) {
  const message = await deps.db.query.preClaimMessages.findFirst({ where: eq(preClaimMessages.id, messageId) });
  if (!message) throw notFound("Interest message not found", "interest_not_found");
  const gig = await gigToAct(deps, message.gigId, "review_interest", memberViewer(me));

  const from = decision === "enable-claim" ? "approved" : "pending";
  if (message.status !== from || (decision === "enable-claim" && message.claimEnabled)) {
    throw conflict(
      decision === "enable-claim" ? "Only an approved interest message can have claiming enabled" : "This interest message was already answered",
      "invalid_state",
    );
  }
  const change = new AtomicChange(deps.db, deps.committed);
  const set: SetColumns<typeof preClaimMessages> =
    decision === "approve" ? { status: "approved" } : decision === "reject" ? { status: "rejected" } : { claimEnabled: true };
  const won = change.compareAndSet(preClaimMessages,
    message.id,
    set,
    where(
      `status = ? AND claim_enabled = ? AND EXISTS (SELECT 1 FROM gigs WHERE id = ? AND status = 'open')`,
      from,
      message.claimEnabled ? 1 : 0,
      gig.id,
    ),
  );
  const texts = {
    approve: ["Interest Approved", `Your interest in "${gig.title}" was approved.`],
    reject: ["Interest Rejected", `Your interest in "${gig.title}" was not accepted.`],
    "enable-claim": ["Claim Enabled", `You can now claim "${gig.title}".`],
  }[decision];
  notify(change, won, { userId: message.senderId, gigId: gig.id, type: `interest_${decision.replace("-", "_")}`, title: texts[0]!, message: texts[1]!, actorId: me.id });
  await change.commit();
  if (!change.won(won)) throw conflict("This interest message or its gig changed. Please reload.", "stale_interest");
  const row = await deps.db.query.preClaimMessages.findFirst({ where: eq(preClaimMessages.id, message.id) });
  return (await view(deps.db, [row!]))[0]!;
}

/** Pending interest messages on the member's own open gigs. */
export async function pendingInterestCount({ db }: Pick<Deps, "db">, me: UserRow): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(preClaimMessages)
    .innerJoin(gigs, eq(gigs.id, preClaimMessages.gigId))
    .where(and(eq(gigs.posterId, me.id), eq(gigs.status, "open"), eq(preClaimMessages.status, "pending")));
  return row?.n ?? 0;
}

