// Migration 0017 (milestones, issue 28) on a database filled as `npm run demo` fills one. Existing gigs keep
// working: each gets one implicit milestone, and its screens, its next action and the ledger are as before.
//
// The demo's market (scripts/demo/market.ts, the demo's own seeding code, through the Worker's API) plus the
// states it does not make (a job and a hire waiting for payment, a revision asked for, disputes the admin
// settled each way, a gig released by the hirer's silence, a claimed job cancelled with its refund, an unpaid
// job cancelled) is written by the Worker as it is now, on this test file's own D1. Then the database goes back
// to what migrations 0000..0016 made: every row is kept, every table dropped, 0000..0016 applied to the empty
// database (applyD1Migrations with TEST_MIGRATIONS cut before 0017) and the rows written back in the columns
// 0016 has. That is the database an older Worker left, as far as the gig life the demo makes goes: the Worker
// before milestones (2413501) writes these same rows for the same market, save the `milestone` its events' data
// now carry, taken out here. Then 0017 is applied, and the test checks that it gives back exactly what the
// Worker wrote (the schema, every row, each gig's milestone), that the ledger check holds, that every gig's
// details answer carries its one milestone at the step of its state, and that each gig still in progress takes
// its next action, the ledger check holding after each.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarket, type Caller, type DemoMarket, type DemoMember } from "../scripts/demo/market";
import { refundAmount, splitPayouts, totalCharge, workerPayout } from "../domain/fees";
import { adminSignIn, asAdmin } from "./test/admin";
import { api, statusAndBody, type Json } from "./test/factories";
import { checkLedger } from "./services/ledger";
import { openDb } from "./db/client";
import { makeDeps } from "./composition";
import { autoReleaseDue } from "./services/auto-release";

type Row = Record<string, unknown>;

// The demo's members call from 203.0.113.n; here from addresses of their own, so this file never shares a
// rate-limit window with worker/demo-market.test.ts.
const call: Caller = async (method, path, { token, json, address }) =>
  statusAndBody(await api(path, { method, token, json, headers: { "cf-connecting-ip": address.replace(/^203\.0\.113\./, "198.18.17.") } }));

