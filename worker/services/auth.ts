// Nostr sign-in and member sessions (DESIGN.md §6).
import { and, desc, eq, exists, gt, isNull, lt, or, sql, type Column, type SQL } from "drizzle-orm";
import * as nip19 from "nostr-tools/nip19";
import type { D1Client, Db, UserRow } from "../db/client";
import { nowIso } from "../db/client";
import { bound, builtOnce, param, queryBuilder } from "../db/built-once";
import { authChallenges, sessions, users } from "../db/schema";
import { notFound, unauthorized } from "../errors";
import { firstLoginEventProblem, type LoginEvent } from "../auth/nostr-login";
import { memberSessionToken, parseMemberSessionToken, randomHex, sessionKeyOf, sha256Hex } from "../auth/tokens";
import { endAllSessionsAtInbox, endSessionAtInbox, endSessionByIdAtInbox, openSessionAtInbox } from "../auth/member-sessions";
import { liveSession, MEMBER_ROW } from "../auth/live-sessions";
import { rowFields } from "../auth/guarded-rows";
import { endAdminTokensOfMember } from "../auth/admin";
import { clientLabel, UNKNOWN_CLIENT } from "../auth/client-label";
import { challengeKeyOf, isSignedChallengeId, openSignedChallenge, signedChallenge } from "../auth/login-challenges";
import { sealSessionToken, sessionSealKeyOf } from "../auth/signed-sessions";
import type { SessionView } from "../../domain/session";
import type { Deps } from "./deps";
import { closeSocketsOfEndedSessions } from "./session-sockets";

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's "last used" is written at most this often, so using the site is not a write per request. */
export const LAST_USED_GRANULARITY_MS = 5 * 60 * 1000;

/**
 * What the two sign-in requests need: the request's D1 session, which a sign-in with a signed challenge runs its
 * statements on as they are (built once, below), a drizzle handle on it for the other paths (built only when one
 * of them runs: d1-sessions.ts, dbOf), and the settings.
 */
export interface SignInDeps {
  client: D1Client;
  db: () => Db;
  env?: Deps["env"];
}

/**
 * A login challenge. Signed (auth/login-challenges.ts, docs/decisions/034): nothing is written, the sign-in that
 * uses it records its use. Without the key that signs them (NOSTR_SECRET_KEY unset) it is stored, as before.
 */
export async function createLoginChallenge({ db, env }: Pick<SignInDeps, "db" | "env">): Promise<{ challenge: string; challengeId: string }> {
  const key = await challengeKeyOf(env);
  if (key) return signedChallenge(key, CHALLENGE_TTL_MS);
  const challengeId = crypto.randomUUID();
  const challenge = randomHex(32);
  await db().insert(authChallenges).values({
    id: challengeId,
    challenge,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString(),
  });
  return { challenge, challengeId };
}

// ---- Reads built once -----------------------------------------------------------------------------
// As the browse and gig pages' queries (services/gigs.ts, gig-views.ts): each read's SQL is built once, with
// placeholders for its values; building it per request was a good part of a sign-in's CPU (README, "Where the
// CPU goes"). Each column is read under its own key, so a raw row is decoded as drizzle would decode it.

const USER_FIELDS = MEMBER_ROW.fields;
const userRowOf = MEMBER_ROW.read;

/** The session a token hash opens, with its member: live (not expired, the account not deleted). */
const SESSION_QUERY = queryBuilder
  .select({ ...USER_FIELDS, sessionId: sql`${sessions.id}`.as("sessionId"), sessionLastUsedAt: sql`${sessions.lastUsedAt}`.as("sessionLastUsedAt") })
  .from(sessions)
  .innerJoin(users, eq(users.id, sessions.userId))
  .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), liveSession(sql.placeholder("now"))))
  .limit(1)
  .toSQL();

/** A login challenge as stored: read only when a sign-in is refused, to say why. */
const CHALLENGE_QUERY = queryBuilder
  .select({
    challenge: sql<string>`${authChallenges.challenge}`.as("challenge"),
    expiresAt: sql<string>`${authChallenges.expiresAt}`.as("expiresAt"),
    consumedAt: sql<string | null>`${authChallenges.consumedAt}`.as("consumedAt"),
  })
  .from(authChallenges)
  .where(eq(authChallenges.id, sql.placeholder("challengeId")))
  .limit(1)
  .toSQL();

