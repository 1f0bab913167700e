// A page the Worker renders (decision 030): `/`, a gig's and a member's page, drawn by the web app's own
// components (`#ssr`, web/src/ssr/render.tsx) from what the page reads as a visitor, in the built shell with its
// link preview. A request carrying a credential gets the same page without any data (nothing of a member is
// rendered here; the browser reads it with the member's session). Whether it is stored is the edge cache's
// rule (worker/public-cache.ts): a visitor's page only.
import type { PageSources } from "#ssr";
import type { Deps } from "../services/deps";
import { GENERIC_PREVIEW, type LinkPreview } from "../services/link-previews";
import { appShell, documentBody, headBytes } from "./document";
import { visitorSources } from "./sources";

/**
 * On every page the Worker renders: the build whose shell it is in. The edge cache serves a stored page only
 * to the same build (whose assets it names), and the service worker keeps none of them as its offline shell.
 */
export const PAGE_BUILD_HEADER = "X-Page-Build";

export interface PageAsked {
  url: URL;
  /** A request with no credential (services/public-cache.ts isVisitor): the visitor's page, with its data. */
  visitor: boolean;
  assets: Fetcher;
  deps: Pick<Deps, "db" | "env">;
}

/** The web app's server render (React and all), evaluated when an isolate renders its first page: an API request never needs it. */
let renderer: Promise<typeof import("#ssr")> | null = null;
const serverRender = () => (renderer ??= import("#ssr"));

/** The page's link preview, from the reads the render made (a gig's, a member's), or the generic one. */
export type PreviewOf = (sources: PageSources) => Promise<LinkPreview>;

/** The plain shell, kept from every cache: the browser draws the page itself. */
async function plainShell(assets: Fetcher, origin: string): Promise<Response> {
  const shell = await assets.fetch(new Request(`${origin}/`));
  const res = new Response(shell.body, shell);
  res.headers.set("Cache-Control", "no-store");
  return res;
}

export async function renderedPage({ url, visitor, assets, deps }: PageAsked, previewOf: PreviewOf = async () => GENERIC_PREVIEW): Promise<Response> {
  const shell = await appShell(assets, url.origin);
  if (!shell) return plainShell(assets, url.origin);
  const sources = visitorSources(deps);
  try {
    const { renderPage } = await serverRender();
    const page = await renderPage({ url: url.pathname + url.search, renderedAt: Date.now(), withData: visitor }, sources);
    // A visitor's public page is whole in its HTML; a tab that shows a member their own (Active, Post) draws it
    // only once the script has run, as does a page rendered without data: there the script keeps its priority.
    const tab = url.searchParams.get("tab");
    const paintsFromHtml = visitor && (tab === null || tab === "browse");
    const head = headBytes(shell, await previewOf(sources), new URL(url.pathname, url.origin).toString(), { paintsFromHtml });
    return new Response(documentBody(head, page.html, `</div>${page.stateScript}${shell.tail}`), {
      status: page.status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        // The edge cache keeps a visitor's page (worker/public-cache.ts); browsers ask again each time.
        "Cache-Control": visitor ? "no-cache" : "private, no-store",
        [PAGE_BUILD_HEADER]: shell.build,
      },
    });
  } catch (err) {
    console.error("could not render the page, serving the plain shell", url.pathname, err);
    return plainShell(assets, url.origin);
  }
}

/** Whether a stored page was rendered in this build's shell (its asset names are this build's). */
export async function isThisBuild(stored: Response, assets: Fetcher, origin: string): Promise<boolean> {
  const shell = await appShell(assets, origin);
  return shell !== null && stored.headers.get(PAGE_BUILD_HEADER) === shell.build;
}
