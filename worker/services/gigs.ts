// Gigs: posting, reading, listing and editing. The transitions of a gig's life are in gig-actions.ts.
import { and, desc, eq, fillPlaceholders, gte, lte, or, sql, type SQL } from "drizzle-orm";
import { integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { queryBuilder } from "../db/built-once";
import type { GigForm } from "../../domain/gig-schemas";
import { milestoneSuffix } from "../../domain/milestones";
import { insertMilestones } from "./milestones";
import { budgetBandOfRange } from "../../domain/gig";
import { allMeasured, type UserRow } from "../db/client";
import { AtomicChange, ALWAYS, where } from "../db/atomic";
import { gigs, users } from "../db/schema";
import { badRequest } from "../errors";
import { addGigEvent } from "./gig-events";
import { ESCROW_HELD_SQL, getGig, GIG_VIEW_COLUMNS, gigView, posterOf, REMOVED_BY_ADMIN, type GigView, type GigViewJoinedRow, type Viewer } from "./gig-views";
import { recordInvoice, requestFundingInvoice, watchInvoice, type FundingInvoice } from "./escrow";
import type { Deps } from "./deps";
import type { PostedGig } from "../../domain/gig-view";
import { decodePageCursor, encodePageCursor } from "./page-cursor";

export const LIGHTNING_ADDRESS_REQUIRED =
  "Lightning Address Required: please set your Lightning address in Settings before posting.";

/**
 * Posts a gig. A job request waits for its funding invoice (pending_payment); a service offering
 * is open at once and is funded when a hirer hires it.
 */
export async function postGig(deps: Deps, me: UserRow, form: GigForm): Promise<PostedGig> {
  if (!me.lightningAddress) throw badRequest(LIGHTNING_ADDRESS_REQUIRED, "lightning_address_required");
  const id = crypto.randomUUID();
  const isJob = form.gigType === "job_request";
  const plan = form.milestones;
  // A job request opens when its first milestone (its whole payment, without a plan) is funded.
  const invoice: FundingInvoice | null = isJob
    ? await requestFundingInvoice(deps, {
        title: form.title,
        payment: plan ? plan[0]!.amount : form.payment,
        milestone: plan ? milestoneSuffix({ number: 1, title: plan[0]!.title }, plan.length) : undefined,
      })
    : null;

  const change = new AtomicChange(deps.db, deps.committed);
  change.insert(gigs,
    {
      id,
      gigType: form.gigType,
      title: form.title,
      description: form.description,
      category: form.category,
      payment: form.payment,
      timeframe: form.timeframe,
      status: isJob ? "pending_payment" : "open",
      escrowStatus: "pending",
      posterId: me.id,
      hirerId: isJob ? me.id : null,
      workerId: isJob ? null : me.id,
      fundingInvoiceId: invoice?.id ?? null,
      milestoneCount: plan?.length ?? 1,
      currentMilestone: 1,
      version: 0,
      createdAt: change.at,
    },
    ALWAYS,
  );
  // The posting itself is the compare-and-set: a gig row with this id cannot exist twice.
  const posted = change.compareAndSet(gigs, id, {}, where("version = 0"));
  insertMilestones(change, posted, id, plan, form.payment);
  if (invoice) recordInvoice(change, posted, invoice, id, me.id);
  addGigEvent(change, posted, { gigId: id, type: "posted", actorId: me.id, data: { payment: form.payment, ...(plan ? { milestones: plan } : {}) } });
  await change.commit();

  if (invoice) deps.defer(() => watchInvoice(deps, id));
  const gig = await getGig(deps, id, { userId: me.id, isAdmin: false });
  return {
    gig,
    paymentRequest: invoice?.bolt11 ?? null,
    totalCharge: invoice?.amount ?? gig.totalCharge,
    invoicedMilestone: invoice ? { number: 1, count: gig.milestoneCount, title: plan?.[0]!.title ?? gig.title, amount: plan?.[0]!.amount ?? gig.payment } : null,
  };
}

export interface GigListQuery {
  status?: string;
  gigType?: string;
  category?: string;
  hirerId?: string;
  posterId?: string;
  participant?: "me";
  minPayment?: number;
  maxPayment?: number;
  q?: string;
  limit: number;
  cursor?: string;
}

/**
 * The FTS5 index of gigs' title, description and category (migrations/0004_gig_search_fts.sql; not in the
 * drizzle schema, which cannot declare virtual tables). Its rowid is gigs.search_seq.
 */
const gigSearch = sqliteTable("gigs_search", { rowid: integer("rowid").notNull() });

/** The trigram tokenizer matches substrings of at least this many characters; shorter terms use LIKE. */
export const MIN_INDEXED_SEARCH_CHARS = 3;

/** A term as one FTS5 string, so quotes, `*`, `AND`, `NEAR(` … are plain text: a phrase of its trigrams, i.e. the substring. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** The FTS5 query: the term in any of the three columns; with a category filter, also in the category column (checked exactly on the row). */
function searchMatch(term: string, category: string | undefined): string {
  const text = `{title description category} : ${ftsString(term)}`;
  return category && [...category].length >= MIN_INDEXED_SEARCH_CHARS ? `${text} AND category : ${ftsString(category)}` : text;
}

/** The values a page query is run with; which ones are set is the query's shape. */
interface PageValues {
  status?: string;
  gigType?: string;
  category?: string;
  hirerId?: string;
  posterId?: string;
  minPayment?: number;
  maxPayment?: number;
  band?: number;
  pattern?: string;
  match?: string;
  me?: string;
  cursorCreatedAt?: string;
  cursorId?: string;
  limit: number;
}
type PageShape = { search: boolean; participant: boolean; admin: boolean };

/** A page query's SQL built once per shape (which filters are set), with placeholders for the values. */
const compiledPages = new Map<string, { sql: string; params: unknown[] }>();
const MAX_COMPILED_PAGES = 512;

function pageSql(shape: PageShape, values: PageValues): { sql: string; params: unknown[] } {
  const key = `${+shape.search}${+shape.participant}${+shape.admin}:${Object.keys(values).sort().join(",")}`;
  let compiled = compiledPages.get(key);
  if (!compiled) {
    compiled = buildPageQuery(shape, values);
    if (compiledPages.size >= MAX_COMPILED_PAGES) compiledPages.clear();
    compiledPages.set(key, compiled);
  }
  return { sql: compiled.sql, params: fillPlaceholders(compiled.params, values as unknown as Record<string, unknown>) };
}

function buildPageQuery(shape: PageShape, values: PageValues): { sql: string; params: unknown[] } {
  const $ = (name: keyof PageValues) => sql.placeholder(name);
  const conditions: SQL[] = [];
  if (values.status !== undefined) conditions.push(eq(gigs.status, $("status")));
  if (values.gigType !== undefined) conditions.push(eq(gigs.gigType, $("gigType")));
  if (values.category !== undefined) conditions.push(eq(gigs.category, $("category")));
  if (values.hirerId !== undefined) conditions.push(eq(gigs.hirerId, $("hirerId")));
  if (values.posterId !== undefined) conditions.push(eq(gigs.posterId, $("posterId")));
  if (values.minPayment !== undefined) conditions.push(gte(gigs.payment, $("minPayment")));
  if (values.maxPayment !== undefined) conditions.push(lte(gigs.payment, $("maxPayment")));
  // Implied by the range when it lies within one band: lets the page use the band's index.
  if (values.band !== undefined) conditions.push(eq(gigs.budgetBand, $("band")));
  if (values.pattern !== undefined) {
    conditions.push(sql`(${gigs.title} LIKE ${$("pattern")} ESCAPE '\\' OR ${gigs.description} LIKE ${$("pattern")} ESCAPE '\\' OR ${gigs.category} LIKE ${$("pattern")} ESCAPE '\\')`);
  }
  if (shape.participant) {
    conditions.push(or(eq(gigs.posterId, $("me")), eq(gigs.hirerId, $("me")), eq(gigs.workerId, $("me")))!);
  } else if (!shape.admin) {
    conditions.push(sql`NOT (${gigs.status} = 'pending_payment' AND ${gigs.gigType} = 'job_request' AND ${gigs.posterId} <> ${$("me")})`);
    conditions.push(sql`${gigs.resolution} IS NOT ${REMOVED_BY_ADMIN}`);
  }
  const cursor = values.cursorId !== undefined;
  // One indexed read, run on D1 directly so its cost (rows_read) can be reported: the page of gigs by
  // keyset, joined with each poster by primary key.
  if (shape.search) {
    // The index yields matches newest first (descending rowid = search_seq); CROSS JOIN keeps it the outer
    // loop, so LIMIT stops after the page and a word no gig has reads nothing. The cursor's gig gives its
    // search_seq (one lookup by primary key).
    if (cursor) conditions.push(sql`${gigSearch.rowid} < (SELECT after.search_seq FROM gigs AS after WHERE after.id = ${$("cursorId")})`);
    return queryBuilder
      .select(GIG_VIEW_COLUMNS)
      .from(gigSearch)
      .crossJoin(gigs)
      .innerJoin(users, eq(users.id, gigs.posterId))
      .where(and(sql`${gigSearch} MATCH ${$("match")}`, eq(gigs.searchSeq, gigSearch.rowid), ...conditions))
      .orderBy(desc(gigSearch.rowid))
      .limit($("limit"))
      .toSQL();
  }
  if (cursor) conditions.push(sql`(${gigs.createdAt}, ${gigs.id}) < (${$("cursorCreatedAt")}, ${$("cursorId")})`);
  return queryBuilder
    // A member's own gigs say what their escrow holds now (the Active tab's "In Escrow"); public pages need not.
    .select(shape.participant ? { ...GIG_VIEW_COLUMNS, escrowHeld: ESCROW_HELD_SQL.as("escrowHeld") } : GIG_VIEW_COLUMNS)
    .from(gigs)
    .innerJoin(users, eq(users.id, gigs.posterId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit($("limit"))
    .toSQL();
}

/**
 * A page of gigs, newest first, by keyset so a page reads about as many rows as it returns whatever the
 * table holds. Browse pages go by (created_at, id) on an index that starts with the page's filters (the
 * budget filter by its band, gigs.budget_band); a search of 3+ characters goes through the FTS5 index in
 * gigs.search_seq order (creation order), the cursor naming the last gig shown either way. The SQL of each
 * shape of query (which filters are set) is built once.
 */
export async function listGigs(
  deps: Pick<Deps, "db">,
  query: GigListQuery,
  viewer: Viewer,
): Promise<{ gigs: GigView[]; nextCursor: string | null; rowsRead: number }> {
  const values: PageValues = { limit: query.limit + 1 };
  if (query.status) values.status = query.status;
  if (query.gigType) values.gigType = query.gigType;
  if (query.category) values.category = query.category;
  if (query.hirerId) values.hirerId = query.hirerId;
  if (query.posterId) values.posterId = query.posterId;
  if (query.minPayment !== undefined) values.minPayment = query.minPayment;
  if (query.maxPayment !== undefined) values.maxPayment = query.maxPayment;
  if (query.minPayment !== undefined || query.maxPayment !== undefined) {
    const band = budgetBandOfRange(query.minPayment, query.maxPayment);
    if (band !== null) values.band = band;
  }
  // NUL ends an FTS5 query string (and a LIKE pattern): no text holds one, so it is dropped.
  const term = query.q?.replaceAll("\u0000", "") || undefined;
  const search = term !== undefined && [...term].length >= MIN_INDEXED_SEARCH_CHARS;
  if (search) values.match = searchMatch(term, query.category);
  // Too short for the trigram index: a substring scan of the page's candidates (docs/decisions/008).
  else if (term) values.pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const participant = query.participant === "me";
  if (participant || !viewer.isAdmin) values.me = viewer.userId ?? "";
  if (query.cursor) {
    const cursor = decodePageCursor(query.cursor);
    values.cursorId = cursor.id;
    if (!search) values.cursorCreatedAt = cursor.createdAt;
  }

  const statement = pageSql({ search, participant, admin: viewer.isAdmin }, values);
  const { rows, rowsRead } = await allMeasured<GigViewJoinedRow>(deps.db, statement);
  const page = rows.slice(0, query.limit);
  return {
    gigs: page.map((g) => gigView(g, posterOf(g), viewer)),
    nextCursor: rows.length > query.limit ? encodePageCursor(page[page.length - 1]!) : null,
    rowsRead,
  };
}
