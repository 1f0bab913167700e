// One D1 batch per state change: a compare-and-set first, then every row that belongs to the change,
// each guarded so that it is written only if the compare-and-set won. D1 runs a batch as one
// transaction, so either the whole change lands or (when another request won first) nothing but a
// no-op update does, and the caller answers 409.
import { nowIso } from "./client";

export type SqlValue = string | number | null;
type Row = Record<string, SqlValue | boolean | undefined>;

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

const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function columnsOf(row: Row) {
  const entries = Object.entries(row).filter(([, v]) => v !== undefined) as [string, SqlValue | boolean][];
  return {
    names: entries.map(([k]) => toSnake(k)),
    values: entries.map(([, v]) => (typeof v === "boolean" ? (v ? 1 : 0) : v)),
  };
}

export class AtomicChange {
  private readonly statements: D1PreparedStatement[] = [];
  private results: D1Result[] | null = null;
  readonly at = nowIso();

  constructor(private readonly d1: D1Database) {}

  /**
   * `UPDATE table SET ..., transition_id = <new token> WHERE id = ? AND <where>`. The returned guard
   * holds only if this very update changed the row (nobody else can have stamped the same token).
   */
  compareAndSet(table: string, id: string, set: Row, where: Guard, opts: { bumpVersion?: boolean } = {}): Cas {
    const token = crypto.randomUUID();
    const { names, values } = columnsOf(set);
    const assignments = [...names.map((n) => `${n} = ?`), "transition_id = ?", ...(opts.bumpVersion ? ["version = version + 1"] : [])];
    const index = this.statements.length;
    this.statements.push(
      this.d1.prepare(`UPDATE ${table} SET ${assignments.join(", ")} WHERE id = ? AND (${where.sql})`).bind(...values, token, id, ...where.params),
    );
    return { index, token, sql: `EXISTS (SELECT 1 FROM ${table} WHERE id = ? AND transition_id = ?)`, params: [id, token] };
  }

  insert(table: string, row: Row, when: Guard): this {
    const { names, values } = columnsOf(row);
    this.statements.push(
      this.d1
        .prepare(`INSERT INTO ${table} (${names.join(", ")}) SELECT ${names.map(() => "?").join(", ")} WHERE ${when.sql}`)
        .bind(...values, ...when.params),
    );
    return this;
  }

  update(table: string, set: Row, where: Guard, when: Guard): this {
    const { names, values } = columnsOf(set);
    this.statements.push(
      this.d1
        .prepare(`UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE (${where.sql}) AND ${when.sql}`)
        .bind(...values, ...where.params, ...when.params),
    );
    return this;
  }

  /** Adds deltas to integer columns of one row (counters such as reputation). */
  increment(table: string, id: string, deltas: Record<string, number>, when: Guard): this {
    const entries = Object.entries(deltas).filter(([, d]) => d !== 0);
    if (entries.length === 0) return this;
    const sets = entries.map(([k]) => `${toSnake(k)} = ${toSnake(k)} + ?`);
    this.statements.push(
      this.d1
        .prepare(`UPDATE ${table} SET ${sets.join(", ")} WHERE id = ? AND ${when.sql}`)
        .bind(...entries.map(([, d]) => d), id, ...when.params),
    );
    return this;
  }

  /** A statement of its own; its SQL must carry whatever guard it needs. */
  raw(statement: D1PreparedStatement): this {
    this.statements.push(statement);
    return this;
  }

  /** Runs the batch as one transaction. */
  async commit(): Promise<this> {
    this.results = await this.d1.batch(this.statements);
    return this;
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
