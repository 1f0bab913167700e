// The web app rendered by the Worker (decision 030): the page a URL names, through the browser's own route
// table and components, with the data it reads already in the query cache under the keys its hooks use, and
// that cache sent along (dehydrated) so the browser hydrates the same page without asking for it again.
// Only the Worker imports this (as `#ssr`, see contract.ts); the browser's bundle never does.
import { dehydrate, type QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { renderToReadableStream } from "#react-dom-server";
import { matchRoutes, StaticRouter } from "react-router";
import { AppProviders, appRouteObjects, AppRoutes, PAGE_PATHS } from "../app";
import { browseParams, DEFAULT_BROWSE_FILTERS } from "../features/gigs/browse-query";
import { gigKeys, isPostedBy, type GigPage } from "../features/gigs/use-gigs";
import { readMainPageParams } from "../features/layout/main-tab";
import { profileKeys } from "../features/profile/use-profile";
import { ApiError } from "../lib/api";
import { createQueryClient } from "../lib/query-client";
import { PAGE_STATE_ID, scriptJson, type ServerPage } from "../lib/server-page";
import type { PageSources, RenderPage } from "./contract";

/** An answer as the browser's JSON.parse gets it from the API, so both sides render the very same values. */
function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** What the API client throws for a 404; it reaches the browser as `{status: 404, …}` (routes/gig.tsx isNotFound). */
const notFound = () => new ApiError(404, "", "404: Not found");

/** The main page: the Browse tab's first page, as a visitor first sees it (no filter, no search). */
async function readHome(url: URL, sources: PageSources, client: QueryClient): Promise<boolean> {
  const { tab } = readMainPageParams(url.searchParams);
  if (tab !== null && tab !== "browse") return true; // the Active and Post tabs show a visitor the login card
  const params = browseParams(DEFAULT_BROWSE_FILTERS);
  const page: GigPage = asJson(await sources.gigs(params));
  await client.prefetchInfiniteQuery({ queryKey: gigKeys.list(params), queryFn: () => page, initialPageParam: null as string | null });
  return true;
}

/** A gig's page (routes/gig.tsx useGigPage); a gig a visitor cannot see is the page's "not found". */
async function readGig(id: string, sources: PageSources, client: QueryClient): Promise<boolean> {
  const gig = await sources.gig(id);
  await client.prefetchQuery({ queryKey: gigKeys.detail(id), queryFn: () => (gig ? asJson(gig) : Promise.reject(notFound())) });
  return gig !== null;
}

/** A member's public profile (features/profile/public-profile.tsx) and its three lists. */
async function readMember(npub: string, sources: PageSources, client: QueryClient): Promise<boolean> {
  const member = await sources.member(npub);
  await client.prefetchQuery({ queryKey: profileKeys.byNpub(npub), queryFn: () => (member ? asJson(member) : Promise.reject(notFound())) });
  if (!member) return false;
  const [posted, portfolio, reviews] = await Promise.all([sources.gigs({ posterId: member.id }), sources.portfolio(member.id), sources.reviews(member.id)]);
  // As usePostedGigs, usePortfolio and useReviews keep them.
  client.setQueryData(gigKeys.list({ posterId: member.id }), asJson(posted.gigs.filter((gig) => isPostedBy(gig, member.id))));
  client.setQueryData(profileKeys.portfolio(member.id), asJson(portfolio));
  client.setQueryData(profileKeys.reviews(member.id), asJson(reviews));
  return true;
}

/** Puts the page's data in the cache; false when the page is not there for a visitor (404). */
function readPage(url: URL, sources: PageSources, client: QueryClient): Promise<boolean> {
  const page = matchRoutes(appRouteObjects, url.pathname)?.at(-1);
  if (!page || page.route.path === "*") return Promise.resolve(false);
  const { route, params } = page;
  if (route.index) return readHome(url, sources, client);
  if (route.path === PAGE_PATHS.gig || route.path === PAGE_PATHS.gigs) return readGig(params.id ?? "", sources, client);
  if (route.path === PAGE_PATHS.user) return readMember(params.npub ?? "", sources, client);
  return Promise.resolve(true);
}

export const renderPage: RenderPage = async ({ url, renderedAt, withData }, sources) => {
  const client = createQueryClient();
  const found = withData ? await readPage(new URL(url, "https://gigstr.invalid"), sources, client) : true;
  // The answers, and the "not found" of a page a visitor cannot see (the route shows it from the error).
  const state = dehydrate(client, { shouldDehydrateQuery: (query) => query.state.status !== "pending" });
  const page: ServerPage = { url, renderedAt, state };

  let failure: unknown = null;
  const html = await renderToReadableStream(
    <StrictMode>
      <AppProviders queryClient={client} renderedAt={renderedAt}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    // Every boundary inline: React outlines a large one (the browse list) behind its fallback and reveals it with
    // an inline script, which the CSP forbids (script-src 'self') and a browser without JavaScript never runs.
    { progressiveChunkSize: Number.POSITIVE_INFINITY, onError: (error) => void (failure ??= error) },
  );
  // Whole before the first byte is read, for the same reason: a boundary still waiting (a lazy route's code on
  // the isolate's first page) would be sent as its fallback. That code is in the Worker's bundle: no network wait.
  await html.allReady;
  if (failure) throw failure;
  return { status: found ? 200 : 404, html, stateScript: `<script type="application/json" id="${PAGE_STATE_ID}">${scriptJson(page)}</script>` };
};
