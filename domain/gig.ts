// The gig: its vocabulary and the state machine (DESIGN.md §4). The form rules are in gig-schemas.ts
// (zod stays off the web app's first page).

export const GIG_TYPES = ["job_request", "service_offering"] as const;
export type GigType = (typeof GIG_TYPES)[number];

export const GIG_STATUSES = [
  "pending_payment",
  "open",
  "claimed",
  "in_progress",
  "needs_revision",
  "work_submitted",
  "completed",
  "disputed",
  "cancelled",
] as const;
export type GigStatus = (typeof GIG_STATUSES)[number];
export const TERMINAL_STATUSES: readonly GigStatus[] = ["completed", "cancelled"];

/** A gig's `resolution` once the admin removed it (moderation): hidden from everyone but its parties and the admin. */
export const REMOVED_BY_ADMIN = "deleted_by_admin";

export const ESCROW_STATUSES = ["pending", "funded", "released", "refunded"] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];

export const CATEGORIES = ["Development", "Design", "Writing", "Marketing", "Video/Audio", "Consulting", "Other"] as const;
export const BROWSE_CATEGORIES = ["All", "Development", "Design", "Writing", "Marketing"] as const;

export const GIG_TYPE_LABELS: Record<GigType, string> = { job_request: "Hiring Now", service_offering: "For Hire" };

export const STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  pending_payment: "Pending Payment",
  open: "Available",
  claimed: "Worker Claimed",
  in_progress: "In Progress",
  needs_revision: "Needs Revision",
  work_submitted: "Work Submitted",
  submitted: "Work Submitted",
  completed: "Completed",
  disputed: "Under Review",
  cancelled: "Cancelled",
};

/** Any unknown status is shown as raw text (SPEC.md §4). */
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;

export { MIN_PAYMENT, MAX_PAYMENT } from "./fees";

/**
 * The Browse tab's budget bands (SPEC.md §2), in sats, both ends inclusive; an open end is undefined.
 * One definition for the web's filter and the worker's index: `gigs.budget_band` (worker/db/schema.ts)
 * is the position of a gig's payment in this list, so changing a boundary needs a new migration.
 */
export const BUDGET_BANDS = [
  { value: "under-10k", label: "Under 10k sats", min: undefined, max: 9_999 },
  { value: "10k-50k", label: "10k-50k sats", min: 10_000, max: 50_000 },
  { value: "50k-100k", label: "50k-100k sats", min: 50_001, max: 100_000 },
  { value: "over-100k", label: "Over 100k sats", min: 100_001, max: undefined },
] as const satisfies readonly { value: string; label: string; min: number | undefined; max: number | undefined }[];
export type BudgetBandValue = (typeof BUDGET_BANDS)[number]["value"];

/** The band (index into BUDGET_BANDS) a payment falls in. */
export function budgetBandOf(payment: number): number {
  const i = BUDGET_BANDS.findIndex((b) => b.max === undefined || payment <= b.max);
  return i === -1 ? BUDGET_BANDS.length - 1 : i;
}

/**
 * The one band that holds every payment of the range min…max (either end may be open), or null when
 * the range spans more than one band (or is empty). A browse query can then look in that band alone.
 */
export function budgetBandOfRange(min: number | undefined, max: number | undefined): number | null {
  if (min !== undefined && max !== undefined && min > max) return null;
  const lo = budgetBandOf(min ?? Number.NEGATIVE_INFINITY);
  const hi = budgetBandOf(max ?? Number.POSITIVE_INFINITY);
  return lo === hi ? lo : null;
}
export const MIN_TIMEFRAME = 1;
export const MAX_TIMEFRAME = 30;
export const DEFAULT_TIMEFRAME = 7;

// ---- The state machine -------------------------------------------------------------------

/** Who is acting, relative to one gig. */
export type GigRole = "owner" | "hirer" | "worker" | "member" | "visitor" | "admin" | "system";

