// Where a browse page's rows come from: runs the page query and the poster lookup that
// worker/services/gigs.ts listGigs makes, each alone, on a benchmark's local D1 (through wrangler's
// getPlatformProxy, so the same D1 that counts `meta.rows_read`), plus two ways of reading the posters;
// then the budget-band pages and where a search page's rows come from (the FTS5 index, the gigs, the posters).
// Usage (app stopped): node bench/lib/rows-probe.mjs <stateDir> <out.json>
import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";

const [stateDir, out] = process.argv.slice(2);
const { env, dispose } = await getPlatformProxy({ configPath: "wrangler.toml", persist: { path: `${stateDir}/v3` } });
const db = drizzle(env.DB);

/** `text` with its `?` placeholders bound to `params`, as a drizzle sql template (D1 itself is prepared only in worker/db/). */
function bound(text, params) {
  const parts = text.split("?");
  const query = sql.empty();
  parts.forEach((part, i) => {
    query.append(sql.raw(part));
    if (i < parts.length - 1) query.append(sql`${params[i]}`);
  });
  return query;
}

/** Runs it on D1 and answers D1's result: its rows and what reading them cost (meta.rows_read). */
const run = (text, params = []) => db.run(bound(text, params));
const LIMIT = 50;
const posterCols = "u.id, u.username, u.display_name, u.profile_picture, u.completed_gigs, u.successful_gigs";
const visible = "NOT (g.status = 'pending_payment' AND g.gig_type = 'job_request' AND g.poster_id <> '')";

async function measure(text, params) {
  const r = await run(text, params);
  return { rowsRead: r.meta.rows_read, rows: r.results.length, sql: text.length > 400 ? `${text.slice(0, 400)}…` : text };
}

/** The posters read one `id = ?` statement each, sent together. */
async function batchOfEquals(ids) {
  const results = await Promise.all(ids.map((id) => run(`SELECT ${posterCols} FROM users u WHERE u.id = ?`, [id])));
  return { rowsRead: results.reduce((s, r) => s + r.meta.rows_read, 0), rows: results.reduce((s, r) => s + r.results.length, 0), statements: ids.length };
}

const result = {};
for (const [name, offset] of [["firstPage", 0], ["page500", 499 * LIMIT]]) {
  let keyset = "";
  let params = [];
  if (offset > 0) {
    const last = (await run(`SELECT created_at, id FROM gigs g WHERE g.status = 'open' AND ${visible} ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`, [offset - 1])).results[0];
    keyset = " AND (g.created_at, g.id) < (?, ?)";
    params = [last.created_at, last.id];
  }
  const pageSql = `SELECT g.* FROM gigs g WHERE g.status = 'open' AND ${visible}${keyset} ORDER BY g.created_at DESC, g.id DESC LIMIT ${LIMIT + 1}`;
  const page = await measure(pageSql, params);
  const rows = (await run(pageSql, params)).results.slice(0, LIMIT);
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
// Budget bands: each band's page on its index (status, budget_band, created_at, id), as listGigs asks for it.
const bands = [["maxPayment=9999", 0, "g.payment <= 9999"], ["10000-50000", 1, "g.payment BETWEEN 10000 AND 50000"], ["50001-100000", 2, "g.payment BETWEEN 50001 AND 100000"], ["minPayment=100001", 3, "g.payment >= 100001"]];
result.budgetBands = {};
for (const [name, band, range] of bands) {
  result.budgetBands[name] = await measure(
    `SELECT g.*, ${posterCols} FROM gigs g JOIN users u ON u.id = g.poster_id WHERE g.status = 'open' AND g.budget_band = ? AND ${range} AND ${visible} ORDER BY g.created_at DESC, g.id DESC LIMIT ${LIMIT + 1}`,
    [band],
  );
}
// Search: the FTS5 index alone (rowids newest first), joined with the gigs, then with the posters (the page).
const match = (word) => `{title description category} : "${word}"`;
result.search = {};
for (const word of ["podcast", "zebra", "gig 9999"]) {
  const fts = `FROM gigs_search s CROSS JOIN gigs g WHERE s.gigs_search MATCH ? AND g.search_seq = s.rowid AND g.status = 'open' AND ${visible}`;
  result.search[word] = {
    indexOnly: await measure(`SELECT s.rowid FROM gigs_search s WHERE s.gigs_search MATCH ? ORDER BY s.rowid DESC LIMIT ${LIMIT + 1}`, [match(word)]),
    withGigs: await measure(`SELECT g.* ${fts} ORDER BY s.rowid DESC LIMIT ${LIMIT + 1}`, [match(word)]),
    page: await measure(`SELECT g.*, ${posterCols} ${fts.replace("WHERE", "JOIN users u ON u.id = g.poster_id WHERE")} ORDER BY s.rowid DESC LIMIT ${LIMIT + 1}`, [match(word)]),
  };
}
await dispose();
writeFileSync(out, JSON.stringify(result, null, 1));
