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
