// Many credentials checked at once (the chat room re-checks its listeners' sessions together): the same
// conditions as `memberForToken` (worker/services/auth.ts) and `isAdminToken` (./admin.ts), in one query
// per at most MAX_PER_QUERY tokens instead of one query per token.
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db, UserRow } from "../db/client";
import { adminSessions, sessions, users } from "../db/schema";
import { sha256Hex } from "./tokens";

/** D1 binds at most 100 parameters per statement; the expiry takes one. */
export const MAX_PER_QUERY = 90;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What makes a session live besides its token: not expired, and its account not deleted (sessions joined with users). */
export function liveSession(at: string) {
  return and(gt(sessions.expiresAt, at), isNull(users.deletedAt));
}

/** Each distinct token with its SHA-256 (what the tables keep). */
async function hashed(tokens: Iterable<string>): Promise<Map<string, string>> {
  const distinct = [...new Set(tokens)];
  const hashes = await Promise.all(distinct.map((t) => sha256Hex(t)));
  return new Map(hashes.map((h, i) => [h, distinct[i]!]));
}

/**
 * The member each session token belongs to, for the tokens that are live: known, not expired, and whose
 * account is not deleted (as `memberForToken`). Tokens missing from the answer have no live session.
 */
export async function membersForTokens(db: Db, tokens: Iterable<string>, now = new Date()): Promise<Map<string, UserRow>> {
  const byHash = await hashed(tokens);
  const found = new Map<string, UserRow>();
  if (byHash.size === 0) return found;
  const at = now.toISOString();
  const answers = await Promise.all(
    chunks([...byHash.keys()], MAX_PER_QUERY).map((hashes) =>
      db
        .select({ tokenHash: sessions.tokenHash, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(inArray(sessions.tokenHash, hashes), liveSession(at))),
    ),
  );
  for (const row of answers.flat()) {
    const token = byHash.get(row.tokenHash);
    if (token !== undefined) found.set(token, row.user);
  }
  return found;
}

/** The admin tokens among `tokens` that are live admin sessions (as `isAdminToken`). */
export async function liveAdminTokens(db: Db, tokens: Iterable<string>, now = new Date()): Promise<Set<string>> {
  const byHash = await hashed([...tokens].filter((t) => t && t.length <= 200));
  const live = new Set<string>();
  if (byHash.size === 0) return live;
  const answers = await Promise.all(
    chunks([...byHash.keys()], MAX_PER_QUERY).map((hashes) =>
      db
        .select({ tokenHash: adminSessions.tokenHash })
        .from(adminSessions)
        .where(and(inArray(adminSessions.tokenHash, hashes), gt(adminSessions.expiresAt, now.toISOString()))),
    ),
  );
  for (const answer of answers) {
    for (const row of answer) {
      const token = byHash.get(row.tokenHash);
      if (token !== undefined) live.add(token);
    }
  }
  return live;
}
