import type { Context } from "hono";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Env } from "./env";
import type * as schema from "./db/schema";

export type Db = DrizzleD1Database<typeof schema>;
export type UserRow = typeof schema.users.$inferSelect;

/** What the middleware puts on every request. */
export interface AppVariables {
  db: Db;
  /** The signed-in member, when the request carries a valid session. */
  user: UserRow | null;
  /** The id of the member session the request carries (the sessions list marks it "This device"). */
  sessionId: string | null;
  /** True when the request carries a valid admin token. */
  isAdmin: boolean;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
export type AppContext = Context<AppEnv>;
