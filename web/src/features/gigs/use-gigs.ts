// Query hooks of the gigs area. Keys start with the request path (SPEC.md §7), so invalidating
// gigKeys.all() refreshes every list, every gig and its interest messages after an action.
import { useInfiniteQuery, useQuery, useQueryClient, type Query, type QueryClient } from "@tanstack/react-query";
import { apiJson, apiRequest, readJson } from "../../lib/api";
import { gigListPath, MY_GIGS_PARAMS } from "../../lib/member-tab-paths";
import { useAuth } from "../auth/auth-context";
import { browseParams, type BrowseFilters } from "./browse-query";
import type { ExtensionRequest, Gig, InterestMessage } from "./types";

export const gigKeys = {
  all: () => ["/api/gigs"] as const,
  list: (filters: Record<string, string>) => ["/api/gigs", filters] as const,
  detail: (id: string) => ["/api/gigs", id] as const,
  interest: (id: string) => ["/api/gigs", id, "pre-claim-messages"] as const,
  extensions: (id: string) => ["/api/gigs", id, "extension-requests"] as const,
};

/** The gigs a user posted: hirer of a job_request, or worker of a service_offering (SPEC.md §7). */
export function isPostedBy(gig: Gig, userId: string): boolean {
  return gig.posterId === userId;
}

/**
 * Posted gigs for a public profile: GET /api/gigs?posterId=…, so service offerings (where the poster is the
 * worker) appear next to job requests. A failed request reads as none (the empty state shows).
 */
export function usePostedGigs(userId: string | undefined) {
  return useQuery({
    queryKey: gigKeys.list({ posterId: userId ?? "" }),
    queryFn: async () => {
      try {
        const gigs = await apiJson<Gig[]>("GET", `/api/gigs?posterId=${encodeURIComponent(userId!)}`);
        return gigs.filter((gig) => isPostedBy(gig, userId!));
      } catch (err) {
        console.error("Failed to load posted gigs", err);
        return [];
      }
    },
    enabled: !!userId,
  });
}

export interface GigPage {
  gigs: Gig[];
  /** The next page's cursor (the X-Next-Cursor header), null on the last page. */
  nextCursor: string | null;
}

export async function fetchGigPage(params: Record<string, string>, cursor?: string | null): Promise<GigPage> {
  const res = await apiRequest("GET", gigListPath(params, cursor));
  return { gigs: (await readJson<Gig[] | undefined>(res)) ?? [], nextCursor: res.headers.get("X-Next-Cursor") || null };
}

/** Open gigs for the Browse tab, a page at a time ("Load more"). */
export function useBrowseGigs(filters: BrowseFilters) {
  const params = browseParams(filters);
  return useInfiniteQuery({
    queryKey: gigKeys.list(params),
    queryFn: ({ pageParam }) => fetchGigPage(params, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Pages read for the Active tab at most (100 gigs a page): far more than one member takes part in. */
const MY_GIGS_MAX_PAGES = 10;

/**
 * A list read this recently is not read again when the Active tab mounts: it was read for this very visit (the
 * member's first draw waits for it, features/layout/member-tab-reads.ts).
 */
const READ_FOR_THIS_VISIT_MS = 3_000;

/** Every gig the member `userId` takes part in (participant=me, DESIGN.md §8), not every gig of the site. */
export function myGigsQuery(userId: string) {
  const params = MY_GIGS_PARAMS;
  return {
    queryKey: [...gigKeys.list(params), userId],
    queryFn: async () => {
      const gigs: Gig[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < MY_GIGS_MAX_PAGES; page++) {
        const answer: GigPage = await fetchGigPage(params, cursor);
        gigs.push(...answer.gigs);
        cursor = answer.nextCursor;
        if (!cursor) break;
      }
      return gigs;
    },
  };
}

/** The signed-in member's gigs (myGigsQuery). */
export function useMyGigs() {
  const { user } = useAuth();
  return useQuery({
    ...myGigsQuery(user?.id ?? ""),
    enabled: !!user,
    // Gigs move on while the member is away (a payment lands, a worker submits): ask again on each visit.
    refetchOnMount: (query) => (Date.now() - query.state.dataUpdatedAt < READ_FOR_THIS_VISIT_MS ? false : "always"),
  });
}

/** Whether a cached value is the gig `id` (the cache under gigKeys.all() also holds interest and extension lists). */
function isGigWithId(value: unknown, id: string): value is Gig {
  return typeof value === "object" && value !== null && "id" in value && value.id === id && "title" in value && "gigType" in value;
}

/** Every value a cached answer under gigKeys.all() holds: a list's items, an infinite list's pages' gigs, or itself. */
function cachedValues(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (typeof data === "object" && data !== null && "pages" in data && Array.isArray(data.pages)) {
    return data.pages.flatMap((page: unknown) => (typeof page === "object" && page !== null && "gigs" in page && Array.isArray(page.gigs) ? page.gigs : []));
  }
  return [data];
}

/** A gig seen in any list already in the cache: the details modal shows it while its own read runs. */
export function findCachedGig(queryClient: QueryClient, id: string): Gig | undefined {
  for (const [, data] of queryClient.getQueriesData<unknown>({ queryKey: gigKeys.all() })) {
    const found = cachedValues(data).find((value): value is Gig => isGigWithId(value, id));
    if (found) return found;
  }
  return undefined;
}

/** One gig (GET /api/gigs/{id}), read afresh whenever its modal opens. */
export function useGig(id: string | null, options: { refetchInterval?: number | false | ((query: Query<Gig>) => number | false) } = {}) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: gigKeys.detail(id ?? ""),
    queryFn: () => apiJson<Gig>("GET", `/api/gigs/${encodeURIComponent(id!)}`),
    enabled: !!id,
    refetchOnMount: "always",
    placeholderData: () => (id ? findCachedGig(queryClient, id) : undefined),
    refetchInterval: options.refetchInterval,
  });
}

/** Interest messages of an open gig: the owner sees all, anyone else only their own. */
export function useInterestMessages(gigId: string, enabled: boolean) {
  return useQuery({
    queryKey: gigKeys.interest(gigId),
    queryFn: () => apiJson<InterestMessage[]>("GET", `/api/gigs/${encodeURIComponent(gigId)}/pre-claim-messages`),
    enabled,
    refetchOnMount: "always",
  });
}

/** A gig's extension requests, oldest first (the parties only). Under gigKeys.all(), so every gig action refreshes it. */
export function useExtensionRequests(gigId: string, enabled: boolean) {
  return useQuery({
    queryKey: gigKeys.extensions(gigId),
    queryFn: () => apiJson<ExtensionRequest[]>("GET", `/api/gigs/${encodeURIComponent(gigId)}/extension-requests`),
    enabled,
    refetchOnMount: "always",
  });
}
