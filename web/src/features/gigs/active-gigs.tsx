// The signed-in Active tab (SPEC.md §2): stats (Active Gigs, In Escrow, Completed), the member's gigs in
// progress with Open Chat and View Details, and My Gigs (what they posted) with Manage. One read of the
// gigs the member takes part in (participant=me), not of every gig.
import { useDeferredValue } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { BriefcaseIcon, LockIcon } from "../../components/ui/icons";
import { errorText } from "../../lib/api";
import { formatSats, timeAgo } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { mainTabHref } from "../layout/main-tab";
import { GigCard, GigCardSkeleton, milestoneText } from "./gig-card";
import { useGigDialogs } from "./gig-dialogs-context";
import { amountFor, canOpenChat, gigPermissions } from "./gig-roles";
import { GigStatusBadge, GigTypeBadge } from "./gig-status";
import { useMyGigs } from "./use-gigs";
import { FailedPayouts } from "../payments/failed-payouts";
import { ownerIdOf, type Gig } from "./types";

/** Work under way between a hirer and a worker. */
const IN_FLIGHT = new Set(["claimed", "in_progress", "needs_revision", "work_submitted", "submitted", "disputed"]);

export function isActiveGig(gig: Gig, userId: string): boolean {
  const party = gig.hirerId === userId || gig.workerId === userId;
  if (!party) return false;
  // A hired service offering waiting for the hirer's payment already has both sides.
  if (gig.status === "pending_payment") return !!gig.hirerId && !!gig.workerId;
  return IN_FLIGHT.has(gig.status);
}

export interface ActiveStats {
  active: number;
  inEscrow: number;
  completed: number;
}

export function activeStats(gigs: Gig[], userId: string): ActiveStats {
  return {
    active: gigs.filter((g) => isActiveGig(g, userId)).length,
    // What each gig's escrow holds now (every funded milestone of a plan); a gig answer without it, by its own status.
    inEscrow: gigs.reduce((sum, g) => sum + (g.escrowHeld ?? (g.escrowStatus === "funded" ? (g.totalCharge ?? g.payment) : 0)), 0),
    completed: gigs.filter((g) => g.status === "completed").length,
  };
}

