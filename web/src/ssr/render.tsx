// The web app rendered by the Worker (decision 030): the page a URL names, through the browser's own route
// table and components, with the data it reads already in the query cache under the keys its hooks use, and
// that cache sent along (dehydrated) so the browser hydrates the same page without asking for it again.
// Only the Worker imports this (as `#ssr`, see contract.ts); the browser's bundle never does.
import { dehydrate, type QueryClient } from "@tanstack/react-query";
import { StrictMode, Suspense, useContext } from "react";
import { renderToString } from "#react-dom-server";
import { matchRoutes, parsePath, renderMatches, StaticRouter, UNSAFE_NavigationContext, type RouteMatch } from "react-router";
import { AppProviders, appRouteObjects, PAGE_PATHS } from "../app";
import { browseParams, DEFAULT_BROWSE_FILTERS } from "../features/gigs/browse-query";
import { gigKeys, isPostedBy, type GigPage } from "../features/gigs/use-gigs";
import { readMainPageParams } from "../features/layout/main-tab";
import { profileKeys } from "../features/profile/use-profile";
import { ApiError } from "../lib/api";
import { codeAsked } from "../lib/lazy-part";
import { createQueryClient } from "../lib/query-client";
import { PAGE_STATE_ID, scriptSafeJson, type ServerPage } from "../lib/server-page";
import { RouteLoading } from "../routes/root-layout";
import type { PageSources, RenderPage } from "./contract";

/**
 * The page's answers as JSON text, each written once: the render reads them back as the browser's JSON.parse gets
 * them from the API (so both sides render the very same values), and the page's state script sends that same text
 * instead of writing the answers out a second time.
 */
type Answers = Map<object, string>;

/** An answer as the browser's JSON.parse gets it from the API; its text is kept for the state script. */
function asJson<T>(value: T, answers: Answers): T {
  const text = JSON.stringify(value);
  const parsed = JSON.parse(text) as T;
  if (parsed !== null && typeof parsed === "object") answers.set(parsed, text);
  return parsed;
}

/**
 * The rendered page as JSON that can sit inside a `<script>` element whatever the data says: every "<" is escaped
 * (lib/server-page.tsx scriptSafeJson), so no string in it (a gig titled "</script><script>…") can close the element
 * or open a comment. The answers read for it go in as the text they were read from, each behind a mark no request
 * can guess (a URL is in the page too).
 */
function pageScriptJson(page: ServerPage, answers: Answers): string {
  const mark = `gigstr-answer-${crypto.randomUUID()}-`;
  const texts: string[] = [];
  const outline = JSON.stringify(page, (_key, value: unknown) => {
    const text = value !== null && typeof value === "object" ? answers.get(value) : undefined;
    if (text === undefined) return value;
    texts.push(text);
    return `${mark}${texts.length - 1}`;
  });
  const json = texts.length === 0 ? outline : outline.replace(new RegExp(`"${mark}(\\d+)"`, "g"), (_, at: string) => texts[Number(at)]);
  return scriptSafeJson(json);
}

/** What the API client throws for a 404; it reaches the browser as `{status: 404, …}` (routes/gig.tsx isNotFound). */
const notFound = () => new ApiError(404, "", "404: Not found");

/** The main page: the Browse tab's first page, as a visitor first sees it (no filter, no search). */
async function readHome(url: URL, sources: PageSources, client: QueryClient, answers: Answers): Promise<boolean> {
  const { tab } = readMainPageParams(url.searchParams);
  if (tab !== null && tab !== "browse") return true; // the Active and Post tabs show a visitor the login card
  const params = browseParams(DEFAULT_BROWSE_FILTERS);
  const page: GigPage = asJson(await sources.gigs(params), answers);
  await client.prefetchInfiniteQuery({ queryKey: gigKeys.list(params), queryFn: () => page, initialPageParam: null as string | null });
  return true;
}

/** A gig's page (routes/gig.tsx useGigPage); a gig a visitor cannot see is the page's "not found". */
async function readGig(id: string, sources: PageSources, client: QueryClient, answers: Answers): Promise<boolean> {
  const gig = await sources.gig(id);
  await client.prefetchQuery({ queryKey: gigKeys.detail(id), queryFn: () => (gig ? asJson(gig, answers) : Promise.reject(notFound())) });
  return gig !== null;
}

/** A member's public profile (features/profile/public-profile.tsx) and its three lists. */
async function readMember(npub: string, sources: PageSources, client: QueryClient, answers: Answers): Promise<boolean> {
  const member = await sources.member(npub);
  await client.prefetchQuery({ queryKey: profileKeys.byNpub(npub), queryFn: () => (member ? asJson(member, answers) : Promise.reject(notFound())) });
  if (!member) return false;
  const [posted, portfolio, reviews] = await Promise.all([sources.gigs({ posterId: member.id }), sources.portfolio(member.id), sources.reviews(member.id)]);
  // As usePostedGigs, usePortfolio and useReviews keep them.
  client.setQueryData(gigKeys.list({ posterId: member.id }), asJson(posted.gigs.filter((gig) => isPostedBy(gig, member.id)), answers));
  client.setQueryData(profileKeys.portfolio(member.id), asJson(portfolio, answers));
  client.setQueryData(profileKeys.reviews(member.id), asJson(reviews, answers));
  return true;
}

