import type { AppContext } from "../context";
import { makeDeps } from "../composition";
import { dbOf } from "../d1-sessions";
import type { Deps } from "../services/deps";

const perRequest = new WeakMap<AppContext, Deps>();

/**
 * The one way a route gets what its services need: the request's database, the Lightning backend, and
 * deferred work that outlives the answer through waitUntil. Built once per request.
 */
export function depsOf(c: AppContext): Deps {
  let deps = perRequest.get(c);
  if (!deps) {
    deps = makeDeps(c.env, (work) => c.executionCtx.waitUntil(work()), { db: dbOf(c), origin: new URL(c.req.url).origin });
    perRequest.set(c, deps);
  }
  return deps;
}