async function ok(method: string, path: string, who: DemoMember | null, json?: unknown): Promise<Json> {
  const answer = await call(method, path, { token: who?.token, json, address: who?.address ?? "203.0.113.99" });
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The milestones' migration; the database before it is what 0000..0016 made. */
const MILESTONES = "0017_milestones.sql";

// ---- The market ------------------------------------------------------------------------------------------

interface Cast {
  hana: DemoMember; // hires
  walt: DemoMember;
  ada: DemoMember;
  bakery: DemoMember; // hires
  nako: DemoMember;
  lena: DemoMember;
}

/** Gig ids by what the test calls them. */
type Named = Record<string, string>;

/**
 * The gig states the demo does not make, made the same way (the demo's members, the same API, the dev wallet):
 * every branch of the migration's escrow and resolution mapping has a gig.
 */
async function seedMissingStates(c: Cast, market: DemoMarket): Promise<Named> {
  const job = (title: string, payment: number) => ({ gigType: "job_request", title, description: `${title}, for the migration test.`, category: "Design", payment, timeframe: 5 });
  const pay = (paymentRequest: string) => ok("POST", "/api/dev/invoices/pay", null, { paymentRequest });
  const post = async (poster: DemoMember, draft: Json, funded = true) => {
    const posted = await ok("POST", "/api/gigs", poster, draft);
    if (funded && posted.paymentRequest) await pay(posted.paymentRequest); // a service offering is paid when it is hired
    return posted.gig.id as string;
  };
  const interest = async (gigId: string, from: DemoMember, owner: DemoMember) => {
    const sent = await ok("POST", `/api/gigs/${gigId}/pre-claim-messages`, from, { message: "I can do this one." });
    for (const step of ["approve", "enable-claim"]) await ok("PATCH", `/api/pre-claim-messages/${sent.id}/${step}`, owner);
  };
  const take = async (gigId: string, owner: DemoMember, by: DemoMember, until: "claimed" | "work_submitted") => {
    await interest(gigId, by, owner);
    await ok("POST", `/api/gigs/${gigId}/claim`, by);
    if (until === "claimed") return;
    await ok("POST", `/api/gigs/${gigId}/start-work`, by);
    await ok("POST", `/api/gigs/${gigId}/submit`, by, { workSubmission: "Delivered: the files are in the chat." });
  };
  const named: Named = {};

  // Waiting for payment: a job request posted and not paid, and a service offering's hire not paid.
  named.unpaidJob = await post(c.hana, job("Unpaid job: a flyer", 14_000), false);
  named.unpaidHire = await post(c.ada, { ...job("Unpaid hire: a badge", 16_000), gigType: "service_offering" });
  await interest(named.unpaidHire, c.hana, c.ada);
  const hire = await ok("POST", `/api/gigs/${named.unpaidHire}/claim`, c.hana);
  if (!hire.paymentRequest) throw new Error("the hire answered no invoice");

  // A revision asked for.
  named.revision = await post(c.lena, job("Revision: a banner", 26_000));
  await take(named.revision, c.lena, c.walt, "work_submitted");
  await ok("POST", `/api/gigs/${named.revision}/request-revision`, c.lena, { note: "Please make the text larger." });

  // Disputes the admin settled each way: refund_hirer, pay_worker and a split.
  const admin = await adminSignIn();
  for (const [name, resolution] of [
    ["refunded", { resolution: "refund_hirer" }],
    ["paidWorker", { resolution: "pay_worker" }],
    ["split", { resolution: "split", workerSharePercent: 40 }],
  ] as const) {
    named[name] = await post(c.bakery, job(`Settled dispute (${name}): a photo`, name === "split" ? 33_333 : 21_000));
    await take(named[name], c.bakery, c.nako, "work_submitted");
    await ok("POST", `/api/gigs/${named[name]}/dispute`, c.bakery, { reason: "The photos are not what we asked for." });
    const resolved = await asAdmin(admin, `/api/admin/disputes/${named[name]}/resolve`, "POST", resolution);
    if (resolved.status !== 200) throw new Error(`resolve ${name}: ${resolved.status} ${JSON.stringify(resolved.body)}`);
  }

  // Released by the hirer's silence: submitted more than AUTO_RELEASE_DAYS (14) ago, then the cron's auto-release.
  named.autoReleased = await post(c.lena, job("Auto-released: a logo sketch", 11_000));
  await take(named.autoReleased, c.lena, c.walt, "work_submitted");
  await env.DB.prepare("UPDATE gigs SET submitted_at = ? WHERE id = ?").bind(new Date(Date.now() - 15 * 86_400_000).toISOString(), named.autoReleased).run();
  const payouts: Promise<unknown>[] = [];
  expect(await autoReleaseDue(makeDeps(env, (work) => payouts.push(work())))).toMatchObject({ released: 1 });
  await Promise.all(payouts);

  // Cancelled after the worker claimed it (refunded in full), and cancelled before it was paid (nothing to refund).
  named.cancelledClaimed = await post(c.hana, job("Cancelled after claim: a map", 17_000));
  await take(named.cancelledClaimed, c.hana, c.ada, "claimed");
  await ok("POST", `/api/gigs/${named.cancelledClaimed}/cancel`, c.hana);
  named.cancelledUnpaid = await post(c.hana, job("Cancelled unpaid: a card", 7_000), false);
  await ok("POST", `/api/gigs/${named.cancelledUnpaid}/cancel`, c.hana);

  // The demo's own gigs in the states the checks below act on.
  const demo = (title: string) => {
    const g = market.gigs.find((x) => x.title === title);
    if (!g) throw new Error(`the demo has no gig "${title}"`);
    return g.id;
  };
  named.openJob = demo("Menu board for the bakery window");
  named.openOffer = demo("A logo for your project, two revisions");
  named.claimed = demo("Update the bakery's opening hours page");
  named.inProgress = demo("Poster for our coffee tasting night");
  named.hiredInProgress = demo("Translate a product page into Japanese");
  named.submitted = demo("A slogan for the new espresso blend");
  named.completed = demo("Header image for the newsletter");
  named.disputed = demo("Photos of twelve pastries");
  named.cancelled = demo("Transcribe a 10-minute interview");
  return named;
}

// ---- Taking the database back to 0016 ----------------------------------------------------------------------

const all = async <T = Row>(query: string, ...params: unknown[]) => (await env.DB.prepare(query).bind(...params).all<T>()).results;

/** The database's own tables (not SQLite's, not D1's), virtual ones flagged, their FTS shadow tables left out. */
async function userTables(): Promise<{ name: string; virtual: boolean }[]> {
  const rows = await all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name",
  );
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  return rows
    .filter((r) => !virtual.some((v) => r.name.startsWith(`${v}_`)))
    .map((r) => ({ name: r.name, virtual: virtual.includes(r.name) }));
}

