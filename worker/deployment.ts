// Local run or deployed Worker (decision 011). One explicit signal: LOCAL_DEV=1, set only by
// `npm start` (scripts/start.mjs) and the unit tests (vitest.config.ts). It is never in
// wrangler.toml: a `wrangler deploy` without `--env` carries the top-level [vars] to Cloudflare.
// Everything else counts as deployed, so a forgotten setting makes a Worker stricter (no dev
// wallet, no PIN-only admin, HSTS), never laxer.
import type { Env } from "./env";

export function isLocalRun(env: Pick<Env, "LOCAL_DEV">): boolean {
  return env.LOCAL_DEV === "1";
}
