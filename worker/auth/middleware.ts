import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv, UserRow } from "../context";
import { unauthorized } from "../errors";
import { lastUsedIsStale, sessionForToken, touchSession } from "../services/auth";
import { accessFor } from "./access";

export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1]! : null;
}

/** Who is calling (the request's database is open: d1-sessions.ts): the session and the admin token, then the access table. */
export function identify(resolveAdmin: (c: AppContext, token: string) => Promise<boolean>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
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
