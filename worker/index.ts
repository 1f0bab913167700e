// The Worker's entry: HTTP (API, WebSocket, LNURL, assets fallback), the cron, and the Durable Object classes.
import { app } from "./app";
import { makeDeps } from "./composition";
import type { Env } from "./env";
import { runMinuteJobs } from "./services/cron";

export { GigRoom } from "../durable-objects/gig-room";

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  async scheduled(_controller, env, ctx) {
    const summary = await runMinuteJobs(makeDeps(env, (work) => ctx.waitUntil(work())));
    console.log("minute jobs", JSON.stringify(summary));
  },
} satisfies ExportedHandler<Env>;