const CHALLENGE_REFUSED = "Challenge expired or already used. Please try again.";

/** The event's id is unique among used challenges: an event already accepted once is not accepted again. */
function refuseReplayedEvent(err: unknown): void {
  if (/UNIQUE/i.test(String(err)) && /event_id/.test(String(err))) throw unauthorized("This login event was already used", "replayed_event");
}

// ---- A sign-in with a signed challenge: its statements built once ---------------------------------------------
// The batch's SQL is built here once, with placeholders for its values (drizzle building it per request was 12 % of
// a sign-in's CPU: README, "Where the CPU goes"), and runs on D1 as it is. Columns not named take their defaults.

const names = (...columns: Column[]): SQL => sql.join(columns.map((column) => sql.identifier(column.name)), sql`, `);

/** The challenge's use: its id is the key, so a second use of one challenge fails the whole batch (UNIQUE). */
const USE_CHALLENGE = builtOnce(
  sql`insert into ${authChallenges} (${names(authChallenges.id, authChallenges.challenge, authChallenges.expiresAt, authChallenges.consumedAt, authChallenges.eventId)}) values (${sql.join(["challengeId", "challenge", "expiresAt", "now", "eventId"].map(param), sql`, `)})`,
);
/** The member, on their first login (a member who has a row keeps it as it is). */
const UPSERT_MEMBER = builtOnce(
  sql`insert into ${users} (${names(users.id, users.username, users.nostrPubkey)}) values (${param("userId")}, ${param("username")}, ${param("pubkey")}) on conflict do nothing`,
);
/** The session, for the member with this key. */
const OPEN_SESSION = builtOnce(
  sql`insert into ${sessions} (${names(sessions.tokenHash, sessions.id, sessions.userId, sessions.expiresAt, sessions.client, sessions.lastUsedAt)}) select ${param("tokenHash")}, ${param("sessionId")}, ${users.id}, ${param("sessionExpiresAt")}, ${param("client")}, ${param("now")} from ${users} where ${eq(users.nostrPubkey, sql.placeholder("pubkey"))}`,
);
/** The member, read back. */
const MEMBER_BY_KEY = queryBuilder.select(USER_FIELDS).from(users).where(eq(users.nostrPubkey, sql.placeholder("pubkey"))).limit(1).toSQL();
/** Whether a challenge was used: read only when a sign-in is refused, to say why. */
const CHALLENGE_USED = queryBuilder.select({ one: sql`1` }).from(authChallenges).where(eq(authChallenges.id, sql.placeholder("challengeId"))).limit(1).toSQL();

/**
 * A sign-in with a signed challenge: the id says when it expires and the challenge text (auth/login-challenges.ts),
 * so the event is checked in full before the database is asked anything. Then one batch records the challenge's
 * use (keyed by its id; an event id used before is refused by its own unique index), writes the member (when new)
 * and the session, and reads the member back. The batch is one transaction: of two sign-ins racing with one
 * challenge, the second's record of its use fails, and with it everything the second would have written.
 */
