// The Worker's entry: HTTP (API, WebSocket, LNURL, assets fallback), the cron, and the Durable Object classes.
import { app } from "./app";
import type { Env } from "./env";

export { GigRoom } from "../durable-objects/gig-room";

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  async scheduled(_controller, _env, _ctx) {
    // The minute's jobs are added with the escrow work (expiry, payout retries, auto-release).
  },
} satisfies ExportedHandler<Env>;
