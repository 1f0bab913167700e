// Statements whose SQL is built once, with placeholders for their values, and run on D1 as they are. Drizzle
// building a statement's SQL on every call was a good part of a request's CPU (README, "Where the CPU goes") and the
// largest part of the garbage a chat message left (docs/decisions/039); the hot paths (a sign-in, a chat message,
// the browse and gig pages) build theirs with these, and read raw rows, each column under its own key, decoded as
// drizzle would.
import { fillPlaceholders, getTableColumns, is, sql, SQL, Table, type Column, type Placeholder, type SQLWrapper } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { QueryBuilder, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { D1Client } from "./client";

/** A statement's SQL and its parameters, some of them placeholders filled per call (`bound`). */
export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

/** Selects, built with no connection. */
export const queryBuilder = new QueryBuilder();

/**
 * Inserts, updates and deletes, built with no connection: a drizzle handle on no database, whose statements are only
 * ever turned into SQL (`.toSQL()`), never run.
 */
export const offlineDb = drizzle({} as D1Database);

const dialect = new SQLiteAsyncDialect();

/** SQL written as a template (`sql\`…\``), built once. */
export const builtOnce = (query: SQLWrapper): BuiltQuery => dialect.sqlToQuery(is(query, SQL) ? query : query.getSQL());

/** A value filled in per call, as an expression (where drizzle wants SQL rather than a placeholder). */
export const param = (name: string): SQL => sql`${sql.placeholder(name)}`;
export const placeholder = (name: string): Placeholder => sql.placeholder(name);

/** The statement with this call's values, on the D1 client given (the binding, or a request's session). */
export const bound = (client: D1Client, query: BuiltQuery, values: Record<string, unknown>): D1PreparedStatement =>
  client.prepare(query.sql).bind(...fillPlaceholders(query.params, values));

/**
 * A statement whose SQL depends on how many values a list holds (`IN (?, …)`): built the first time a list of that
 * length comes, with the placeholders `${name}0`… for its items (`listValues`). Lists are short (a bound parameter
 * each, D1 takes at most 100 in a statement), so there are few of them.
 */
export function builtPerLength(name: string, build: (items: Placeholder[]) => BuiltQuery): (length: number) => BuiltQuery {
  const built = new Map<number, BuiltQuery>();
  return (length) => {
    let query = built.get(length);
    if (!query) built.set(length, (query = build(Array.from({ length }, (_, i) => sql.placeholder(`${name}${i}`)))));
    return query;
  };
}

/** A list's items as the values of `builtPerLength`'s placeholders. */
export function listValues(name: string, items: readonly unknown[], values: Record<string, unknown> = {}): Record<string, unknown> {
  items.forEach((item, i) => (values[`${name}${i}`] = item));
  return values;
}

/**
 * Columns (a table's, or some of them by key) as select fields, each under its own key (so a raw row names them as
 * the row type does), and a raw row read back as drizzle reads it (booleans and timestamps decoded by their column).
 */
export function rowReader<T>(source: Table | Record<string, Column>): { fields: Record<string, SQL.Aliased>; read: (raw: Record<string, unknown>) => T } {
  const columns = Object.entries(is(source, Table) ? getTableColumns(source) : source) as [string, Column][];
  return {
    fields: Object.fromEntries(columns.map(([key, column]) => [key, sql`${column}`.as(key)])),
    read(raw) {
      const row: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const value = raw[key];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return row as T;
    },
  };
}
