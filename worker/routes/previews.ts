// Link previews (`/gig/:id`, `/user/:npub`: the app's HTML shell with the page's own title and Open Graph /
// Twitter tags, rewritten with HTMLRewriter), robots.txt and the sitemap. The web app then draws the page as
// for any other route.
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../context";
import { gigPreview, memberPreview, sitemapPaths, type LinkPreview } from "../services/link-previews";
import { gigIdOfNaddr } from "../services/nostr-settings";
import { depsOf } from "./deps";

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The static shell (dist/web/index.html) with `preview`'s title and tags. */
async function shellWith(c: AppContext, preview: LinkPreview): Promise<Response> {
  const origin = new URL(c.req.url).origin;
  const shell = await c.env.ASSETS.fetch(new Request(`${origin}/`));
  if (!shell.ok) return shell;
  const url = new URL(c.req.path, origin).toString();
  const tags: [string, string, string][] = [
    ["property", "og:site_name", "Gigstr"],
    ["property", "og:type", "website"],
    ["property", "og:title", preview.title],
    ["property", "og:description", preview.description],
    ["property", "og:url", url],
    ["name", "twitter:card", "summary"],
    ["name", "twitter:title", preview.title],
    ["name", "twitter:description", preview.description],
  ];
  const rewritten = new HTMLRewriter()
    .on("title", { element: (el) => void el.setInnerContent(preview.title) })
    .on('meta[name="description"]', { element: (el) => void el.setAttribute("content", preview.description) })
    .on("head", {
      element: (el) => {
        for (const [attr, key, value] of tags) el.append(`<meta ${attr}="${key}" content="${escapeXml(value)}" />`, { html: true });
      },
    })
    .transform(shell);
  const res = new Response(rewritten.body, rewritten);
  res.headers.set("Cache-Control", "public, max-age=60");
  return res;
}

export const previewRoutes = new Hono<AppEnv>()
  .get("/gig/:id", async (c) => {
    // A Nostr client opening one of our listings through the NIP-89 handler: its naddr names the gig.
    const listed = gigIdOfNaddr(c.env, c.req.param("id"));
    if (listed) return c.redirect(`/gig/${encodeURIComponent(listed)}`, 302);
    return shellWith(c, await gigPreview(depsOf(c), c.req.param("id")));
  })
  .get("/user/:npub", async (c) => shellWith(c, await memberPreview(depsOf(c), c.req.param("npub"))));

export const robotsRoutes = new Hono<AppEnv>()
  .get("/robots.txt", (c) => {
    const origin = new URL(c.req.url).origin;
    return c.text(`User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`);
  })
  .get("/sitemap.xml", async (c) => {
    const origin = new URL(c.req.url).origin;
    const urls = (await sitemapPaths(depsOf(c)))
      .map((p) => `  <url><loc>${escapeXml(origin + p.path)}</loc>${p.lastModified ? `<lastmod>${p.lastModified}</lastmod>` : ""}</url>`)
      .join("\n");
    return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`, 200, {
      "content-type": "application/xml; charset=utf-8",
    });
  });
