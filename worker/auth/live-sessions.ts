// Many credentials checked at once (the chat room re-checks its listeners' sessions together): the same
// conditions as `memberForToken` (worker/services/auth.ts) and `isAdminToken` (./admin.ts), in one query
// per at most MAX_PER_QUERY tokens instead of one query per token; the queries can also go into a batch with
// other statements, and the same conditions can guard a write (a chat message's, services/chat.ts).
import { and, eq, exists, gt, inArray, isNull, sql, type Placeholder } from "drizzle-orm";
import type { Db, UserRow } from "../db/client";
import { adminSessions, sessions, users } from "../db/schema";
import { parseMemberSessionToken, sessionKeyOf, sha256Hex } from "./tokens";

/** D1 binds at most 100 parameters per statement; the expiry takes one. */
export const MAX_PER_QUERY = 90;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What makes a session live besides its token: not expired, and its account not deleted (sessions joined with
 * users). `at` is the time, or a placeholder for it in SQL built once (services/auth.ts).
 */
export function liveSession(at: string | Placeholder) {
  return and(gt(sessions.expiresAt, at), isNull(users.deletedAt));
}

/** Each distinct token by its SHA-256 (what the tables keep), hashed by `key`. */
async function hashed(tokens: Iterable<string>, key: (token: string) => Promise<string> = sha256Hex): Promise<Map<string, string>> {
  const distinct = [...new Set(tokens)];
  const hashes = await Promise.all(distinct.map((t) => key(t)));
  return new Map(hashes.map((h, i) => [h, distinct[i]!]));
}

/**
 * The lookups behind `membersForTokens`, to run on their own or inside a batch with other statements (the chat
 * service checks the sessions in the batch that stores a message): one select per at most MAX_PER_QUERY token
 * hashes, and what their answers mean.
 */
export async function memberSessionsLookup(db: Db, tokens: Iterable<string>, now = new Date()) {
  // A session token's key is the SHA-256 of its secret (./tokens.ts); a token naming a member opens only theirs.
  const byHash = await hashed(tokens, sessionKeyOf);
  const at = now.toISOString();
  const queries = chunks([...byHash.keys()], MAX_PER_QUERY).map((hashes) =>
    db
      .select({ tokenHash: sessions.tokenHash, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(inArray(sessions.tokenHash, hashes), liveSession(at))),
  );
  const read = (answers: { tokenHash: string; user: UserRow }[][]): Map<string, UserRow> => {
    const found = new Map<string, UserRow>();
    for (const row of answers.flat()) {
      const token = byHash.get(row.tokenHash);
      if (token === undefined) continue;
      const named = parseMemberSessionToken(token);
      if (!named || named.userId === row.user.id) found.set(token, row.user);
    }
    return found;
  };
  return { queries, read };
}

/**
 * The member each session token belongs to, for the tokens that are live: known, not expired, and whose
 * account is not deleted (as `memberForToken`). Tokens missing from the answer have no live session.
 */
export async function membersForTokens(db: Db, tokens: Iterable<string>, now = new Date()): Promise<Map<string, UserRow>> {
  const lookup = await memberSessionsLookup(db, tokens, now);
  return lookup.read(await Promise.all(lookup.queries));
}

/** The lookups behind `liveAdminTokens`, as `memberSessionsLookup` for member sessions. */
export async function adminTokensLookup(db: Db, tokens: Iterable<string>, now = new Date()) {
  const byHash = await hashed([...tokens].filter((t) => t && t.length <= 200));
  const queries = chunks([...byHash.keys()], MAX_PER_QUERY).map((hashes) =>
    db
      .select({ tokenHash: adminSessions.tokenHash })
      .from(adminSessions)
      .where(and(inArray(adminSessions.tokenHash, hashes), gt(adminSessions.expiresAt, now.toISOString()))),
  );
  const read = (answers: { tokenHash: string }[][]): Set<string> => {
    const live = new Set<string>();
    for (const row of answers.flat()) {
      const token = byHash.get(row.tokenHash);
      if (token !== undefined) live.add(token);
    }
    return live;
  };
  return { queries, read };
}

/** The admin tokens among `tokens` that are live admin sessions (as `isAdminToken`). */
export async function liveAdminTokens(db: Db, tokens: Iterable<string>, now = new Date()): Promise<Set<string>> {
  const lookup = await adminTokensLookup(db, tokens, now);
  return lookup.read(await Promise.all(lookup.queries));
}

/**
 * A condition that holds while member `userId` has the live session `token` opens (as `memberForToken`, and the
 * session still theirs), for a write that must happen only then: a chat message is stored under it, in the
 * batch that also looks its sender's session up (services/chat.ts). The member by id, then their session.
 */
export async function whileMemberSession(db: Db, token: string, userId: string, now = new Date()) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(users)
      .innerJoin(sessions, eq(sessions.userId, users.id))
      .where(and(eq(users.id, userId), eq(sessions.tokenHash, await sessionKeyOf(token)), liveSession(now.toISOString()))),
  );
}

/** A condition that holds while `token` is a live admin session (as `liveAdminTokens`). */
export async function whileAdminSession(db: Db, token: string, now = new Date()) {
  if (!token || token.length > 200) return sql`0`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(adminSessions)
      .where(and(eq(adminSessions.tokenHash, await sha256Hex(token)), gt(adminSessions.expiresAt, now.toISOString()))),
  );
}
