import { createTableRelationsHelpers, extractTablesRelationalConfig } from "drizzle-orm";
import { drizzle, DrizzleD1Database } from "drizzle-orm/d1";
import { SQLiteD1Session } from "drizzle-orm/d1/session";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

/** What a handle runs its SQL on: the D1 binding itself, or one of its sessions (read replicas). */
export type D1Client = Pick<D1Database, "prepare" | "batch">;

/** The one database handle services get (Deps.db). */
export type Db = DrizzleD1Database<typeof schema> & { $client: D1Client };
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

/** The schema's relational config, read once: what makes building a drizzle instance costly. */
let relational: { fullSchema: typeof schema; schema: unknown; tableNamesMap: Record<string, string> } | undefined;
const dialect = new SQLiteAsyncDialect();

/**
 * A handle on one D1 session (D1 read replication): a request's reads go to a replica at least as new as
 * the session's bookmark, its writes to the primary. Built per request, reusing the schema's config.
 */
export function openDbSession(session: D1Client): Db {
  if (!relational) {
    const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
    relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  }
  // The same two objects drizzle() builds, without reading the schema again.
  // (drizzle's internal constructors are typed for its own call; the values are the ones drizzle() passes.)
  const driver = new SQLiteD1Session(session as unknown as D1Database, dialect, relational as never, {});
  const db: DrizzleD1Database<typeof schema> = new DrizzleD1Database("async", dialect, driver as never, relational as never);
  return Object.assign(db, { $client: session });
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
