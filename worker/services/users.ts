// Profiles: the member's own view, the public view, edits, alias availability and account deletion.
import { and, eq, isNull, sql } from "drizzle-orm";
import * as nip19 from "nostr-tools/nip19";
import { successRate } from "../../domain/reputation";
import { nip05OnAliasDomainProblem, type OwnUser, type ProfileUpdate, type PublicUser } from "../../domain/profile";
import type { Db, UserRow } from "../db/client";
import type { Deps } from "./deps";
import { addGigEvent } from "./gig-events";
import { notificationsWritten } from "./notifications";
import { AtomicChange, allOf, where, type Guard } from "../db/atomic";
import { gigs, notifications, sessions, users } from "../db/schema";
import { nowIso } from "../db/client";
import { destinationHost } from "../lightning/lnurl";
import { badRequest, conflict, notFound } from "../errors";
import { endMemberAccess } from "../auth/member-sessions";

export const DELETED_USER_NAME = "Deleted user";

export function publicUser(u: UserRow): PublicUser {
  return {
    id: u.id,
    username: u.username,
    displayName: u.displayName,
    profilePicture: u.profilePicture,
    picture: u.profilePicture,
    bio: u.bio,
    nip05: u.nip05,
    nostrPubkey: u.nostrPubkey,
    gigstrAlias: u.gigstrAlias,
    completedGigs: u.completedGigs,
    successfulGigs: u.successfulGigs,
    successRate: successRate(u.completedGigs, u.successfulGigs),
    averageRating: u.averageRating,
    totalReviews: u.totalReviews,
    createdAt: u.createdAt,
  };
}

export function ownUser(u: UserRow, aliasDomain: string): OwnUser {
  return {
    ...publicUser(u),
    lightningAddress: u.lightningAddress,
    gigstrAliasAddress: u.gigstrAlias ? `${u.gigstrAlias}@${aliasDomain}` : null,
    nostrDmNotifications: u.nostrDmNotifications,
  };
}

/** A member's account by id, or null when there is none or it was deleted. */
export async function liveUserById({ db }: Pick<Deps, "db">, id: string): Promise<UserRow | null> {
  return (await db.query.users.findFirst({ where: and(eq(users.id, id), isNull(users.deletedAt)) })) ?? null;
}

export async function findUserById(deps: Pick<Deps, "db">, id: string): Promise<UserRow> {
  const user = await liveUserById(deps, id);
  if (!user) throw notFound("User not found", "user_not_found");
  return user;
}

export async function findUserByNpub({ db }: Pick<Deps, "db">, npub: string): Promise<UserRow> {
  let pubkey: string;
  try {
    const decoded = nip19.decode(npub);
    if (decoded.type !== "npub") throw new Error("not an npub");
    pubkey = decoded.data;
  } catch {
    throw notFound("User not found", "user_not_found");
  }
  const user = await db.query.users.findFirst({ where: and(eq(users.nostrPubkey, pubkey), isNull(users.deletedAt)) });
  if (!user) throw notFound("User not found", "user_not_found");
  return user;
}

export async function isAliasAvailable({ db }: Pick<Deps, "db">, alias: string): Promise<boolean> {
  const taken = await db.query.users.findFirst({ where: eq(users.gigstrAlias, alias), columns: { id: true } });
  return !taken;
}

/** Applies a parsed profile edit. Absent keys stay as they are; empty values were turned into null by the schema. */
/**
 * `aliasDomain` is where aliases live (`alias@<aliasDomain>`, routes/config.ts). An alias forwards
 * to its owner's Lightning address, so that address may not be on the alias domain: the Worker would
 * fetch itself, alias after alias.
 */
