// Visitors' reads of public pages from the edge's cache (the Workers Cache API, `caches.default`). Which
// pages, under which key, and how a change makes a gig's own page fresh at once. The middleware that serves
// and stores them is worker/public-cache.ts.

/**
 * Headers that make a request someone's rather than a visitor's: any credential (a session, the admin's token,
 * a cookie, HTTP or proxy auth) and anything of a WebSocket upgrade (whose sub-protocols can carry a session).
 */
const NOT_A_VISITOR = ["authorization", "proxy-authorization", "cookie", "x-admin-token", "upgrade", "sec-websocket-protocol", "sec-websocket-key"];

/**
 * The one rule for who is a visitor: a request carrying none of NOT_A_VISITOR. Only a visitor's request is
 * looked up in or stored to the edge cache; anyone else is answered by the app, and their answer is never kept.
 */
export function isVisitor(headers: Headers): boolean {
  return NOT_A_VISITOR.every((name) => !headers.has(name));
}

/** The pages a visitor reads that anyone may see: browse lists, a gig, a profile, its portfolio and reviews (and NIP-05 names). */
const LISTS = /^\/api\/gigs$/;
const PAGES = [/^\/api\/gigs\/[^/]+$/, /^\/api\/users\/by-npub\/[^/]+$/, /^\/api\/users\/[^/]+$/, /^\/api\/portfolio\/user\/[^/]+$/, /^\/api\/reviews\/user\/[^/]+$/];

/** The pages the Worker renders for visitors (worker/pages/, decision 030): the browse list's first page, a gig's, a member's. */
const RENDERED_PAGES = [/^\/$/, /^\/gigs?\/[^/]+$/, /^\/user\/[^/]+$/];

/** NIP-05 names (routes/nostr.ts): one answer per name, whoever asks. */
const NIP05 = "/.well-known/nostr.json";

/** Keys live under an origin of their own, so a purge needs no request's host. */
const KEY_ORIGIN = "https://public-cache.gigstr.invalid";

/**
 * The cache key of a visitor's read, or null when it is not a public page: a list by its whole query (its
 * parameters sorted), a page (an API read or a rendered page) only without one and only at its plain path, so
 * that a purge of its one key reaches every visitor. A page asked for with a percent-escape in its path (a gig's
 * id, a member's key or npub never needs one) is answered but never stored: the router decodes `/api/gigs/%61bc`
 * to the same gig as `/api/gigs/abc`, and a copy under that other key would outlive the gig's purge.
 */
export function publicCacheKey(url: URL): string | null {
  if (url.pathname === NIP05) return `${KEY_ORIGIN}${NIP05}?name=${encodeURIComponent((url.searchParams.get("name") ?? "").trim().toLowerCase())}`;
  if (LISTS.test(url.pathname)) {
    const query = new URLSearchParams([...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (query.has("participant")) return null;
    return `${KEY_ORIGIN}${url.pathname}?${query.toString()}`;
  }
  if (url.search === "" && !url.pathname.includes("%") && (PAGES.some((p) => p.test(url.pathname)) || RENDERED_PAGES.some((p) => p.test(url.pathname)))) {
    return `${KEY_ORIGIN}${url.pathname}`;
  }
  return null;
}

/**
 * Forgets a gig's cached pages: its API read, its rendered pages (`/gig/:id`, `/gigs/:id`) and the rendered
 * browse list's first page (`/`), which it may enter, leave or show differently. Called when the gig changes,
 * so visitors see the change at once.
 */
export async function forgetCachedGig(gigId: string): Promise<void> {
  const id = encodeURIComponent(gigId);
  const keys = [`/api/gigs/${id}`, `/gig/${id}`, `/gigs/${id}`, "/"].map((path) => `${KEY_ORIGIN}${path}`);
  try {
    await Promise.all(keys.map((key) => caches.default.delete(key)));
  } catch (err) {
    console.error("could not purge a gig's cached pages", gigId, err);
  }
}