/** Puts the page's data in the cache; false when the page is not there for a visitor (404). */
function readPage(url: URL, matches: RouteMatch[] | null, sources: PageSources, client: QueryClient, answers: Answers): Promise<boolean> {
  const page = matches?.at(-1);
  if (!page || page.route.path === "*") return Promise.resolve(false);
  const { route, params } = page;
  if (route.index) return readHome(url, sources, client, answers);
  if (route.path === PAGE_PATHS.gig || route.path === PAGE_PATHS.gigs) return readGig(params.id ?? "", sources, client, answers);
  if (route.path === PAGE_PATHS.user) return readMember(params.npub ?? "", sources, client, answers);
  return Promise.resolve(true);
}

/**
 * The routes the page's URL matched, drawn as the browser's `useRoutes(appRouteObjects)` (app.tsx AppRoutes) draws
 * them at the top of the tree, from the one match the page's reads already made: the route table is matched once
 * per page, not twice. Each match's pathname is encoded as useRoutes encodes it, so links resolve alike.
 */
function MatchedRoutes({ matches }: { matches: RouteMatch[] | null }) {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const encoded = (pathname: string) =>
    navigator.encodeLocation ? navigator.encodeLocation(pathname.replace(/%/g, "%25").replace(/\?/g, "%3F").replace(/#/g, "%23")).pathname : pathname;
  const joined = (pathname: string) => `/${pathname}`.replace(/\/\/+/g, "/");
  return renderMatches(
    matches &&
      matches.map((match) => ({
        ...match,
        params: { ...match.params },
        pathname: joined(encoded(match.pathname)),
        pathnameBase: match.pathnameBase === "/" ? "/" : joined(encoded(match.pathnameBase)),
      })),
  );
}

/**
 * The route table's matches for a path, kept per isolate: react-router flattens and ranks the whole table on every
 * match (about 4 % of rendering `/`), and the table only changes with a deploy. Every match made is used as it is
 * (MatchedRoutes copies what it hands on), so one list can serve every page of that path. Paths are the
 * requester's to choose: the oldest goes when the map is full.
 */
const matchedPaths = new Map<string, RouteMatch[] | null>();
const MATCHED_PATHS_KEPT = 256;

function matchesOf(pathname: string): RouteMatch[] | null {
  let matches = matchedPaths.get(pathname);
  if (matches === undefined) {
    matches = matchRoutes(appRouteObjects, { pathname });
    if (matchedPaths.size >= MATCHED_PATHS_KEPT) matchedPaths.delete(matchedPaths.keys().next().value!);
    matchedPaths.set(pathname, matches);
  }
  return matches;
}

/**
 * Where React's string renderer gave up on a Suspense boundary (it does not wait for one): the boundary's fallback
 * follows, for the browser to draw the part itself. A page's text never holds it: "<" is escaped in every text.
 */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";

/**
 * The page drawn whole, with no part left to its "Loading" fallback, which a reader without JavaScript would keep.
 * React's string renderer does not wait for a lazy part's code (lib/lazy-part.ts; in the Worker's bundle, but handed
 * over a turn later): where a render found code still loading, that code is waited for and the page rendered again
 * (an isolate's first page of each kind). A part given up with no code loading is a component that failed: no page
 * then (worker/pages/page.ts serves the plain shell, and the browser draws the page itself).
 */
async function renderedWhole(render: () => string): Promise<string> {
  for (;;) {
    const html = render();
    if (!html.includes(CLIENT_RENDERED_BOUNDARY)) return html;
    if (!(await codeAsked())) throw new Error("a part of the page could not be rendered");
  }
}

export const renderPage: RenderPage = async ({ url, renderedAt, withData }, sources) => {
  const client = createQueryClient();
  const answers: Answers = new Map();
  // Where the router finds the page (StaticRouter reads the same path from the same URL).
  const matches = matchesOf(parsePath(url).pathname || "/");
  const found = withData ? await readPage(new URL(url, "https://gigstr.invalid"), matches, sources, client, answers) : true;
  // The answers, and the "not found" of a page a visitor cannot see (the route shows it from the error).
  const state = dehydrate(client, { shouldDehydrateQuery: (query) => query.state.status !== "pending" });
  const page: ServerPage = { url, renderedAt, state };

  const app = (
    <StrictMode>
      <AppProviders queryClient={client} renderedAt={renderedAt}>
        <StaticRouter location={url}>
          <Suspense fallback={<RouteLoading />}>
            <MatchedRoutes matches={matches} />
          </Suspense>
        </StaticRouter>
      </AppProviders>
    </StrictMode>
  );
  const html = await renderedWhole(() => renderToString(app));
  return { status: found ? 200 : 404, html, stateScript: `<script type="application/json" id="${PAGE_STATE_ID}">${pageScriptJson(page, answers)}</script>` };
};
