// A gig on the Browse and Active tabs (SPEC.md §2 Gig card). The whole card opens the gig (its title is
// the button, stretched over the card); the poster link, the report button and any footer sit above it.
import { Suspense, useContext, useState, type MouseEvent, type ReactNode } from "react";
import { UNSAFE_LocationContext, UNSAFE_NavigationContext } from "react-router";
import { Badge } from "../../components/ui/badge";
import { trackRecordText } from "../../../../domain/reputation";
import { milestoneLabel } from "../../../../domain/milestones";
import { cn } from "../../lib/cn";
import { daysRemaining, formatSats, shortId, shorten, timeAgo } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { useLoginDialog } from "../auth/login-dialog-context";
import { amountFor } from "./gig-roles";
import { GigStatusBadge, GigTypeBadge } from "./gig-status";
import { ownerIdOf, type Gig } from "./types";
import { lazyPart } from "../../lib/lazy-part";

const ReportGigDialog = lazyPart(() => import("#browser-only/report-gig-dialog").then((m) => m.ReportGigDialog));

/** The claiming worker's progress (SPEC.md §2): claimed 60% "In Progress", submitted 100% "Submitted". */
export function claimProgress(status: string): { percent: number; label: string } | null {
  switch (status) {
    case "claimed":
    case "in_progress":
    case "needs_revision":
      return { percent: 60, label: "In Progress" };
    case "work_submitted":
    case "submitted":
      return { percent: 100, label: "Submitted" };
    default:
      return null;
  }
}

/** The worker who claimed this gig (not the owner of a service offering, who is its worker from the start). */
export function isClaimedBy(gig: Gig, userId: string | null | undefined): boolean {
  return !!userId && gig.workerId === userId && ownerIdOf(gig) !== userId;
}

/**
 * Where a gig paid in milestones (issue 28) stands: "Milestone 2 of 3" while the work goes on, "3 milestones"
 * before anyone works on it and once it has ended; nothing for a gig without a plan.
 */
export function milestoneText(gig: Pick<Gig, "status" | "currentMilestone" | "milestoneCount">): string {
  if (gig.milestoneCount <= 1) return "";
  if (["pending_payment", "open", "completed", "cancelled"].includes(gig.status)) return `${gig.milestoneCount} milestones`;
  return milestoneLabel(gig.currentMilestone, gig.milestoneCount);
}

/**
 * The poster's track record (SPEC.md §2 poster reputation: completed gigs and success rate), said the same
 * way as everywhere else (issue 26): "3 gigs · 100% successful", or "No completed gigs yet".
 */
export function posterReputation(poster: Gig["poster"]): string {
  return trackRecordText(poster?.completedGigs ?? 0, poster?.successRate ?? 100);
}

/**
 * Report Gig's button, its warning sign (the AlertIcon's two strokes, 12 px, in the text's colour) drawn by the
 * stylesheet before the label (styles.css mask-report-gig): the Worker writes every card of the home page
 * (decision 030), and an inline SVG was a dozen attributes and three elements on each.
 */
const REPORT_BUTTON =
  "relative z-10 inline-flex shrink-0 cursor-pointer items-center gap-1 rounded-md px-1.5 py-1 text-xs text-stone-500 hover:bg-red-50 hover:text-red-700 before:size-3 before:shrink-0 before:bg-current before:mask-report-gig";

/**
 * The poster's profile link: a plain link that the browser follows within the app, as react-router's Link does,
 * without Link's per-card work (resolving the path against the route, its hooks) when the Worker writes the page.
 */
function PosterLink({ href, className, children }: { href: string; className: string; children: ReactNode }) {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { location } = useContext(UNSAFE_LocationContext);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window, a download, or another handler's choice: the browser's own.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // As Link: the page already open is replaced, not stacked in the history again.
    if (`${location.pathname}${location.search}` === href) navigator.replace(href);
    else navigator.push(href);
  };
  return (
    <a href={href} className={className} onClick={follow}>
      {children}
    </a>
  );
}

