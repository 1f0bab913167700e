// Gigs (SPEC.md §2 /admin): every gig with filters by status (all plus the statuses) and type, single
// and bulk deletion after a browser confirmation, the dispute description cut at 150 characters.
import { useId, useState } from "react";
import { truncateDispute } from "../../../../domain/admin";
import { GIG_STATUSES } from "../../../../domain/gig";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { MessageIcon, TrashIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { formatDate, formatSats, shortId } from "../../lib/format";
import { GigStatusBadge, GigTypeBadge, gigStatusLabel } from "../gigs/gig-status";
import { useAdminGigs, useBulkDeleteGigs, useDeleteGig, type GigFilters } from "./use-admin";
import type { AdminGig } from "./types";

const selectClasses =
  "h-10 rounded-lg border border-stone-300 bg-white px-2 text-sm text-stone-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none";

export function GigsTab({ onOpenChat }: { onOpenChat: (gigId: string, title: string) => void }) {
  const id = useId();
  const [filters, setFilters] = useState<GigFilters>({ status: "all", type: "all" });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const gigs = useAdminGigs(filters);
  const remove = useDeleteGig();
  const bulk = useBulkDeleteGigs();
  const list = gigs.data?.pages.flatMap((p) => p.gigs) ?? [];
  const chosen = list.filter((g) => selected.has(g.id));
  const allChosen = list.length > 0 && chosen.length === list.length;

  const toggle = (gigId: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(gigId)) next.delete(gigId);
      else next.add(gigId);
      return next;
    });

  const deleteOne = (gig: AdminGig) => {
    const money = gig.escrowStatus === "funded" ? " Its escrow will be refunded to the hirer in full." : "";
    if (!window.confirm(`Delete "${gig.title}"?${money}`)) return;
    remove.mutate(gig.id, { onSuccess: () => setSelected((s) => new Set([...s].filter((x) => x !== gig.id))) });
  };

  const deleteChosen = () => {
    if (chosen.length === 0) return;
    const funded = chosen.filter((g) => g.escrowStatus === "funded").length;
    const money = funded ? ` ${funded} funded ${funded === 1 ? "gig is" : "gigs are"} refunded to the hirer in full.` : "";
    if (!window.confirm(`Delete ${chosen.length} selected ${chosen.length === 1 ? "gig" : "gigs"}?${money}`)) return;
    bulk.mutate(
      chosen.map((g) => g.id),
      { onSuccess: () => setSelected(new Set()) },
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium text-stone-800" htmlFor={`${id}-status`}>
          Status
          <select
            id={`${id}-status`}
            className={selectClasses}
            value={filters.status}
            onChange={(e) => {
              setSelected(new Set());
              setFilters((f) => ({ ...f, status: e.target.value }));
            }}
          >
            <option value="all">All statuses</option>
            {GIG_STATUSES.map((s) => (
              <option key={s} value={s}>
                {gigStatusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-stone-800" htmlFor={`${id}-type`}>
          Type
          <select
            id={`${id}-type`}
            className={selectClasses}
            value={filters.type}
            onChange={(e) => {
              setSelected(new Set());
              setFilters((f) => ({ ...f, type: e.target.value }));
            }}
          >
            <option value="all">All types</option>
            <option value="job_request">Hiring Now (job_request)</option>
            <option value="service_offering">For Hire (service_offering)</option>
          </select>
        </label>
        <div className="ml-auto flex items-center gap-3">
          <label className="flex items-center gap-2 text-sm text-stone-700">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={allChosen}
              disabled={list.length === 0}
              onChange={() => setSelected(allChosen ? new Set() : new Set(list.map((g) => g.id)))}
            />
            Select all
          </label>
          <Button variant="destructive" size="sm" disabled={chosen.length === 0 || bulk.isPending} onClick={deleteChosen}>
            <TrashIcon size={15} /> Delete Selected ({chosen.length})
          </Button>
        </div>
      </div>

      {gigs.isPending ? (
        <div className="flex flex-col gap-3">
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
        </div>
      ) : list.length === 0 ? (
        <p className="py-10 text-center text-sm text-stone-500">No gigs match these filters.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Gigs">
          {list.map((gig) => (
            <li key={gig.id}>
              <Card className="flex gap-3 p-4">
                <input
                  type="checkbox"
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-600"
                  aria-label={`Select ${gig.title}`}
                  checked={selected.has(gig.id)}
                  onChange={() => toggle(gig.id)}
                />
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="min-w-0 text-base font-semibold break-words text-stone-900">{gig.title}</h3>
                    <span className="font-mono text-xs text-stone-500">#{shortId(gig.id)}</span>
                  </div>
                  <div className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
                    <GigTypeBadge gigType={gig.gigType} />
                    <GigStatusBadge status={gig.status} />
                    <span className="font-semibold text-stone-900 tabular-nums">{formatSats(gig.payment)}</span>
                    <span>escrow {gig.escrowStatus}</span>
                  </div>
                  <p className="text-xs text-stone-500">
                    By {gig.poster.displayName || gig.poster.username} · {formatDate(gig.createdAt)}
                  </p>
                  {gig.disputeReason && (
                    <p className="rounded-lg bg-red-50 px-3 py-2 text-sm break-words text-red-900" data-testid="dispute-reason">
                      <span className="font-medium">Dispute: </span>
                      {truncateDispute(gig.disputeReason)}
                    </p>
                  )}
                  <div className="flex flex-wrap gap-2">
                    <Button variant="outline" size="sm" onClick={() => onOpenChat(gig.id, gig.title)}>
                      <MessageIcon size={15} /> Chat
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      className="text-red-700 hover:bg-red-50"
                      disabled={remove.isPending && remove.variables === gig.id}
                      onClick={() => deleteOne(gig)}
                      aria-label={`Delete ${gig.title}`}
                    >
                      <TrashIcon size={15} /> Delete
                    </Button>
                  </div>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {gigs.hasNextPage && (
        <Button variant="outline" className="self-center" onClick={() => void gigs.fetchNextPage()} disabled={gigs.isFetchingNextPage}>
          {gigs.isFetchingNextPage ? "Loading..." : "Load more"}
        </Button>
      )}
    </div>
  );
}
