// Nostr sign-in and member sessions (DESIGN.md §6).
import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { nip19 } from "nostr-tools";
import type { Db, UserRow } from "../db/client";
import { authChallenges, sessions, users } from "../db/schema";
import { nowIso } from "../db/client";
import { notFound, unauthorized } from "../errors";
import { firstLoginEventProblem, type LoginEvent } from "../auth/nostr-login";
import { randomHex, sha256Hex } from "../auth/tokens";
import { liveSession } from "../auth/live-sessions";
import { endAdminTokensOfMember } from "../auth/admin";
import { clientLabel, UNKNOWN_CLIENT } from "../auth/client-label";
import type { SessionView } from "../../domain/session";
import type { Deps } from "./deps";
import { closeSocketsOfEndedSessions } from "./session-sockets";

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's "last used" is written at most this often, so using the site is not a write per request. */
export const LAST_USED_GRANULARITY_MS = 5 * 60 * 1000;

export async function createLoginChallenge({ db }: Pick<Deps, "db">): Promise<{ challenge: string; challengeId: string }> {
  const challengeId = crypto.randomUUID();
  const challenge = randomHex(32);
  await db.insert(authChallenges).values({
    id: challengeId,
    challenge,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString(),
  });
  return { challenge, challengeId };
}

/** Checks the signed event against its challenge, consumes the challenge, creates the member on first login. */
export async function signInWithNostr(
  { db }: Pick<Deps, "db">,
  event: LoginEvent,
  challengeId: string,
  siteOrigins: readonly string[],
  userAgent?: string,
): Promise<{ sessionToken: string; user: UserRow }> {
  const now = nowIso();
  const row = await db.query.authChallenges.findFirst({ where: eq(authChallenges.id, challengeId) });
  if (!row || row.consumedAt || row.expiresAt <= now) {
    throw unauthorized("Challenge expired or already used. Please try again.", "invalid_challenge");
  }
  const problem = firstLoginEventProblem(event, { challenge: row.challenge, siteOrigins }, Math.floor(Date.now() / 1000));
  if (problem) throw unauthorized(problem, "invalid_event");

  // Consuming is a compare-and-set: of two requests racing with one challenge, one wins.
  let consumed: { id: string }[];
  try {
    consumed = await db
      .update(authChallenges)
      .set({ consumedAt: now, eventId: event.id })
      .where(and(eq(authChallenges.id, challengeId), isNull(authChallenges.consumedAt), gt(authChallenges.expiresAt, now)))
      .returning({ id: authChallenges.id });
  } catch {
    throw unauthorized("This login event was already used", "replayed_event");
  }
  if (consumed.length === 0) throw unauthorized("Challenge expired or already used. Please try again.", "invalid_challenge");

  const user = await findOrCreateMember(db, event.pubkey);
  const sessionToken = await createSession(db, user.id, userAgent);
  return { sessionToken, user };
}

async function findOrCreateMember(db: Db, pubkey: string): Promise<UserRow> {
  await db
    .insert(users)
    .values({ id: crypto.randomUUID(), username: nip19.npubEncode(pubkey), nostrPubkey: pubkey })
    .onConflictDoNothing();
  const user = await db.query.users.findFirst({ where: eq(users.nostrPubkey, pubkey) });
  if (!user) throw new Error("member row missing after insert");
  return user;
}

export async function createSession(db: Db, userId: string, userAgent?: string): Promise<string> {
  const token = randomHex(32);
  const now = nowIso();
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    id: crypto.randomUUID(),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
    client: clientLabel(userAgent),
    lastUsedAt: now,
  });
  return token;
}

export interface LiveSession {
  user: UserRow;
  sessionId: string;
  lastUsedAt: string | null;
}

/** The live session a bearer token opens, or null when it is unknown, expired or the account is gone. */
export async function sessionForToken(db: Db, token: string): Promise<LiveSession | null> {
  const rows = await db
    .select({ user: users, sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, await sha256Hex(token)), liveSession(nowIso())))
    .limit(1);
  const row = rows[0];
  return row ? { user: row.user, sessionId: row.sessionId ?? "", lastUsedAt: row.lastUsedAt } : null;
}