export function GigCard({
  gig,
  onOpen,
  footer,
  now = Date.now(),
}: {
  gig: Gig;
  onOpen: (gig: Gig) => void;
  /** Extra actions under the card (the Active tab's Open Chat and View Details). */
  footer?: ReactNode;
  now?: number;
}) {
  const { user } = useAuth();
  const { openLogin } = useLoginDialog();
  const [reportOpen, setReportOpen] = useState(false);
  const claimedByMe = isClaimedBy(gig, user?.id);
  const progress = claimedByMe ? claimProgress(gig.status) : null;
  const isOwner = !!user && ownerIdOf(gig) === user.id;
  const left = daysRemaining(gig.deadline, gig.timeframe, now);
  const poster = gig.poster;
  const posterName = poster ? poster.displayName || shorten(poster.username, true) : null;
  const reputation = posterReputation(poster);
  const amount = amountFor(gig, user?.id);
  const milestones = milestoneText(gig);

  return (
    <article
      data-testid="gig-card"
      className={cn(
        "relative flex flex-1 flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm transition hover:shadow-md",
        claimedByMe ? "border-brand-400 ring-1 ring-brand-300" : "border-stone-200 hover:border-brand-300",
        gig.status === "completed" && "opacity-60",
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="flex flex-wrap items-center gap-1.5">
          <GigTypeBadge gigType={gig.gigType} />
          <GigStatusBadge status={gig.status} />
          {claimedByMe && <Badge variant="brand" className="bg-brand-500! text-stone-950!">You Claimed</Badge>}
        </div>
        <span className="shrink-0 font-mono text-xs text-stone-500" title="Gig ID">
          <span className="sr-only">Gig ID </span>
          {shortId(gig.id)}
        </span>
      </div>

      {/* The title over its description, 4 px apart: the card's 12 px gap less the description's -8 px margin. */}
      <h3 className="text-base leading-snug font-semibold text-stone-900">
        <button
          type="button"
          onClick={() => onOpen(gig)}
          className="cursor-pointer text-left break-words after:absolute after:inset-0 after:rounded-xl hover:text-brand-700 focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-brand-500"
        >
          {gig.title}
        </button>
      </h3>
      <p className="-mt-2 line-clamp-2 text-sm break-words text-stone-600">{gig.description}</p>

      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-stone-500">
        <span className="rounded-md bg-stone-100 px-2 py-0.5 text-stone-700">{gig.category}</span>
        <span aria-hidden="true">·</span>
        <span>{timeAgo(gig.createdAt, now)}</span>
        {milestones && (
          <>
            <span aria-hidden="true">·</span>
            <span className="rounded-md bg-brand-50 px-2 py-0.5 font-medium text-brand-800 ring-1 ring-brand-200">{milestones}</span>
          </>
        )}
      </div>

      {progress && (
        <div className="flex flex-col gap-1">
          <div className="flex justify-between text-xs font-medium text-brand-800">
            <span>{progress.label}</span>
            <span aria-hidden="true">{progress.percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-label={progress.label}
            aria-valuenow={progress.percent}
            aria-valuemin={0}
            aria-valuemax={100}
            className="h-1.5 overflow-hidden rounded-full bg-brand-100"
          >
            <div className="h-full rounded-full bg-brand-500" style={{ width: `${progress.percent}%` }} />
          </div>
        </div>
      )}

      <div className="mt-auto flex flex-wrap items-baseline justify-between gap-2">
        {/* In the reader's terms: what the worker receives, what the hirer pays, else the payment (issue 26). */}
        <span className="text-lg font-bold text-brand-700">
          {amount.lead && <span className="text-sm font-medium text-stone-600">{amount.lead} </span>}
          {formatSats(amount.amount)}
        </span>
        <span className="text-sm text-stone-500">
          {`${left} ${left === 1 ? "day" : "days"} left`}
        </span>
      </div>

      <div className="flex items-center justify-between gap-2 border-t border-stone-100 pt-3 text-sm">
        {/* The name over its track record: side by side, a phone's card would cut the name short. */}
        <div className="flex min-w-0 flex-col">
          {poster && (
            <PosterLink
              href={`/user/${encodeURIComponent(poster.username)}`}
              className="relative z-10 max-w-full min-w-0 self-start truncate font-medium text-stone-700 hover:text-brand-700 hover:underline"
            >
              <span className="sr-only">Posted by </span>
              {posterName}
            </PosterLink>
          )}
          <span className="relative z-10 text-xs text-stone-500">
            <span className="sr-only">Track record: </span>
            {reputation}
          </span>
        </div>
        {!isOwner && (
          <button
            type="button"
            onClick={() => (user ? setReportOpen(true) : openLogin("Log in to report this gig."))}
            className={REPORT_BUTTON}
          >
            Report Gig
          </button>
        )}
      </div>

      {footer && <div className="relative z-10 flex flex-wrap gap-2">{footer}</div>}

      {reportOpen && (
        <Suspense fallback={null}>
          <ReportGigDialog gig={gig} open={reportOpen} onOpenChange={setReportOpen} />
        </Suspense>
      )}
    </article>
  );
}

/** A card-shaped placeholder while gigs load. */
export function GigCardSkeleton() {
  return (
    <div aria-hidden="true" data-testid="gig-card-skeleton" className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex gap-2">
        <div className="h-5 w-20 animate-pulse rounded-full bg-stone-200" />
        <div className="h-5 w-16 animate-pulse rounded-full bg-stone-200" />
      </div>
      <div className="h-5 w-3/4 animate-pulse rounded bg-stone-200" />
      <div className="h-4 w-full animate-pulse rounded bg-stone-100" />
      <div className="h-4 w-5/6 animate-pulse rounded bg-stone-100" />
      <div className="mt-2 flex justify-between">
        <div className="h-6 w-24 animate-pulse rounded bg-stone-200" />
        <div className="h-4 w-16 animate-pulse rounded bg-stone-100" />
      </div>
    </div>
  );
}