export async function updateProfile(deps: Pick<Deps, "db" | "env" | "defer">, me: UserRow, edit: ProfileUpdate, aliasDomain: string): Promise<UserRow> {
  const { db } = deps;
  if (edit.username !== undefined && edit.username !== me.username) {
    throw badRequest("Username cannot be changed", "username_immutable");
  }
  const changes: Partial<typeof users.$inferInsert> = {};
  if (edit.displayName !== undefined) changes.displayName = edit.displayName;
  if (edit.bio !== undefined) changes.bio = edit.bio;
  if (edit.nip05 !== undefined) changes.nip05 = edit.nip05;
  if (edit.profilePicture !== undefined) changes.profilePicture = edit.profilePicture;
  if (edit.lightningAddress !== undefined) changes.lightningAddress = edit.lightningAddress;
  if (edit.nostrDmNotifications !== undefined && edit.nostrDmNotifications !== me.nostrDmNotifications) {
    changes.nostrDmNotifications = edit.nostrDmNotifications;
    changes.nostrDmSince = edit.nostrDmNotifications ? new Date().toISOString() : null;
  }

  const lightningAddressAfter = edit.lightningAddress !== undefined ? edit.lightningAddress : me.lightningAddress;
  if (edit.gigstrAlias !== undefined && edit.gigstrAlias !== me.gigstrAlias) {
    if (me.gigstrAlias) throw conflict("Your alias is permanently configured and cannot be changed", "alias_already_set");
    if (!lightningAddressAfter) throw badRequest("Set a Lightning address before claiming an alias", "lightning_address_required");
    changes.gigstrAlias = edit.gigstrAlias;
  }
  if (me.gigstrAlias && lightningAddressAfter === null) {
    throw badRequest("Your alias forwards to your Lightning address; it cannot be removed", "lightning_address_required");
  }
  const hasAliasAfter = Boolean(me.gigstrAlias || changes.gigstrAlias);
  if (hasAliasAfter && lightningAddressAfter && destinationHost(lightningAddressAfter) === aliasDomain.toLowerCase()) {
    throw badRequest(`Your Lightning address cannot be on ${aliasDomain}: your Gigstr alias forwards to it.`, "alias_loop");
  }
  if (changes.nip05) {
    const problem = nip05OnAliasDomainProblem(changes.nip05, changes.gigstrAlias ?? me.gigstrAlias, aliasDomain);
    if (problem) throw badRequest(problem, "nip05_not_yours");
  }
  if (Object.keys(changes).length === 0) return me;

  try {
    // The alias is set only while still empty: of two racing claims, one wins.
    const where = changes.gigstrAlias
      ? and(eq(users.id, me.id), isNull(users.gigstrAlias))
      : eq(users.id, me.id);
    const update = db.update(users).set(changes).where(where).returning();
    const notice = addressChangeNotice(db, me, changes.lightningAddress);
    const [[updated]] = notice ? await db.batch([update, notice.insert]) : [await update];
    if (!updated) throw conflict("Your alias is permanently configured and cannot be changed", "alias_already_set");
    // Announced by id: when its condition did not hold the notice is not there, and no tab hears of it.
    if (notice) deps.defer(() => notificationsWritten(deps, [{ id: notice.id, userId: me.id }]));
    return updated;
  } catch (err) {
    if (err instanceof Error && /UNIQUE constraint failed: users\.gigstr_alias/.test(String(err.message) + String(err.cause ?? "")))
      throw conflict("This alias is already taken", "alias_taken");
    throw err;
  }
}

/**
 * A changed Lightning address is where the member's payouts go from now on: they are told in-app, so a
 * change they did not make (a hijacked session) is seen. Written in the same batch as the change, and
 * only if the address really is the new one afterwards. A member's first address is not a change (every
 * newcomer sets one; a notice then would only be noise).
 */
function addressChangeNotice(db: Db, me: UserRow, next: string | null | undefined) {
  if (next === undefined || next === me.lightningAddress || !me.lightningAddress) return null;
  const message = next
    ? `Your Lightning address is now ${next}: your payouts go there. If this was not you, log out everywhere from Settings and change it back.`
    : "Your Lightning address was removed. If this was not you, log out everywhere from Settings and set it again.";
  const id = crypto.randomUUID();
  // Every column of notifications, in the table's order (an insert from a select names them all).
  const insert = db.insert(notifications).select(sql`
    SELECT ${id}, ${me.id}, NULL, 'lightning_address_changed', 'Lightning Address Changed', ${message}, NULL, 0, ${nowIso()}
    WHERE EXISTS (SELECT 1 FROM users WHERE id = ${me.id} AND lightning_address IS ${next})`);
  return { id, insert };
}

/**
 * An invoice still open that touches this member: one they would pay (paid now, it funds their hire, or it is
 * refunded to them as a late payment), or one a milestone of their gig waits for (paid now, it funds that
 * milestone). Either way money could still arrive for an account that is gone, with no Lightning address to
 * send it back to.
 */
const openInvoice = (userId: string): Guard =>
  where(
    `invoices.status = 'pending' AND (invoices.payer_id = ? OR EXISTS (
       SELECT 1 FROM gig_milestones JOIN gigs ON gigs.id = gig_milestones.gig_id
       WHERE gig_milestones.funding_invoice_id = invoices.id AND (gigs.hirer_id = ? OR gigs.worker_id = ?)))`,
    userId,
    userId,
    userId,
  );

