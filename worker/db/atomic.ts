// One D1 batch per state change: a compare-and-set first, then every row that belongs to the change,
// each guarded so that it is written only if the compare-and-set won. D1 runs a batch as one
// transaction, so either the whole change lands or (when another request won first) nothing but a
// no-op update does, and the caller answers 409.
import { getTableColumns, getTableName, is, SQL, type Column } from "drizzle-orm";
import { SQLiteSyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { nowIso, type D1Client, type Db } from "./client";

export type SqlValue = string | number | null;

/** A condition in SQL with its parameters; rows guarded by it are written only when it holds. */
export interface Guard {
  sql: string;
  params: SqlValue[];
}

/** A compare-and-set inside a change: `won` tells after commit whether it changed its row. */
export interface Cas extends Guard {
  readonly index: number;
  /** The transition id this compare-and-set stamps on its row. */
  readonly token: string;
}

/** A row to insert, as drizzle types it for this table: a wrong column or value type fails `tsc`. */
export type InsertRow<T extends SQLiteTable> = T["$inferInsert"];
/** Columns to set, each a value of its column's type or an SQL expression (drizzle's `sql`). */
export type SetColumns<T extends SQLiteTable> = { [K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | SQL };
/** Tables whose rows a compare-and-set can stamp (they have an id and a transition_id). */
type Stampable = SQLiteTable & { $inferSelect: { id: string; transitionId: string | null } };
type WithId = SQLiteTable & { $inferSelect: { id: string } };
/** The integer columns of a table, for counters. */
type Counters<T extends SQLiteTable> = { [K in keyof T["$inferSelect"] as T["$inferSelect"][K] extends number ? K : never]?: number };

const dialect = new SQLiteSyncDialect();
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Each given column's name in the database with its value as D1 takes it (or an SQL expression). */
function columnsOf(table: SQLiteTable, row: Record<string, unknown>): { names: string[]; values: string[]; params: SqlValue[] } {
  const columns = getTableColumns(table) as Record<string, Column>;
  const names: string[] = [];
  const values: string[] = [];
  const params: SqlValue[] = [];
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    names.push(quote(column.name));
    if (is(value, SQL)) {
      const query = dialect.sqlToQuery(value);
      values.push(query.sql);
      params.push(...(query.params as SqlValue[]));
    } else {
      values.push("?");
      params.push(value === null ? null : (column.mapToDriverValue(value) as SqlValue));
    }
  }
  return { names, values, params };
}

/** Told of every change that committed (Deps.committed: it announces what was written, e.g. notifications to open tabs). */
export type CommitListener = (change: AtomicChange) => void;

export class AtomicChange {
  private readonly statements: D1PreparedStatement[] = [];
  private readonly inserts: { table: SQLiteTable; row: unknown; index: number }[] = [];
  private results: D1Result[] | null = null;
  private readonly d1: D1Client;
  readonly at = nowIso();

  constructor(
    db: Db,
    private readonly onCommit: CommitListener,
  ) {
    this.d1 = db.$client;
  }

  private push(sql: string, params: SqlValue[]): number {
    this.statements.push(this.d1.prepare(sql).bind(...params));
    return this.statements.length - 1;
  }

  /**
   * `UPDATE table SET ..., transition_id = <new token> WHERE id = ? AND <where>`. The returned guard
   * holds only if this very update changed the row (nobody else can have stamped the same token).
   */
  compareAndSet<T extends Stampable>(table: T, id: string, set: SetColumns<T>, where: Guard, opts: { bumpVersion?: boolean } = {}): Cas {
    const token = crypto.randomUUID();
    const name = quote(getTableName(table));
    const { names, values, params } = columnsOf(table, set);
    const assignments = [...names.map((n, i) => `${n} = ${values[i]}`), "transition_id = ?", ...(opts.bumpVersion ? ["version = version + 1"] : [])];
    const index = this.push(`UPDATE ${name} SET ${assignments.join(", ")} WHERE id = ? AND (${where.sql})`, [...params, token, id, ...where.params]);
    return { index, token, sql: `EXISTS (SELECT 1 FROM ${name} WHERE id = ? AND transition_id = ?)`, params: [id, token] };
  }

  insert<T extends SQLiteTable>(table: T, row: InsertRow<T>, when: Guard): this {
    const { names, values, params } = columnsOf(table, row as Record<string, unknown>);
    this.inserts.push({ table, row, index: this.statements.length });
    this.push(`INSERT INTO ${quote(getTableName(table))} (${names.join(", ")}) SELECT ${values.join(", ")} WHERE ${when.sql}`, [...params, ...when.params]);
    return this;
  }

  update<T extends SQLiteTable>(table: T, set: SetColumns<T>, where: Guard, when: Guard): this {
    const { names, values, params } = columnsOf(table, set);
    this.push(
      `UPDATE ${quote(getTableName(table))} SET ${names.map((n, i) => `${n} = ${values[i]}`).join(", ")} WHERE (${where.sql}) AND ${when.sql}`,
      [...params, ...where.params, ...when.params],
    );
    return this;
  }

  delete<T extends SQLiteTable>(table: T, where: Guard, when: Guard): this {
    this.push(`DELETE FROM ${quote(getTableName(table))} WHERE (${where.sql}) AND ${when.sql}`, [...where.params, ...when.params]);
    return this;
  }

  /** Adds deltas to integer columns of one row (counters such as reputation). */
  increment<T extends WithId>(table: T, id: string, deltas: Counters<T>, when: Guard): this {
    const columns = getTableColumns(table) as Record<string, Column>;
    const entries = Object.entries(deltas as Record<string, number>).filter(([, d]) => d !== 0);
    if (entries.length === 0) return this;
    const sets = entries.map(([k]) => `${quote(columns[k]!.name)} = ${quote(columns[k]!.name)} + ?`);
    this.push(`UPDATE ${quote(getTableName(table))} SET ${sets.join(", ")} WHERE id = ? AND ${when.sql}`, [...entries.map(([, d]) => d), id, ...when.params]);
    return this;
  }

  /** Runs the batch as one transaction. */
  async commit(): Promise<this> {
    this.results = await this.d1.batch(this.statements);
    this.onCommit(this);
    return this;
  }

  /** After commit: the rows inserted into `table` whose guard held (so they are in the database now). */
  inserted<T extends SQLiteTable>(table: T): InsertRow<T>[] {
    if (!this.results) throw new Error("AtomicChange.inserted before commit");
    return this.inserts.filter((i) => i.table === table && (this.results![i.index]?.meta.changes ?? 0) >= 1).map((i) => i.row as InsertRow<T>);
  }

  /**
   * After commit: did this compare-and-set change its row? D1's `changes` also counts what triggers
   * wrote (editing a gig's title re-indexes it for search, migrations/0004), and a trigger runs only
   * when its row changed; the update names one row by primary key, so any change means it won.
   */
  won(cas: Cas): boolean {
    if (!this.results) throw new Error("AtomicChange.won before commit");
    return (this.results[cas.index]?.meta.changes ?? 0) >= 1;
  }
}

export const allOf = (...guards: Guard[]): Guard => ({
  sql: guards.map((g) => `(${g.sql})`).join(" AND "),
  params: guards.flatMap((g) => g.params),
});

export const not = (guard: Guard): Guard => ({ sql: `NOT (${guard.sql})`, params: guard.params });

export const where = (sql: string, ...params: SqlValue[]): Guard => ({ sql, params });

export const ALWAYS: Guard = { sql: "1 = 1", params: [] };
