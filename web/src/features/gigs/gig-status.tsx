import { Badge, type BadgeVariant } from "../../components/ui/badge";
import type { GigType } from "./types";

/** Status labels of SPEC.md §4; any unknown status is shown as raw text. */
const STATUS: Record<string, { label: string; variant: BadgeVariant }> = {
  pending: { label: "Pending", variant: "default" },
  pending_payment: { label: "Pending Payment", variant: "warning" },
  open: { label: "Available", variant: "success" },
  claimed: { label: "Worker Claimed", variant: "info" },
  in_progress: { label: "In Progress", variant: "info" },
  needs_revision: { label: "Needs Revision", variant: "warning" },
  work_submitted: { label: "Work Submitted", variant: "brand" },
  submitted: { label: "Work Submitted", variant: "brand" },
  completed: { label: "Completed", variant: "success" },
  disputed: { label: "Under Review", variant: "danger" },
  cancelled: { label: "Cancelled", variant: "default" },
};

export function gigStatusLabel(status: string): string {
  return STATUS[status]?.label ?? status;
}

export function GigStatusBadge({ status }: { status: string }) {
  const known = STATUS[status];
  return <Badge variant={known?.variant ?? "outline"}>{known?.label ?? status}</Badge>;
}

export function gigTypeLabel(gigType: GigType | string, short = false): string {
  if (gigType === "service_offering") return "For Hire";
  return short ? "Hiring" : "Hiring Now";
}

export function GigTypeBadge({ gigType, short = false }: { gigType: GigType | string; short?: boolean }) {
  return <Badge variant={gigType === "service_offering" ? "info" : "brand"}>{gigTypeLabel(gigType, short)}</Badge>;
}
