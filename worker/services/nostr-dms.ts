// Notifications as NIP-17 private messages (docs/decisions/026). A member who turned on "Send my notifications
// as Nostr DMs" gets each notification also as a kind 14 message from the platform's key, sealed (kind 13) and
// gift-wrapped (kind 1059) with NIP-44 by nostr-tools' nip17: one wrap, for the member (the platform keeps no copy
// of its own). The wrap is written to the Nostr outbox, one per notification, and nothing else happens in the
// request; the cron's sender finds the member's DM relays (nostr-dm-relays.ts) and sends it there.
// Called from one place: notificationsWritten (notifications.ts), which every written notification goes through,
// as deferred work; what that missed (the isolate ended first) the cron's sweep writes (sweepNotificationDms).
import { and, eq, gte, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { wrapEvent } from "nostr-tools/nip17";
import { notificationDmContent } from "../../domain/nostr-dm";
import { notifications, nostrOutbox, users } from "../db/schema";
import { lastKnownOrigin, publicOrigin } from "./nostr-outbox";
import { nostrSettings } from "./nostr-settings";
import type { Deps } from "./deps";

/** Notifications read per query (D1 binds at most 100 parameters to a statement). */
const IDS_PER_QUERY = 90;

/**
 * Writes a gift-wrapped private message to the outbox for each of these notifications whose member has the setting
 * on (and still a Nostr key). Idempotent per notification: a second call for the same one writes nothing. Answers
 * how many messages were written. The gig's link uses the public origin as the listings do.
 */
export async function enqueueNotificationDms(
  deps: Pick<Deps, "db" | "env">,
  notificationIds: readonly string[],
  requestOrigin?: string,
  now = new Date(),
): Promise<number> {
  const nostr = nostrSettings(deps.env);
  if (!nostr.secretKey) return 0;
  const ids = [...new Set(notificationIds)];
  const wanted = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    wanted.push(
      ...(await deps.db
        .select({ id: notifications.id, title: notifications.title, message: notifications.message, gigId: notifications.gigId, pubkey: users.nostrPubkey })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(
          and(
            inArray(notifications.id, ids.slice(i, i + IDS_PER_QUERY)),
            eq(users.nostrDmNotifications, true),
            isNotNull(users.nostrPubkey),
            isNull(users.deletedAt),
          ),
        )),
    );
  }
  if (wanted.length === 0) return 0;

  const origin = publicOrigin(deps.env, requestOrigin) ?? (wanted.some((n) => n.gigId) ? await lastKnownOrigin(deps) : null);
  const nowIso = now.toISOString();
  const inserts = wanted.flatMap((n) => {
    try {
      const wrap = wrapEvent(nostr.secretKey!, { publicKey: n.pubkey! }, notificationDmContent(n, origin));
      return [
        deps.db
          .insert(nostrOutbox)
          .values({
            id: wrap.id,
            kind: wrap.kind,
            recipient: n.pubkey,
            notificationId: n.id,
            eventCreatedAt: wrap.created_at,
            event: JSON.stringify(wrap),
            nextAttemptAt: nowIso,
            createdAt: nowIso,
          })
          .onConflictDoNothing(),
      ];
    } catch (err) {
      console.error("could not wrap a notification as a Nostr DM", n.id, err);
      return [];
    }
  });
  if (inserts.length === 0) return 0;
  const results = await deps.db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  return results.reduce((sum, r) => sum + (r.meta.changes ?? 0), 0);
}

/** The sweep looks back this far: a notification older than that is old news, and is not sent a day late. */
export const DM_SWEEP_WINDOW_MS = 24 * 3_600_000;
/** ...and leaves the last minute's to the deferred write, which is on its way. */
export const DM_SWEEP_SETTLE_MS = 60_000;

/**
 * The cron's catch-up for the DMs (docs/decisions/045): each notification of the last day, written since its member
 * turned the setting on, that has no gift wrap in the outbox gets one now. At most IDS_PER_QUERY a sweep (the
 * oldest first); the rest wait for the next. Answers how many it wrote.
 */
export async function sweepNotificationDms(deps: Pick<Deps, "db" | "env">, now = new Date()): Promise<{ written: number } | { off: string }> {
  const nostr = nostrSettings(deps.env);
  if (nostr.off) return { off: nostr.off };
  const missed = await deps.db
    .select({ id: notifications.id })
    .from(users)
    .innerJoin(notifications, eq(notifications.userId, users.id))
    .where(
      and(
        eq(users.nostrDmNotifications, true),
        isNotNull(users.nostrPubkey),
        isNull(users.deletedAt),
        // max() of SQL is null when the member has no "since": then nothing is swept for them.
        gte(notifications.createdAt, sql`max(${users.nostrDmSince}, ${new Date(now.getTime() - DM_SWEEP_WINDOW_MS).toISOString()})`),
        lte(notifications.createdAt, new Date(now.getTime() - DM_SWEEP_SETTLE_MS).toISOString()),
        sql`NOT EXISTS (SELECT 1 FROM nostr_outbox o WHERE o.notification_id = ${notifications.id})`,
      ),
    )
    .orderBy(notifications.createdAt)
    .limit(IDS_PER_QUERY);
  return { written: missed.length === 0 ? 0 : await enqueueNotificationDms(deps, missed.map((n) => n.id), undefined, now) };
}
