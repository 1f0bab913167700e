// Browse search (q) and budget bands through GET /api/gigs: what a user sees, and that a page stays
// about as costly as the rows it returns (X-Rows-Read) however many gigs there are.
import { describe, expect, it } from "vitest";
import { BUDGET_BANDS, budgetBandOf } from "../../domain/gig";
import { api, call, postGig, signUp, type Member } from "../test/factories";
import { statement, batch } from "../db/test-statements";

type Listed = { id: string; title: string; payment: number };

async function list(query: string, token?: string): Promise<{ status: number; gigs: Listed[]; rowsRead: number; next: string | null }> {
  const res = await api(`/api/gigs?${query}`, { token });
  const body = (await res.json()) as unknown;
  return { status: res.status, gigs: res.status === 200 ? (body as Listed[]) : [], rowsRead: Number(res.headers.get("x-rows-read")), next: res.headers.get("x-next-cursor") };
}

const ids = async (query: string) => (await list(query)).gigs.map((g) => g.id);
const q = (term: string) => `q=${encodeURIComponent(term)}`;

async function offer(poster: Member, title: string, extra: Record<string, unknown> = {}) {
  return (await postGig(poster, { gigType: "service_offering", title, ...extra })).gig.id as string;
}

/** `count` open service offerings by `poster`, written straight to D1 (the triggers number and index them as for a post). */
async function insertGigs(poster: Member, count: number, gig: (i: number) => { title: string; payment?: number; description?: string }) {
  const base = Date.now() - 10 * 86_400_000;
  const statements = Array.from({ length: count }, (_, i) => {
    const g = gig(i);
    return statement(
      `INSERT INTO gigs (id, gig_type, title, description, category, payment, timeframe, status, escrow_status, poster_id, worker_id, version, created_at)
       VALUES (?, 'service_offering', ?, ?, 'Other', ?, 7, 'open', 'pending', ?, ?, 0, ?)`,
    crypto.randomUUID(), g.title, g.description ?? "Seeded for a rows-read check.", g.payment ?? 5_000, poster.id, poster.id, new Date(base + i * 1000).toISOString());
  });
  for (let i = 0; i < statements.length; i += 50) await batch(statements.slice(i, i + 50));
}

