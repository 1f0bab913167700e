// Gigstr on Nostr, the Worker's side (docs/decisions/025): after a change to a gig commits, its NIP-99 listing
// follows it (syncGigListings, called from one place: Deps.committed in composition.ts, for every change that
// wrote a gig event); the event is signed and written to the outbox (a D1 row keyed by its id) and nothing
// else happens in the request. That write is deferred work, which can be lost (the isolate ends, D1 fails for a
// moment): every ten minutes the cron's sweep (sweepGigListings, docs/decisions/045) brings up to date each gig
// whose listing is behind it, and a gig that was open before publishing was turned on. The cron sends due rows
// to the relays (publishNostrOutbox), retrying with back-off; the admin's dashboard counts what is stuck
// (nostrOutboxHealth). The same outbox carries the members' notifications as NIP-17 gift wraps (nostr-dms.ts,
// docs/decisions/026), sent to each member's DM relays.
//
// A gig is listed once it is open (a service offering when posted, a job request once its escrow is funded;
// isListedOnNostr in domain/nostr-listing.ts, which the gig page's "Also on Nostr" reads too): a job request
// waiting for its payment is never published, nor is a gig the admin removed. Once listed, each
// change that alters what the listing says replaces it (created_at strictly increasing per gig, and never from
// an older version of the gig than the last row's), with status `sold` once the gig is no longer open; the
// admin's removal sends a NIP-09 deletion, after which nothing more is published for that gig.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, max, or, sql } from "drizzle-orm";
import { finalizeEvent, type Event, type VerifiedEvent } from "nostr-tools/pure";
import {
  ACTIVE_LISTING_STATUS,
  DELETION_KIND,
  HANDLER_ID,
  HANDLER_KIND,
  LISTING_KIND,
  deletionTemplate,
  gigPageUrl,
  handlerTemplate,
  isListedOnNostr,
  listingAddress,
  listingTemplate,
  originOfListing,
  sameContent,
  type NostrEventTemplate,
} from "../../domain/nostr-listing";
import type { NostrOutboxHealth } from "../../domain/admin-views";
import { AtomicChange, where } from "../db/atomic";
import { gigs, nostrOutbox, users } from "../db/schema";
import { isLocalRun } from "../deployment";
import type { Env } from "../env";
import { REMOVED_BY_ADMIN } from "./gig-views";
import { dmRelaysOf } from "./nostr-dm-relays";
import { relayPublisher, type NostrRelayTransport } from "./nostr-relays";
import { nostrSettings } from "./nostr-settings";
import type { Deps } from "./deps";

/** How long one run waits for a relay to connect, and then for its OK to each event. */
export const RELAY_TIMEOUT_MS = 8_000;
/** Rows one run sends at most (the oldest due first). */
export const OUTBOX_BATCH = 50;
/** Back-off between attempts: 1 minute, doubling, at most an hour. */
export const FIRST_RETRY_MS = 60_000;
export const MAX_RETRY_MS = 3_600_000;
/** A row no relay took after this many attempts, or this long after it was written, is stuck (the dashboard shows it). */
export const STUCK_AFTER_ATTEMPTS = 5;
export const STUCK_AFTER_MS = 30 * 60_000;
/** Once one relay took an event, the others are tried this many attempts in all, then left. */
export const ATTEMPTS_AFTER_PUBLISHED = 5;
/** Relays one run connects to at most (NOSTR_RELAYS and the DM relays of the gift wraps it sends). */
export const MAX_RELAYS_PER_RUN = 20;

export const REMOVED_REASON = "Removed from Gigstr by its admin.";

type OutboxDeps = Pick<Deps, "db" | "env">;
type OutboxRow = typeof nostrOutbox.$inferSelect;

/** The delay before the next attempt, after `attempts` attempts. */
export const retryDelayMs = (attempts: number) => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const parseEvent = (row: Pick<OutboxRow, "event">) => JSON.parse(row.event) as Event;

/**
 * The origin of the gig page a listing links to: `https://ALIAS_DOMAIN` on a deployed Worker, else the origin
 * of the request that made the change (a local run: the URL `npm start` prints); null when neither is known.
 */
