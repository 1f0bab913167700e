// The gig's history: one event per thing that happened, written in the change that made it happen.
import { and, asc, eq, gte } from "drizzle-orm";
import type { AtomicChange, Guard } from "../db/atomic";
import { gigEvents } from "../db/schema";
import { withArchivedEvents } from "./archived-gig";
import type { Deps } from "./deps";

export interface GigEventDraft {
  gigId: string;
  type: string;
  actorId: string | null;
  data?: Record<string, unknown>;
}

export function addGigEvent(change: AtomicChange, when: Guard, event: GigEventDraft): void {
  change.insert(
    gigEvents,
    { id: crypto.randomUUID(), gigId: event.gigId, type: event.type, actorId: event.actorId, data: JSON.stringify(event.data ?? {}), createdAt: change.at },
    when,
  );
}

/**
 * The gig's events, oldest first; from `since` on when given (a later hirer's view, gig-access.ts). An archived
 * gig's (`archivedAt`, the gig's row) are in its document in R2, before any written since.
 */
export async function listGigEvents(deps: Pick<Deps, "db" | "env">, gigId: string, since: string | null = null, archivedAt: string | null = null) {
  const live = await deps.db
    .select()
    .from(gigEvents)
    .where(and(eq(gigEvents.gigId, gigId), since ? gte(gigEvents.createdAt, since) : undefined))
    .orderBy(asc(gigEvents.createdAt), asc(gigEvents.id));
  const rows = archivedAt ? await withArchivedEvents(deps, gigId, live, since) : live;
  return rows.map((r) => {
    const data = JSON.parse(r.data) as Record<string, unknown>;
    return { id: r.id, gigId: r.gigId, type: r.type, actorId: r.actorId, createdAt: r.createdAt, ...data, attachments: Array.isArray(data.attachments) ? data.attachments : [] };
  });
}
