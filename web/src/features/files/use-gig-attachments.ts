// The files delivered on a gig: every attachment listed by its work_submitted events (SPEC.md §3 Gig event).
import { useQuery } from "@tanstack/react-query";
import type { AttachmentView } from "../../../../domain/files";
import { apiJson } from "../../lib/api";

export const gigFileKeys = {
  /** GET /api/gigs/{id}/events (parties and the admin only). */
  events: (gigId: string) => ["/api/gigs", gigId, "events"] as const,
};

interface GigEvent {
  type: string;
  attachments?: AttachmentView[];
}

export function attachmentsOf(events: readonly GigEvent[]): AttachmentView[] {
  return events.filter((e) => e.type === "work_submitted").flatMap((e) => e.attachments ?? []);
}

/** Delivered files, newest submission last. Enable it only for the gig's parties (others get 403). */
export function useGigAttachments(gigId: string, enabled = true) {
  return useQuery({
    queryKey: gigFileKeys.events(gigId),
    queryFn: () => apiJson<GigEvent[]>("GET", `/api/gigs/${gigId}/events`),
    select: attachmentsOf,
    enabled,
  });
}
