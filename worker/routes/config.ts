import { Hono } from "hono";
import type { AppContext, AppEnv } from "../context";
import { isLocalRun } from "../deployment";
import { devWalletAllowed } from "../lightning";

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
  }),
);
