// Rows written only while a credential holds (an open login challenge, a live session), as items of one drizzle
// batch that also reads: `INSERT INTO t (every column) SELECT <the row> FROM <a table> WHERE <the condition>`. The
// batch is one transaction, so the condition and the reads beside it see the same state, and a row whose condition
// failed is simply not there; the reads say why. (AtomicChange, worker/db/atomic.ts, guards rows the same way, but
// its batches hold writes only.) The sign-in (services/auth.ts) and a chat message (services/chat.ts) write so.
import { Column, getTableColumns, is, SQL, sql, type Table } from "drizzle-orm";

/** A row's values: plain values are bound as parameters (encoded as their column encodes them); columns and SQL are used as they are. */
export type RowValues<T extends Table> = { [K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | Column | SQL };

/**
 * The fields of an `INSERT ... SELECT` of one row: the given values, every other column its default, in the
 * table's column order (as drizzle's `insert().select()` wants them).
 */
export function rowFields<T extends Table>(table: T, values: RowValues<T>): { [K in keyof T["$inferInsert"]]-?: SQL.Aliased } {
  const fields: Record<string, SQL.Aliased> = {};
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, Column][]) {
    const value = (values as Record<string, unknown>)[key];
    let expression: SQL;
    if (value !== undefined) expression = is(value, Column) || is(value, SQL) ? sql`${value}` : sql`${sql.param(value, column)}`;
    else if (column.default !== undefined) expression = is(column.default, SQL) ? column.default : sql`${sql.param(column.default, column)}`;
    else if (column.defaultFn) expression = sql`${sql.param(column.defaultFn(), column)}`;
    else expression = sql`NULL`;
    fields[key] = expression.as(column.name);
  }
  return fields as { [K in keyof T["$inferInsert"]]-?: SQL.Aliased };
}
