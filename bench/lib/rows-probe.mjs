// Where a browse page's rows come from: runs the page query and the poster lookup that
// worker/services/gigs.ts listGigs makes, each alone, on a benchmark's local D1 (through wrangler's
// getPlatformProxy, so the same D1 that counts `meta.rows_read`), plus two ways of reading the posters.
// Usage (app stopped): node bench/lib/rows-probe.mjs <stateDir> <out.json>
import { writeFileSync } from "node:fs";
import { getPlatformProxy } from "wrangler";

const [stateDir, out] = process.argv.slice(2);
const { env, dispose } = await getPlatformProxy({ configPath: "wrangler.toml", persist: { path: `${stateDir}/v3` } });
const db = env.DB;
const LIMIT = 50;
const posterCols = "u.id, u.username, u.display_name, u.profile_picture, u.completed_gigs, u.successful_gigs";
const visible = "NOT (g.status = 'pending_payment' AND g.gig_type = 'job_request' AND g.poster_id <> '')";

async function measure(sql, params) {
  const r = await db.prepare(sql).bind(...params).all();
  return { rowsRead: r.meta.rows_read, rows: r.results.length, sql: sql.length > 400 ? `${sql.slice(0, 400)}…` : sql };
}

/** The posters read one `id = ?` statement each, sent together with D1's batch(). */
async function batchOfEquals(ids) {
  const stmt = db.prepare(`SELECT ${posterCols} FROM users u WHERE u.id = ?`);
  const results = await db.batch(ids.map((id) => stmt.bind(id)));
  return { rowsRead: results.reduce((s, r) => s + r.meta.rows_read, 0), rows: results.reduce((s, r) => s + r.results.length, 0), statements: ids.length };
}

const result = {};
for (const [name, offset] of [["firstPage", 0], ["page500", 499 * LIMIT]]) {
  let keyset = "";
  let params = [];
  if (offset > 0) {
    const last = (await db.prepare(`SELECT created_at, id FROM gigs g WHERE g.status = 'open' AND ${visible} ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`).bind(offset - 1).all()).results[0];
    keyset = " AND (g.created_at, g.id) < (?, ?)";
    params = [last.created_at, last.id];
  }
  const pageSql = `SELECT g.* FROM gigs g WHERE g.status = 'open' AND ${visible}${keyset} ORDER BY g.created_at DESC, g.id DESC LIMIT ${LIMIT + 1}`;
  const page = await measure(pageSql, params);
  const rows = (await db.prepare(pageSql).bind(...params).all()).results.slice(0, LIMIT);
  const posters = [...new Set(rows.map((g) => g.poster_id))];
  result[name] = {
    pageQuery: page,
    distinctPosters: posters.length,
    postersIn: await measure(`SELECT ${posterCols} FROM users u WHERE u.id IN (${posters.map(() => "?").join(",")})`, posters),
    postersOneByOneInABatch: await batchOfEquals(posters),
    pageJoinedWithPosters: await measure(
      `SELECT g.*, ${posterCols} FROM gigs g JOIN users u ON u.id = g.poster_id WHERE g.status = 'open' AND ${visible}${keyset} ORDER BY g.created_at DESC, g.id DESC LIMIT ${LIMIT + 1}`,
      params,
    ),
  };
}
await dispose();
writeFileSync(out, JSON.stringify(result, null, 1));
