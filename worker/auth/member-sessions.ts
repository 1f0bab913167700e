// A member's sessions are checked in their inbox (durable-objects/member-inbox.ts), one per member, not in the
// database: a request carries `<member id>.<secret>` (./tokens.ts), and the member's inbox answers whether the
// secret's key opens a live session. The sessions table still names each session to its owner (the sessions
// list) and is what a chat room checks (./live-sessions.ts); every way a session ends ends it in both, so it
// ends at once for every request (docs/decisions/032). A sealed token's session (./signed-sessions.ts) reaches the
// inbox with its first request instead of at sign-in (docs/decisions/035).
import type { Env, InboxSession, MemberInboxApi, OpenedSession } from "../env";

const inboxOf = (env: Pick<Env, "MEMBER_INBOX">, userId: string): DurableObjectStub<MemberInboxApi> => env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(userId));

/**
 * The live session the key opens at the member's inbox, or null. A sealed token goes along (docs/decisions/035):
 * the inbox takes its session in at its first request.
 */
export async function sessionAtInbox(env: Pick<Env, "MEMBER_INBOX">, userId: string, tokenKey: string, sealedToken?: string | null): Promise<InboxSession | null> {
  return inboxOf(env, userId).checkSession(tokenKey, sealedToken);
}

/** A sign-in's session, handed to the member's inbox: false when the inbox refuses it (account deleted, or signed out everywhere since). */
export async function openSessionAtInbox(env: Pick<Env, "MEMBER_INBOX">, userId: string, tokenKey: string, session: OpenedSession): Promise<boolean> {
  return inboxOf(env, userId).openSession(tokenKey, session);
}

/** Sign-out: the token's session ends at the member's inbox (`sessionId`, when known: so its sealed token stays refused). */
export async function endSessionAtInbox(env: Pick<Env, "MEMBER_INBOX">, userId: string, tokenKey: string, sessionId?: string): Promise<void> {
  await inboxOf(env, userId).endSessionByKey(tokenKey, sessionId);
}

/** One device signed out from the sessions list. */
export async function endSessionByIdAtInbox(env: Pick<Env, "MEMBER_INBOX">, userId: string, sessionId: string): Promise<void> {
  await inboxOf(env, userId).endSessionById(sessionId);
}

/** "Sign out everywhere", as of `at` (ms): a sign-in begun by then is refused too. */
export async function endAllSessionsAtInbox(env: Pick<Env, "MEMBER_INBOX">, userId: string, at = Date.now()): Promise<void> {
  await inboxOf(env, userId).endAllSessions(at);
}

/**
 * The account is deleted (by its member, or removed by the admin): every session of it ends at its inbox and
 * none opens again. Call it after the deletion is stored; it throws when the inbox cannot be told, so the
 * deletion is reported as failed and can be asked again.
 */
export async function endMemberAccess(env: Pick<Env, "MEMBER_INBOX">, userId: string): Promise<void> {
  await inboxOf(env, userId).accountRemoved();
}