export type GigAction =
  | "claim"
  | "start_work"
  | "submit_work"
  | "request_revision"
  | "approve"
  | "dispute"
  | "cancel"
  | "edit"
  | "change_budget"
  | "request_extension"
  | "extend_deadline"
  | "resolve_dispute"
  | "send_interest"
  | "review_interest"
  | "review"
  | "receipt";

export interface ActionRule {
  from: readonly GigStatus[];
  /** Roles allowed; for "member" the rules in the service add more (approved interest, etc.). */
  by: readonly GigRole[];
  types?: readonly GigType[];
}

/** DESIGN.md §4, one row per action. The service enforces it; the table-driven test reads it. */
export const ACTION_RULES: Record<GigAction, ActionRule> = {
  send_interest: { from: ["open"], by: ["member"] },
  review_interest: { from: ["open"], by: ["owner"] },
  claim: { from: ["open"], by: ["member"] },
  start_work: { from: ["claimed"], by: ["worker"] },
  submit_work: { from: ["in_progress", "needs_revision"], by: ["worker"] },
  request_revision: { from: ["work_submitted"], by: ["hirer"] },
  approve: { from: ["work_submitted"], by: ["hirer"] },
  dispute: { from: ["work_submitted"], by: ["hirer", "worker"] },
  cancel: { from: ["pending_payment", "open", "claimed"], by: ["hirer", "worker", "owner"] },
  edit: { from: ["pending_payment", "open", "claimed", "in_progress", "needs_revision"], by: ["owner", "hirer", "worker"] },
  change_budget: { from: ["open"], by: ["owner"], types: ["service_offering"] },
  request_extension: { from: ["claimed", "in_progress"], by: ["worker"] },
  extend_deadline: { from: ["claimed", "in_progress"], by: ["hirer"] },
  resolve_dispute: { from: ["disputed"], by: ["admin"] },
  review: { from: ["work_submitted", "completed", "disputed"], by: ["hirer", "worker"] },
  receipt: { from: ["completed"], by: ["hirer", "worker"] },
};

export interface GigParties {
  gigType: GigType;
  posterId: string;
  hirerId: string | null;
  workerId: string | null;
}

/** Every role a user holds on a gig (the owner is also the hirer or the worker). */
export function rolesOf(gig: GigParties, userId: string | null, isAdmin = false): GigRole[] {
  const roles: GigRole[] = [];
  if (isAdmin) roles.push("admin");
  if (!userId) return roles.length ? roles : ["visitor"];
  if (gig.posterId === userId) roles.push("owner");
  if (gig.hirerId === userId) roles.push("hirer");
  if (gig.workerId === userId) roles.push("worker");
  if (!roles.includes("owner") && !roles.includes("hirer") && !roles.includes("worker")) roles.push("member");
  return roles;
}

export type Verdict = { ok: true } | { ok: false; reason: "forbidden" | "wrong_state" };

/**
 * May these roles take this action on a gig in this status? The role check comes first:
 * a stranger learns nothing about the state (403), a party acting out of turn gets 409.
 */
export function judge(action: GigAction, status: string, gigType: GigType, roles: readonly GigRole[]): Verdict {
  const rule = ACTION_RULES[action];
  if (rule.types && !rule.types.includes(gigType)) return { ok: false, reason: "forbidden" };
  if (!roles.some((r) => rule.by.includes(r))) return { ok: false, reason: "forbidden" };
  if (!(rule.from as readonly string[]).includes(status)) return { ok: false, reason: "wrong_state" };
  return { ok: true };
}

export const isParty = (gig: GigParties, userId: string | null | undefined) =>
  !!userId && (gig.posterId === userId || gig.hirerId === userId || gig.workerId === userId);

/**
 * "edit" beyond ACTION_RULES: a party other than the owner edits only once the escrow is funded. The hirer
 * of a service offering who has not paid yet may withdraw, and the worker's offer is public again.
 */
export const editFundedOrOwner = (roles: readonly GigRole[], escrowStatus: string | null | undefined) => roles.includes("owner") || escrowStatus === "funded";