export function publicOrigin(env: Pick<Env, "ALIAS_DOMAIN" | "LOCAL_DEV">, requestOrigin?: string): string | null {
  if (env.ALIAS_DOMAIN && !isLocalRun(env)) return `https://${env.ALIAS_DOMAIN}`;
  return requestOrigin ?? (env.ALIAS_DOMAIN ? `https://${env.ALIAS_DOMAIN}` : null);
}

/** The origin the newest listing linked to: for changes made with no request (the cron, a gig's room). */
export async function lastKnownOrigin(deps: OutboxDeps): Promise<string | null> {
  const newest = await deps.db
    .select({ event: nostrOutbox.event })
    .from(nostrOutbox)
    .where(eq(nostrOutbox.kind, LISTING_KIND))
    .orderBy(desc(nostrOutbox.eventCreatedAt))
    .limit(1)
    .get();
  return newest ? originOfListing(parseEvent(newest).tags) : null;
}

interface EventMeta {
  address?: string | null;
  gigId?: string | null;
  gigVersion?: number | null;
}

const outboxRow = (event: VerifiedEvent, meta: EventMeta, now: Date): typeof nostrOutbox.$inferInsert => ({
  id: event.id,
  kind: event.kind,
  address: meta.address ?? null,
  gigId: meta.gigId ?? null,
  gigVersion: meta.gigVersion ?? null,
  eventCreatedAt: event.created_at,
  event: JSON.stringify(event),
  nextAttemptAt: now.toISOString(),
  createdAt: now.toISOString(),
});

/** Writes a signed event to the outbox, due now. Idempotent: the same event (the same id) is one row. Answers whether it was new. */
export async function enqueueEvent(deps: Pick<Deps, "db">, event: VerifiedEvent, meta: EventMeta = {}, now = new Date()): Promise<boolean> {
  const [result] = await deps.db.batch([deps.db.insert(nostrOutbox).values(outboxRow(event, meta, now)).onConflictDoNothing()]);
  return (result?.meta.changes ?? 0) > 0;
}

/**
 * Writes the next event of an address, unless a row for it is already as new (same or later created_at, or made
 * from the same or a later version of the gig): two changes racing never put an older listing after a newer one.
 */
async function enqueueNext(deps: OutboxDeps, event: VerifiedEvent, meta: EventMeta & { address: string }, now: Date): Promise<boolean> {
  const change = new AtomicChange(deps.db, () => {});
  change.insert(
    nostrOutbox,
    outboxRow(event, meta, now),
    where(
      "NOT EXISTS (SELECT 1 FROM nostr_outbox WHERE id = ? OR (address = ? AND (event_created_at >= ? OR gig_version >= ?)))",
      event.id,
      meta.address,
      event.created_at,
      meta.gigVersion ?? -1,
    ),
  );
  await change.commit();
  return change.inserted(nostrOutbox).length > 0;
}

export type ListingOutcome = "off" | "gone" | "unlisted" | "unchanged" | "listed" | "deleted" | "raced";

/**
 * After changes to these gigs committed: each one's listing follows it (Deps.committed calls this as deferred
 * work, so no request waits on it). Never throws: a gig that fails is logged, and the cron's sweep catches up.
 */
export async function syncGigListings(deps: OutboxDeps, gigIds: readonly string[], requestOrigin?: string): Promise<Record<string, ListingOutcome | "failed">> {
  const outcomes: Record<string, ListingOutcome | "failed"> = {};
  for (const gigId of new Set(gigIds)) {
    try {
      outcomes[gigId] = await syncGigListing(deps, gigId, requestOrigin);
    } catch (err) {
      console.error("could not write a gig's Nostr listing to the outbox", gigId, err);
      outcomes[gigId] = "failed";
    }
  }
  return outcomes;
}