/** The schema as sqlite_master holds it: every table, index and trigger with its SQL. */
async function schema(): Promise<Row[]> {
  return all("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY type, name");
}

/** The columns a table stores (generated ones left out: they are computed, never written). */
async function storedColumns(table: string): Promise<string[]> {
  return (await all<{ name: string; hidden: number }>(`SELECT name, hidden FROM pragma_table_xinfo(?)`, table)).filter((c) => c.hidden === 0).map((c) => c.name);
}

/** Every row of every table (the migrations' own bookkeeping and the search index left out: both are rebuilt). */
async function dumpRows(): Promise<Map<string, Row[]>> {
  const rows = new Map<string, Row[]>();
  for (const t of await userTables()) {
    if (t.virtual || t.name === "d1_migrations") continue;
    rows.set(t.name, await all(`SELECT * FROM "${t.name}"`));
  }
  return rows;
}

/** Drops every table, then applies `migrations` to the empty database. */
async function rebuildWith(migrations: typeof env.TEST_MIGRATIONS) {
  const tables = await userTables();
  // Virtual tables first (dropping one drops its shadow tables); foreign keys are checked at the end, when none is left.
  const order = [...tables.filter((t) => t.virtual), ...tables.filter((t) => !t.virtual)];
  await env.DB.batch([env.DB.prepare("PRAGMA defer_foreign_keys = ON"), ...order.map((t) => env.DB.prepare(`DROP TABLE "${t.name}"`))]);
  await applyD1Migrations(env.DB, migrations);
}

/** Writes the rows back into the tables the database has now, in the columns they have; answers what did not fit. */
async function restoreRows(rows: Map<string, Row[]>): Promise<{ tablesLeftOut: string[]; columnsLeftOut: string[] }> {
  const present = new Set((await userTables()).map((t) => t.name));
  const statements: D1PreparedStatement[] = [env.DB.prepare("PRAGMA defer_foreign_keys = ON")];
  const tablesLeftOut: string[] = [];
  const columnsLeftOut: string[] = [];
  for (const [table, list] of rows) {
    if (!present.has(table)) {
      tablesLeftOut.push(table);
      continue;
    }
    const columns = await storedColumns(table);
    const dumped = list[0] ? Object.keys(list[0]) : columns;
    const generated = new Set((await all<{ name: string; hidden: number }>(`SELECT name, hidden FROM pragma_table_xinfo(?)`, table)).filter((c) => c.hidden !== 0).map((c) => c.name));
    for (const name of dumped) if (!columns.includes(name) && !generated.has(name)) columnsLeftOut.push(`${table}.${name}`);
    for (const row of list) {
      statements.push(
        env.DB.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).bind(...columns.map((c) => row[c] ?? null)),
      );
    }
  }
  await env.DB.batch(statements);
  // The search index of the gigs written back (0004's triggers index a gig only when it is numbered or edited).
  await env.DB.prepare("INSERT INTO gigs_search (gigs_search) VALUES ('rebuild')").run();
  return { tablesLeftOut: tablesLeftOut.sort(), columnsLeftOut: columnsLeftOut.sort() };
}

const sorted = (list: Row[]) => list.map((r) => JSON.stringify(r)).sort();

