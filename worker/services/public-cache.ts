// Visitors' reads of public pages from the edge's cache (the Workers Cache API, `caches.default`). Which
// pages, under which key, and how a change makes a gig's own page fresh at once. The middleware that serves
// and stores them is worker/public-cache.ts.

/** The pages a visitor reads that anyone may see: browse lists, a gig, a profile, its portfolio and reviews. */
const LISTS = /^\/api\/gigs$/;
const PAGES = [/^\/api\/gigs\/[^/]+$/, /^\/api\/users\/by-npub\/[^/]+$/, /^\/api\/users\/[^/]+$/, /^\/api\/portfolio\/user\/[^/]+$/, /^\/api\/reviews\/user\/[^/]+$/];

/** Keys live under an origin of their own, so a purge needs no request's host. */
const KEY_ORIGIN = "https://public-cache.gigstr.invalid";

/**
 * The cache key of a visitor's read, or null when it is not a public page: a list by its whole query (its
 * parameters sorted), a page only without one (so a purge of its one key reaches every visitor).
 */
export function publicCacheKey(url: URL): string | null {
  if (LISTS.test(url.pathname)) {
    const query = new URLSearchParams([...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (query.has("participant")) return null;
    return `${KEY_ORIGIN}${url.pathname}?${query.toString()}`;
  }
  if (url.search === "" && PAGES.some((p) => p.test(url.pathname))) return `${KEY_ORIGIN}${url.pathname}`;
  return null;
}

/** Forgets a gig's own cached page: called when the gig changes, so visitors see the change at once. */
export async function forgetCachedGig(gigId: string): Promise<void> {
  try {
    await caches.default.delete(`${KEY_ORIGIN}/api/gigs/${encodeURIComponent(gigId)}`);
  } catch (err) {
    console.error("could not purge a gig's cached page", gigId, err);
  }
}