async function signInWithSignedChallenge(
  { client, db, env }: SignInDeps,
  key: CryptoKey,
  event: LoginEvent,
  challengeId: string,
  siteOrigins: readonly string[],
  userAgent: string | undefined,
): Promise<{ sessionToken: string; user: UserRow }> {
  const openedAt = Date.now();
  const now = new Date(openedAt).toISOString();
  const open = await openSignedChallenge(key, challengeId, openedAt);
  if (!open) throw unauthorized(CHALLENGE_REFUSED, "invalid_challenge");
  const problem = firstLoginEventProblem(event, { challenge: open.challenge, siteOrigins }, Math.floor(openedAt / 1000));
  if (problem) {
    // The checks in their order: a used challenge is refused as such before what is wrong with the event.
    const used = await bound(client, CHALLENGE_USED, { challengeId }).first();
    throw used ? unauthorized(CHALLENGE_REFUSED, "invalid_challenge") : unauthorized(problem, "invalid_event");
  }

  const { secret, tokenHash, sessionId, expiresAt } = await newSession(openedAt);
  let members: D1Result<Record<string, unknown>>;
  try {
    [, , , members] = await client.batch<Record<string, unknown>>([
      bound(client, USE_CHALLENGE, { challengeId, challenge: open.challenge, expiresAt: new Date(open.expiresAt).toISOString(), now, eventId: event.id }),
      bound(client, UPSERT_MEMBER, { userId: crypto.randomUUID(), username: nip19.npubEncode(event.pubkey), pubkey: event.pubkey }),
      bound(client, OPEN_SESSION, { tokenHash, sessionId, sessionExpiresAt: new Date(expiresAt).toISOString(), client: clientLabel(userAgent), now, pubkey: event.pubkey }),
      bound(client, MEMBER_BY_KEY, { pubkey: event.pubkey }),
    ]);
  } catch (err) {
    refuseReplayedEvent(err);
    if (/UNIQUE/i.test(String(err)) && /auth_challenges\.id/.test(String(err))) throw unauthorized(CHALLENGE_REFUSED, "invalid_challenge");
    throw err;
  }
  const raw = members.results[0];
  if (!raw) throw new Error("member row missing after insert");
  const user = userRowOf(raw);
  return { sessionToken: await sessionTokenFor(db, env, user, tokenHash, secret, { id: sessionId, expiresAt, nostrPubkey: user.nostrPubkey, openedAt }), user };
}

/** A new session's secret, the key its row is kept by (SHA-256 of the secret), its id and when it ends. */
async function newSession(openedAt: number): Promise<{ secret: string; tokenHash: string; sessionId: string; expiresAt: number }> {
  const secret = randomHex(32);
  return { secret, tokenHash: await sha256Hex(secret), sessionId: crypto.randomUUID(), expiresAt: openedAt + SESSION_TTL_MS };
}

/**
 * Checks the signed event against its challenge, consumes the challenge, creates the member on first login and
 * opens a session: one D1 batch (docs/decisions/023 for what a login event must be). The session is then handed
 * to the member's inbox, which checks it on every request from then on (docs/decisions/032); the token names the
 * member so that a request finds their inbox. Should the inbox not answer, the token is the bare secret, checked
 * in the database instead (as every token was before): the sign-in still works, at a read per request.
 *
 * A signed challenge (the usual case, docs/decisions/034) is checked from its id: signInWithSignedChallenge. What
 * follows is for a stored one. The event names its challenge (its `challenge` tag), so it is checked in full first,
 * against the challenge it names; then one batch writes the member (when new) and the session, and consumes the challenge, each only if
 * that challenge is still open (this id, that text, unexpired, unused) and reads the member back. The batch is
 * one transaction, so of two sign-ins racing with one challenge exactly one finds it open and writes; the other
 * writes nothing. A refused sign-in reads the challenge to answer as the checks in their order would: an
 * unknown, expired or used challenge first, then what is wrong with the event.
 */
