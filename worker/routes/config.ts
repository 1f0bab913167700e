import { Hono } from "hono";
import type { AppContext, AppEnv } from "../context";
import { isLocalRun } from "../deployment";
import { devWalletAllowed } from "../lightning";
import { nostrSettings } from "../services/nostr-settings";

/** The domain of alias Lightning addresses: the ALIAS_DOMAIN setting, else the host the request came to. */
export function aliasDomainOf(c: AppContext): string {
  return c.env.ALIAS_DOMAIN || new URL(c.req.url).hostname;
}

/** GET /api/config: what the web app needs to know about this deployment. */
export const configRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.json({
    aliasDomain: aliasDomainOf(c),
    lightningBackend: c.env.LIGHTNING_BACKEND || "dev",
    // Whether POST /api/dev/invoices/pay works here (the "Pay with dev wallet" button): a local run only.
    devWallet: devWalletAllowed(c.env) || (isLocalRun(c.env) && Boolean(c.env.LOCAL_WALLET_URL)),
    platformFeePercent: 2.5,
    // Where any client finds the gig listings (kind 30402) and checks their author: the platform's key (null
    // while publishing is off) and the relays they go to.
    nostr: { platformPubkey: nostrSettings(c.env).pubkey, relays: nostrSettings(c.env).relays },
  }),
);
