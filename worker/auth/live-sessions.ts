// Many credentials checked at once (the chat room re-checks its listeners' sessions together): the same
// conditions as `memberForToken` (worker/services/auth.ts) and `isAdminToken` (./admin.ts), in one query
// per at most MAX_PER_QUERY tokens instead of one query per token; the queries can also go into a batch with
// other statements, and the same conditions can guard a write (a chat message's, services/chat.ts). Their SQL is
// built once (worker/db/built-once.ts): a chat message runs them with every message.
import { and, eq, exists, gt, inArray, isNull, sql, type Placeholder } from "drizzle-orm";
import type { D1Client, Db, UserRow } from "../db/client";
import { bound, builtPerLength, listValues, placeholder, queryBuilder, rowReader } from "../db/built-once";
import { adminSessions, sessions, users } from "../db/schema";
import { parseMemberSessionToken, sessionKeyOf, sha256Hex } from "./tokens";

/** D1 binds at most 100 parameters per statement; the expiry takes one. */
export const MAX_PER_QUERY = 90;

/** A member's row read raw: every column under its own key, decoded as drizzle decodes it. */
export const MEMBER_ROW = rowReader<UserRow>(users);

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What makes a session live besides its token: not expired, and its account not deleted (sessions joined with
 * users). `at` is the time, or a placeholder for it in SQL built once.
 */
export function liveSession(at: string | Placeholder) {
  return and(gt(sessions.expiresAt, at), isNull(users.deletedAt));
}

/** Each distinct token's key (the SHA-256 the tables keep, by `key`), by token. */
async function keysOf(tokens: Iterable<string>, key: (token: string) => Promise<string> = sha256Hex): Promise<Map<string, string>> {
  const distinct = [...new Set(tokens)];
  const keys = await Promise.all(distinct.map((t) => key(t)));
  return new Map(distinct.map((t, i) => [t, keys[i]!]));
}

const MEMBER_SESSIONS = builtPerLength("key", (keys) =>
  queryBuilder
    .select({ ...MEMBER_ROW.fields, tokenHash: sql`${sessions.tokenHash}`.as("tokenHash") })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.tokenHash, keys), liveSession(placeholder("now"))))
    .toSQL(),
);

const ADMIN_SESSIONS = builtPerLength("key", (keys) =>
  queryBuilder
    .select({ tokenHash: sql`${adminSessions.tokenHash}`.as("tokenHash") })
    .from(adminSessions)
    .where(and(inArray(adminSessions.tokenHash, keys), gt(adminSessions.expiresAt, placeholder("now"))))
    .toSQL(),
);

/** Raw rows, as a D1 statement answers them (alone, or as one result of a batch). */
type RawRows = Record<string, unknown>[];

/**
 * The lookups behind `membersForTokens`, to run on their own or inside a batch with other statements (the chat
 * service checks the sessions in the batch that stores a message): one select per at most MAX_PER_QUERY token
 * keys, what their answers mean, and each token's key.
 */
export async function memberSessionsLookup(client: D1Client, tokens: Iterable<string>, now = new Date()) {
  // A session token's key is the SHA-256 of its secret (./tokens.ts); a token naming a member opens only theirs.
  const keys = await keysOf(tokens, sessionKeyOf);
  const tokenOf = new Map([...keys].map(([token, key]) => [key, token]));
  const at = now.toISOString();
  const statements = chunks([...tokenOf.keys()], MAX_PER_QUERY).map((group) => bound(client, MEMBER_SESSIONS(group.length), listValues("key", group, { now: at })));
  const read = (answers: RawRows[]): Map<string, UserRow> => {
    const found = new Map<string, UserRow>();
    for (const raw of answers.flat()) {
      const token = tokenOf.get(raw.tokenHash as string);
      if (token === undefined) continue;
      const user = MEMBER_ROW.read(raw);
      const named = parseMemberSessionToken(token);
      if (!named || named.userId === user.id) found.set(token, user);
    }
    return found;
  };
  return { statements, read, keys };
}

/**
 * The member each session token belongs to, for the tokens that are live: known, not expired, and whose
 * account is not deleted (as `memberForToken`). Tokens missing from the answer have no live session.
 */
export async function membersForTokens(db: Db, tokens: Iterable<string>, now = new Date()): Promise<Map<string, UserRow>> {
  const lookup = await memberSessionsLookup(db.$client, tokens, now);
  return lookup.read(await runAll(lookup.statements));
}

/** An admin token longer than this is no admin token (as `isAdminToken`). */
const usableAdminToken = (token: string): boolean => token.length > 0 && token.length <= 200;

/** The lookups behind `liveAdminTokens`, as `memberSessionsLookup` for member sessions. */
export async function adminTokensLookup(client: D1Client, tokens: Iterable<string>, now = new Date()) {
  const keys = await keysOf([...tokens].filter(usableAdminToken));
  const tokenOf = new Map([...keys].map(([token, key]) => [key, token]));
  const at = now.toISOString();
  const statements = chunks([...tokenOf.keys()], MAX_PER_QUERY).map((group) => bound(client, ADMIN_SESSIONS(group.length), listValues("key", group, { now: at })));
  const read = (answers: RawRows[]): Set<string> => {
    const live = new Set<string>();
    for (const raw of answers.flat()) {
      const token = tokenOf.get(raw.tokenHash as string);
      if (token !== undefined) live.add(token);
    }
    return live;
  };
  return { statements, read, keys };
}

/** The admin tokens among `tokens` that are live admin sessions (as `isAdminToken`). */
export async function liveAdminTokens(db: Db, tokens: Iterable<string>, now = new Date()): Promise<Set<string>> {
  const lookup = await adminTokensLookup(db.$client, tokens, now);
  return lookup.read(await runAll(lookup.statements));
}

async function runAll(statements: D1PreparedStatement[]): Promise<RawRows[]> {
  return (await Promise.all(statements.map((s) => s.all<Record<string, unknown>>()))).map((r) => r.results);
}

/**
 * A condition that holds while member `:userId` has the live session whose key is `:tokenHash` at `:now` (as
 * `memberForToken`, and the session still theirs), for a write that must happen only then: a chat message is stored
 * under it, in the batch that also looks its sender's session up (services/chat.ts). The member by id, then their
 * session. Its values are placeholders, filled in when the statement it guards is bound.
 */
export const WHILE_MEMBER_SESSION = exists(
  queryBuilder
    .select({ one: sql`1` })
    .from(users)
    .innerJoin(sessions, eq(sessions.userId, users.id))
    .where(and(eq(users.id, placeholder("userId")), eq(sessions.tokenHash, placeholder("tokenHash")), liveSession(placeholder("now")))),
);

/**
 * A condition that holds while `:adminKey` is the key of a live admin session at `:now` (as `liveAdminTokens`). A
 * token that is no admin token has no key (`adminTokensLookup` leaves it out) and is bound as null, which no session
 * has.
 */
export const WHILE_ADMIN_SESSION = exists(
  queryBuilder
    .select({ one: sql`1` })
    .from(adminSessions)
    .where(and(eq(adminSessions.tokenHash, placeholder("adminKey")), gt(adminSessions.expiresAt, placeholder("now")))),
);
