import { Link } from "react-router";
import { daysRemaining } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { milestoneText } from "./gig-card";
import { amountFor } from "./gig-roles";
import { GigStatusBadge, GigTypeBadge } from "./gig-status";
import type { Gig } from "./types";

/** A gig on a public profile's Posted Gigs grid; links to /gigs/{id} (SPEC.md §2 /user/:npub). */
export function PostedGigCard({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const left = daysRemaining(gig.deadline, gig.timeframe);
  return (
    <Link
      to={`/gigs/${gig.id}`}
      className="group flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm transition hover:border-brand-300 hover:shadow-md"
    >
      <div className="flex flex-wrap items-center gap-2">
        <GigTypeBadge gigType={gig.gigType} short />
        <GigStatusBadge status={gig.status} />
      </div>
      <div className="flex flex-col gap-1">
        <h3 className="font-semibold text-stone-900 group-hover:text-brand-700">{gig.title}</h3>
        <p className="line-clamp-2 text-sm text-stone-600">{gig.description}</p>
      </div>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 text-sm">
        {/* In the reader's terms (issue 26): their own gig says what they pay or receive. */}
        <span className="font-semibold text-brand-700">{amountFor(gig, user?.id).text}</span>
        <span className="text-stone-500">
          {left} {left === 1 ? "day" : "days"} left
        </span>
      </div>
      <div className="flex flex-wrap gap-1.5 text-xs">
        <span className="rounded-md bg-stone-100 px-2 py-0.5 text-stone-600">{gig.category}</span>
        {milestoneText(gig) && <span className="rounded-md bg-brand-50 px-2 py-0.5 font-medium text-brand-800">{milestoneText(gig)}</span>}
      </div>
    </Link>
  );
}
