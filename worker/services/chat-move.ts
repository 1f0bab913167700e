// The chat move (decision 031): the messages D1 held before each gig's room kept its own are copied into
// the rooms, a few gigs each minute (the cron), until chat_messages is empty. Safe to run twice and safe to
// stop anywhere: a room keeps a message by its id and ignores one it has, and a D1 row is deleted only after
// its room answered that it holds it. Until a gig is moved, its history reads the room's messages and D1's
// leftovers together (worker/services/chat.ts, storedMessages), so nobody sees a gap or a double.
import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import { chatMessages } from "../db/schema";
import type { RoomChatMessage } from "../env";
import type { Deps } from "./deps";
import { STORED_MESSAGE_COLUMNS } from "./chat";

/** Gigs moved per cron run: each is a few room calls and D1 statements, well inside a minute's work. */
export const CHAT_MOVE_GIGS_PER_RUN = 5;
/** Messages read from D1 and handed to a room at once. */
const PAGE = 200;
/** D1 binds at most 100 values a statement. */
const DELETE_GROUP = 90;

/** Moves up to `gigs` gigs' messages into their rooms; `done` once D1 holds none. */
export async function moveChatToRooms(deps: Pick<Deps, "db" | "env">, { gigs = CHAT_MOVE_GIGS_PER_RUN }: { gigs?: number } = {}): Promise<{ moved: number; done: boolean }> {
  const waiting = await deps.db.selectDistinct({ gigId: chatMessages.gigId }).from(chatMessages).limit(gigs + 1);
  const now = waiting.slice(0, gigs);
  for (const { gigId } of now) await moveGigChat(deps, gigId);
  return { moved: now.length, done: waiting.length <= gigs };
}

/** Runs the move to its end (what the cron does over many minutes): for a test, or a one-off run. */
export async function moveAllChatToRooms(deps: Pick<Deps, "db" | "env">): Promise<number> {
  let moved = 0;
  for (;;) {
    const run = await moveChatToRooms(deps, { gigs: 20 });
    moved += run.moved;
    if (run.done) return moved;
  }
}

/**
 * One gig: every D1 message handed to the room in order, page by page; the room writes the gig's summary from
 * what it then holds; only then are the rows it answered for deleted from D1.
 */
export async function moveGigChat(deps: Pick<Deps, "db" | "env">, gigId: string): Promise<number> {
  const room = deps.env.GIG_ROOM.get(deps.env.GIG_ROOM.idFromName(gigId));
  const held: string[] = [];
  let after: RoomChatMessage | null = null;
  for (;;) {
    const page: RoomChatMessage[] = await deps.db
      .select(STORED_MESSAGE_COLUMNS)
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.gigId, gigId),
          after ? or(gt(chatMessages.createdAt, after.createdAt), and(eq(chatMessages.createdAt, after.createdAt), gt(chatMessages.id, after.id))) : undefined,
        ),
      )
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
      .limit(PAGE);
    if (page.length === 0) break;
    held.push(...(await room.importChatMessages(gigId, page)));
    after = page[page.length - 1]!;
  }
  await room.settleChatSummary(gigId);
  const groups: string[][] = [];
  for (let i = 0; i < held.length; i += DELETE_GROUP) groups.push(held.slice(i, i + DELETE_GROUP));
  for (const group of groups) await deps.db.delete(chatMessages).where(and(eq(chatMessages.gigId, gigId), inArray(chatMessages.id, group)));
  return held.length;
}
