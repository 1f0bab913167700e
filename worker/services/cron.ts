// The minute's jobs (wrangler.toml crons). Each is safe to run twice or concurrently.
import { expireDueInvoices } from "./escrow";
import { retryPayouts } from "./payouts";
import { autoReleaseDue } from "./auto-release";
import { sweepAbandonedUploads } from "./files";
import type { Deps } from "./deps";

export async function runMinuteJobs(deps: Deps) {
  const expiredInvoices = await expireDueInvoices(deps);
  const payouts = await retryPayouts(deps);
  const autoRelease = await autoReleaseDue(deps);
  const cleanedUp = await forgetExpiredLogins(deps);
  const abandonedUploads = await sweepAbandonedUploads(deps);
  return { expiredInvoices, payouts, autoRelease, cleanedUp, abandonedUploads };
}

/** Expired sessions and login challenges older than a day are of no use to anyone. */
async function forgetExpiredLogins(deps: Deps): Promise<number> {
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  const now = new Date().toISOString();
  const [challenges, sessions] = await deps.d1.batch([
    deps.d1.prepare("DELETE FROM auth_challenges WHERE expires_at < ?").bind(dayAgo),
    deps.d1.prepare("DELETE FROM sessions WHERE expires_at < ?").bind(now),
  ]);
  return (challenges?.meta.changes ?? 0) + (sessions?.meta.changes ?? 0);
}
