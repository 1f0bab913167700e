// The public pages the Worker renders (decision 030): `/`, a gig's and a member's page arrive as HTML that
// already shows what the page shows, with the data it read for the browser to hydrate; what a visitor cannot
// see is the page's "not found" with 404; a request with a credential gets no one's data and is never stored.
import { describe, expect, it } from "vitest";
import type { Env } from "../env";
import { adminSignIn, asAdmin } from "../test/admin";
import { api, claimedJob, postGig, signUp, type Json, type Member } from "../test/factories";

const BUILD = "/assets/index-test.js";
const CSS = "body{color:#1c1917}.test-rule{margin:0}";
const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Gigstr: a Bitcoin-only gig marketplace." />
    <title>Gigstr</title>
    <script type="module" crossorigin src="${BUILD}"></script>
    <link rel="modulepreload" crossorigin href="/assets/framework-test.js">
    <link rel="modulepreload" crossorigin href="/assets/format-test.js">
    <link rel="stylesheet" crossorigin href="/assets/index-test.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/** The built app as the ASSETS binding serves it (the unit tests do not build the web app). */
function assets(build = BUILD): Fetcher {
  return {
    fetch: async (input: RequestInfo) => {
      const path = new URL(typeof input === "string" ? input : input.url).pathname;
      if (path === "/") return new Response(SHELL.replace(BUILD, build), { headers: { "content-type": "text/html" } });
      if (path === "/assets/index-test.css") return new Response(CSS, { headers: { "content-type": "text/css" } });
      return new Response("not found", { status: 404 });
    },
  } as unknown as Fetcher;
}

const withShell: Partial<Env> = { ASSETS: assets() };
const CACHED: Partial<Env> = { ...withShell, PUBLIC_CACHE_SECONDS: "30" };

interface RenderedPage {
  status: number;
  html: string;
  /** What the root element holds. */
  root: string;
  /** The page's data as the browser gets it (web/src/app.tsx ServerPage). */
  page: { url: string; renderedAt: number; state: { queries: { queryKey: unknown[]; state: { status: string; data?: unknown; error?: Json } }[] } };
  cache: string | null;
  headers: Headers;
}

