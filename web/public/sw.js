// Gigstr's service worker: the app opens without a network. It keeps the app shell (the plain page every route
// the Worker does not render serves) and the static assets; it never keeps an API answer, a socket, a page the
// Worker rendered (its data is a moment's), or anything of another origin.
// Pages: the network first (so a deploy is seen at once), the kept shell when offline. Hashed assets
// (/assets/*): kept once fetched (a new build has new names). Icons and the manifest: kept, refreshed behind.
const SHELL_CACHE = "gigstr-shell-v2";
const ASSET_CACHE = "gigstr-assets-v1";
const KEPT = [SHELL_CACHE, ASSET_CACHE];
/** Most hashed assets kept: a few builds' worth; the oldest go first. */
const MAX_ASSETS = 80;
/** The key the shell is kept under. */
const SHELL = "/";
/**
 * Where the plain shell is fetched: a path no page and no file has, which the static assets answer with the app's
 * index.html (`not_found_handling = "single-page-application"`). `/` is a page the Worker renders (decision 030).
 */
const SHELL_SOURCE = "/app-shell";
/** The header on every page the Worker renders (worker/pages/page.ts): such a page is never kept as the shell. */
const RENDERED = "x-page-build";
const STATIC = ["/manifest.webmanifest", "/favicon.svg", "/icons/icon-192.png", "/icons/icon-512.png"];

/** What the worker never touches: the API, sockets, LNURL, link previews' crawlers get the network as is. */
function passThrough(url) {
  return url.origin !== self.location.origin || url.pathname.startsWith("/api/") || url.pathname === "/ws" || url.pathname.startsWith("/.well-known/");
}

/**
 * Keeps a shell and the assets it loads (its scripts, styles and preloads): the page that opened before this
 * worker controlled it fetched them past it, and the app must open offline from its very first visit.
 */
async function keepShell(response) {
  const html = await response.clone().text();
  await (await caches.open(SHELL_CACHE)).put(SHELL, response);
  const assets = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]))];
  const cache = await caches.open(ASSET_CACHE);
  const missing = [];
  for (const url of assets) if (!(await cache.match(url))) missing.push(url);
  await cache.addAll(missing);
  await trimAssets();
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const shell = await fetch(SHELL_SOURCE, { cache: "no-store" });
      if (!shell.ok) throw new Error(`the app shell answered ${shell.status}`);
      await keepShell(shell);
      await (await caches.open(SHELL_CACHE)).addAll(STATIC);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => !KEPT.includes(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function trimAssets() {
  const cache = await caches.open(ASSET_CACHE);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_ASSETS)).map((k) => cache.delete(k)));
}

async function page(request) {
  try {
    const response = await fetch(request);
    // Every route the Worker does not render answers the plain shell: kept from them. A rendered page (the browse
    // list, a gig's, a member's page, with their data and link preview) is not a shell for other routes.
    const plain = !response.headers.has(RENDERED);
    if (plain && response.ok && (response.headers.get("content-type") ?? "").includes("text/html")) {
      keepShell(response.clone()).catch(() => undefined);
    }
    return response;
  } catch (err) {
    const shell = await caches.match(SHELL, { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw err;
  }
}

async function asset(request) {
  const kept = await caches.match(request, { cacheName: ASSET_CACHE });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches
      .open(ASSET_CACHE)
      .then((cache) => cache.put(request, copy))
      .then(trimAssets);
  }
  return response;
}

async function staticFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  const fresh = fetch(request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    })
    .catch((err) => {
      if (kept) return kept;
      throw err;
    });
  return kept ?? fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (passThrough(url)) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/assets/")) event.respondWith(asset(request));
  else if (STATIC.includes(url.pathname)) event.respondWith(staticFile(request));
});
