// The minute's jobs (wrangler.toml crons). Each is safe to run twice or concurrently.
import { expireDueInvoices } from "./escrow";
import { retryPayouts } from "./payouts";
import { autoReleaseDue } from "./auto-release";
import type { Deps } from "./deps";

export async function runMinuteJobs(deps: Deps) {
  const expiredInvoices = await expireDueInvoices(deps);
  const payouts = await retryPayouts(deps);
  const autoRelease = await autoReleaseDue(deps);
  return { expiredInvoices, payouts, autoRelease };
}
