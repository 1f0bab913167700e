// SQL for tests only: fixtures that set a row up directly, and checks that read one, bypassing the services.
// Kept here, beside the schema it must match, so that D1 is only ever prepared in worker/db/.
import { env } from "cloudflare:workers";

/** One statement on the test database, bound to `params` (run it with .first(), .all(), .run(), or in a batch). */
export function statement(sql: string, ...params: unknown[]): D1PreparedStatement {
  const prepared = env.DB.prepare(sql);
  return params.length ? prepared.bind(...params) : prepared;
}

/** Statements run as one batch on the test database. */
export const batch = (statements: D1PreparedStatement[]) => env.DB.batch(statements);

const bound = <T extends object>(target: T, prop: string | symbol) => {
  const value = Reflect.get(target, prop);
  return typeof value === "function" ? value.bind(target) : value;
};

/**
 * A D1 binding that tells `watch.sql` each statement prepared on it and, when `watch.rowsRead` is given, what
 * each statement read (D1's meta.rows_read; such statements only run alone, not in a batch).
 */
export function watchedD1(d1: D1Database, watch: { sql?: (sql: string) => void; rowsRead?: (rows: number) => void }): D1Database {
  const metered = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => metered(target.bind(...values));
        if (prop === "all" || prop === "run") {
          return async () => {
            const result = await target[prop]();
            watch.rowsRead!(result.meta.rows_read ?? 0);
            return result;
          };
        }
        return bound(target, prop);
      },
    });
  return new Proxy(d1, {
    get(target, prop) {
      if (prop !== "prepare") return bound(target, prop);
      return (sql: string) => {
        watch.sql?.(sql);
        const stmt = target.prepare(sql);
        return watch.rowsRead ? metered(stmt) : stmt;
      };
    },
  });
}

/** What the statements run on a metered binding cost, as D1 reports it (meta). */
export interface D1Meter {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** The database's size after the last statement (meta.size_after), in bytes. */
  sizeAfter: number;
  /**
   * Of `statements`, the reads a read replica may answer: SELECTs in a D1 session that did not start at the
   * primary (worker/d1-sessions.ts: a GET's session), alone or in a batch of reads only. The rest go to the primary.
   */
  replicaReads?: number;
}

/**
 * A D1 binding (and the sessions opened on it) that adds up every statement it runs, alone or in a batch:
 * how many, the rows D1 read and wrote, and the database's size after them. For measuring what a route costs.
 */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  const targets = new WeakMap<object, D1PreparedStatement>();
  const isRead = (sql: string) => /^\s*(select|with)\b/i.test(sql);
  const sqlOf = new WeakMap<object, string>();
  const count = (result: D1Result, replica = false) => {
    meter.statements += 1;
    if (replica) meter.replicaReads = (meter.replicaReads ?? 0) + 1;
    meter.rowsRead += result.meta.rows_read ?? 0;
    meter.rowsWritten += result.meta.rows_written ?? 0;
    if (typeof result.meta.size_after === "number") meter.sizeAfter = result.meta.size_after;
  };
  const metered = (stmt: D1PreparedStatement, sql: string, replicaOk: boolean): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => metered(target.bind(...values), sql, replicaOk);
        if (prop === "all" || prop === "run") {
          return async () => {
            const result = await target[prop]();
            count(result, replicaOk && isRead(sql));
            return result;
          };
        }
        if (prop === "first" || prop === "raw") {
          // These report no meta. A read is counted through `all` first (read twice, counted once); a write
          // (an UPDATE ... RETURNING) runs once, counted as a statement that wrote the rows it returned.
          return async (arg?: unknown) => {
            if (isRead(sql)) count(await target.all(), replicaOk);
            const answer = await (prop === "first" ? target.first(arg as never) : target.raw(arg as never));
            if (!isRead(sql)) {
              meter.statements += 1;
              meter.rowsWritten += Array.isArray(answer) ? answer.length : answer ? 1 : 0;
            }
            return answer;
          };
        }
        return bound(target, prop);
      },
    });
    targets.set(proxy, stmt);
    sqlOf.set(proxy, sql);
    return proxy;
  };
  // The binding itself answers from the primary; a session may read from a replica unless it starts there.
  const wrap = <T extends D1Database | D1DatabaseSession>(db: T, replicaOk: boolean): T =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "prepare") return (sql: string) => metered(target.prepare(sql), sql, replicaOk);
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements.map((s) => targets.get(s) ?? s));
            const readsOnly = statements.every((s) => isRead(sqlOf.get(s) ?? ""));
            for (const r of results) count(r, replicaOk && readsOnly);
            return results;
          };
        }
        if (prop === "withSession") {
          return (start?: string) => wrap((target as D1Database).withSession(start as never), start !== undefined && start !== "first-primary");
        }
        return bound(target, prop);
      },
    });
  return wrap(d1, false);
}