/** The member a bearer token belongs to, or null when it is unknown, expired or the account is gone. */
export async function memberForToken(db: Db, token: string): Promise<UserRow | null> {
  return (await sessionForToken(db, token))?.user ?? null;
}

/** Whether a session's "last used" is old enough to be written again. */
export function lastUsedIsStale(lastUsedAt: string | null, now = Date.now()): boolean {
  return !lastUsedAt || Date.parse(lastUsedAt) < now - LAST_USED_GRANULARITY_MS;
}

/** Records that a session was used now; a no-op when another request already did within the granularity. */
export async function touchSession(db: Db, sessionId: string, now = Date.now()): Promise<void> {
  const staleBefore = new Date(now - LAST_USED_GRANULARITY_MS).toISOString();
  await db
    .update(sessions)
    .set({ lastUsedAt: new Date(now).toISOString() })
    .where(and(eq(sessions.id, sessionId), or(isNull(sessions.lastUsedAt), lt(sessions.lastUsedAt, staleBefore))));
}

/**
 * The member's live sessions: the one asking first (`current`), then the others most recently used first. The one asking is
 * named from this request's User-Agent when its stored label says nothing ("Unknown device": it was created
 * by a client that sent none, e.g. a script, or before labels were kept), and that better label is stored,
 * so the list never calls the very device it is read on unknown. Other sessions keep their stored label.
 */
export async function listSessions({ db }: Pick<Deps, "db">, userId: string, currentSessionId: string, userAgent?: string): Promise<SessionView[]> {
  const rows = await db
    .select({ id: sessions.id, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, client: sessions.client })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, nowIso())))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  const here = clientLabel(userAgent);
  const views = rows.map((row) => {
    const current = !!currentSessionId && row.id === currentSessionId;
    const stored = row.client ?? UNKNOWN_CLIENT;
    return {
      id: row.id ?? "",
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt ?? row.createdAt,
      client: current && stored === UNKNOWN_CLIENT ? here : stored,
      current,
    };
  });
  // This device first, then the others by last use: the one to recognise, and the ones to check.
  views.sort((a, b) => Number(b.current) - Number(a.current));
  if (here !== UNKNOWN_CLIENT && rows.some((row) => row.id === currentSessionId && (row.client ?? UNKNOWN_CLIENT) === UNKNOWN_CLIENT)) {
    await db
      .update(sessions)
      .set({ client: here })
      .where(and(eq(sessions.id, currentSessionId), or(isNull(sessions.client), eq(sessions.client, UNKNOWN_CLIENT))));
  }
  return views;
}

/**
 * Ends every session of the member, the one asking included, and every admin token their key opened
 * (decision 023), in one batch. Answers how many member sessions ended.
 */
export async function endAllSessions({ db, env }: SessionEnding, userId: string): Promise<number> {
  const [ended] = await db.batch([
    db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }),
    endAdminTokensOfMember(db, userId),
  ]);
  if (env) await closeSocketsOfEndedSessions(env, userId);
  return ended.length;
}

/**
 * Ending sessions needs the database; with the bindings (`env`, as every route passes) the ended sessions'
 * open sockets (chat rooms, inbox tabs) are closed at once (worker/services/chat.ts), else at their next check.
 */
type SessionEnding = Pick<Deps, "db"> & Partial<Pick<Deps, "env">>;

/** Ends one of the member's own sessions; another member's (or an unknown) id is 404 and ends nothing. */
export async function endSessionById({ db, env }: SessionEnding, userId: string, sessionId: string): Promise<void> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound("Session not found");
  if (env) await closeSocketsOfEndedSessions(env, userId);
}

export async function endSession({ db, env }: SessionEnding, token: string): Promise<void> {
  const ended = await db.delete(sessions).where(eq(sessions.tokenHash, await sha256Hex(token))).returning({ userId: sessions.userId });
  if (env) for (const { userId } of ended) await closeSocketsOfEndedSessions(env, userId);
}
