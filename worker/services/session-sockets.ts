// Sessions that end close their sockets at once: a member's inbox (durable-objects/member-inbox.ts) keeps
// which gigs' rooms the member joined, and when some of their sessions end it closes its own tabs of those
// sessions and asks each room to close theirs (1008). Called by services/auth.ts when sessions end.
import type { Env, GigRoomApi, MemberInboxApi } from "../env";

/** What a room and an inbox do when a member's sessions end: close that member's sockets whose session ended. */
export interface EndedSessionsApi {
  /** Closes (1008, after an error frame) the member's sockets whose session ended; answers how many of theirs stay open. */
  closeEndedSessions(userId: string): Promise<number>;
}

/** The inbox also keeps which gigs' rooms the member joined, so that the rooms can be reached when a session ends. */
export interface InboxRoomsApi extends EndedSessionsApi {
  rememberRoom(gigId: string): Promise<void>;
}

// worker/env.ts names the rooms' and inboxes' other methods; these two are named here, beside their callers.
export const chatRoomOf = (env: Pick<Env, "GIG_ROOM">, gigId: string) =>
  env.GIG_ROOM.get(env.GIG_ROOM.idFromName(gigId)) as unknown as DurableObjectStub<GigRoomApi & EndedSessionsApi>;
const inboxOf = (env: Pick<Env, "MEMBER_INBOX">, userId: string) =>
  env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(userId)) as unknown as DurableObjectStub<MemberInboxApi & InboxRoomsApi>;

/** A member's socket joined a gig's room: their inbox remembers the room (durable-objects/member-inbox.ts). */
export async function rememberChatRoom(env: Pick<Env, "MEMBER_INBOX">, userId: string, gigId: string): Promise<void> {
  try {
    await inboxOf(env, userId).rememberRoom(gigId);
  } catch (err) {
    // The room still re-checks its listeners' sessions within a minute (RECHECK_LISTENERS_MS).
    console.error("could not remember a member's chat room", userId, gigId, err);
  }
}

/**
 * Some of a member's sessions just ended (sign out, sign out everywhere, one device signed out): their inbox
 * closes its tabs whose session ended and asks every room the member joined to close theirs, at once (1008).
 * Never fails the sign-out: a socket missed here is still closed at its room's next re-check.
 */
export async function closeSocketsOfEndedSessions(env: Pick<Env, "MEMBER_INBOX">, userId: string): Promise<void> {
  try {
    await inboxOf(env, userId).closeEndedSessions(userId);
  } catch (err) {
    console.error("could not close the sockets of ended sessions", userId, err);
  }
}
