import type { AppContext } from "../context";
import { makeDeps } from "../composition";
import type { Deps } from "../services/deps";

/** The services' dependencies for one request; deferred work outlives the answer through waitUntil. */
export function depsOf(c: AppContext): Deps {
  return makeDeps(c.env, (work) => c.executionCtx.waitUntil(work()), { db: c.var.db, origin: new URL(c.req.url).origin });
}
