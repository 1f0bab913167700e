// Reports (SPEC.md §2 /admin, §4 Report, §5 Admin confirmations): status select, notes from a prompt
// (a cancelled prompt sends nothing), links to /gig/{gigId} and /profile/{reporterId}, and deleting the
// reported gig, which resolves the report.
import { useId } from "react";
import { Link } from "react-router";
import { REPORT_REASON_LABELS, REPORT_STATUSES, type ReportStatus } from "../../../../domain/admin";
import { Badge, type BadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { PencilIcon, TrashIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { formatDate } from "../../lib/format";
import { useAdminReports, useDeleteGig, useUpdateReport } from "./use-admin";
import type { AdminReport } from "./types";

export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  pending: "Pending",
  under_review: "Under Review",
  resolved: "Resolved",
  dismissed: "Dismissed",
};
const STATUS_VARIANTS: Record<string, BadgeVariant> = { pending: "warning", under_review: "info", resolved: "success", dismissed: "default" };

export const statusSelectClasses =
  "h-9 rounded-lg border border-stone-300 bg-white px-2 text-sm text-stone-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none";

export function ReportsTab() {
  const reports = useAdminReports();
  const list = reports.data ?? [];
  if (reports.isPending) {
    return (
      <div className="flex flex-col gap-3">
        <Skeleton className="h-32" />
        <Skeleton className="h-32" />
      </div>
    );
  }
  if (reports.isError) return <p className="py-10 text-center text-sm text-red-700">Could not load the reports.</p>;
  if (list.length === 0) return <p className="py-10 text-center text-sm text-stone-500">No reports yet.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Reports">
      {list.map((r) => (
        <li key={r.id}>
          <ReportCard report={r} />
        </li>
      ))}
    </ul>
  );
}

function ReportCard({ report: r }: { report: AdminReport }) {
  const id = useId();
  const update = useUpdateReport();
  const remove = useDeleteGig();
  const reporterName = r.reporter.displayName || r.reporter.username || "Unknown member";
  const gigTitle = r.gig?.title ?? "Unknown gig";

  const addNotes = () => {
    const notes = window.prompt("Admin notes for this report", r.adminNotes ?? "");
    if (notes === null) return; // cancelled: nothing is sent
    update.mutate({ id: r.id, adminNotes: notes });
  };

  const deleteGig = () => {
    if (!window.confirm(`Delete the reported gig "${gigTitle}"? Its escrow, if funded, is refunded to the hirer, and the report is resolved.`)) return;
    remove.mutate(r.gigId);
  };

  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="danger">{REPORT_REASON_LABELS[r.reason] ?? r.reason}</Badge>
        <Badge variant={STATUS_VARIANTS[r.status] ?? "outline"}>{REPORT_STATUS_LABELS[r.status] ?? r.status}</Badge>
        <span className="text-xs text-stone-500">{formatDate(r.createdAt)}</span>
      </div>
      <p className="text-sm text-stone-700">
        <Link to={`/gig/${r.gigId}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          {gigTitle}
        </Link>{" "}
        reported by{" "}
        <Link to={`/profile/${r.reporterId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          {reporterName}
        </Link>
      </p>
      {r.details && <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{r.details}</p>}
      {r.adminNotes && (
        <p className="rounded-lg bg-stone-50 px-3 py-2 text-sm break-words text-stone-700">
          <span className="font-medium">Notes: </span>
          {r.adminNotes}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-status`} className="sr-only">
          Report status
        </label>
        <select
          id={`${id}-status`}
          className={statusSelectClasses}
          value={r.status}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ id: r.id, status: e.target.value as ReportStatus })}
        >
          {REPORT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {REPORT_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <Button variant="outline" size="sm" onClick={addNotes} disabled={update.isPending}>
          <PencilIcon size={15} /> {r.adminNotes ? "Edit Notes" : "Add Notes"}
        </Button>
        {r.gig?.deleted && <Badge variant="outline">Gig deleted</Badge>}
        {r.gig && !r.gig.deleted && (
          <Button variant="outline" size="sm" className="text-red-700 hover:bg-red-50" onClick={deleteGig} disabled={remove.isPending}>
            <TrashIcon size={15} /> Delete Gig
          </Button>
        )}
      </div>
    </Card>
  );
}
