// D1 read replication through the Sessions API: every API request reads through one D1 session. A member's
// client sends back the bookmark of its last answer (`x-d1-bookmark`), so its reads come from a copy at least
// as new as what it last saw, its own writes included. A visitor's reads may come from the nearest replica.
// Requests that change something start at the primary: the reads a state transition judges by are fresh
// (the compare-and-set would refuse a stale one anyway, with a needless 409). Writes always go to the primary.
import type { MiddlewareHandler } from "hono";
import type { AppContext, AppEnv } from "./context";
import { openDb, openDbSession, type D1Client, type Db } from "./db/client";

export const BOOKMARK_HEADER = "x-d1-bookmark";

/** What D1's bookmarks look like (e.g. `00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683`). */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;

/** Where a request's session starts: its bookmark when it sends a well-formed one, else by its method. */
export function sessionStart(method: string, bookmark: string | undefined): string {
  if (method !== "GET" && method !== "HEAD") return "first-primary";
  return bookmark && BOOKMARK.test(bookmark) ? bookmark : "first-unconstrained";
}

export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const session = c.env.DB.withSession(sessionStart(c.req.method, c.req.header(BOOKMARK_HEADER)));
  c.set("d1", session);
  await next();
  const bookmark = session.getBookmark();
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
};

const handles = new WeakMap<D1Client, Db>();

/**
 * The request's database handle (drizzle, on its D1 session), built the first time the request asks for it. A
 * request that runs no drizzle query builds none (docs/decisions/038): a sign-in's two requests run their statements
 * on the session itself (services/auth.ts), and a login challenge that is signed asks the database nothing.
 */
export function dbOf(c: AppContext): Db {
  const session = c.get("d1");
  // Outside /api (the LNURL and NIP-05 answers) there is no session: the binding's own handle.
  if (!session) return openDb(c.env.DB);
  let db = handles.get(session);
  if (!db) {
    db = openDbSession(session);
    handles.set(session, db);
  }
  return db;
}
