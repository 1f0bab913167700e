import { getTableColumns } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv, UserRow } from "../context";
import { INBOX_PROTOCOL, INBOX_TOKEN_PREFIX } from "../../domain/notifications";
import { users } from "../db/schema";
import { unauthorized } from "../errors";
import { lastUsedIsStale, sessionForToken, touchSession } from "../services/auth";
import { liveUserById } from "../services/users";
import { accessFor, readsMemberAccount } from "./access";
import { endMemberAccess, sessionAtInbox } from "./member-sessions";
import { isBareSessionSecret, parseMemberSessionToken, sha256Hex } from "./tokens";
import { INBOX_SOCKET_PATH } from "../routes/socket-upgrade";
import { dbOf } from "../d1-sessions";

export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1]! : null;
}

/**
 * The session token a tab's notification socket carries: a browser cannot set headers on a WebSocket, so it
 * offers `bearer.<token>` among its sub-protocols beside INBOX_PROTOCOL. Read only on a WebSocket upgrade.
 */
export function socketBearerToken(upgrade: string | undefined, protocols: string | undefined): string | null {
  if (upgrade?.toLowerCase() !== "websocket" || !protocols) return null;
  const offered = protocols.split(",").map((p) => p.trim());
  if (!offered.includes(INBOX_PROTOCOL)) return null;
  const bearer = offered.find((p) => p.startsWith(INBOX_TOKEN_PREFIX));
  const token = bearer?.slice(INBOX_TOKEN_PREFIX.length);
  // A member's session token (`<member id>.<secret>` or a sealed one, ./tokens.ts), or a bare secret from before.
  return token && /^[A-Za-z0-9_.-]{1,400}$/.test(token) ? token : null;
}

/** The columns of a member's account: the ones a session does not carry must be read (readsMemberAccount). */
const ACCOUNT_FIELDS = new Set(Object.keys(getTableColumns(users)));

/**
 * The signed-in member as their session knows them: their id and Nostr key, nothing read. A route that reads more
 * of the account is listed in MEMBER_ACCOUNT_ROUTES (./access.ts) and gets the account read instead; reading
 * another field here is a mistake in that list, and fails loudly rather than answering with a blank.
 */
export function memberOfSession(id: string, nostrPubkey: string | null): UserRow {
  return new Proxy({ id, nostrPubkey } as Record<string, unknown>, {
    get(known, field, receiver) {
      if (typeof field === "string" && ACCOUNT_FIELDS.has(field) && !(field in known)) {
        throw new Error(`The member's ${field} is not known from their session: list the route in MEMBER_ACCOUNT_ROUTES (worker/auth/access.ts)`);
      }
      return Reflect.get(known, field, receiver);
    },
  }) as unknown as UserRow;
}

/**
 * The live session a member's token opens, checked at the member's inbox (no database read: docs/decisions/032),
 * with the member as the route needs them. A token from before (a bare secret) is read from the database, as is
 * any token when the inbox cannot answer.
 */
async function memberSession(c: AppContext, token: string): Promise<{ user: UserRow; sessionId: string } | null> {
  const named = parseMemberSessionToken(token);
  let checked: Awaited<ReturnType<typeof sessionAtInbox>> = null;
  if (named) {
    try {
      checked = await sessionAtInbox(c.env, named.userId, await sha256Hex(named.secret), named.claims ? token : null);
      if (!checked) return null;
    } catch (err) {
      console.error("the member's inbox could not check a session; the database does", named.userId, err);
    }
  } else if (!isBareSessionSecret(token)) return null;

  if (!named || !checked) {
    const session = await sessionForToken(dbOf(c), token);
    // "Last used" in the sessions list: written after the answer, and at most every few minutes.
    if (session && lastUsedIsStale(session.lastUsedAt)) c.executionCtx.waitUntil(touchSession(dbOf(c), session.sessionId));
    return session;
  }
  if (checked.touched) c.executionCtx.waitUntil(touchSession(dbOf(c), checked.sessionId));
  if (!readsMemberAccount(c.req.method, c.req.path)) return { user: memberOfSession(named.userId, checked.nostrPubkey), sessionId: checked.sessionId };
  const account = await liveUserById({ db: dbOf(c) }, named.userId);
  if (account) return { user: account, sessionId: checked.sessionId };
  // The account is gone but its inbox did not hear of it (the deletion could not tell it): it does now.
  c.executionCtx.waitUntil(endMemberAccess(c.env, named.userId).catch((err) => console.error("could not end a deleted account's sessions", named.userId, err)));
  return null;
}

/**
 * Who is calling (the request's database is open: d1-sessions.ts): the session (at the member's inbox) and the
 * admin token, then the access table.
 */
export function identify(resolveAdmin: (c: AppContext, token: string) => Promise<boolean>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A session offered as a sub-protocol is read only on the inbox socket (anywhere else it is refused
    // before this, routes/socket-upgrade.ts misplacedSocketSession): nowhere can it make a member's view.
    const onInboxSocket = c.req.method === "GET" && c.req.path === INBOX_SOCKET_PATH;
    const token = bearerToken(c.req.header("authorization")) ?? (onInboxSocket ? socketBearerToken(c.req.header("upgrade"), c.req.header("sec-websocket-protocol")) : null);
    const session = token ? await memberSession(c, token) : null;
    c.set("user", session?.user ?? null);
    c.set("sessionId", session?.sessionId ?? null);
    const adminToken = c.req.header("x-admin-token");
    c.set("isAdmin", adminToken ? await resolveAdmin(c, adminToken) : false);

    const access = accessFor(c.req.method, c.req.path);
    if (access === "member" && !c.var.user) throw unauthorized();
    if (access === "admin" && !c.var.isAdmin) throw unauthorized("Unauthorized", "admin_required");
    if (access === "member-or-admin" && !c.var.user && !c.var.isAdmin) throw unauthorized();
    await next();
  };
}

/** The signed-in member; the access table already refused the request when there is none. */
export function requireMember(c: AppContext): UserRow {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}