/** No funded gig and no unpaid hire on either side (as the hirer, or as the worker of a service offering someone is hiring), and no payout still on its way to them. */
const noEscrowInPlay = (userId: string): Guard =>
  where(
    `NOT EXISTS (SELECT 1 FROM gigs WHERE (hirer_id = ? OR worker_id = ?) AND (escrow_status = 'funded' OR status = 'pending_payment'))
     AND NOT EXISTS (SELECT 1 FROM payouts WHERE recipient_id = ? AND status <> 'succeeded')`,
    userId,
    userId,
    userId,
  );

/** No money is in play for this member: none held or owed (noEscrowInPlay), and none that could still arrive (openInvoice). */
const noMoneyInPlay = (userId: string): Guard => {
  const invoice = openInvoice(userId);
  return allOf(noEscrowInPlay(userId), where(`NOT EXISTS (SELECT 1 FROM invoices WHERE ${invoice.sql})`, ...invoice.params));
};

const ACTIVE_ESCROW = "You have gigs with active escrow or payments on their way to you. Complete or cancel them before deleting your account.";
const openInvoiceMessage = (expiresAt: string) =>
  `A Lightning invoice for one of your gigs is still open, so a payment could still arrive. You can delete your account once it is paid or has expired (${expiresAt.slice(0, 16).replace("T", " ")} UTC).`;

/** Why noMoneyInPlay refused: money held or owed (the 'active escrow' answer), or else the open invoice that lasts longest. */
async function whyMoneyInPlay(db: Deps["db"], userId: string): Promise<string> {
  const escrow = noEscrowInPlay(userId);
  const invoice = openInvoice(userId);
  const row = await db.$client
    .prepare(`SELECT (${escrow.sql}) AS free, (SELECT MAX(expires_at) FROM invoices WHERE ${invoice.sql}) AS invoiceUntil`)
    .bind(...escrow.params, ...invoice.params)
    .first<{ free: number; invoiceUntil: string | null }>();
  return row?.free && row.invoiceUntil ? openInvoiceMessage(row.invoiceUntil) : ACTIVE_ESCROW;
}

/**
 * Deletes an account: the profile is scrubbed and its sessions end. The row stays, renamed, so that
 * past gigs and reviews others hold still point somewhere and show a placeholder name. The alias stays
 * reserved (and is no longer served), so nobody else can later receive payments meant for this person.
 * The member's open service offerings are cancelled with it, so nobody hires and funds someone who is
 * gone. One batch, every statement guarded by noMoneyInPlay: a hire racing the deletion either lands
 * first (and the deletion is refused) or finds the offering cancelled.
 */
export async function deleteAccount(deps: Pick<Deps, "db" | "committed"> & Partial<Pick<Deps, "env">>, me: UserRow): Promise<void> {
  const guard = noMoneyInPlay(me.id);
  const offerings = await deps.db
    .select({ id: gigs.id })
    .from(gigs)
    .where(and(eq(gigs.posterId, me.id), eq(gigs.gigType, "service_offering"), eq(gigs.status, "open")));
  const change = new AtomicChange(deps.db, deps.committed);
  for (const { id } of offerings) {
    const cancelled = change.compareAndSet(gigs, id, { status: "cancelled", cancelledAt: change.at }, allOf(where("status = 'open'"), guard), { bumpVersion: true });
    addGigEvent(change, cancelled, { gigId: id, type: "cancelled", actorId: me.id, data: { reason: "account_deleted" } });
  }
  change.delete(sessions, where("user_id = ?", me.id), guard);
  const scrubbed = { username: `deleted-${me.id}`, nostrPubkey: null, displayName: DELETED_USER_NAME, profilePicture: null, bio: null, nip05: null, lightningAddress: null, nostrDmNotifications: false, nostrDmSince: null, deletedAt: change.at };
  change.update(users, scrubbed, where("id = ?", me.id), guard);
  await change.commit();
  // The guard decided, in the batch: money in play (now, or landed meanwhile) left everything as it was.
  const after = await deps.db.query.users.findFirst({ where: eq(users.id, me.id), columns: { deletedAt: true } });
  if (!after?.deletedAt) {
    const message = await whyMoneyInPlay(deps.db, me.id);
    throw conflict(message, message === ACTIVE_ESCROW ? "active_escrow" : "open_invoice");
  }
  // Its sessions end at its inbox too, where requests check them (docs/decisions/032): at once, for every token.
  if (deps.env) await endMemberAccess(deps.env, me.id);
}