async function getPage(path: string, init: { env?: Partial<Env>; token?: string; headers?: Record<string, string> } = {}): Promise<RenderedPage> {
  const res = await api(path, { env: init.env ?? withShell, token: init.token, headers: init.headers });
  const html = await res.text();
  const state = html.match(/<script type="application\/json" id="gigstr-page">([^<]*)<\/script>/)?.[1];
  // No script runs but the app's own file (CSP script-src 'self'): none inline, e.g. React revealing a late boundary.
  expect(html.match(/<script(?![^>]*(?:\ssrc="\/|\stype="application\/json"))[^>]*>/g)).toBeNull();
  return {
    status: res.status,
    html,
    root: html.match(/<div id="root">([\s\S]*)<\/div><script type="application\/json"/)?.[1] ?? "",
    page: state ? JSON.parse(state) : null,
    cache: res.headers.get("X-Cache"),
    headers: res.headers,
  };
}

/** An open service offering, posted by a member with a name (open at once: no escrow to fund first). */
async function openOffer(title: string, payment = 21_000, poster?: Member) {
  const by = poster ?? (await signUp({ lightningAddress: `page${crypto.randomUUID().slice(0, 8)}@wallet.test`, displayName: "Satoshi Designs" }));
  const posted = await postGig(by, { gigType: "service_offering", title, payment, description: `The offer "${title}", in full.` });
  return { poster: by, gigId: posted.gig.id as string };
}

const queryOf = (page: RenderedPage, key: unknown[]) => page.page.state.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(key));

describe("the browse page, /", () => {
  it("holds the first open gigs with their prices and posters, and the page's data under the browse list's key", async () => {
    const { gigId } = await openOffer("Logo for a Lightning meetup", 21_000);
    const p = await getPage("/");
    expect(p.status).toBe(200);
    expect(p.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(p.root).toContain("Browse Gigs");
    expect(p.root).toContain("Logo for a Lightning meetup");
    expect(p.root).toContain("21,000 sats");
    expect(p.root).toContain("Satoshi Designs");
    // The top bar, as a visitor sees it.
    expect(p.root).toContain("Login with Nostr");
    expect(p.page.url).toBe("/");
    const list = queryOf(p, ["/api/gigs", { status: "open", limit: "24" }]);
    expect(list?.state.status).toBe("success");
    const firstPage = (list!.state.data as { pages: { gigs: Json[]; nextCursor: string | null }[]; pageParams: unknown[] }).pages[0]!;
    expect(firstPage.gigs[0]).toMatchObject({ id: gigId, title: "Logo for a Lightning meetup", payment: 21_000 });
    expect((list!.state.data as { pageParams: unknown[] }).pageParams).toEqual([null]);
    // The same answer GET /api/gigs gives a visitor.
    const api24 = (await (await api("/api/gigs?status=open&limit=24")).json()) as Json[];
    expect(firstPage.gigs).toEqual(api24);
  });

  it("inlines the stylesheet instead of linking it, and names its build", async () => {
    const p = await getPage("/");
    expect(p.html).toContain(`<style>${CSS}</style>`);
    expect(p.html).not.toContain('rel="stylesheet"');
    expect(p.html).toContain(`data-app="${BUILD} `);
    expect(p.headers.get("X-Page-Build")).toBe(BUILD);
  });

  it("names only the loader that asks for the app's script after the first paint where the page paints from its HTML, and the script itself where a member's tab waits for it", async () => {
    const loader = `<script defer src="/after-paint.js" data-app="${BUILD} /assets/framework-test.js /assets/format-test.js"></script>`;
    for (const path of ["/", "/?tab=browse"]) {
      const p = await getPage(path);
      expect(p.html).toContain(loader);
      // Nothing of the app is fetched before that paint: no module script, no preload.
      expect(p.html).not.toContain('type="module"');
      expect(p.html).not.toContain("modulepreload");
    }
    for (const tab of ["active", "post"]) {
      const p = await getPage(`/?tab=${tab}`);
      expect(p.html).not.toContain("after-paint");
      expect(p.html).toContain(`<script type="module" crossorigin src="${BUILD}">`);
      expect(p.html).toContain('<link rel="modulepreload" crossorigin href="/assets/framework-test.js">');
    }
  });

  it("inlines the same stylesheet in every page an isolate renders (its bytes are made once and sent with each)", async () => {
    const pages = [await getPage("/"), await getPage("/?tab=post"), await getPage("/")];
    for (const p of pages) expect(p.html).toContain(`<style>${CSS}</style>`);
  });

  it("draws the Active tab's placeholder (whether this is a member is the browser's to know), and reads no gigs for it", async () => {
    const p = await getPage("/?tab=active");
    expect(p.status).toBe(200);
    expect(p.root).toContain('<div aria-hidden="true" class="animate-pulse rounded-md bg-stone-200 mx-auto h-48 max-w-md rounded-xl"></div>');
    expect(p.root).not.toContain("Login Required");
    expect(p.page.url).toBe("/?tab=active");
    expect(p.page.state.queries).toEqual([]);
  });
});

describe("a gig's page", () => {
  it("/gig/:id and /gigs/:id hold its title, price and poster, its data, and its link preview", async () => {
    const job = await claimedJob({ payment: 34_000 });
    for (const path of [`/gig/${job.gigId}`, `/gigs/${job.gigId}`]) {
      const p = await getPage(path);
      expect(p.status).toBe(200);
      expect(p.root).toContain("Design a logo");
      expect(p.root).toContain("34,000 sats");
      expect(p.root).toContain("Hirer");
      expect(p.root).toContain("Worker Claimed");
      const gig = queryOf(p, ["/api/gigs", job.gigId]);
      expect(gig?.state).toMatchObject({ status: "success", data: { id: job.gigId, title: "Design a logo", payment: 34_000, poster: { displayName: "Hirer" } } });
      // The same answer GET /api/gigs/{id} gives a visitor.
      expect(gig!.state.data).toEqual(await (await api(`/api/gigs/${job.gigId}`)).json());
      expect(p.html).toMatch(/<title>Design a logo · 34,000 sats · Gigstr<\/title>/);
      expect(p.html).toContain(`<meta property="og:url" content="https://gigstr.test${path}" />`);
    }
  });

  it("is 404 with the page's not found for an unpaid job request, a removed gig and an unknown id, leaking none of them", async () => {
    const poster = await signUp({ lightningAddress: `unpaid${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    const unpaid = await postGig(poster, { title: "Secret unpaid job" });
    const removed = await openOffer("Removed offer title");
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/gigs/${removed.gigId}`, "DELETE")).status).toBe(200);
    for (const id of [unpaid.gig.id as string, removed.gigId, crypto.randomUUID()]) {
      const p = await getPage(`/gig/${id}`);
      expect(p.status).toBe(404);
      expect(p.root).toContain("Gig not found");
      expect(p.html).not.toContain("Secret unpaid job");
      expect(p.html).not.toContain("Removed offer title");
      expect(p.html).toContain("<title>Gigstr</title>");
      // The not-found travels too, so the browser hydrates the same page without asking again.
      expect(queryOf(p, ["/api/gigs", id])?.state).toMatchObject({ status: "error", error: { status: 404 } });
    }
  });
});

describe("a member's page, /user/:npub", () => {
  it("holds their name, reputation and posted gigs, and the four reads of the profile", async () => {
    const { poster, gigId } = await openOffer("Illustrations in sats", 5_000);
    const p = await getPage(`/user/${poster.npub}`);
    expect(p.status).toBe(200);
    expect(p.root).toContain("Satoshi Designs");
    expect(p.root).toContain("Illustrations in sats");
    expect(p.root).toContain("Posted Gigs");
    expect(queryOf(p, ["/api/users/by-npub", poster.npub])?.state).toMatchObject({ status: "success", data: { id: poster.id, displayName: "Satoshi Designs" } });
    expect(queryOf(p, ["/api/gigs", { posterId: poster.id }])?.state.data).toMatchObject([{ id: gigId }]);
    expect(queryOf(p, ["/api/portfolio/user", poster.id])?.state.data).toEqual([]);
    expect(queryOf(p, ["/api/reviews/user", poster.id])?.state.data).toEqual([]);
    expect(p.html).toContain("<title>Satoshi Designs on Gigstr</title>");
  });

  it("is 404 with \"User not found\" for an unknown npub", async () => {
    for (const npub of ["npub1nobody", "x".repeat(300)]) {
      const p = await getPage(`/user/${npub}`);
      expect(p.status).toBe(404);
      expect(p.root).toContain("User not found");
    }
  });
});

describe("what the data can hold", () => {
  it("cannot close the script that carries it: a title with </script> stays text", async () => {
    const title = `</script><script>alert("owned")</script><!--`;
    const { gigId } = await openOffer(title);
    const p = await getPage(`/gig/${gigId}`);
    expect(p.status).toBe(200);
    expect(p.html).not.toContain('<script>alert("owned")');
    expect(p.html.match(/<\/script>/g)).toHaveLength(2); // the app's module script and the data's own end
    expect((queryOf(p, ["/api/gigs", gigId])?.state.data as Json).title).toBe(title);
    expect(p.root).toContain("&lt;/script&gt;&lt;script&gt;");
  });
});

describe("a request with a credential", () => {
  it("gets the page with no one's data, never from the cache nor into it", async () => {
    const poster = await signUp({ lightningAddress: `cred${crypto.randomUUID().slice(0, 8)}@wallet.test`, displayName: "Member With Token" });
    const unpaid = await postGig(poster, { title: "Only the poster sees this" });
    const path = `/gig/${unpaid.gig.id}`;
    for (const init of [{ token: poster.token }, { headers: { Cookie: "session=whatever" } }]) {
      const p = await getPage(path, { ...init, env: CACHED });
      expect(p.status).toBe(200);
      expect(p.cache).toBeNull();
      expect(p.headers.get("Cache-Control")).toBe("private, no-store");
      expect(p.page.state.queries).toEqual([]);
      expect(p.html).not.toContain("Only the poster sees this");
      expect(p.html).not.toContain("Member With Token");
      // The top bar and the page's loading state paint from the HTML all the same.
      expect(p.root).toContain("Gigstr");
      expect(p.root).toContain("Loading");
    }
    // Nothing was stored for visitors: a visitor still gets the app's 404.
    const visitor = await getPage(path, { env: CACHED });
    expect(visitor).toMatchObject({ status: 404, cache: null });

    const home = await getPage("/", { token: poster.token, env: CACHED });
    expect(home.cache).toBeNull();
    expect(home.page.state.queries).toEqual([]);
    expect(home.root).toContain("Loading gigs");
  });
});

describe("visitors' pages in the edge cache", () => {
  it("are stored on the first read and answered from the cache after", async () => {
    const { gigId } = await openOffer("A cached offer");
    const first = await getPage(`/gig/${gigId}`, { env: CACHED });
    expect(first).toMatchObject({ status: 200, cache: "miss" });
    const second = await getPage(`/gig/${gigId}`, { env: CACHED });
    expect(second).toMatchObject({ status: 200, cache: "hit" });
    expect(second.html).toBe(first.html);
  });

  it("are fresh at once after the gig changes: its pages and / are purged", async () => {
    const job = await claimedJob();
    for (const path of [`/gig/${job.gigId}`, `/gigs/${job.gigId}`, "/"]) {
      await getPage(path, { env: CACHED });
      expect((await getPage(path, { env: CACHED })).cache).toBe("hit");
    }
    expect((await api(`/api/gigs/${job.gigId}/start-work`, { method: "POST", token: job.worker.token, env: CACHED })).status).toBe(200);
    for (const path of [`/gig/${job.gigId}`, `/gigs/${job.gigId}`]) {
      const after = await getPage(path, { env: CACHED });
      expect(after.cache).toBe("miss");
      expect(after.root).toContain("In Progress");
    }
    expect((await getPage("/", { env: CACHED })).cache).toBe("miss");
  });

  it("are not served to another build: a page names assets of the build that rendered it", async () => {
    const { gigId } = await openOffer("An offer across a deploy");
    await getPage(`/gig/${gigId}`, { env: CACHED });
    expect((await getPage(`/gig/${gigId}`, { env: CACHED })).cache).toBe("hit");
    const next = { ...CACHED, ASSETS: assets("/assets/index-next.js") };
    const after = await getPage(`/gig/${gigId}`, { env: next });
    expect(after.cache).toBe("miss");
    expect(after.html).toContain('data-app="/assets/index-next.js ');
  });

  it("keep a page with a query string out of the cache (its one key per page is what a purge reaches)", async () => {
    expect((await getPage("/?tab=post", { env: CACHED })).cache).toBeNull();
  });
});
