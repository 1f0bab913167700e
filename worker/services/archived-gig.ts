// An archived gig's document in R2 (decision 033) and how its parts are read back: the gig's events, interest
// messages, notifications and chat as they were when it was archived (worker/services/archive.ts writes it).
// The read paths (gig-events.ts, chat.ts, admin-chat.ts) call this when the gig's row says `archived_at`, so
// an old gig reads the same to everyone allowed to read it; who may read what is still decided there.
// Anything written for the gig after it was archived (a late chat message) stays in D1 and is read with it.
import { inArray } from "drizzle-orm";
import type { ChatMessageView } from "../../domain/chat-protocol";
import type { gigEvents, notifications, preClaimMessages } from "../db/schema";
import { users } from "../db/schema";
import { decodePageCursor, encodePageCursor } from "./page-cursor";
import type { RoomChatMessage } from "../env";
import type { Deps } from "./deps";

export type GigEventRow = typeof gigEvents.$inferSelect;
export type InterestMessageRow = typeof preClaimMessages.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

/** One gig's history, as one JSON document in R2 (FILES) under `archiveKey(gigId)`. */
export interface ArchivedGig {
  format: 1;
  gigId: string;
  /** When this version of the document was written (a run that was interrupted writes it again). */
  writtenAt: string;
  /** Its rows as D1 held them, oldest first. */
  events: GigEventRow[];
  interestMessages: InterestMessageRow[];
  notifications: NotificationRow[];
  /** Its chat, oldest first, as `GET /api/gigs/{id}/messages` answered it (the senders' names are read again when shown). */
  chat: ChatMessageView[];
}

export const ARCHIVE_PREFIX = "archive/gigs/";
export const archiveKey = (gigId: string) => `${ARCHIVE_PREFIX}${gigId}.json`;

/** The gig's document; an archived gig without one is a fault (its history would be gone), never "no history". */
export async function readArchivedGig(env: Pick<Deps["env"], "FILES">, gigId: string): Promise<ArchivedGig> {
  const object = await env.FILES.get(archiveKey(gigId));
  if (!object) throw new Error(`gig ${gigId} is archived but its document is not in R2`);
  return (await object.json()) as ArchivedGig;
}

/** Oldest first by (created_at, id), as the D1 queries order them; each id once (the document's copy first). */
export function oldestFirst<T extends { id: string; createdAt: string }>(...lists: T[][]): T[] {
  const byId = new Map<string, T>();
  for (const list of lists) for (const row of list) if (!byId.has(row.id)) byId.set(row.id, row);
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `GET /api/gigs/{id}/events` of an archived gig: its document's events with `live` (written since), from `since` on. */
export async function withArchivedEvents(deps: Pick<Deps, "env">, gigId: string, live: GigEventRow[], since: string | null): Promise<GigEventRow[]> {
  const doc = await readArchivedGig(deps.env, gigId);
  return oldestFirst(doc.events.filter((e) => !since || e.createdAt >= since), live);
}

const ADMIN_SENDER = { username: "admin", displayName: "Platform Admin", profilePicture: null };

/** Each member's name and picture as they are now, as the live history joins them (a renamed or deleted member reads as such). */
async function withSenders(deps: Pick<Deps, "db">, messages: ChatMessageView[]): Promise<ChatMessageView[]> {
  const ids = [...new Set(messages.flatMap((m) => (m.senderType === "user" && m.senderId ? [m.senderId] : [])))];
  const found = ids.length
    ? await deps.db.select({ id: users.id, username: users.username, displayName: users.displayName, profilePicture: users.profilePicture }).from(users).where(inArray(users.id, ids))
    : [];
  const byId = new Map(found.map((u) => [u.id, u]));
  return messages.map((m) => {
    if (m.senderType === "admin") return { ...m, sender: ADMIN_SENDER };
    const u = m.senderId ? byId.get(m.senderId) : undefined;
    return { ...m, sender: { username: u?.username ?? null, displayName: u?.displayName ?? null, profilePicture: u?.profilePicture ?? null } };
  });
}

/** The gig's chat where it lives now (chat.ts `gigChatHistory`): for an archived gig, only what was sent since (none, usually). */
export type LiveChat = (env: Deps["env"], gigId: string) => Promise<ChatMessageView[]>;

/** An archived gig's whole chat, oldest first: its document's messages and any sent since. */
export async function archivedChat(deps: Pick<Deps, "db" | "env">, gigId: string, live: LiveChat): Promise<ChatMessageView[]> {
  const [doc, since] = await Promise.all([readArchivedGig(deps.env, gigId), live(deps.env, gigId)]);
  return withSenders(deps, oldestFirst(doc.chat, since));
}

/**
 * `GET /api/gigs/{id}/messages` of an archived gig, paged as the live history pages: the latest `limit` messages
 * before the cursor, from `since` on (a re-hire's hirer), oldest first, `nextCursor` paging further back.
 */
export async function archivedChatPage(
  deps: Pick<Deps, "db" | "env">,
  gigId: string,
  since: string | null,
  page: { limit: number; before?: string },
  live: LiveChat,
): Promise<{ messages: ChatMessageView[]; nextCursor: string | null }> {
  const before = page.before ? decodePageCursor(page.before) : null;
  const shown = (await archivedChat(deps, gigId, live)).filter(
    (m) =>
      (!since || m.createdAt >= since) &&
      (!before || m.createdAt < before.createdAt || (m.createdAt === before.createdAt && m.id < before.id)),
  );
  const messages = shown.slice(-page.limit);
  return { messages, nextCursor: shown.length > page.limit && messages[0] ? encodePageCursor(messages[0]) : null };
}

/** An archived gig's latest `limit` messages as a room stores them, newest first (the admin's chat view). */
export async function archivedChatStored(deps: Pick<Deps, "db" | "env">, gigId: string, live: LiveChat, limit: number): Promise<RoomChatMessage[]> {
  const messages = await archivedChat(deps, gigId, live);
  return messages
    .slice(-limit)
    .reverse()
    .map((m) => ({
      id: m.id,
      senderId: m.senderType === "admin" ? null : m.senderId,
      senderType: m.senderType,
      message: m.message,
      attachmentId: m.fileAttachment?.id ?? null,
      createdAt: m.createdAt,
    }));
}