export async function signInWithNostr(
  deps: SignInDeps,
  event: LoginEvent,
  challengeId: string,
  siteOrigins: readonly string[],
  userAgent?: string,
): Promise<{ sessionToken: string; user: UserRow }> {
  const key = isSignedChallengeId(challengeId) ? await challengeKeyOf(deps.env) : null;
  if (key) return signInWithSignedChallenge(deps, key, event, challengeId, siteOrigins, userAgent);
  const db = deps.db();
  const env = deps.env;
  // A stored challenge: one asked for while no key signed them, or just before they were first signed.
  const openedAt = Date.now();
  const now = nowIso();
  const nowSeconds = Math.floor(Date.now() / 1000);
  const named = event.tags.find((t) => t[0] === "challenge")?.[1];
  if (named === undefined || firstLoginEventProblem(event, { challenge: named, siteOrigins }, nowSeconds)) {
    return refuse(db, event, challengeId, siteOrigins, now, nowSeconds);
  }

  const open = and(eq(authChallenges.id, challengeId), eq(authChallenges.challenge, named), isNull(authChallenges.consumedAt), gt(authChallenges.expiresAt, now));
  const { secret, tokenHash, sessionId, expiresAt } = await newSession(openedAt);
  let consumed: { id: string }[];
  let members: UserRow[];
  try {
    [, , consumed, members] = await db.batch([
      // The member, on their first login (a member who has a row keeps it as it is).
      db
        .insert(users)
        .select((qb) => qb.select(rowFields(users, { id: crypto.randomUUID(), username: nip19.npubEncode(event.pubkey), nostrPubkey: event.pubkey })).from(authChallenges).where(open))
        .onConflictDoNothing(),
      // The session, for the member with this key.
      db.insert(sessions).select((qb) =>
        qb
          .select(
            rowFields(sessions, {
              tokenHash,
              id: sessionId,
              userId: users.id,
              expiresAt: new Date(expiresAt).toISOString(),
              client: clientLabel(userAgent),
              lastUsedAt: now,
            }),
          )
          .from(users)
          .where(and(eq(users.nostrPubkey, event.pubkey), exists(qb.select({ one: sql`1` }).from(authChallenges).where(open)))),
      ),
      // The challenge, used: last, as the two writes above are conditional on it being open.
      db.update(authChallenges).set({ consumedAt: now, eventId: event.id }).where(open).returning({ id: authChallenges.id }),
      db.select().from(users).where(eq(users.nostrPubkey, event.pubkey)),
    ]);
  } catch (err) {
    refuseReplayedEvent(err);
    throw err;
  }
  if (consumed.length === 0) return refuse(db, event, challengeId, siteOrigins, now, nowSeconds);
  const user = members[0];
  if (!user) throw new Error("member row missing after insert");
  return { sessionToken: await sessionTokenFor(deps.db, env, user, tokenHash, secret, { id: sessionId, expiresAt, nostrPubkey: user.nostrPubkey, openedAt }), user };
}

/**
 * The token of a session just written. Sealed (docs/decisions/035) when this deployment has the key: the member's
 * inbox takes the session in at its first request, and the sign-in asks it nothing. Else handed to the inbox now
 * (member id + secret), or the bare secret when the inbox cannot be reached.
 */
async function sessionTokenFor(
  db: () => Db,
  env: Deps["env"] | undefined,
  user: UserRow,
  tokenKey: string,
  secret: string,
  session: Parameters<typeof openSessionAtInbox>[3],
): Promise<string> {
  if (!env) return secret;
  const sealKey = user.nostrPubkey ? await sessionSealKeyOf(env) : null;
  if (sealKey && user.nostrPubkey) return sealSessionToken(sealKey, user.id, secret, { ...session, nostrPubkey: user.nostrPubkey });
  let opened: boolean;
  try {
    opened = await openSessionAtInbox(env, user.id, tokenKey, session);
  } catch (err) {
    console.error("the member's inbox could not take the new session; its token is checked in the database", user.id, err);
    return secret;
  }
  if (opened) return memberSessionToken(user.id, secret);
  // "Sign out everywhere" ran while this sign-in was under way, or the account is gone: no session.
  await db().delete(sessions).where(eq(sessions.id, session.id));
  throw unauthorized("Your sessions were just ended. Please sign in again.", "session_ended");
}

/** Why a sign-in is refused, in the order of the checks: the challenge first (unknown, expired, used), then the event. */
async function refuse(db: Db, event: LoginEvent, challengeId: string, siteOrigins: readonly string[], now: string, nowSeconds: number): Promise<never> {
  const row = await bound(db.$client, CHALLENGE_QUERY, { challengeId }).first<{ challenge: string; expiresAt: string; consumedAt: string | null }>();
  if (!row || row.consumedAt || row.expiresAt <= now) throw unauthorized(CHALLENGE_REFUSED, "invalid_challenge");
  const problem = firstLoginEventProblem(event, { challenge: row.challenge, siteOrigins }, nowSeconds);
  if (problem) throw unauthorized(problem, "invalid_event");
  // Open and matching now, though it was not when the batch ran: another request used it meanwhile.
  throw unauthorized(CHALLENGE_REFUSED, "invalid_challenge");
}

