// The minute's jobs (wrangler.toml crons). Each is safe to run twice or concurrently.
import { lt } from "drizzle-orm";
import { authChallenges, sessions } from "../db/schema";
import { checkLatePayments, expireDueInvoices } from "./escrow";
import { retryPayouts } from "./payouts";
import { autoReleaseDue } from "./auto-release";
import { sweepAbandonedUploads } from "./files";
import { sweepNotificationDms } from "./nostr-dms";
import { publishNostrOutbox, sweepGigListings, sweepsAt } from "./nostr-outbox";
import { archiveOldGigs } from "./archive";
import { moveChatToRooms } from "./chat-move";
import type { Deps } from "./deps";

/**
 * Runs every job, each on its own: one that fails (the wallet or D1 down for a moment) is logged and
 * tried again next minute, and never keeps the others (payout retries, auto-release) from running.
 */
export async function runMinuteJobs(deps: Deps, tick = new Date()) {
  return {
    expiredInvoices: await job("invoice expiry", () => expireDueInvoices(deps)),
    latePayments: await job("late payments", () => checkLatePayments(deps)),
    payouts: await job("payout retries", () => retryPayouts(deps)),
    autoRelease: await job("auto-release", () => autoReleaseDue(deps)),
    cleanedUp: await job("expired logins", () => forgetExpiredLogins(deps)),
    abandonedUploads: await job("abandoned uploads", () => sweepAbandonedUploads(deps)),
    archivedGigs: await job("old gigs to R2", () => archiveOldGigs(deps)),
    chatMove: await job("chat move", () => moveChatToRooms(deps)),
    ...(await runNostrJobs(deps, tick)),
  };
}

/**
 * The Nostr jobs move no money: they run even when payments are off (worker/index.ts). On every tenth minute's
 * tick the sweeps first write the listings and DMs that changes' deferred work missed, so they go out in the same run.
 */
export async function runNostrJobs(deps: Pick<Deps, "db" | "env">, tick = new Date()) {
  return {
    ...(sweepsAt(tick)
      ? {
          listingSweep: await job("nostr listing sweep", () => sweepGigListings(deps)),
          dmSweep: await job("nostr dm sweep", () => sweepNotificationDms(deps)),
        }
      : {}),
    nostrOutbox: await job("nostr outbox", () => publishNostrOutbox(deps)),
  };
}

async function job<T>(name: string, run: () => Promise<T>): Promise<T | { failed: string }> {
  try {
    return await run();
  } catch (err) {
    console.error(`minute job failed: ${name}`, err);
    return { failed: err instanceof Error ? err.message : String(err) };
  }
}

/** Expired sessions and login challenges older than a day are of no use to anyone. */
async function forgetExpiredLogins(deps: Deps): Promise<number> {
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  const now = new Date().toISOString();
  const [challenges, ended] = await deps.db.batch([
    deps.db.delete(authChallenges).where(lt(authChallenges.expiresAt, dayAgo)),
    deps.db.delete(sessions).where(lt(sessions.expiresAt, now)),
  ]);
  return (challenges?.meta.changes ?? 0) + (ended?.meta.changes ?? 0);
}
