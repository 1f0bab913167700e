// What the use cases need from the outside world, handed to them by the route or the cron.
import type { CommitListener } from "../db/atomic";
import type { Db } from "../db/client";
import type { Env } from "../env";
import type { LightningBackend } from "../lightning/backend";
import type { DevWallet } from "../lightning/dev-backend";
import type { LnurlClientOptions } from "../lightning/lnurl";

export interface Deps {
  /** The one database handle: drizzle over D1 (worker/db/client.ts). */
  db: Db;
  env: Env;
  lightning: LightningBackend;
  /** The dev wallet, when LIGHTNING_BACKEND is dev (its pay endpoint and the wallet.test addresses). */
  devWallet: DevWallet | null;
  /** How payouts reach Lightning-address providers (LNURL-pay). */
  lnurl: LnurlClientOptions;
  /** Starts work that may finish after the answer is sent (ctx.waitUntil); a test may drop it to drive it itself. */
  defer: (work: () => Promise<unknown>) => void;
  /** Told of every committed AtomicChange: its notifications go to the members' open tabs (and as Nostr DMs), its gigs' listings to the outbox. */
  committed: CommitListener;
}

export function settingNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export const invoiceExpirySeconds = (env: Env) => settingNumber(env.INVOICE_EXPIRY_SECONDS, 3600);
export const autoReleaseDays = (env: Env) => settingNumber(env.AUTO_RELEASE_DAYS, 14);
export const archiveAfterDays = (env: Env) => settingNumber(env.ARCHIVE_AFTER_DAYS, 365);
