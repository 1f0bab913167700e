import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv, UserRow } from "../context";
import { INBOX_PROTOCOL, INBOX_TOKEN_PREFIX } from "../../domain/notifications";
import { unauthorized } from "../errors";
import { lastUsedIsStale, sessionForToken, touchSession } from "../services/auth";
import { accessFor } from "./access";
import { INBOX_SOCKET_PATH } from "../routes/socket-upgrade";

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
  return token && /^[0-9a-f]{1,128}$/i.test(token) ? token : null;
}

/** Who is calling (the request's database is open: d1-sessions.ts): the session and the admin token, then the access table. */
export function identify(resolveAdmin: (c: AppContext, token: string) => Promise<boolean>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A session offered as a sub-protocol is read only on the inbox socket (anywhere else it is refused
    // before this, routes/socket-upgrade.ts misplacedSocketSession): nowhere can it make a member's view.
    const onInboxSocket = c.req.method === "GET" && c.req.path === INBOX_SOCKET_PATH;
    const token = bearerToken(c.req.header("authorization")) ?? (onInboxSocket ? socketBearerToken(c.req.header("upgrade"), c.req.header("sec-websocket-protocol")) : null);
    const session = token ? await sessionForToken(c.var.db, token) : null;
    c.set("user", session?.user ?? null);
    c.set("sessionId", session?.sessionId ?? null);
    // "Last used" in the sessions list: written after the answer, and at most every few minutes.
    if (session && lastUsedIsStale(session.lastUsedAt)) c.executionCtx.waitUntil(touchSession(c.var.db, session.sessionId));
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
