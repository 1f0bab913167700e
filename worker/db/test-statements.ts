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
}

/**
 * A D1 binding (and the sessions opened on it) that adds up every statement it runs, alone or in a batch:
 * how many, the rows D1 read and wrote, and the database's size after them. For measuring what a route costs.
 */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  const targets = new WeakMap<object, D1PreparedStatement>();
  const count = (result: D1Result) => {
    meter.statements += 1;
    meter.rowsRead += result.meta.rows_read ?? 0;
    meter.rowsWritten += result.meta.rows_written ?? 0;
    if (typeof result.meta.size_after === "number") meter.sizeAfter = result.meta.size_after;
  };
  const metered = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => metered(target.bind(...values), sql);
        if (prop === "all" || prop === "run") {
          return async () => {
            const result = await target[prop]();
            count(result);
            return result;
          };
        }
        if (prop === "first" || prop === "raw") {
          // These report no meta. A read is counted through `all` first (read twice, counted once); a write
          // (an UPDATE ... RETURNING) runs once, counted as a statement that wrote the rows it returned.
          return async (arg?: unknown) => {
            if (/^\s*(select|with)\b/i.test(sql)) count(await target.all());
            const answer = await (prop === "first" ? target.first(arg as never) : target.raw(arg as never));
            if (!/^\s*(select|with)\b/i.test(sql)) {
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
    return proxy;
  };
  const wrap = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "prepare") return (sql: string) => metered(target.prepare(sql), sql);
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements.map((s) => targets.get(s) ?? s));
            for (const r of results) count(r);
            return results;
          };
        }
        if (prop === "withSession") return (start?: string) => wrap((target as D1Database).withSession(start as never));
        return bound(target, prop);
      },
    });
  return wrap(d1);
}