/** The rows as the Worker before milestones wrote them: its gig events' data named no milestone. */
function asOlderWorkerWrote(rows: Map<string, Row[]>): Map<string, Row[]> {
  const older = new Map(rows);
  older.set(
    "gig_events",
    (rows.get("gig_events") ?? []).map((e) => {
      const { milestone: _, ...data } = JSON.parse(String(e.data ?? "{}")) as Record<string, unknown>;
      return { ...e, data: JSON.stringify(data) };
    }),
  );
  return older;
}

// ---- The run ----------------------------------------------------------------------------------------------

let market: DemoMarket;
let cast: Cast;
let named: Named;
/** What the Worker wrote, before the database went back to 0016. */
let written: { schema: Row[]; rows: Map<string, Row[]> };
/** The same rows as an older Worker would have left them: what the database held before 0017. */
let older: Map<string, Row[]>;
let leftOut: { tablesLeftOut: string[]; columnsLeftOut: string[] };
let schemaAt0016: Row[];

interface GigRowLite {
  id: string;
  status: string;
  payment: number;
  escrow_status: string;
  resolution: string | null;
  poster_id: string;
  hirer_id: string | null;
  worker_id: string | null;
}

beforeAll(async () => {
  market = await seedMarket(call, "https://gigstr.test");
  const [hana, walt, ada, bakery, nako, lena] = market.members as [DemoMember, DemoMember, DemoMember, DemoMember, DemoMember, DemoMember];
  cast = { hana, walt, ada, bakery, nako, lena };
  named = await seedMissingStates(cast, market);
  written = { schema: await schema(), rows: await dumpRows() };

  const at = env.TEST_MIGRATIONS.findIndex((m) => m.name === MILESTONES);
  expect(at, `${MILESTONES} is among the migrations`).toBeGreaterThan(0);
  await rebuildWith(env.TEST_MIGRATIONS.slice(0, at));
  schemaAt0016 = await schema();
  older = asOlderWorkerWrote(written.rows);
  leftOut = await restoreRows(older);
  // 0017, and whatever comes after it.
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}, 180_000);

const gigRows = () => all<GigRowLite>("SELECT id, status, payment, escrow_status, resolution, poster_id, hirer_id, worker_id FROM gigs ORDER BY created_at");
const milestoneRows = () => all<Row & { gig_id: string }>("SELECT * FROM gig_milestones ORDER BY gig_id, number");
const ledgerOk = async () => expect((await checkLedger(openDb(env.DB))).problems, "the ledger check holds").toEqual([]);
const member = (id: string | null) => Object.values(cast).find((m) => m.id === id);

