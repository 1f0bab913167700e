import type { Context } from "hono";
import type { Env } from "./env";
import type { D1Client, Db, UserRow } from "./db/client";

export type { Db, UserRow };

/** What the middleware puts on every request. */
export interface AppVariables {
  /**
   * The request's D1 session (d1-sessions.ts), on `/api` and the rendered pages; its drizzle handle is `dbOf(c)`,
   * built when first asked for (elsewhere `dbOf` answers the binding's own handle).
   */
  d1: D1Client;
  /** The signed-in member, when the request carries a valid session. */
  user: UserRow | null;
  /** The id of the member session the request carries (the sessions list marks it "This device"). */
  sessionId: string | null;
  /** True when the request carries a valid admin token. */
  isAdmin: boolean;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
export type AppContext = Context<AppEnv>;