/**
 * A session written straight to the database, for tests and scripts: its token is the bare secret, checked in the
 * database on every request (as tokens issued before decision 032 are).
 */
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

/**
 * The live session a bearer token opens, read from the database, or null when it is unknown, expired or the account
 * is gone. A token naming a member opens only that member's session. Requests check a member's token at their inbox
 * (worker/auth/middleware.ts); this read is for tokens from before, for a chat socket's sign-in, and for when the
 * inbox cannot answer.
 */
export async function sessionForToken(db: Db, token: string): Promise<LiveSession | null> {
  const row = await bound(db.$client, SESSION_QUERY, { tokenHash: await sessionKeyOf(token), now: nowIso() }).first<
    Record<string, unknown> & { sessionId: string | null; sessionLastUsedAt: string | null }
  >();
  if (!row) return null;
  const user = userRowOf(row);
  const named = parseMemberSessionToken(token);
  if (named && named.userId !== user.id) return null;
  return { user, sessionId: row.sessionId ?? "", lastUsedAt: row.sessionLastUsedAt };
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
 * (decision 023), in one batch; then at the member's inbox, as of after the batch, so a sign-in that wrote its
 * session before the batch is refused there too. Answers how many member sessions ended. Should the inbox not
 * answer, this fails and can be asked again: the inbox still lets the asking session in.
 */
export async function endAllSessions({ db, env }: SessionEnding, userId: string): Promise<number> {
  const [ended] = await db.batch([
    db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }),
    endAdminTokensOfMember(db, userId),
  ]);
  if (env) {
    await endAllSessionsAtInbox(env, userId, Date.now());
    await closeSocketsOfEndedSessions(env, userId);
  }
  return ended.length;
}

/**
 * Ending sessions needs the database; with the bindings (`env`, as every route passes) they end at the member's
 * inbox too, where requests check them, and their open sockets (chat rooms, inbox tabs) are closed at once
 * (worker/services/chat.ts). Without the bindings (a test driving the chat room) only the database forgets them.
 */
type SessionEnding = Pick<Deps, "db"> & Partial<Pick<Deps, "env">>;

/**
 * A session the member's inbox refused for having ended (docs/decisions/035) leaves the sessions list too, should
 * its row have outlived the ending: what a chat room checks then agrees with the inbox. Best effort: the session is
 * refused either way.
 */
export async function removeEndedSessionRow({ db }: Pick<Deps, "db">, sessionId: string): Promise<void> {
  try {
    await db.delete(sessions).where(eq(sessions.id, sessionId));
  } catch (err) {
    console.error("could not remove an ended session's row", sessionId, err);
  }
}

/** Ends one of the member's own sessions; another member's (or an unknown) id is 404 and ends nothing. */
export async function endSessionById({ db, env }: SessionEnding, userId: string, sessionId: string): Promise<void> {
  // The inbox first: should it not answer, the session is still listed, and ending it can be asked again.
  if (env) await endSessionByIdAtInbox(env, userId, sessionId);
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound("Session not found");
  if (env) await closeSocketsOfEndedSessions(env, userId);
}

/**
 * Sign-out: the token's session ends in the database, then at its member's inbox. Should the inbox not answer,
 * this fails and can be asked again (the inbox still lets the token in).
 */
export async function endSession({ db, env }: SessionEnding, token: string): Promise<void> {
  const tokenKey = await sessionKeyOf(token);
  const ended = await db.delete(sessions).where(eq(sessions.tokenHash, tokenKey)).returning({ userId: sessions.userId, id: sessions.id });
  if (!env) return;
  const named = parseMemberSessionToken(token);
  // The session the token names: its inbox remembers it ended, so a sealed token of it is not taken in again.
  const sessionId = ended[0]?.id ?? named?.claims?.sessionId;
  const members = new Set([...ended.map((s) => s.userId), ...(named ? [named.userId] : [])]);
  for (const userId of members) await endSessionAtInbox(env, userId, tokenKey, sessionId);
  for (const { userId } of ended) await closeSocketsOfEndedSessions(env, userId);
}
