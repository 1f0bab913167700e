// /gig/:id and /gigs/:id: a gig's own page, where link previews, the sitemap and shared links lead. The Worker
// renders it for visitors with the gig read below (ssr/render.tsx, decision 030); an unknown gig, an unpaid job
// request or a removed gig is "Gig not found" (404 from the Worker). The route reads the gig and hands it to
// GigPage: the one component to swap for the richer gig page (issue 29, "A gig's own page").
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { trackRecordText } from "../../../domain/reputation";
import { Button, buttonClasses } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { GigStatusBadge, GigTypeBadge } from "../features/gigs/gig-status";
import type { Gig } from "../features/gigs/types";
import { gigKeys } from "../features/gigs/use-gigs";
import { apiJson, errorText } from "../lib/api";
import { formatSats, shortId, shorten } from "../lib/format";
import { RouteLoading } from "./root-layout";

/** The gig's page answer, GET /api/gigs/{id}, under the key every gig screen shares. */
export function useGigPage(id: string) {
  return useQuery({
    queryKey: gigKeys.detail(id),
    queryFn: () => apiJson<Gig>("GET", `/api/gigs/${encodeURIComponent(id)}`),
    // The Worker's "not found" comes with the page: it is the answer, not a reason to ask again on mount.
    retryOnMount: false,
  });
}

/** A 404 answer: thrown by the API client, or as the Worker's page carried it (a plain object then). */
export function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { status?: unknown }).status === 404;
}

/** What the page shows of a gig. Swap this for the richer page; it gets the gig as GET /api/gigs/{id} answers it. */
function GigPage({ gig }: { gig: Gig }) {
  const poster = gig.poster;
  const posterName = poster.displayName || shorten(poster.username, true);
  return (
    <Card className="mx-auto flex max-w-2xl flex-col gap-5 p-6 sm:p-8">
      <div className="flex flex-wrap items-center gap-2">
        <GigTypeBadge gigType={gig.gigType} />
        <GigStatusBadge status={gig.status} />
        <span className="ml-auto font-mono text-xs text-stone-500" title="Gig ID">
          <span className="sr-only">Gig ID </span>
          {shortId(gig.id)}
        </span>
      </div>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight break-words">{gig.title}</h1>
        <p className="text-2xl font-bold text-brand-700">{formatSats(gig.payment)}</p>
      </div>
      <dl className="grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-stone-500">Posted by</dt>
          <dd>
            <Link to={`/user/${encodeURIComponent(poster.username)}`} className="font-medium text-stone-800 hover:text-brand-700 hover:underline">
              {posterName}
            </Link>
            <span className="block text-xs text-stone-500">{trackRecordText(poster.completedGigs, poster.successRate)}</span>
          </dd>
        </div>
        <div>
          <dt className="text-stone-500">Category</dt>
          <dd className="font-medium text-stone-800">{gig.category}</dd>
        </div>
        <div>
          <dt className="text-stone-500">Timeframe</dt>
          <dd className="font-medium text-stone-800">
            {gig.timeframe} {gig.timeframe === 1 ? "day" : "days"}
          </dd>
        </div>
      </dl>
      <p className="text-sm whitespace-pre-line break-words text-stone-700">{gig.description}</p>
      <div className="flex flex-wrap gap-2">
        <Link to={`/?tab=active&gigId=${encodeURIComponent(gig.id)}`} className={buttonClasses("primary")}>
          View Details
        </Link>
        <Link to="/" className={buttonClasses("outline")}>
          Back to Home
        </Link>
      </div>
    </Card>
  );
}

export function GigRoute() {
  const { id = "" } = useParams();
  const gig = useGigPage(id);
  if (gig.isPending) return <RouteLoading />;
  if (gig.isError) {
    const missing = isNotFound(gig.error);
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <h1 className="text-xl font-semibold">{missing ? "Gig not found" : "Could not load this gig"}</h1>
        <p className="text-sm text-stone-600">{missing ? "There is no gig at this address, or it is not open to view." : errorText(gig.error, "Please try again.")}</p>
        <div className="flex flex-wrap justify-center gap-2">
          {!missing && (
            <Button variant="outline" onClick={() => void gig.refetch()}>
              Try Again
            </Button>
          )}
          <Link to="/" className={buttonClasses("primary")}>
            Back to Home
          </Link>
        </div>
      </div>
    );
  }
  return <GigPage gig={gig.data} />;
}
