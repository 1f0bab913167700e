// The Browse tab's filters and the GET /api/gigs query they make (SPEC.md §2 Browse tab). The budget
// bands are wired to minPayment/maxPayment (DESIGN.md §8: the budget filter works, unlike the spec's).
import { BROWSE_CATEGORIES, BUDGET_BANDS as DOMAIN_BUDGET_BANDS } from "../../../../domain/gig";

export const GIG_TYPE_FILTERS = [
  { value: "job_request", label: "Hiring Now" },
  { value: "all", label: "All" },
  { value: "service_offering", label: "For Hire" },
] as const;
export type GigTypeFilter = (typeof GIG_TYPE_FILTERS)[number]["value"];

export { BROWSE_CATEGORIES };
export type BrowseCategory = (typeof BROWSE_CATEGORIES)[number];

/** "All" and the bands of domain/gig.ts, which the worker's browse index is built on. */
export const BUDGET_BANDS = [{ value: "all", label: "All", min: undefined, max: undefined }, ...DOMAIN_BUDGET_BANDS] as const;
export type BudgetBand = (typeof BUDGET_BANDS)[number]["value"];

export interface BrowseFilters {
  gigType: GigTypeFilter;
  category: BrowseCategory;
  budget: BudgetBand;
  /** The search term (title, description or category). */
  q: string;
}

export const DEFAULT_BROWSE_FILTERS: BrowseFilters = { gigType: "all", category: "All", budget: "all", q: "" };

export const BROWSE_PAGE_SIZE = 24;

/** The query parameters of one Browse page: open gigs only, newest first. */
export function browseParams(filters: BrowseFilters): Record<string, string> {
  const params: Record<string, string> = { status: "open" };
  if (filters.gigType !== "all") params.gigType = filters.gigType;
  if (filters.category !== "All") params.category = filters.category;
  const band = BUDGET_BANDS.find((b) => b.value === filters.budget);
  if (band?.min !== undefined) params.minPayment = String(band.min);
  if (band?.max !== undefined) params.maxPayment = String(band.max);
  const q = filters.q.trim();
  if (q) params.q = q;
  params.limit = String(BROWSE_PAGE_SIZE);
  return params;
}

/** A search that names a person rather than a gig: submitting it opens /user/{npub}. */
export function isNpubSearch(term: string): boolean {
  return term.trim().startsWith("npub1");
}
