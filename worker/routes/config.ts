import { Hono } from "hono";
import type { AppContext, AppEnv } from "../context";

/** The domain of alias Lightning addresses: the ALIAS_DOMAIN setting, else the host the request came to. */
export function aliasDomainOf(c: AppContext): string {
  return c.env.ALIAS_DOMAIN || new URL(c.req.url).hostname;
}

/** GET /api/config: what the web app needs to know about this deployment. */
export const configRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.json({
    aliasDomain: aliasDomainOf(c),
    lightningBackend: c.env.LIGHTNING_BACKEND || "dev",
    platformFeePercent: 2.5,
  }),
);