describe("migration 0017 on a database filled by `npm run demo`", () => {
  it("starts from 0016: no milestone tables or columns, and the payouts' old unique index", async () => {
    const names = schemaAt0016.map((s) => s.name);
    expect(names).not.toContain("gig_milestones");
    expect(names).not.toContain("milestone_proposals");
    expect(names).toContain("payouts_gig_purpose_idx");
    // What did not fit in 0016 is exactly what 0017 adds.
    // (Less what the migrations after 0017 add: 0018's chat summaries, 0019's archive mark, 0020's DM start.)
    const later = (name: string) =>
      name === "gig_chat_summaries" || name === "admin_chat_reads.member_messages_read" || name === "gigs.archived_at" || name === "users.nostr_dm_since";
    expect(leftOut.tablesLeftOut.filter((t) => !later(t))).toEqual(["gig_milestones", "milestone_proposals"]);
    expect(leftOut.columnsLeftOut.filter((c) => !later(c))).toEqual(["gigs.current_milestone", "gigs.milestone_count", "invoices.milestone", "payouts.milestone"]);
    // The market has a gig in every state of a gig's life.
    const states = new Set((await gigRows()).map((g) => g.status));
    for (const s of ["pending_payment", "open", "claimed", "in_progress", "needs_revision", "work_submitted", "disputed", "completed", "cancelled"]) expect(states, s).toContain(s);
  });

  it("gives back the schema a fresh database has, and every row as it was", async () => {
    expect(await schema()).toEqual(written.schema);
    expect(await all("SELECT name FROM pragma_index_list('payouts') WHERE \"unique\" = 1 AND name LIKE 'payouts_gig%'")).toEqual([{ name: "payouts_gig_milestone_purpose_idx" }]);
    for (const [table, rows] of older) {
      if (table === "gig_milestones" || table === "milestone_proposals") continue; // made by the migration: checked on their own below
      expect(sorted(await all(`SELECT * FROM "${table}"`)), `the rows of ${table}`).toEqual(sorted(rows));
    }
    // A gig without a plan is on its one milestone, and every payout and invoice belongs to it.
    expect(await all("SELECT DISTINCT current_milestone, milestone_count FROM gigs")).toEqual([{ current_milestone: 1, milestone_count: 1 }]);
    expect(await all("SELECT DISTINCT milestone FROM payouts")).toEqual([{ milestone: 1 }]);
    expect(await all("SELECT DISTINCT milestone FROM invoices")).toEqual([{ milestone: 1 }]);
    // Gig search still finds them (0004's index over the gigs written back).
    const found = await call("GET", `/api/gigs?q=${encodeURIComponent("espresso blend")}&status=work_submitted`, { address: "198.51.100.7" });
    expect(found.body.map((g: Json) => g.id)).toEqual([named.submitted]);
  });

  it("gives every gig exactly one milestone: its payment, its escrow state, escrow:<gig>, as the Worker itself wrote it", async () => {
    const gigs = await gigRows();
    const migrated = await milestoneRows();
    const before = written.rows.get("gig_milestones") as (Row & { gig_id: string })[];
    expect(migrated).toHaveLength(gigs.length);
    expect(await all("SELECT * FROM milestone_proposals"), "no plan change is pending for a gig without a plan").toEqual([]);
    for (const g of gigs) {
      const mine = migrated.filter((m) => m.gig_id === g.id);
      expect(mine, `gig ${g.id} (${g.status})`).toHaveLength(1);
      const m = mine[0]!;
      const escrow = { pending: "unfunded", funded: "funded", refunded: "refunded", released: g.resolution === "split" ? "split" : "released" }[g.escrow_status];
      expect(m, `the milestone of gig ${g.id} (${g.status}, escrow ${g.escrow_status})`).toMatchObject({ number: 1, title: null, days: null, amount: g.payment, escrow, escrow_account: `escrow:${g.id}` });
      // What the Worker wrote for the same gig (ids and the migration's own timestamps apart).
      const w = before.find((x) => x.gig_id === g.id)!;
      for (const field of ["number", "title", "amount", "days", "escrow", "escrow_account", "funding_invoice_id", "funded_at", "resolution", "created_at"]) {
        expect(m[field], `gig ${g.id} (${g.status}): ${field}`).toEqual(w[field]);
      }
      expect(m.settled_at === null, `gig ${g.id} (${g.status}): settled or not`).toBe(w.settled_at === null);
      if (m.settled_at !== null) expect(Math.abs(Date.parse(String(m.settled_at)) - Date.parse(String(w.settled_at))), "settled when the gig ended").toBeLessThan(5_000);
    }
  });

  it("keeps the ledger check, and each funded milestone's escrow holds its total charge", async () => {
    await ledgerOk();
    for (const g of await gigRows()) {
      const [{ b }] = (await all<{ b: number }>("SELECT COALESCE(SUM(amount), 0) AS b FROM ledger_entries WHERE account = ?", `escrow:${g.id}`)) as [{ b: number }];
      expect(b, `escrow of gig ${g.id} (${g.status})`).toBe(g.escrow_status === "funded" ? totalCharge(g.payment) : 0);
    }
  });

  it("answers every gig's details, to each of its parties, with its one milestone at the step of the gig's state", async () => {
    const paidOut = new Set((await all<{ gig_id: string }>("SELECT gig_id FROM payouts WHERE purpose = 'worker_payout' AND status = 'succeeded'")).map((p) => p.gig_id));
    for (const g of await gigRows()) {
      const expected = expectedStep(g, paidOut.has(g.id));
      for (const id of new Set([g.poster_id, g.hirer_id, g.worker_id].filter((x): x is string => x !== null))) {
        const who = member(id)!;
        const details = await call("GET", `/api/gigs/${g.id}`, { token: who.token, address: who.address });
        expect(details.status, `gig ${g.id} as ${who.name}`).toBe(200);
        expect(details.body, `gig ${g.id} (${g.status}) as ${who.name}`).toMatchObject({ status: g.status, currentMilestone: 1, milestoneCount: 1, milestoneProposal: null });
        // Soft: every gig and party is looked at, and each wrong one named.
        expect.soft(details.body.milestones, `gig ${g.id} (${g.status}) as ${who.name}`).toEqual([
          expect.objectContaining({ number: 1, amount: g.payment, current: true, step: expected, totalCharge: totalCharge(g.payment), workerPayout: workerPayout(g.payment) }),
        ]);
        // Only the payer sees the invoice of a gig waiting for payment.
        const payer = g.status === "pending_payment" && id === g.hirer_id;
        expect.soft(details.body.milestones[0].paymentRequest === null, `gig ${g.id} (${g.status}): the invoice to ${who.name}`).toBe(!payer);
        // Its timeline: the events written before the migration.
        const events = await call("GET", `/api/gigs/${g.id}/events`, { token: who.token, address: who.address });
        expect(events.status, `the events of gig ${g.id} as ${who.name}`).toBe(200);
        expect(events.body.length, `the events of gig ${g.id}`).toBeGreaterThan(0);
      }
    }
    // The lists too: every gig of a member says it is on its one milestone.
    for (const who of Object.values(cast)) {
      const mine = await call("GET", "/api/gigs?participant=me&limit=100", { token: who.token, address: who.address });
      expect(mine.body.length).toBeGreaterThan(0);
      for (const g of mine.body) expect(g, `${g.title} in ${who.name}'s list`).toMatchObject({ currentMilestone: 1, milestoneCount: 1 });
    }
  });

  // ---- The next action of each gig still in progress ----------------------------------------------------

  it("a job waiting for payment opens when its invoice is paid; a hire waiting for payment starts", async () => {
    for (const [gigId, hirer, status] of [
      [named.unpaidJob, cast.hana, "open"],
      [named.unpaidHire, cast.hana, "claimed"],
    ] as const) {
      const before = await ok("GET", `/api/gigs/${gigId}`, hirer);
      expect(before.paymentRequest).toBe(before.milestones[0].paymentRequest);
      await ok("POST", "/api/dev/invoices/pay", null, { paymentRequest: before.paymentRequest });
      const after = await ok("GET", `/api/gigs/${gigId}`, hirer);
      expect(after).toMatchObject({ status, escrowStatus: "funded" });
      expect(after.milestones[0]).toMatchObject({ escrow: "funded", step: "funded", paymentRequest: null });
      expect(await escrowOf(gigId)).toBe(totalCharge(after.payment));
      await ledgerOk();
    }
  });

  it("an open job is claimed after interest; an open service offering is hired, paid and started", async () => {
    await interestApproved(named.openJob, cast.lena, cast.bakery);
    await ok("POST", `/api/gigs/${named.openJob}/claim`, cast.lena);
    expect(await ok("GET", `/api/gigs/${named.openJob}`, cast.lena)).toMatchObject({ status: "claimed", workerId: cast.lena.id, milestones: [{ step: "funded", escrow: "funded" }] });
    await ledgerOk();

    await interestApproved(named.openOffer, cast.bakery, cast.walt);
    const hire = await ok("POST", `/api/gigs/${named.openOffer}/claim`, cast.bakery);
    expect(await ok("GET", `/api/gigs/${named.openOffer}`, cast.bakery)).toMatchObject({ status: "pending_payment", milestones: [{ step: "awaiting_payment" }] });
    await ok("POST", "/api/dev/invoices/pay", null, { paymentRequest: hire.paymentRequest });
    expect(await ok("GET", `/api/gigs/${named.openOffer}`, cast.walt)).toMatchObject({ status: "claimed", hirerId: cast.bakery.id, milestones: [{ step: "funded" }] });
    await ok("POST", `/api/gigs/${named.openOffer}/start-work`, cast.walt);
    expect(await ok("GET", `/api/gigs/${named.openOffer}`, cast.bakery)).toMatchObject({ status: "in_progress", milestones: [{ step: "in_progress" }] });
    await ledgerOk();
  });

  it("a claimed, funded job cancelled by its hirer refunds everything the hirer paid", async () => {
    const g = await ok("GET", `/api/gigs/${named.claimed}`, cast.bakery);
    const cancelled = await ok("POST", `/api/gigs/${named.claimed}/cancel`, cast.bakery);
    expect(cancelled.refund).toEqual({ amount: refundAmount(g.payment) });
    expect(await ok("GET", `/api/gigs/${named.claimed}`, cast.walt)).toMatchObject({ status: "cancelled", escrowStatus: "refunded", milestones: [{ step: "refunded", escrow: "refunded", resolution: "cancelled" }] });
    expect(await payoutsOf(named.claimed)).toEqual([{ purpose: "hirer_refund", milestone: 1, amount: refundAmount(g.payment), status: "succeeded", recipient_id: cast.bakery.id }]);
    expect(await escrowOf(named.claimed)).toBe(0);
    await ledgerOk();
  });

  it("work in progress is submitted and approved: the worker is paid; a hired offer's work goes back for a revision", async () => {
    await ok("POST", `/api/gigs/${named.inProgress}/submit`, cast.ada, { workSubmission: "The poster, as a PDF." });
    expect(await ok("GET", `/api/gigs/${named.inProgress}`, cast.hana)).toMatchObject({ status: "work_submitted", milestones: [{ step: "submitted" }] });
    await ok("POST", `/api/gigs/${named.inProgress}/approve`, cast.hana);
    await expectPaidToWorker(named.inProgress, cast.ada);

    await ok("POST", `/api/gigs/${named.hiredInProgress}/submit`, cast.nako, { workSubmission: "The page in Japanese." });
    await ok("POST", `/api/gigs/${named.hiredInProgress}/request-revision`, cast.hana, { note: "The headline is missing." });
    expect(await ok("GET", `/api/gigs/${named.hiredInProgress}`, cast.nako)).toMatchObject({ status: "needs_revision", milestones: [{ step: "needs_revision" }] });
    await ledgerOk();
  });

  it("a revision asked for before the migration is submitted again and approved", async () => {
    await ok("POST", `/api/gigs/${named.revision}/submit`, cast.walt, { workSubmission: "The banner, larger text." });
    expect(await ok("GET", `/api/gigs/${named.revision}`, cast.lena)).toMatchObject({ status: "work_submitted", milestones: [{ step: "submitted" }] });
    await ok("POST", `/api/gigs/${named.revision}/approve`, cast.lena);
    await expectPaidToWorker(named.revision, cast.walt);
  });

  it("a gig released by the hirer's silence keeps saying so", async () => {
    expect(await ok("GET", `/api/gigs/${named.autoReleased}`, cast.lena), "its milestone was released by silence, not approved").toMatchObject({
      status: "completed",
      milestones: [{ escrow: "released", resolution: "auto_released", step: "paid" }],
    });
  });

  it("work submitted before the migration is approved: the worker is paid once", async () => {
    await ok("POST", `/api/gigs/${named.submitted}/approve`, cast.hana);
    await expectPaidToWorker(named.submitted, cast.walt);
  });

  it("the admin resolves the demo's dispute with a split: both payouts, the fees kept", async () => {
    const admin = await adminSignIn();
    const disputes = await asAdmin(admin, "/api/admin/disputes");
    const item = disputes.body.find((d: Json) => d.gigId === named.disputed);
    expect(item, "the demo's dispute is on the admin's list").toBeDefined();
    expect(item, "a gig without a plan names no milestone; the dispute divides its payment").toMatchObject({ milestone: null, payment: 45_000, totalCharge: totalCharge(45_000) });
    const resolved = await asAdmin(admin, `/api/admin/disputes/${named.disputed}/resolve`, "POST", { resolution: "split", workerSharePercent: 70 });
    expect(resolved.status).toBe(200);
    const g = await ok("GET", `/api/gigs/${named.disputed}`, cast.bakery);
    expect(g).toMatchObject({ status: "completed", milestones: [{ step: "split", escrow: "split", resolution: "split" }] });
    const split = splitPayouts(g.payment, 70);
    expect(await payoutsOf(named.disputed)).toEqual(
      expect.arrayContaining([
        { purpose: "worker_payout", milestone: 1, amount: split.worker, status: "succeeded", recipient_id: cast.nako.id },
        { purpose: "hirer_refund", milestone: 1, amount: split.hirer, status: "succeeded", recipient_id: cast.bakery.id },
      ]),
    );
    expect(await escrowOf(named.disputed)).toBe(0);
    await ledgerOk();
  });

  it("finished gigs keep their receipt and their reviews", async () => {
    for (const gigId of [named.completed, named.paidWorker, named.split]) {
      const receipt = await api(`/api/gigs/${gigId}/receipt`, { token: member((await gigRow(gigId)).hirer_id)!.token });
      expect(receipt.status, `the receipt of ${gigId}`).toBe(200);
      expect(receipt.headers.get("content-type")).toContain("application/pdf");
      await receipt.arrayBuffer();
    }
    const reviews = await call("GET", `/api/reviews/user/${cast.walt.id}`, { address: "198.51.100.7" });
    expect(reviews.body[0]).toMatchObject({ rating: 5 });
  });
});