/** Brings one gig's listing up to date in the outbox (see the top of this file); answers what it did. */
export async function syncGigListing(deps: OutboxDeps, gigId: string, requestOrigin?: string, now = new Date()): Promise<ListingOutcome> {
  const nostr = nostrSettings(deps.env);
  if (!nostr.secretKey || !nostr.pubkey) return "off";
  const address = listingAddress(nostr.pubkey, gigId);
  // A change racing this one may write first: then this one reads again (its gig is newer by then, or the same).
  for (let round = 0; round < 3; round++) {
    const gig = await deps.db
      .select({
        id: gigs.id,
        gigType: gigs.gigType,
        title: gigs.title,
        description: gigs.description,
        category: gigs.category,
        payment: gigs.payment,
        status: gigs.status,
        escrowStatus: gigs.escrowStatus,
        resolution: gigs.resolution,
        version: gigs.version,
        fundedAt: gigs.fundedAt,
        createdAt: gigs.createdAt,
        posterPubkey: users.nostrPubkey,
      })
      .from(gigs)
      .leftJoin(users, eq(users.id, gigs.posterId))
      .where(eq(gigs.id, gigId))
      .get();
    if (!gig) return "gone";
    const sent = await deps.db
      .select({ id: nostrOutbox.id, kind: nostrOutbox.kind, event: nostrOutbox.event, eventCreatedAt: nostrOutbox.eventCreatedAt, gigVersion: nostrOutbox.gigVersion })
      .from(nostrOutbox)
      .where(eq(nostrOutbox.address, address))
      .orderBy(desc(nostrOutbox.eventCreatedAt))
      .all();
    const newest = sent[0];
    if (newest?.kind === DELETION_KIND) return "deleted";
    if (newest && (newest.gigVersion ?? -1) >= gig.version) return "unchanged";
    const createdAt = Math.max(seconds(now), newest ? newest.eventCreatedAt + 1 : 0);

    let template: NostrEventTemplate;
    if (gig.resolution === REMOVED_BY_ADMIN) {
      if (!newest) return "unlisted";
      const listings = sent.filter((r) => r.kind === LISTING_KIND).map((r) => r.id);
      template = deletionTemplate(address, listings, { createdAt, reason: REMOVED_REASON });
    } else {
      // Listed once it has been open (the rule the gig page's "Also on Nostr" shares): its first change since writes it.
      if (!newest && !isListedOnNostr(gig)) return "unlisted";
      const origin = publicOrigin(deps.env, requestOrigin) ?? (newest ? originOfListing(parseEvent(newest).tags) : null) ?? (await lastKnownOrigin(deps));
      template = listingTemplate(
        {
          id: gig.id,
          gigType: gig.gigType,
          title: gig.title,
          description: gig.description,
          category: gig.category,
          payment: gig.payment,
          status: gig.status,
          posterPubkey: gig.posterPubkey,
          listedAt: gig.gigType === "job_request" ? (gig.fundedAt ?? gig.createdAt) : gig.createdAt,
        },
        { createdAt, gigUrl: origin ? gigPageUrl(origin, gig.id) : null },
      );
      if (newest && sameContent(parseEvent(newest), template)) {
        // The newest listing says what this version would: it now stands for this version too, so the sweep
        // does not ask again, and a sync of an older version arriving late is refused (enqueueNext's guard).
        await deps.db
          .update(nostrOutbox)
          .set({ gigVersion: gig.version })
          .where(and(eq(nostrOutbox.id, newest.id), lt(nostrOutbox.gigVersion, gig.version)));
        return "unchanged";
      }
    }
    const event = finalizeEvent(template, nostr.secretKey);
    if (await enqueueNext(deps, event, { address, gigId: gig.id, gigVersion: gig.version }, now)) {
      return event.kind === DELETION_KIND ? "deleted" : "listed";
    }
  }
  return "raced";
}

/** The sweep runs on the cron ticks of every tenth minute: it reads every gig, so not each minute. */
export const SWEEP_EVERY_MINUTES = 10;
/** Gigs one sweep brings up to date at most (removals first, then open gigs, newest first); the rest wait for the next. */
export const SWEEP_BATCH = 25;

/** Whether the cron tick at this time sweeps. */
export const sweepsAt = (tick: Date) => tick.getUTCMinutes() % SWEEP_EVERY_MINUTES === 0;

/**
 * `isListedOnNostr` (domain/nostr-listing.ts) over the gigs table, from the same constants: a gig with no
 * listing yet is behind exactly when this holds (nostr-outbox.test.ts holds the two equal for every gig state).
 */
const LISTED_ON_NOSTR = sql`(${gigs.resolution} IS NOT ${REMOVED_BY_ADMIN} AND (${gigs.status} = ${ACTIVE_LISTING_STATUS} OR ${gigs.gigType} = 'service_offering' OR ${gigs.escrowStatus} <> 'pending'))`;

