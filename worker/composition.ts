// The composition root: builds the services' dependencies from the Worker's environment.
import { openDb, type Db } from "./db/client";
import type { Env } from "./env";
import { DevWallet, devWalletLnurl, type DevWalletOptions } from "./lightning/dev-backend";
import { D1DevWalletStore } from "./lightning/dev-store";
import { parseLnurlOverrides, type FetchLike } from "./lightning/lnurl";
import { devWalletAllowed, lightningBackendFor } from "./lightning";
import { d1CallRecorder, recordingCalls } from "./lightning/call-record";
import type { Deps } from "./services/deps";
import { gigEvents, notifications } from "./db/schema";
import { notificationsWritten } from "./services/notifications";
import { syncGigListings } from "./services/nostr-outbox";
import { nostrSettings } from "./services/nostr-settings";

const globalFetch: FetchLike = (url, init) => fetch(url, init);

export interface DepsOptions {
  db?: Db;
  /** How LNURL requests reach the outside world (tests play providers here). */
  networkFetch?: FetchLike;
  /** Dev wallet behaviour (tests inject payment faults here). */
  devWallet?: DevWalletOptions;
  /** This deployment's public origin, when known (a request's); lets LNbits call our webhook. */
  origin?: string;
}

export function makeDeps(env: Env, defer: (work: () => Promise<unknown>) => void, opts: DepsOptions = {}): Deps {
  const networkFetch = opts.networkFetch ?? globalFetch;
  // Only on a local run: on a deployed Worker `dev` switches payments off (lightningBackendFor) and /api/dev is gone.
  const db = opts.db ?? openDb(env.DB);
  const devWallet = devWalletAllowed(env) ? new DevWallet(new D1DevWalletStore(db), opts.devWallet) : null;
  let lightning: Deps["lightning"] | undefined = devWallet ?? undefined;
  return {
    db,
    env,
    // Built on first use, so a misconfigured backend, or payments switched off, fails only what needs
    // Lightning (a 503 there), not browsing.
    // A real wallet's calls are recorded for Money Health (its last answer and last error).
    get lightning() {
      lightning ??= recordingCalls(
        lightningBackendFor(env, {
          fetch: networkFetch,
          webhookUrl: env.WEBHOOK_SECRET && opts.origin ? `${opts.origin}/api/webhooks/lightning/${env.WEBHOOK_SECRET}` : undefined,
        }),
        d1CallRecorder(db, defer),
      );
      return lightning;
    },
    devWallet,
    lnurl: {
      // `name@wallet.test` is received by the dev wallet in process; everything else goes out.
      fetch: devWallet ? devWalletLnurl(devWallet, networkFetch) : networkFetch,
      overrides: parseLnurlOverrides(env.LNURL_OVERRIDES),
    },
    defer,
    committed: (change) => {
      // Every notification it wrote: to the member's open tabs, and as a Nostr DM to those who asked for it.
      const written = change.inserted(notifications);
      if (written.length > 0) defer(() => notificationsWritten({ db, env }, written, opts.origin));
      // Every change of a gig writes its event: its Nostr listing follows it into the outbox (the one place for
      // every transition path: posting, funding, claims, cancels, the admin's removal, expiries, the cron's).
      const changed = change.inserted(gigEvents).map((e) => e.gigId);
      if (changed.length > 0 && nostrSettings(env).secretKey) defer(() => syncGigListings({ db, env }, changed, opts.origin));
    },
  };
}
