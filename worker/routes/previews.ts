// The pages the Worker renders (decision 030): `/` (the browse list's first page), a gig's (`/gig/:id`, and
// `/gigs/:id` from profile cards) and a member's (`/user/:npub`), each with its link preview (title, Open Graph
// and Twitter tags); robots.txt and the sitemap. worker/pages/ renders them; the edge cache keeps a visitor's.
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../context";
import { renderedPage, type PreviewOf } from "../pages/page";
import { gigPreview, memberPreview, sitemapPaths } from "../services/link-previews";
import { gigIdOfNaddr } from "../services/nostr-settings";
import { isVisitor } from "../services/public-cache";
import { depsOf } from "./deps";

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(c: AppContext, previewOf?: PreviewOf): Promise<Response> {
  return renderedPage({ url: new URL(c.req.url), visitor: isVisitor(c.req.raw.headers), assets: c.env.ASSETS, deps: depsOf(c) }, previewOf);
}

function gigPage(c: AppContext): Promise<Response> {
  const id = c.req.param("id") ?? "";
  return page(c, async (sources) => gigPreview(await sources.gig(id)));
}

export const previewRoutes = new Hono<AppEnv>()
  .get("/", (c) => page(c))
  .get("/gig/:id", async (c) => {
    // A Nostr client opening one of our listings through the NIP-89 handler: its naddr names the gig.
    const listed = gigIdOfNaddr(c.env, c.req.param("id"));
    if (listed) return c.redirect(`/gig/${encodeURIComponent(listed)}`, 302);
    return gigPage(c);
  })
  .get("/gigs/:id", (c) => gigPage(c))
  .get("/user/:npub", (c) => {
    const npub = c.req.param("npub");
    return page(c, async (sources) => memberPreview(await sources.member(npub)));
  });

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