describe("GET /api/gigs?q= (search)", () => {
  it("finds a substring of the title, description or category, whatever its case", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "s1@wallet.test" });
    const inTitle = await offer(poster, `Podcast Jingle ${tag}`);
    const inDescription = await offer(poster, `Voice over ${tag}`, { description: "Record a JINGLE for my show, 30 seconds." });
    const inCategory = await offer(poster, `Something ${tag}`, { category: "Video/Audio" });
    const scope = `posterId=${poster.id}`;
    expect(await ids(`${scope}&${q("jingle")}`)).toEqual([inDescription, inTitle]);
    expect(await ids(`${scope}&${q("odcast jin")}`)).toEqual([inTitle]);
    expect(await ids(`${scope}&${q("IDEO/AU")}`)).toEqual([inCategory]);
    expect(await ids(`${scope}&${q(tag.toUpperCase())}`)).toEqual([inCategory, inDescription, inTitle]);
    expect(await ids(`${scope}&${q("jingle bells")}`)).toEqual([]);
    // With a category filter the category must equal it, not contain it.
    expect(await ids(`category=Video/Audio&${q(tag)}`)).toEqual([inCategory]);
    expect(await ids(`category=Design&${q(tag)}`)).toEqual([inDescription, inTitle]);
    expect(await ids(`category=Video&${q(tag)}`)).toEqual([]);
    expect(await ids(`category=Vi&${q(tag)}`)).toEqual([]);
  });

  it("follows edits of the title and description", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "s2@wallet.test" });
    const id = await offer(poster, `Walrus ${tag}`, { description: "A description about otters." });
    const scope = `posterId=${poster.id}`;
    expect(await ids(`${scope}&${q("walrus")}`)).toEqual([id]);

    expect((await call(`/api/gigs/${id}`, poster.token, "PATCH", { title: `Narwhal ${tag}` })).status).toBe(200);
    expect(await ids(`${scope}&${q("walrus")}`)).toEqual([]);
    expect(await ids(`${scope}&${q("narwhal")}`)).toEqual([id]);

    expect((await call(`/api/gigs/${id}`, poster.token, "PATCH", { description: "Now about beavers instead." })).status).toBe(200);
    expect(await ids(`${scope}&${q("otters")}`)).toEqual([]);
    expect(await ids(`${scope}&${q("beaver")}`)).toEqual([id]);
    expect(await ids(`${scope}&${q("narwhal")}`)).toEqual([id]);
  });

  it("respects the status filter as the gig's status changes", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "s3@wallet.test" });
    const id = await offer(poster, `Status check ${tag}`);
    expect(await ids(`status=open&${q(tag)}`)).toEqual([id]);
    expect((await call(`/api/gigs/${id}/cancel`, poster.token, "POST")).status).toBe(200);
    expect(await ids(`status=open&${q(tag)}`)).toEqual([]);
    expect(await ids(`status=cancelled&${q(tag)}`)).toEqual([id]);
    // An unfunded job request stays its poster's business in search too.
    const unfunded = (await postGig(poster, { title: `Unfunded ${tag}` })).gig.id as string;
    expect(await ids(q(`Unfunded ${tag}`))).toEqual([]);
    expect((await list(q(`Unfunded ${tag}`), poster.token)).gigs.map((g) => g.id)).toEqual([unfunded]);
  });

  it("pages through the results with the cursor, newest first, without repeats or gaps", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "s4@wallet.test" });
    const posted: string[] = [];
    for (let i = 0; i < 7; i++) posted.unshift(await offer(poster, `Paged ${tag} number ${i}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`status=open&${q(`paged ${tag}`)}&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      seen.push(...page.gigs.map((g) => g.id));
      cursor = page.next;
      // A gig posted meanwhile is newer than the cursor: it shows on a new search, not on the next page.
      if (pages++ === 0) await offer(poster, `Paged ${tag} posted later`);
    } while (cursor);
    expect(seen).toEqual(posted);
    expect(await ids(`status=open&${q(`paged ${tag}`)}&limit=1`)).toHaveLength(1);
  });

  it("matches terms shorter than three characters by substring too", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "s5@wallet.test" });
    const go = await offer(poster, `Write Go code ${tag}`, { description: "Backend work in a typed language." });
    const ui = await offer(poster, `Fix my UI ${tag}`, { description: "Front end polish, small fixes." });
    const scope = `posterId=${poster.id}`;
    expect(await ids(`${scope}&${q("go")}`)).toEqual([go]);
    expect(await ids(`${scope}&${q("Ui")}`)).toEqual([ui]);
    expect(await ids(`${scope}&${q("x")}`)).toEqual([ui]);
    expect(await ids(`${scope}&${q("zz")}`)).toEqual([]);
  });

  it("treats quotes, wildcards and search operators as plain text", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "s6@wallet.test" });
    const special = await offer(poster, `Fix 100% of "quoted" AND *stars* NEAR(me) under_score ${tag}`, { description: "It's {title}: a -b +c ^d back\\slash." });
    const plain = await offer(poster, `Fix 1000 of quoted stars nearby underXscore ${tag}`);
    const scope = `posterId=${poster.id}`;
    const found: [string, string[]][] = [
      ['"quoted"', [special]],
      ["quoted", [plain, special]],
      ["AND *stars*", [special]],
      ["NEAR(me)", [special]],
      ["NEAR(", [special]],
      ["100%", [special]],
      ["%", [special]],
      ["r_s", [special]],
      ["_", [special]],
      ["\\slash", [special]],
      ["{title}:", [special]],
      ["It's", [special]],
      ["-b +c ^d", [special]],
      ["0%_", []],
      ['"', [special]],
      ['""', []],
      ["*", [special]],
      ["AND", [special]],
      ["OR", [plain, special]],
      ["NOT", []],
      ["'; DROP TABLE gigs; --", []],
    ];
    for (const [term, expected] of found) {
      const res = await list(`${scope}&${q(term)}`);
      expect(res.status, term).toBe(200);
      expect(res.gigs.map((g) => g.id), term).toEqual(expected);
    }
    for (const term of ['"', "(", ")", "*", "^", ":", "NEAR", "AND OR NOT", 'a" OR "b', "title:x", "{title", "\u0000abc", "🦊🦊🦊", "é"]) {
      expect((await list(q(term))).status, term).toBe(200);
      expect((await list(`status=open&${q(term)}&limit=5`)).status, term).toBe(200);
    }
  });

  it("reads about a page of rows for a common word, and next to none for a word no gig has", async () => {
    const poster = await signUp({ lightningAddress: "s7@wallet.test" });
    const word = `w${crypto.randomUUID().slice(0, 6)}`;
    await insertGigs(poster, 300, (i) => ({ title: `Seeded ${i} ${i % 2 ? word : "other"}`, payment: 1_000 + i * 500 }));
    const limit = 10;

    const common = await list(`status=open&${q(word)}&limit=${limit}`);
    expect(common.gigs).toHaveLength(limit);
    // The match, the gig and its poster: three rows a result (docs/decisions/008).
    expect(common.rowsRead).toBeLessThanOrEqual(3 * (limit + 1) + 5);
    const second = await list(`status=open&${q(word)}&limit=${limit}&cursor=${common.next}`);
    expect(second.gigs).toHaveLength(limit);
    expect(second.rowsRead).toBeLessThanOrEqual(3 * (limit + 1) + 5);

    const absent = await list(`status=open&${q(`absent${crypto.randomUUID().slice(0, 6)}`)}&limit=${limit}`);
    expect(absent.gigs).toEqual([]);
    expect(absent.rowsRead).toBeLessThanOrEqual(5);
    const absentAfterCursor = await list(`status=open&${q("zq9zq9")}&limit=${limit}&cursor=${common.next}`);
    expect(absentAfterCursor.rowsRead).toBeLessThanOrEqual(5);
  });
});

