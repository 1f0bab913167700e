// The Worker's entry: HTTP (API, WebSocket, LNURL; the static assets skip it), the cron, and the Durable Object classes.
import { app } from "./app";
import { makeDeps } from "./composition";
import type { Env } from "./env";
import { paymentsOffReason } from "./lightning";
import { runMinuteJobs, runNostrJobs } from "./services/cron";

export { GigRoom } from "../durable-objects/gig-room";
export { MemberInbox } from "../durable-objects/member-inbox";

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  async scheduled(controller, env, ctx) {
    const tick = new Date(controller.scheduledTime);
    const deps = makeDeps(env, (work) => ctx.waitUntil(work()));
    const paymentsOff = paymentsOffReason(env);
    if (paymentsOff) {
      // The jobs expire invoices, release escrow and pay: none of that without a real wallet.
      console.error(`MINUTE JOBS NOT RUN. ${paymentsOff}`);
      // The Nostr outbox moves no money: what is in it still goes out.
      console.log("nostr jobs", JSON.stringify(await runNostrJobs(deps, tick)));
      return;
    }
    const summary = await runMinuteJobs(deps, tick);
    console.log("minute jobs", JSON.stringify(summary));
  },
} satisfies ExportedHandler<Env>;