/**
 * The gigs whose listing is behind them, at most `limit`: those listed whose newest listing was made from an older
 * version of the gig (a removal among them: its deletion), and those that should be listed and have no row at all.
 * A gig whose newest row is its deletion is done for good. Each gig's newest row is found by the address index.
 */
export async function gigsBehindOnNostr(deps: OutboxDeps, limit = SWEEP_BATCH): Promise<string[]> {
  const pubkey = nostrSettings(deps.env).pubkey;
  if (!pubkey) return [];
  const newestRow = sql`(SELECT o.id FROM nostr_outbox o WHERE o.address = ${listingAddress(pubkey, "")} || ${gigs.id} ORDER BY o.event_created_at DESC LIMIT 1)`;
  const rows = await deps.db
    .select({ id: gigs.id })
    .from(gigs)
    .leftJoin(nostrOutbox, eq(nostrOutbox.id, newestRow))
    .where(or(and(isNull(nostrOutbox.id), LISTED_ON_NOSTR), and(eq(nostrOutbox.kind, LISTING_KIND), lt(nostrOutbox.gigVersion, gigs.version))))
    .orderBy(desc(sql`${gigs.resolution} IS ${REMOVED_BY_ADMIN}`), desc(sql`${gigs.status} = ${ACTIVE_LISTING_STATUS}`), desc(gigs.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

export interface ListingSweep {
  /** Gigs found behind. */
  behind: number;
  /** Of those: listed (a first or a newer listing), deleted, or found up to date after all (another write won). */
  listed: number;
  deleted: number;
  unchanged: number;
  /** Could not be written this time (logged): found again by the next sweep. */
  failed: number;
}

/**
 * The cron's catch-up (every SWEEP_EVERY_MINUTES): each gig whose listing is behind it gets what its change's
 * deferred work would have written, by the same syncGigListing, so a lost write (or a gig that was open before
 * publishing was turned on) is written within minutes, not at the gig's next change, which may never come.
 */
export async function sweepGigListings(deps: OutboxDeps, limit = SWEEP_BATCH): Promise<ListingSweep | { off: string }> {
  const nostr = nostrSettings(deps.env);
  if (nostr.off) return { off: nostr.off };
  const behind = await gigsBehindOnNostr(deps, limit);
  const outcomes = Object.values(await syncGigListings(deps, behind));
  const count = (...of: (ListingOutcome | "failed")[]) => outcomes.filter((o) => of.includes(o)).length;
  return { behind: behind.length, listed: count("listed"), deleted: count("deleted"), unchanged: count("unchanged", "raced", "unlisted", "gone"), failed: count("failed") };
}

/**
 * The NIP-89 handler announcement, written when the outbox has none saying what it would say now (the first
 * cron tick, or after ALIAS_DOMAIN changed): idempotent by its content. Needs the public origin (ALIAS_DOMAIN,
 * or the one the newest listing links to).
 */
export async function ensureHandlerAnnouncement(deps: OutboxDeps, now = new Date()): Promise<"off" | "no_origin" | "unchanged" | "announced" | "raced"> {
  const nostr = nostrSettings(deps.env);
  if (!nostr.secretKey || !nostr.pubkey) return "off";
  const origin = publicOrigin(deps.env) ?? (await lastKnownOrigin(deps));
  if (!origin) return "no_origin";
  const address = `${HANDLER_KIND}:${nostr.pubkey}:${HANDLER_ID}`;
  const newest = await deps.db
    .select({ event: nostrOutbox.event, eventCreatedAt: nostrOutbox.eventCreatedAt })
    .from(nostrOutbox)
    .where(eq(nostrOutbox.address, address))
    .orderBy(desc(nostrOutbox.eventCreatedAt))
    .limit(1)
    .get();
  const template = handlerTemplate(origin, { createdAt: Math.max(seconds(now), newest ? newest.eventCreatedAt + 1 : 0) });
  if (newest && sameContent(parseEvent(newest), template)) return "unchanged";
  return (await enqueueNext(deps, finalizeEvent(template, nostr.secretKey), { address }, now)) ? "announced" : "raced";
}

export interface OutboxRun {
  off?: string;
  announcement?: Awaited<ReturnType<typeof ensureHandlerAnnouncement>> | "failed";
  /** Rows sent this run. */
  sent: number;
  /** Rows a relay took for the first time this run. */
  published: number;
  /** Rows no relay took this run (retried later). */
  failed: number;
  /** Rows a newer event of the same listing replaced before they went out: never sent. */
  superseded: number;
}

/**
 * The cron's job: sends the due rows to their relays (one connection per relay): NOSTR_RELAYS, or for a NIP-17
 * gift wrap its recipient's DM relays (nostr-dm-relays.ts), records each relay's answer, and schedules the next
 * attempt with back-off. A row is claimed before it is sent (its attempt
 * count is compared and set), so two runs at once never send the same row; a relay that gets an event twice
 * answers "duplicate" and nothing changes anyway.
 */
export async function publishNostrOutbox(
  deps: OutboxDeps,
  opts: { transport?: NostrRelayTransport; now?: Date; limit?: number; timeoutMs?: number } = {},
): Promise<OutboxRun> {
  const run: OutboxRun = { sent: 0, published: 0, failed: 0, superseded: 0 };
  const nostr = nostrSettings(deps.env);
  if (nostr.off) return { ...run, off: nostr.off };
  const now = opts.now ?? new Date();
  const nowIso = now.toISOString();
  try {
    run.announcement = await ensureHandlerAnnouncement(deps, now);
  } catch (err) {
    console.error("could not write the NIP-89 announcement to the outbox", err);
    run.announcement = "failed";
  }

  const due = await deps.db
    .select()
    .from(nostrOutbox)
    .where(and(isNull(nostrOutbox.doneAt), lte(nostrOutbox.nextAttemptAt, nowIso)))
    .orderBy(asc(nostrOutbox.nextAttemptAt))
    .limit(opts.limit ?? OUTBOX_BATCH);
  if (due.length === 0) return run;

  // An event a newer one of the same address replaced is not sent: relays would drop it for the newer one anyway.
  const addresses = [...new Set(due.map((r) => r.address).filter((a): a is string => a !== null))];
  const newestOf = new Map<string, number>();
  if (addresses.length > 0) {
    const rows = await deps.db
      .select({ address: nostrOutbox.address, newest: max(nostrOutbox.eventCreatedAt) })
      .from(nostrOutbox)
      .where(inArray(nostrOutbox.address, addresses))
      .groupBy(nostrOutbox.address);
    for (const r of rows) if (r.address && r.newest !== null) newestOf.set(r.address, r.newest);
  }
  const superseded = due.filter((r) => r.address !== null && (newestOf.get(r.address) ?? 0) > r.eventCreatedAt);
  const transport = opts.transport ?? relayPublisher();
  const timeoutMs = opts.timeoutMs ?? RELAY_TIMEOUT_MS;

  // Where each row goes: a gift wrap to its recipient's DM relays (their kind 10050 list, looked up now and kept a
  // while), every other event to NOSTR_RELAYS. One run opens at most MAX_RELAYS_PER_RUN connections: a row that
  // would need more waits, unclaimed and still due, for the next run.
  const waiting = due.filter((r) => !superseded.includes(r));
  const dmRelays = await dmRelaysOf(
    deps,
    waiting.flatMap((r) => (r.recipient ? [r.recipient] : [])),
    { defaults: nostr.relays, transport, now, timeoutMs },
  );
  const targetsOf = (row: OutboxRow) => (row.recipient ? (dmRelays.get(row.recipient) ?? nostr.relays) : nostr.relays);
  const relaysThisRun = new Set<string>();
  const current = waiting.filter((row) => {
    const more = targetsOf(row).filter((relay) => !relaysThisRun.has(relay));
    if (relaysThisRun.size > 0 && relaysThisRun.size + more.length > MAX_RELAYS_PER_RUN) return false;
    for (const relay of more) relaysThisRun.add(relay);
    return true;
  });

  const claims = [
    ...superseded.map((r) =>
      deps.db.update(nostrOutbox).set({ doneAt: nowIso, updatedAt: nowIso }).where(and(eq(nostrOutbox.id, r.id), isNull(nostrOutbox.doneAt))),
    ),
    ...current.map((r) =>
      deps.db
        .update(nostrOutbox)
        .set({ attempts: r.attempts + 1, nextAttemptAt: new Date(now.getTime() + retryDelayMs(r.attempts + 1)).toISOString(), updatedAt: nowIso })
        .where(and(eq(nostrOutbox.id, r.id), eq(nostrOutbox.attempts, r.attempts), isNull(nostrOutbox.doneAt))),
    ),
  ];
  if (claims.length === 0) return run;
  const results = await deps.db.batch(claims as [(typeof claims)[number], ...(typeof claims)[number][]]);
  run.superseded = superseded.length;
  const mine = current.filter((_, i) => (results[superseded.length + i]?.meta.changes ?? 0) > 0);
  if (mine.length === 0) return run;

  // Each relay gets, over one connection, the claimed events meant for it that it has not taken yet.
  const relaysOf = new Map(mine.map((r) => [r.id, JSON.parse(r.relays) as Record<string, string>]));
  const targets = new Map(mine.map((r) => [r.id, targetsOf(r)]));
  const answers = await Promise.all(
    [...new Set(mine.flatMap((r) => targets.get(r.id) ?? []))].map(async (relay) => {
      const events = mine.filter((r) => targets.get(r.id)?.includes(relay) && relaysOf.get(r.id)?.[relay] !== "ok").map(parseEvent);
      if (events.length === 0) return [relay, new Map<string, string | null>()] as const;
      try {
        return [relay, await transport.publish(relay, events, timeoutMs)] as const;
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        return [relay, new Map<string, string | null>(events.map((e) => [e.id, reason]))] as const;
      }
    }),
  );

  const updates = mine.map((row) => {
    const relays = relaysOf.get(row.id) ?? {};
    const errors: string[] = [];
    for (const [relay, outcomes] of answers) {
      if (!outcomes.has(row.id)) continue;
      const outcome = outcomes.get(row.id);
      relays[relay] = outcome === null ? "ok" : (outcome ?? "no answer").slice(0, 300);
      if (outcome !== null) errors.push(`${relay}: ${relays[relay]}`);
    }
    const meantFor = targets.get(row.id) ?? [];
    const tookIt = meantFor.filter((r) => relays[r] === "ok");
    const publishedAt = row.publishedAt ?? (tookIt.length > 0 ? nowIso : null);
    const attempts = row.attempts + 1;
    const done = tookIt.length === meantFor.length || (publishedAt !== null && attempts >= ATTEMPTS_AFTER_PUBLISHED);
    run.sent++;
    if (!row.publishedAt && publishedAt) run.published++;
    if (tookIt.length === 0) run.failed++;
    return deps.db
      .update(nostrOutbox)
      .set({
        relays: JSON.stringify(relays),
        publishedAt,
        doneAt: done ? nowIso : null,
        lastError: errors.length > 0 ? errors.join("; ").slice(0, 1000) : null,
        updatedAt: nowIso,
      })
      .where(eq(nostrOutbox.id, row.id));
  });
  await deps.db.batch(updates as [(typeof updates)[number], ...(typeof updates)[number][]]);
  return run;
}

/** What the admin's dashboard shows of the outbox: rows no relay took yet, those stuck, the newest error. */
export async function nostrOutboxHealth(deps: OutboxDeps, now = new Date()): Promise<NostrOutboxHealth> {
  const nostr = nostrSettings(deps.env);
  const stuckBefore = new Date(now.getTime() - STUCK_AFTER_MS).toISOString();
  const waiting = and(isNull(nostrOutbox.doneAt), isNull(nostrOutbox.publishedAt));
  const [counts, newestError] = await Promise.all([
    deps.db
      .select({
        pending: sql<number>`COUNT(*)`,
        stuck: sql<number>`COALESCE(SUM(${nostrOutbox.attempts} >= ${STUCK_AFTER_ATTEMPTS} OR ${nostrOutbox.createdAt} <= ${stuckBefore}), 0)`,
      })
      .from(nostrOutbox)
      .where(waiting)
      .get(),
    deps.db
      .select({ lastError: nostrOutbox.lastError })
      .from(nostrOutbox)
      .where(and(isNull(nostrOutbox.doneAt), isNotNull(nostrOutbox.lastError)))
      .orderBy(desc(nostrOutbox.updatedAt))
      .limit(1)
      .get(),
  ]);
  return {
    pending: counts?.pending ?? 0,
    stuck: counts?.stuck ?? 0,
    lastError: newestError?.lastError ?? null,
    off: nostr.off,
  };
}