describe("GET /api/gigs budget bands", () => {
  it("returns exactly the gigs whose payment lies in the band, also after a budget change", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "b1@wallet.test" });
    const payments = [1, 9_999, 10_000, 50_000, 50_001, 100_000, 100_001, 1_000_000];
    const byPayment = new Map<number, string>();
    for (const payment of payments) byPayment.set(payment, await offer(poster, `Band ${tag} ${payment}`, { payment }));

    const range = (b: (typeof BUDGET_BANDS)[number]) => [b.min === undefined ? "" : `&minPayment=${b.min}`, b.max === undefined ? "" : `&maxPayment=${b.max}`].join("");
    for (const band of BUDGET_BANDS) {
      const expected = payments.filter((p) => (band.min === undefined || p >= band.min) && (band.max === undefined || p <= band.max)).reverse().map((p) => byPayment.get(p));
      expect(await ids(`status=open&posterId=${poster.id}${range(band)}`), band.value).toEqual(expected);
      expect(await ids(`status=open&${q(`band ${tag}`)}${range(band)}`), `${band.value} with search`).toEqual(expected);
    }
    // A range across bands, and a narrower one inside a band.
    expect(await ids(`posterId=${poster.id}&minPayment=9999&maxPayment=50001`)).toEqual([50_001, 50_000, 10_000, 9_999].map((p) => byPayment.get(p)));
    expect(await ids(`posterId=${poster.id}&minPayment=10001&maxPayment=49999`)).toEqual([]);

    const stored = await statement("SELECT payment, budget_band AS band FROM gigs WHERE poster_id = ?", poster.id).all<{ payment: number; band: number }>();
    for (const row of stored.results) expect(row.band, String(row.payment)).toBe(budgetBandOf(row.payment));

    // Payment can change (a service offering's budget): the band follows.
    const moved = byPayment.get(1)!;
    expect((await call(`/api/gigs/${moved}`, poster.token, "PATCH", { budget: 60_000 })).status).toBe(200);
    expect(await ids(`status=open&posterId=${poster.id}&maxPayment=9999`)).toEqual([byPayment.get(9_999)]);
    expect(await ids(`status=open&posterId=${poster.id}&minPayment=50001&maxPayment=100000`)).toEqual([100_000, 50_001].map((p) => byPayment.get(p)).concat(moved));
  });

  it("reads about a page of rows for each band however many gigs there are", async () => {
    const poster = await signUp({ lightningAddress: "b2@wallet.test" });
    // Most gigs in the lowest band, so the rarer bands' pages would read many rows without their index.
    await insertGigs(poster, 400, (i) => ({ title: `Band rows ${i}`, payment: i % 20 === 0 ? 200_000 : i % 10 === 0 ? 70_000 : i % 5 === 0 ? 20_000 : 2_000 }));
    const limit = 10;
    for (const band of BUDGET_BANDS) {
      const range = [band.min === undefined ? "" : `&minPayment=${band.min}`, band.max === undefined ? "" : `&maxPayment=${band.max}`].join("");
      for (const type of ["", "&gigType=service_offering"]) {
        const first = await list(`status=open${type}${range}&limit=${limit}`);
        expect(first.gigs, band.value).toHaveLength(limit);
        expect(first.rowsRead, `${band.value}${type}`).toBeLessThanOrEqual(2 * limit + 5);
        const second = await list(`status=open${type}${range}&limit=${limit}&cursor=${first.next}`);
        expect(second.rowsRead, `${band.value}${type} page 2`).toBeLessThanOrEqual(2 * limit + 5);
      }
    }
  });
});
