// /gig/:id and /gigs/:id: a gig's own page, where link previews, the sitemap and shared links lead (issue 29,
// "A gig's own page"): what the details dialog shows, and for a signed-in member the same actions. The Worker
// renders it for visitors with the gig read below (ssr/render.tsx, decision 030); a member's browser reads the
// gig again as them once hydrated (lib/server-page.tsx ReadAgainAsMember), and their actions appear. An unknown
// gig, an unpaid job request or a removed gig is "Gig not found" (404 from the Worker).
import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button, buttonClasses } from "../components/ui/button";
import { ArrowLeftIcon } from "../components/ui/icons";
import { GigDetailsBody, type GigTitle } from "../features/gigs/gig-details-body";
import { GigDialogsProvider } from "../features/gigs/gig-dialogs";
import type { Gig } from "../features/gigs/types";
import { gigKeys } from "../features/gigs/use-gigs";
import { apiJson, errorText } from "../lib/api";
import { RouteLoading } from "./root-layout";

/**
 * The gig's page answer, GET /api/gigs/{id}, under the key every gig screen shares (the Worker fills it). The
 * page's actions refresh it as the dialog's do (every gig action invalidates the gig reads).
 */
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

/** The gig's title as the page's one h1 (the dialog's is its dialog title). */
const PageTitle: GigTitle = ({ children }) => <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{children}</h1>;

/**
 * The gig as the details dialog shows it, as a page: the same body (gig-details-body.tsx), with the same actions
 * for a signed-in member, which open the same dialogs (payment, chat, manage). "The details" of this gig are this
 * page; another gig's (a service posted again) are that gig's page.
 */
function GigPage({ gig }: { gig: Gig }) {
  const navigate = useNavigate();
  const gigId = gig.id;
  const showDetails = useCallback(
    (id: string) => {
      if (id !== gigId) navigate(`/gig/${encodeURIComponent(id)}`);
    },
    [gigId, navigate],
  );
  return (
    <GigDialogsProvider showDetails={showDetails}>
      <div className="mx-auto flex max-w-3xl flex-col gap-3">
        <Link to="/" className={buttonClasses("ghost", "md", "-ml-3 self-start")}>
          <ArrowLeftIcon />
          Back to Home
        </Link>
        <article className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-8">
          <GigDetailsBody gig={gig} Title={PageTitle} sectionHeading="h2" renderedPage />
        </article>
      </div>
    </GigDialogsProvider>
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
  // Another gig's page starts afresh (its open forms and confirmations are not this one's).
  return <GigPage key={gig.data.id} gig={gig.data} />;
}
