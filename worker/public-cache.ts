// Visitors' public reads answered from the edge cache (worker/services/public-cache.ts says which, and keys
// them). A stored answer is fresh for PUBLIC_CACHE_SECONDS (`X-Cache: hit`, `X-Rows-Read: 0`: no query runs);
// after that, for up to STALE_SECONDS more, it is still served (`X-Cache: stale`) while one fresh answer is made
// after the response (stale-while-revalidate, which the Cache API does not do by itself). A member's or the
// admin's request is never looked up nor stored: only a visitor's is (`isVisitor`: no credential, no cookie,
// nothing of a WebSocket upgrade), and what they get is what any visitor gets. A refresh that finds the page
// gone (404, 410) deletes the stored answer. Before all that, a session offered as a WebSocket sub-protocol
// anywhere but the inbox socket is refused (routes/socket-upgrade.ts), so only that route ever reads one.
import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv } from "./context";
import type { Env } from "./env";
import { isVisitor, publicCacheKey } from "./services/public-cache";
import { misplacedSocketSession } from "./routes/socket-upgrade";
import { settingNumber } from "./services/deps";

export const STALE_SECONDS = 60;
const STORED_AT = "x-public-cache-stored-at";

/** Seconds a stored answer is fresh; 0 switches the cache off. */
export function publicCacheSeconds(env: Pick<Env, "PUBLIC_CACHE_SECONDS">): number {
  return env.PUBLIC_CACHE_SECONDS === "0" ? 0 : settingNumber(env.PUBLIC_CACHE_SECONDS, 10);
}

/** The answer as a visitor gets it, marked with where it came from. */
function served(stored: Response, how: "hit" | "stale"): Response {
  const res = new Response(stored.body, stored);
  res.headers.delete(STORED_AT);
  res.headers.set("X-Cache", how);
  res.headers.set("X-Rows-Read", "0");
  return res;
}

/** Keys being refreshed in this isolate: one refresh at a time per key. */
const refreshing = new Set<string>();
/** Requests this middleware made itself to refresh a key: they skip the look-up and are stored. */
const refreshes = new WeakSet<Request>();

/**
 * `refresh` runs the app for a request (the app's own fetch), to make a fresh answer after a stale one was served.
 * `isCurrent`, when given, may turn a stored answer down (a rendered page of an earlier build: worker/pages/).
 */
export function publicCache(
  refresh: (request: Request, env: Env, ctx: AppContext["executionCtx"]) => Response | Promise<Response>,
  { isCurrent }: { isCurrent?: (stored: Response, c: AppContext) => Promise<boolean> } = {},
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const misplaced = misplacedSocketSession(c);
    if (misplaced) return misplaced;
    const fresh = publicCacheSeconds(c.env);
    const key = fresh > 0 && c.req.method === "GET" && isVisitor(c.req.raw.headers) ? publicCacheKey(new URL(c.req.url)) : null;
    if (!key) return next();
    const cache = caches.default;
    const isRefresh = refreshes.has(c.req.raw);
    if (!isRefresh) {
      const stored = await cache.match(key);
      if (stored && (!isCurrent || (await isCurrent(stored, c)))) {
        const age = (Date.now() - Number(stored.headers.get(STORED_AT) ?? 0)) / 1000;
        if (age <= fresh) return served(stored, "hit");
        if (!refreshing.has(key)) {
          refreshing.add(key);
          const again = new Request(c.req.url);
          refreshes.add(again);
          c.executionCtx.waitUntil(Promise.resolve(refresh(again, c.env, c.executionCtx)).finally(() => refreshing.delete(key)));
        }
        return served(stored, "stale");
      }
    }
    await next();
    if (isRefresh && (c.res.status === 404 || c.res.status === 410)) {
      // The page is gone (removed, unpublished): no visitor is answered the stored one again.
      await cache.delete(key).catch((err) => console.error("could not delete a gone public page", err));
      return;
    }
    // Only a plain success, and nothing its maker says must not be kept (a page that fell back to the plain shell).
    if (c.res.status !== 200 || /\bno-store\b/.test(c.res.headers.get("Cache-Control") ?? "")) return;
    const copy = new Response(c.res.clone().body, c.res);
    copy.headers.set(STORED_AT, String(Date.now()));
    copy.headers.set("Cache-Control", `public, s-maxage=${fresh + STALE_SECONDS}`);
    copy.headers.delete("x-d1-bookmark");
    c.executionCtx.waitUntil(cache.put(key, copy).catch((err) => console.error("could not store a public page", err)));
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("X-Cache", "miss");
  };
}