export function ActiveGigs() {
  const { user } = useAuth();
  const gigs = useMyGigs();
  const { openDetails, openChat, openManage } = useGigDialogs();
  const userId = user?.id ?? "";
  // The member's gigs reach React from TanStack Query's store, whose updates React renders in one go: the lists
  // are drawn from a deferred copy instead, a transition React renders a few milliseconds at a time, so a phone
  // stays responsive while they are drawn (the skeletons show until then, in the lists' place).
  const data = useDeferredValue(gigs.data);
  const all = data ?? [];
  const active = all.filter((g) => isActiveGig(g, userId));
  const mine = all.filter((g) => ownerIdOf(g) === userId);
  const stats = activeStats(all, userId);

  return (
    <section aria-labelledby="active-heading" className="flex flex-col gap-8">
      <h1 id="active-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
        Active Gigs
      </h1>

      <FailedPayouts />

      {gigs.isPending || (gigs.isSuccess && data === undefined) ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <p role="status" className="sr-only">
            Loading your gigs
          </p>
          {Array.from({ length: 3 }, (_, i) => (
            <GigCardSkeleton key={i} />
          ))}
        </div>
      ) : gigs.isError ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <h2 className="text-lg font-semibold">Could not load your gigs</h2>
          <p className="text-sm text-stone-600">{errorText(gigs.error, "Please try again.")}</p>
          <Button variant="outline" onClick={() => gigs.refetch()}>
            Try Again
          </Button>
        </Card>
      ) : (
        <>
          <dl className="grid grid-cols-3 gap-2 sm:gap-4">
            <Stat label="Active Gigs" value={String(stats.active)} />
            <Stat label="In Escrow" value={formatSats(stats.inEscrow)} icon={<LockIcon size={14} />} />
            <Stat label="Completed" value={String(stats.completed)} />
          </dl>

          <section aria-labelledby="in-progress-heading" className="flex flex-col gap-3">
            <h2 id="in-progress-heading" className="text-lg font-semibold">
              In progress
            </h2>
            {active.length === 0 ? (
              <Card className="px-6 py-10 text-center">
                <h3 className="font-semibold">No active gigs yet</h3>
                <p className="mt-1 text-sm text-stone-600">Gigs you claim or hire for show up here while the work is under way.</p>
              </Card>
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {active.map((gig) => (
                  <li key={gig.id} className="flex flex-col">
                    <GigCard
                      gig={gig}
                      onOpen={(g) => openDetails(g.id)}
                      footer={
                        <>
                          {canOpenChat(gig, gigPermissions(gig, userId)) && (
                            <Button size="sm" variant="outline" onClick={() => openChat(gig.id)} aria-label={`Open Chat: ${gig.title}`}>
                              Open Chat
                            </Button>
                          )}
                          <Button size="sm" onClick={() => openDetails(gig.id)} aria-label={`View Details: ${gig.title}`}>
                            View Details
                          </Button>
                        </>
                      }
                    />
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="my-gigs-heading" className="flex flex-col gap-3">
            <h2 id="my-gigs-heading" className="text-lg font-semibold">
              My Gigs
            </h2>
            {mine.length === 0 ? (
              <Card className="flex flex-col items-center gap-3 px-6 py-10 text-center">
                <span className="flex h-11 w-11 items-center justify-center rounded-full bg-stone-100 text-stone-500">
                  <BriefcaseIcon size={20} />
                </span>
                <h3 className="font-semibold">You have not posted any gigs yet</h3>
                <Link to={mainTabHref("post")} className={buttonClasses("primary", "sm")}>
                  Post a Gig
                </Link>
              </Card>
            ) : (
              <ul className="flex flex-col divide-y divide-stone-100 rounded-xl border border-stone-200 bg-white shadow-sm">
                {mine.map((gig) => (
                  <MyGigRow
                    key={gig.id}
                    gig={gig}
                    amount={amountFor(gig, userId).text}
                    manageable={(() => {
                      const p = gigPermissions(gig, userId);
                      return p.can("edit") || p.can("cancel");
                    })()}
                    onOpen={() => openDetails(gig.id)}
                    onManage={() => openManage(gig.id)}
                  />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </section>
  );
}

function Stat({ label, value, icon }: { label: string; value: string; icon?: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-xl border border-stone-200 bg-white p-3 shadow-sm sm:p-4">
      <dt className="flex items-center gap-1 text-xs text-stone-500 sm:text-sm">
        {icon}
        {label}
      </dt>
      <dd className="text-base font-bold break-words text-stone-900 sm:text-2xl">{value}</dd>
    </div>
  );
}

function MyGigRow({ gig, amount, manageable, onOpen, onManage }: { gig: Gig; amount: string; manageable: boolean; onOpen: () => void; onManage: () => void }) {
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:gap-4 sm:p-4">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <GigTypeBadge gigType={gig.gigType} />
          <GigStatusBadge status={gig.status} />
        </div>
        <button type="button" onClick={onOpen} className="cursor-pointer truncate text-left font-medium text-stone-900 hover:text-brand-700 hover:underline">
          {gig.title}
        </button>
        <p className="text-xs text-stone-500">
          {amount} · {gig.category} · {timeAgo(gig.createdAt)}
          {milestoneText(gig) && <span className="font-medium text-brand-800"> · {milestoneText(gig)}</span>}
        </p>
      </div>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" onClick={onOpen} aria-label={`View Details: ${gig.title}`}>
          View Details
        </Button>
        {manageable && (
          <Button size="sm" onClick={onManage} aria-label={`Manage: ${gig.title}`}>
            Manage
          </Button>
        )}
      </div>
    </li>
  );
}
