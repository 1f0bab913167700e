// The gig's history: one event per thing that happened, written in the change that made it happen.
import { and, asc, eq, gte } from "drizzle-orm";
import type { AtomicChange, Guard } from "../db/atomic";
import { gigEvents } from "../db/schema";
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

/** The gig's events, oldest first; from `since` on when given (a later hirer's view, gig-access.ts). */
export async function listGigEvents({ db }: Pick<Deps, "db">, gigId: string, since: string | null = null) {
  const rows = await db
    .select()
    .from(gigEvents)
    .where(and(eq(gigEvents.gigId, gigId), since ? gte(gigEvents.createdAt, since) : undefined))
    .orderBy(asc(gigEvents.createdAt), asc(gigEvents.id));
  return rows.map((r) => {
    const data = JSON.parse(r.data) as Record<string, unknown>;
    return { id: r.id, gigId: r.gigId, type: r.type, actorId: r.actorId, createdAt: r.createdAt, ...data, attachments: Array.isArray(data.attachments) ? data.attachments : [] };
  });
}
