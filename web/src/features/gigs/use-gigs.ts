import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api";
import type { Gig } from "./types";

export const gigKeys = {
  all: () => ["/api/gigs"] as const,
  list: (filters: Record<string, string>) => ["/api/gigs", filters] as const,
  detail: (id: string) => ["/api/gigs", id] as const,
};

/** A gig list answer: an array, or a keyset page ({gigs|items, nextCursor}, DESIGN.md §8). */
export function gigsFromAnswer(answer: unknown): Gig[] {
  if (Array.isArray(answer)) return answer as Gig[];
  if (answer && typeof answer === "object") {
    const page = answer as { gigs?: unknown; items?: unknown };
    if (Array.isArray(page.gigs)) return page.gigs as Gig[];
    if (Array.isArray(page.items)) return page.items as Gig[];
  }
  return [];
}

/** The gigs a user posted: hirer of a job_request, or worker of a service_offering (SPEC.md §7). */
export function isPostedBy(gig: Gig, userId: string): boolean {
  return gig.gigType === "service_offering" ? gig.workerId === userId : gig.hirerId === userId;
}

/** Posted gigs for a public profile. A failed request reads as none (the empty state shows). */
export function usePostedGigs(userId: string | undefined) {
  return useQuery({
    queryKey: gigKeys.list({ hirerId: userId ?? "" }),
    queryFn: async () => {
      try {
        const answer = await apiJson<unknown>("GET", `/api/gigs?hirerId=${encodeURIComponent(userId!)}`);
        return gigsFromAnswer(answer).filter((gig) => isPostedBy(gig, userId!));
      } catch (err) {
        console.error("Failed to load posted gigs", err);
        return [];
      }
    },
    enabled: !!userId,
  });
}