// ---- Helpers -----------------------------------------------------------------------------------------------

/** The step the gig details should show for a gig without a plan, from the gig's state (an oracle of its own). */
function expectedStep(g: GigRowLite, workerPaid: boolean): string {
  switch (g.status) {
    case "pending_payment":
      return "awaiting_payment";
    case "open":
      return g.escrow_status === "funded" ? "funded" : "unfunded"; // a service offering nobody hired yet has nothing in escrow
    case "claimed":
      return "funded";
    case "in_progress":
      return "in_progress";
    case "needs_revision":
      return "needs_revision";
    case "work_submitted":
      return "submitted";
    case "disputed":
      return "disputed";
    case "completed":
      return g.resolution === "split" ? "split" : workerPaid ? "paid" : "approved";
    case "cancelled":
      return g.escrow_status === "refunded" ? "refunded" : "unfunded";
    default:
      throw new Error(`unknown status ${g.status}`);
  }
}

async function gigRow(gigId: string): Promise<GigRowLite> {
  return (await all<GigRowLite>("SELECT id, status, payment, escrow_status, resolution, poster_id, hirer_id, worker_id FROM gigs WHERE id = ?", gigId))[0]!;
}

async function escrowOf(gigId: string): Promise<number> {
  const accounts = await all<{ account: string; b: number }>("SELECT account, SUM(amount) AS b FROM ledger_entries WHERE account LIKE ? GROUP BY account", `escrow:${gigId}%`);
  // A gig without a plan has only its own account.
  expect(accounts.map((a) => a.account).filter((a) => a !== `escrow:${gigId}`)).toEqual([]);
  return accounts[0]?.b ?? 0;
}

async function payoutsOf(gigId: string) {
  return all("SELECT purpose, milestone, amount, status, recipient_id FROM payouts WHERE gig_id = ? ORDER BY created_at, purpose", gigId);
}

async function interestApproved(gigId: string, from: DemoMember, owner: DemoMember) {
  const sent = await ok("POST", `/api/gigs/${gigId}/pre-claim-messages`, from, { message: "Happy to take this on." });
  for (const step of ["approve", "enable-claim"]) await ok("PATCH", `/api/pre-claim-messages/${sent.id}/${step}`, owner);
}

/** The gig completed on approval: its one milestone released and paid, the worker's payout sent once, the escrow empty. */
async function expectPaidToWorker(gigId: string, worker: DemoMember) {
  const g = await ok("GET", `/api/gigs/${gigId}`, worker);
  expect(g).toMatchObject({ status: "completed", escrowStatus: "released", milestones: [{ escrow: "released", resolution: "approved", step: "paid" }] });
  expect(await payoutsOf(gigId)).toEqual([{ purpose: "worker_payout", milestone: 1, amount: workerPayout(g.payment), status: "succeeded", recipient_id: worker.id }]);
  expect(await escrowOf(gigId)).toBe(0);
  await ledgerOk();
}
