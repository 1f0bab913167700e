// Nostr sign-in and member sessions (DESIGN.md §6).
import { and, eq, gt, isNull } from "drizzle-orm";
import { nip19 } from "nostr-tools";
import type { Db, UserRow } from "../context";
import { authChallenges, sessions, users } from "../db/schema";
import { nowIso } from "../db/client";
import { unauthorized } from "../errors";
import { firstLoginEventProblem, type LoginEvent } from "../auth/nostr-login";
import { randomHex, sha256Hex } from "../auth/tokens";
import { liveSession } from "../auth/live-sessions";

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export async function createLoginChallenge(db: Db): Promise<{ challenge: string; challengeId: string }> {
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
  db: Db,
  event: LoginEvent,
  challengeId: string,
  siteOrigins: readonly string[],
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
  const sessionToken = await createSession(db, user.id);
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

export async function createSession(db: Db, userId: string): Promise<string> {
  const token = randomHex(32);
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
  });
  return token;
}

/** The member a bearer token belongs to, or null when it is unknown, expired or the account is gone. */
export async function memberForToken(db: Db, token: string): Promise<UserRow | null> {
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, await sha256Hex(token)), liveSession(nowIso())))
    .limit(1);
  return rows[0]?.user ?? null;
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, await sha256Hex(token)));
}
