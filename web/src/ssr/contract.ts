// The seam between the Worker and the web app's server render (decision 030). The Worker imports `#ssr`
// (package.json "imports"): TypeScript reads this file for it (the "types" condition), the bundlers take
// web/src/ssr/render.tsx, whose export the web app's typecheck holds to these types. Types only, of domain/
// and of the web app's answers: nothing here needs the DOM or JSX, so the Worker's typecheck can read it.
import type { GigDetail, GigView } from "../../../domain/gig-view";
import type { PublicUser } from "../../../domain/profile";
import type { PortfolioItem, Review } from "../features/profile/types";

/**
 * What the Worker reads for a page, through its own services and as a visitor (no session): each the same
 * answer as the API route named, which the browser would otherwise ask for.
 */
export interface PageSources {
  /** GET /api/gigs?<params>: one page, and the next page's cursor (X-Next-Cursor). */
  gigs(params: Record<string, string>): Promise<{ gigs: GigView[]; nextCursor: string | null }>;
  /** GET /api/gigs/{id}; null where a visitor gets 404 (unknown, an unpaid job request, removed by the admin). */
  gig(id: string): Promise<GigDetail | null>;
  /** GET /api/users/by-npub/{npub}; null where it answers 404. */
  member(npub: string): Promise<PublicUser | null>;
  /** GET /api/portfolio/user/{userId} of a member just read. */
  portfolio(userId: string): Promise<PortfolioItem[]>;
  /** GET /api/reviews/user/{userId} of a member just read. */
  reviews(userId: string): Promise<Review[]>;
}

export interface PageRequest {
  /** The page's path and query string, e.g. "/gig/0846eb6a-…". */
  url: string;
  /** The render's clock, ms since the epoch: relative times count from it until the browser has hydrated. */
  renderedAt: number;
  /**
   * True: the visitor's page, with what it reads. False: the page with no data at all (its reads show as
   * loading and the browser makes them): for a request carrying a credential, whose view is the member's.
   */
  withData: boolean;
}

export interface RenderedPage {
  /** 404 when the address names what a visitor cannot see (its page says not found). */
  status: 200 | 404;
  /** The app's HTML for inside the root element, whole: every Suspense boundary already resolved. */
  html: string;
  /** The `<script type="application/json">` element carrying the page's URL, clock and data to the browser. */
  stateScript: string;
}

export type RenderPage = (request: PageRequest, sources: PageSources) => Promise<RenderedPage>;

/** Implemented by web/src/ssr/render.tsx. */
export declare const renderPage: RenderPage;
