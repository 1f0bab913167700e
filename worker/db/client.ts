import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The one database handle services get (Deps.db). */
export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };
export type UserRow = typeof schema.users.$inferSelect;

// One drizzle instance per D1 binding: building one reads the whole schema's relations, which cost a
// noticeable share of a browse request's CPU when done per request. The instance holds no request state.
const instances = new WeakMap<D1Database, Db>();

export function openDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    instances.set(d1, db);
  }
  return db;
}

export const nowIso = () => new Date().toISOString();

/**
 * Runs compiled SQL on D1 itself and answers its rows with what reading them cost (D1's rows_read): the
 * browse page reports it (X-Rows-Read) and the bench budgets it.
 */
export async function allMeasured<T>(db: Db, query: { sql: string; params: unknown[] }): Promise<{ rows: T[]; rowsRead: number }> {
  const result = await db.$client.prepare(query.sql).bind(...query.params).all<T>();
  return { rows: result.results, rowsRead: result.meta.rows_read ?? 0 };
}
