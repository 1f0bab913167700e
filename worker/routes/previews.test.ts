// Shared links preview as the page they lead to, with nothing a visitor could not see; robots.txt and the sitemap.
import { describe, expect, it } from "vitest";
import type { Env } from "../env";
import { api, claimedJob, postGig, signUp } from "../test/factories";
import { adminSignIn, asAdmin } from "../test/admin";

const SHELL = `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<meta name="description" content="Gigstr: a Bitcoin-only gig marketplace." /><title>Gigstr</title></head><body><div id="root"></div></body></html>`;

/** The built app's shell, as the ASSETS binding serves it (the unit tests do not build the web app). */
const withShell: Partial<Env> = { ASSETS: { fetch: async () => new Response(SHELL, { headers: { "content-type": "text/html" } }) } as unknown as Fetcher };

async function page(path: string) {
  const res = await api(path, { env: withShell });
  const html = await res.text();
  const meta = (key: string) => html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`))?.[1] ?? null;
  return { status: res.status, html, title: html.match(/<title>([^<]*)<\/title>/)?.[1], description: html.match(/<meta name="description" content="([^"]*)"/)?.[1], meta };
}

describe("link previews", () => {
  it("give a gig's page its title, price and description, in Open Graph and Twitter tags", async () => {
    const job = await claimedJob({ payment: 21_000 });
    const p = await page(`/gig/${job.gigId}`);
    expect(p.status).toBe(200);
    expect(p.title).toMatch(/ · 21,000 sats · Gigstr$/);
    expect(p.meta("og:title")).toBe(p.title);
    expect(p.meta("twitter:title")).toBe(p.title);
    expect(p.meta("og:description")).toMatch(/^Job in Design, 21,000 sats\. /);
    expect(p.description).toBe(p.meta("og:description"));
    expect(p.meta("og:url")).toBe(`https://gigstr.test/gig/${job.gigId}`);
    expect(p.meta("twitter:card")).toBe("summary");
    // The page itself is rendered into the shell (worker/pages/pages.test.ts).
    expect(p.html).toMatch(/<div id="root">.+Design a logo.+<\/div>/s);
  });

  it("give a member's page their name and bio", async () => {
    const member = await signUp({ displayName: "Satoshi <Designs> & Co" });
    await api("/api/user/me", { method: "PATCH", token: member.token, json: { bio: 'Logos and "brand" work, paid in sats.' } });
    const p = await page(`/user/${member.npub}`);
    expect(p.meta("og:title")).toBe("Satoshi &#60;Designs&#62; &#38; Co on Gigstr");
    expect(p.meta("og:description")).toBe("Logos and &#34;brand&#34; work, paid in sats.");
  });

  it("leak nothing of an unpaid job request, a removed gig, an unknown gig or member: the generic preview (and 404)", async () => {
    const poster = await signUp({ lightningAddress: `preview${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    const unpaid = await postGig(poster, { title: "Secret unpaid job" });
    const removed = await claimedJob();
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/gigs/${removed.gigId}`, "DELETE")).status).toBe(200);
    for (const path of [`/gig/${unpaid.gig.id}`, `/gig/${removed.gigId}`, `/gig/${crypto.randomUUID()}`, "/user/npub1nobody", `/user/${"x".repeat(300)}`]) {
      const p = await page(path);
      expect(p.status).toBe(404);
      expect(p.title).toBe("Gigstr");
      expect(p.meta("og:title")).toBe("Gigstr");
      expect(p.html).not.toContain("Secret unpaid job");
    }
  });
});

describe("robots.txt and the sitemap", () => {
  it("robots.txt allows the site, keeps out the admin and the API, and names the sitemap", async () => {
    const res = await api("/robots.txt");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/admin$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toMatch(/^Sitemap: https:\/\/gigstr\.test\/sitemap\.xml$/m);
  });

  it("the sitemap lists the public screens and open gigs, not an unpaid job request", async () => {
    const poster = await signUp({ lightningAddress: `sitemap${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    const offer = await postGig(poster, { gigType: "service_offering", title: "An open offer for the sitemap" });
    const unpaid = await postGig(poster, { title: "An unpaid job for the sitemap" });
    const res = await api("/sitemap.xml");
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    for (const path of ["/", "/faq", "/terms", "/privacy"]) expect(xml).toContain(`<loc>https://gigstr.test${path}</loc>`);
    expect(xml).toContain(`<loc>https://gigstr.test/gig/${offer.gig.id}</loc>`);
    expect(xml).not.toContain(unpaid.gig.id);
  });
});
