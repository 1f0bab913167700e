// The authorisation matrix (issue 7): every route the Worker serves, read from its own route table
// (`app.routes`), × {visitor, hirer, worker, stranger, admin} × {own object, someone else's object},
// with the expected answer written down for each cell in MATRIX below.
//
// - visitor: no credentials. hirer / worker: the two parties of the "own" gig. stranger: a signed-in
//   member unrelated to either object. admin: only an admin token (from `POST /api/admin/auth`), no
//   member session.
// - own: the gig between hirer and worker (or, for things a member owns — notifications, portfolio
//   items, aliases, upload URLs — the acting member's own; the hirer's for the other roles).
//   other: the same kind of object between two other members (otherHirer, otherWorker).
// - A number is the HTTP status; `{ own, other }` when the two objects differ. `/ws` cells say whether
//   the socket may join the gig's room ("joined") or is refused ("refused").
// - Each row names the gig stage its fixture is built in, so that an allowed role gets a deterministic
//   answer: 2xx where the call can succeed, 409 only where the row says the state is wrong on purpose.
//   Cells that answer 2xx run last, each on a fresh fixture (unless the row is `shared`: a success that
//   changes nothing another cell reads, as every GET); refusals run first on one shared fixture per stage.
// - A route may have several rows (variants) where one stage cannot show its whole rule, e.g. a party
//   acting out of turn (409) against a stranger who learns nothing about the state (403).
// - A route in `app.routes` without a row fails the suite, and so does a row whose route is gone.
import { generateSecretKey } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { app } from "./app";
import { adminSignIn, TEST_ADMIN_PIN } from "./test/admin";
import { api, call, getChallenge, loginEvent, payWithDevWallet, postGig, signUp, type Json, type Member } from "./test/factories";
import { anotherSession, openInboxSocket, openSocket } from "./test/sockets";
import { askUploadUrl, uploadFile } from "./test/uploads";
import { statement } from "./db/test-statements";
import type { Env } from "./env";

// ---- Vocabulary ---------------------------------------------------------------------------------

const ROLES = ["visitor", "hirer", "worker", "stranger", "admin"] as const;
type Role = (typeof ROLES)[number];
const OBJECTS = ["own", "other"] as const;
type Obj = (typeof OBJECTS)[number];

/** An HTTP status, or for `/ws` whether the socket got into the gig's room. */
type Answer = number | "joined" | "refused" | "listening";
type Cell = Answer | { own: Answer; other: Answer };
type Expectation = Record<Role, Cell>;

/** Where the gigs of a fixture stand (DESIGN.md §4); each stage includes the ones before it. */
type Stage =
  | "pendingPayment" // posted, funding invoice unpaid (the worker is not a party yet)
  | "open" // funded, no interest yet (the worker is not a party yet)
  | "interest" // + the worker's interest message, pending
  | "approved" // + approved by the hirer (claiming not enabled yet)
  | "claimable" // + claiming enabled
  | "claimed" // + claimed by the worker (both are parties from here on)
  | "extension" // claimed + the worker's pending extension request
  | "inProgress" // claimed + work started
  | "submitted" // in progress + work submitted with one file
  | "completed" // submitted + approved (payout made)
  | "disputed" // submitted + disputed by the hirer
  | "removed" // claimed, then deleted by the admin (moderation: refunded and hidden)
  // A service offering posted by the worker, which the hirer hires (SPEC.md: claim on an offer is a hire):
  | "offerClaimable" // the hirer's interest approved and claiming enabled by the worker
  | "offerHired" // + hired by the hirer: pending payment of the hire's invoice
  | "offerRehire" // hired, then the hirer withdrew the unpaid hire, and the worker enabled claiming for them again
  // A job request with a plan of three milestones (issue 28), milestone 1 funded, claimed by the worker:
  | "milestones"
  | "milestoneProposal"; // + the hirer's pending change of milestones 2 and 3

type MemberName = "hirer" | "worker" | "stranger" | "otherHirer" | "otherWorker";

interface GigFixture {
  id: string;
  hirer: Member;
  worker: Member;
  paymentRequest: string | null;
  interestId?: string;
  extensionId?: string;
  proposalId?: string;
}

interface Req {
  /** The concrete path (with query string); checked against the row's route pattern. */
  path: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Settings for this request (e.g. the built app's HTML shell, which the unit tests do not build). */
  env?: Partial<Env>;
}

interface CellContext {
  w: World;
  role: Role;
  obj: Obj;
  /** The acting member (hirer, worker or stranger); none for visitor and admin. */
  me: Member | undefined;
}

interface Row {
  /** Names this row among several for one route (default: its stage). */
  variant?: string;
  /** The stage the fixture's gigs are built in, when the row's requests touch a gig (default: claimed). */
  stage?: Stage;
  /** The route has no object: own and other are the same call, so it runs once per role. */
  objectless?: true;
  /**
   * Its successes change nothing that other cells read, so they may run on the shared fixture
   * (default: true for GET, false otherwise).
   */
  shared?: boolean;
  request: (c: CellContext) => Promise<Req> | Req;
  expect: Expectation;
  /** Extra checks on a 2xx body (e.g. what each role may see). */
  check?: (c: CellContext, body: unknown) => Promise<void> | void;
  /** Why the table says what it says, where it is not obvious. */
  note?: string;
}

// ---- Fixtures -----------------------------------------------------------------------------------

async function ok(promise: Promise<{ status: number; body: Json }>, status: number, what: string): Promise<Json> {
  const res = await promise;
  if (res.status !== status) throw new Error(`fixture: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const STAGE_ORDER: Stage[] = ["pendingPayment", "open", "interest", "approved", "claimable", "claimed", "inProgress", "submitted"];
const reached = (stage: Stage, step: Stage) => {
  const at = stage === "extension" || stage === "removed" || stage === "milestones" || stage === "milestoneProposal" ? "claimed" : stage === "completed" || stage === "disputed" ? "submitted" : stage;
  return STAGE_ORDER.indexOf(at) >= STAGE_ORDER.indexOf(step);
};

/** A service offering posted by `worker`, which `hirer` hires up to `stage`, through the real API. */
async function buildOffering(hirer: Member, worker: Member, stage: Stage): Promise<GigFixture> {
  const posted = await postGig(worker, { gigType: "service_offering" });
  const gig: GigFixture = { id: posted.gig.id as string, hirer, worker, paymentRequest: null };
  const id = gig.id;
  gig.interestId = (await ok(call(`/api/gigs/${id}/pre-claim-messages`, hirer.token, "POST", { message: "I would like to hire you." }), 201, "interest")).id;
  for (const step of ["approve", "enable-claim"]) await ok(call(`/api/pre-claim-messages/${gig.interestId}/${step}`, worker.token, "PATCH"), 200, step);
  if (stage === "offerClaimable") return gig;
  gig.paymentRequest = (await ok(call(`/api/gigs/${id}/claim`, hirer.token, "POST"), 200, "hire")).paymentRequest as string;
  if (stage === "offerHired") return gig;
  await ok(call(`/api/gigs/${id}/cancel`, hirer.token, "POST"), 200, "withdraw the unpaid hire");
  await ok(call(`/api/pre-claim-messages/${gig.interestId}/enable-claim`, worker.token, "PATCH"), 200, "enable claim again");
  gig.paymentRequest = null;
  return gig;
}

const MILESTONE_PLAN = [
  { title: "Sketches", amount: 5_000 },
  { title: "Pages", amount: 15_000 },
  { title: "Launch", amount: 10_000 },
];

/** A job request posted by `hirer` and taken by `worker` up to `stage`, through the real API. */
async function buildGig(hirer: Member, worker: Member, stage: Stage): Promise<GigFixture> {
  if (stage.startsWith("offer")) return buildOffering(hirer, worker, stage);
  const planned = stage === "milestones" || stage === "milestoneProposal";
  const posted = await postGig(hirer, planned ? { payment: 30_000, milestones: MILESTONE_PLAN } : {});
  const gig: GigFixture = { id: posted.gig.id as string, hirer, worker, paymentRequest: posted.paymentRequest };
  const id = gig.id;
  if (!reached(stage, "open")) return gig;
  await ok(payWithDevWallet(posted.paymentRequest!), 200, "pay");
  gig.paymentRequest = null;
  if (!reached(stage, "interest")) return gig;
  gig.interestId = (await ok(call(`/api/gigs/${id}/pre-claim-messages`, worker.token, "POST", { message: "I would love to do this." }), 201, "interest")).id;
  if (!reached(stage, "approved")) return gig;
  await ok(call(`/api/pre-claim-messages/${gig.interestId}/approve`, hirer.token, "PATCH"), 200, "approve interest");
  if (!reached(stage, "claimable")) return gig;
  await ok(call(`/api/pre-claim-messages/${gig.interestId}/enable-claim`, hirer.token, "PATCH"), 200, "enable claim");
  if (!reached(stage, "claimed")) return gig;
  await ok(call(`/api/gigs/${id}/claim`, worker.token, "POST"), 200, "claim");
  if (stage === "removed") {
    const res = await api(`/api/admin/gigs/${id}`, { method: "DELETE", headers: { "x-admin-token": await adminSignIn() } });
    if (res.status !== 200) throw new Error(`fixture: admin delete answered ${res.status} ${await res.text()}`);
    return gig;
  }
  if (stage === "milestoneProposal") {
    const plan = [{ title: "Pages", amount: 15_000 }, { title: "Launch", amount: 6_000 }];
    gig.proposalId = (await ok(call(`/api/gigs/${id}/milestone-proposals`, hirer.token, "POST", { milestones: plan }), 201, "propose milestones")).id;
  }
  if (planned) return gig;
  if (stage === "extension") {
    gig.extensionId = (await ok(call(`/api/gigs/${id}/request-extension`, worker.token, "POST", { daysToAdd: 3, reason: "More time" }), 201, "request extension")).id;
    return gig;
  }
  if (!reached(stage, "inProgress")) return gig;
  await ok(call(`/api/gigs/${id}/start-work`, worker.token, "POST"), 200, "start work");
  if (!reached(stage, "submitted")) return gig;
  const file = await uploadFile(worker, "the logo", "logo.txt");
  await ok(call(`/api/gigs/${id}/submit`, worker.token, "POST", { workSubmission: "Here is the logo.", attachments: [file.ref] }), 200, "submit");
  if (stage === "completed") await ok(call(`/api/gigs/${id}/approve`, hirer.token, "POST"), 200, "approve work");
  if (stage === "disputed") await ok(call(`/api/gigs/${id}/dispute`, hirer.token, "POST", { reason: "Not what we agreed" }), 200, "dispute");
  return gig;
}

/**
 * The members and objects one cell needs, built lazily (and once) through the API: a fresh World per
 * succeeding cell costs only what that cell touches.
 */
class World {
  private readonly memo = new Map<string, Promise<unknown>>();
  constructor(readonly stage: Stage) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      this.memo.set(key, p);
    }
    return p;
  }

  member(name: MemberName): Promise<Member> {
    return this.once(`member:${name}`, () => {
      const tag = `${name.toLowerCase()}${crypto.randomUUID().slice(0, 8)}`;
      return signUp({ lightningAddress: `${tag}@wallet.test`, displayName: name });
    });
  }

  adminToken(): Promise<string> {
    return this.once("admin", adminSignIn);
  }

  /** own: the gig between hirer and worker; other: the gig between otherHirer and otherWorker. */
  gig(obj: Obj): Promise<GigFixture> {
    return this.once(`gig:${obj}`, async () =>
      buildGig(await this.member(obj === "own" ? "hirer" : "otherHirer"), await this.member(obj === "own" ? "worker" : "otherWorker"), this.stage),
    );
  }

  /** The acting member of a role. */
  actor(role: Role): Promise<Member | undefined> {
    return role === "hirer" || role === "worker" || role === "stranger" ? this.member(role) : Promise.resolve(undefined);
  }

  /**
   * Whose per-member object a cell targets: own = the acting party's (hirer or worker), else the
   * hirer's (a stranger, visitor or admin owns none of these); other = otherHirer's.
   */
  ownerOf(role: Role, obj: Obj): Promise<Member> {
    if (obj === "other") return this.member("otherHirer");
    return this.member(role === "worker" ? "worker" : "hirer");
  }

  notificationOf(m: Member): Promise<string> {
    return this.once(`notification:${m.id}`, async () => {
      const list = (await ok(call("/api/notifications", m.token), 200, "notifications")) as unknown as { id: string }[];
      if (!list[0]) throw new Error("fixture: member has no notification");
      return list[0].id;
    });
  }

  /** A further session of the member (another device), by id; single use, so never memoised. */
  async sessionOf(m: Member): Promise<string> {
    const device = await anotherSession(m);
    const list = (await ok(call("/api/auth/sessions", device.token), 200, "sessions")) as unknown as { id: string; current: boolean }[];
    return list.find((s) => s.current)!.id;
  }

  portfolioItemOf(m: Member): Promise<string> {
    return this.once(`portfolio:${m.id}`, async () => (await ok(call("/api/portfolio", m.token, "POST", { title: "Logo for a meetup" }), 201, "portfolio item")).id);
  }

  aliasOf(m: Member): Promise<string> {
    return this.once(`alias:${m.id}`, async () => {
      const alias = `al${crypto.randomUUID().slice(0, 10)}`;
      await ok(call("/api/user/me", m.token, "PATCH", { gigstrAlias: alias }), 200, "claim alias");
      return alias;
    });
  }

  suggestionBy(m: Member): Promise<string> {
    return this.once(`suggestion:${m.id}`, async () => (await ok(call("/api/suggestions", m.token, "POST", { suggestion: "A dark mode" }), 201, "suggestion")).id);
  }

  /** A report on the gig, by the stranger. */
  reportOn(obj: Obj): Promise<string> {
    return this.once(`report:${obj}`, async () => {
      const gig = await this.gig(obj);
      const stranger = await this.member("stranger");
      return (await ok(call("/api/gig-reports", stranger.token, "POST", { gigId: gig.id, reason: "spam" }), 201, "report")).id;
    });
  }

  /** A fresh one-time upload URL path of the member (single use, so never memoised). */
  async uploadPathOf(m: Member): Promise<string> {
    const ticket = await ok(askUploadUrl(m, { filename: "hello.txt", contentType: "text/plain", size: 5 }), 200, "upload URL");
    return new URL(ticket.uploadURL as string, "https://gigstr.test").pathname;
  }

  attachmentOf(obj: Obj): Promise<string> {
    return this.once(`attachment:${obj}`, async () => {
      const gig = await this.gig(obj);
      const row = await statement("SELECT id FROM attachments WHERE gig_id = ?", gig.id).first<{ id: string }>();
      if (!row) throw new Error("fixture: the gig has no attachment");
      return row.id;
    });
  }

  payoutOf(obj: Obj): Promise<string> {
    return this.once(`payout:${obj}`, async () => {
      const gig = await this.gig(obj);
      const row = await statement("SELECT id FROM payouts WHERE gig_id = ?", gig.id).first<{ id: string }>();
      if (!row) throw new Error("fixture: the gig has no payout");
      return row.id;
    });
  }
}

// ---- Shorthands used in the table -----------------------------------------------------------------

const gigPath = async (c: CellContext, rest = "") => `/api/gigs/${(await c.w.gig(c.obj)).id}${rest}`;
const IN_60_DAYS = () => new Date(Date.now() + 60 * 86_400_000).toISOString();
const GIG_FORM = { gigType: "job_request", title: "Design a logo", description: "A clean logo for a bitcoin meetup, SVG please.", category: "Design", payment: 10_000, timeframe: 7 };
/** Admin routes: only the admin token gets in. */
const ADMIN_ONLY = (admin: Cell): Expectation => ({ visitor: 401, hirer: 401, worker: 401, stranger: 401, admin });
/** Routes for any signed-in member, with no object. */
const MEMBERS = (status: number): Expectation => ({ visitor: 401, hirer: status, worker: status, stranger: status, admin: 401 });
/** The built app's HTML shell, as the ASSETS binding serves it (the unit tests do not build the web app). */
const WITH_SHELL: Partial<Env> = {
  ASSETS: { fetch: async () => new Response("<!doctype html><html><head><title>Gigstr</title></head><body></body></html>", { headers: { "content-type": "text/html" } }) } as unknown as Fetcher,
};

const EVERYONE = (status: number): Expectation => ({ visitor: status, hirer: status, worker: status, stranger: status, admin: status });
/** A public profile never carries the member's Lightning address or anything else only their own view has. */
const publicProfileOnly = async (c: CellContext, body: unknown) => {
  const owner = await c.w.ownerOf(c.role, c.obj);
  expect(body).toMatchObject({ id: owner.id });
  expect(body).not.toHaveProperty("lightningAddress");
  expect(body).not.toHaveProperty("gigstrAliasAddress");
};

// ---- The matrix ---------------------------------------------------------------------------------

/** One row per route; several (variants) where one fixture stage cannot show the whole rule. */
const MATRIX: Record<string, Row | Row[]> = {
  // -- Public: LNURL-pay for alias addresses (outside /api) --
  "GET /.well-known/lnurlp/:alias": {
    request: async (c) => ({ path: `/.well-known/lnurlp/${await c.w.aliasOf(await c.w.ownerOf(c.role, c.obj))}` }),
    expect: EVERYONE(200),
  },
  "GET /.well-known/lnurlp/:alias/callback": {
    request: async (c) => ({ path: `/.well-known/lnurlp/${await c.w.aliasOf(await c.w.ownerOf(c.role, c.obj))}/callback?amount=21000` }),
    expect: EVERYONE(200),
  },

  // -- Public: NIP-05 names (outside /api), open to every origin --
  "GET /.well-known/nostr.json": {
    request: async (c) => ({ path: `/.well-known/nostr.json?name=${await c.w.aliasOf(await c.w.ownerOf(c.role, c.obj))}` }),
    expect: EVERYONE(200),
    check: async (c, body) => {
      const alias = await c.w.aliasOf(await c.w.ownerOf(c.role, c.obj));
      expect(Object.keys((body as { names: Record<string, string> }).names)).toEqual([alias]);
    },
    note: "a name is public: the same answer to everyone, credentials or not",
  },
  "OPTIONS /.well-known/nostr.json": {
    request: async (c) => ({
      path: `/.well-known/nostr.json?name=${await c.w.aliasOf(await c.w.ownerOf(c.role, c.obj))}`,
      headers: { Origin: "https://client.example", "Access-Control-Request-Method": "GET" },
    }),
    expect: EVERYONE(204),
    note: "the CORS preflight of a web client's NIP-05 read",
  },

  // -- The pages the Worker renders (with their link previews), robots.txt, the sitemap: the same to everyone --
  "GET /": {
    objectless: true,
    request: () => ({ path: "/", env: WITH_SHELL }),
    expect: EVERYONE(200),
    note: "The browse list's first page as a visitor sees it; a request with a credential gets it without data (decision 030).",
  },
  "GET /gig/:id": {
    request: async (c) => ({ path: `/gig/${(await c.w.gig(c.obj)).id}`, env: WITH_SHELL }),
    expect: EVERYONE(200),
    note: "What a visitor may see, whoever asks: the page and its preview never read the caller's session.",
  },
  "GET /gigs/:id": {
    request: async (c) => ({ path: `/gigs/${(await c.w.gig(c.obj)).id}`, env: WITH_SHELL }),
    expect: EVERYONE(200),
    note: "The same page as /gig/:id (profile cards link here).",
  },
  "GET /user/:npub": {
    request: async (c) => ({ path: `/user/${(await c.w.ownerOf(c.role, c.obj)).npub}`, env: WITH_SHELL }),
    expect: EVERYONE(200),
  },
  "GET /robots.txt": { objectless: true, request: () => ({ path: "/robots.txt" }), expect: EVERYONE(200) },
  "GET /sitemap.xml": { objectless: true, request: () => ({ path: "/sitemap.xml" }), expect: EVERYONE(200) },

  // -- Session and user --
  "GET /api/config": { objectless: true, request: () => ({ path: "/api/config" }), expect: EVERYONE(200) },
  "POST /api/auth/nostr/challenge": { objectless: true, shared: true, request: () => ({ path: "/api/auth/nostr/challenge" }), expect: EVERYONE(200) },
  "POST /api/auth/nostr/verify": {
    objectless: true,
    shared: true,
    request: async () => {
      const { challenge, challengeId } = await getChallenge();
      return { path: "/api/auth/nostr/verify", json: { event: loginEvent(generateSecretKey(), challenge), challengeId } };
    },
    expect: EVERYONE(200),
  },
  "POST /api/auth/logout": {
    objectless: true,
    request: () => ({ path: "/api/auth/logout" }),
    expect: MEMBERS(200),
    check: async (c) => expect((await call("/api/user/me", c.me!.token)).status).toBe(401),
    note: "ends the caller's own session: the same token is refused afterwards",
  },
  "POST /api/auth/logout-all": {
    objectless: true,
    request: () => ({ path: "/api/auth/logout-all" }),
    expect: MEMBERS(200),
    check: async (c) => expect((await call("/api/user/me", c.me!.token)).status).toBe(401),
    note: "ends every session of the caller, this one included",
  },
  "GET /api/auth/sessions": {
    objectless: true,
    request: () => ({ path: "/api/auth/sessions" }),
    expect: MEMBERS(200),
    check: (c, body) => expect((body as { current: boolean }[]).filter((s) => s.current)).toHaveLength(1),
    note: "the caller's own sessions only",
  },
  "DELETE /api/auth/sessions/:id": {
    request: async (c) => ({ path: `/api/auth/sessions/${await c.w.sessionOf(await c.w.ownerOf(c.role, c.obj))}` }),
    expect: { visitor: 401, hirer: { own: 200, other: 404 }, worker: { own: 200, other: 404 }, stranger: 404, admin: 401 },
    note: "another member's session is not found and goes on",
  },
  "GET /api/user/me": {
    objectless: true,
    request: () => ({ path: "/api/user/me" }),
    expect: MEMBERS(200),
    check: (c, body) => expect(body).toMatchObject({ id: c.me!.id, lightningAddress: expect.stringContaining("@wallet.test") }),
  },
  "PATCH /api/user/me": { objectless: true, shared: true, request: () => ({ path: "/api/user/me", json: { displayName: "Renamed" } }), expect: MEMBERS(200) },
  "DELETE /api/user/me": {
    objectless: true,
    stage: "claimed",
    request: async (c) => {
      await c.w.gig("own");
      return { path: "/api/user/me" };
    },
    expect: { visitor: 401, hirer: 409, worker: 409, stranger: 200, admin: 401 },
    note: "hirer and worker have a funded gig (active escrow): 409; the unrelated stranger may leave",
  },
  "GET /api/users/by-npub/:npub": {
    request: async (c) => ({ path: `/api/users/by-npub/${(await c.w.ownerOf(c.role, c.obj)).npub}` }),
    expect: EVERYONE(200),
    check: publicProfileOnly,
  },
  "GET /api/users/:id": {
    request: async (c) => ({ path: `/api/users/${(await c.w.ownerOf(c.role, c.obj)).id}` }),
    expect: EVERYONE(200),
    check: publicProfileOnly,
    note: "a public profile, even to its owner: the Lightning address is only in GET /api/user/me",
  },
  "GET /api/check-gigstr-alias": { objectless: true, request: () => ({ path: `/api/check-gigstr-alias?alias=free${crypto.randomUUID().slice(0, 8)}` }), expect: EVERYONE(200) },

  // -- Profiles: portfolio and reviews --
  "GET /api/portfolio/user/:userId": { request: async (c) => ({ path: `/api/portfolio/user/${(await c.w.ownerOf(c.role, c.obj)).id}` }), expect: EVERYONE(200) },
  "POST /api/portfolio": { objectless: true, shared: true, request: () => ({ path: "/api/portfolio", json: { title: "A poster", category: "Design" } }), expect: MEMBERS(201) },
  "PATCH /api/portfolio/:id": {
    shared: true,
    request: async (c) => ({ path: `/api/portfolio/${await c.w.portfolioItemOf(await c.w.ownerOf(c.role, c.obj))}`, json: { title: "Edited title" } }),
    expect: { visitor: 401, hirer: { own: 200, other: 404 }, worker: { own: 200, other: 404 }, stranger: 404, admin: 401 },
    note: "someone else's item is 'not found'",
  },
  "DELETE /api/portfolio/:id": {
    request: async (c) => ({ path: `/api/portfolio/${await c.w.portfolioItemOf(await c.w.ownerOf(c.role, c.obj))}` }),
    expect: { visitor: 401, hirer: { own: 200, other: 404 }, worker: { own: 200, other: 404 }, stranger: 404, admin: 401 },
  },
  "GET /api/reviews/user/:userId": { request: async (c) => ({ path: `/api/reviews/user/${(await c.w.ownerOf(c.role, c.obj)).id}` }), expect: EVERYONE(200) },

  // -- Gigs --
  "GET /api/gigs": { objectless: true, request: () => ({ path: "/api/gigs?status=open" }), expect: EVERYONE(200) },
  "POST /api/gigs": { objectless: true, shared: true, request: () => ({ path: "/api/gigs", json: GIG_FORM }), expect: MEMBERS(201) },
  "GET /api/gigs/:id": [
    {
      stage: "pendingPayment",
      request: async (c) => ({ path: await gigPath(c) }),
      expect: { visitor: 404, hirer: { own: 200, other: 404 }, worker: 404, stranger: 404, admin: 200 },
      note: "an unpaid job request is its poster's (and the admin's) business; to anyone else it does not exist",
    },
    {
      stage: "submitted",
      request: async (c) => ({ path: await gigPath(c) }),
      expect: EVERYONE(200),
      check: (c, body) => {
        // The delivery, revision note and dispute reason are the parties' and the admin's only.
        const privileged = c.role === "admin" || (c.obj === "own" && (c.role === "hirer" || c.role === "worker"));
        expect((body as { workSubmission: string | null }).workSubmission).toBe(privileged ? "Here is the logo." : null);
      },
      note: "anyone may read a public gig; the submitted work only its parties and the admin (checked on the body)",
    },
    {
      stage: "removed",
      request: async (c) => ({ path: await gigPath(c) }),
      expect: { visitor: 404, hirer: { own: 200, other: 404 }, worker: { own: 200, other: 404 }, stranger: 404, admin: 200 },
      note: "a gig the admin removed stays visible to its parties and the admin only",
    },
  ],
  "PATCH /api/gigs/:id": {
    stage: "claimed",
    request: async (c) => ({ path: await gigPath(c), json: { title: "A better title" } }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "GET /api/gigs/:id/events": {
    stage: "claimed",
    request: async (c) => ({ path: await gigPath(c, "/events") }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 200 },
  },
  "GET /api/gigs/:id/messages": [
    {
      stage: "claimed",
      request: async (c) => ({ path: await gigPath(c, "/messages") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 200 },
    },
    {
      stage: "removed",
      request: async (c) => ({ path: await gigPath(c, "/messages") }),
      expect: { visitor: 401, hirer: { own: 200, other: 404 }, worker: { own: 200, other: 404 }, stranger: 404, admin: 200 },
      note: "a removed gig's chat stays readable by its parties and the admin; to anyone else the gig does not exist (hidden-gigs.test.ts: on every route)",
    },
  ],
  "POST /api/gigs/:id/claim": [
    {
      stage: "claimable",
      request: async (c) => ({ path: await gigPath(c, "/claim") }),
      expect: { visitor: 401, hirer: 403, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
      note: "the owner may not claim their own gig; others need an approved, claim-enabled interest message (claim_not_enabled)",
    },
    {
      stage: "claimed",
      request: async (c) => ({ path: await gigPath(c, "/claim") }),
      expect: { visitor: 401, hirer: { own: 403, other: 409 }, worker: { own: 403, other: 409 }, stranger: 409, admin: 401 },
      note: "claiming is open to any member who is not a party, so for them a taken gig is the wrong state (409); the parties may never claim (403)",
    },
    {
      variant: "offering: hire",
      stage: "offerClaimable",
      request: async (c) => ({ path: await gigPath(c, "/claim") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
      check: async (c, body) => expect(body).toMatchObject({ paymentRequest: expect.stringMatching(/^lnbc/) }),
      note: "a service offering is hired by the member the worker enabled; the worker may not hire their own offer, nor anyone without an enabled interest",
    },
    {
      variant: "offering: hired, unpaid",
      stage: "offerHired",
      request: async (c) => ({ path: await gigPath(c, "/claim") }),
      expect: { visitor: 401, hirer: { own: 403, other: 409 }, worker: { own: 403, other: 409 }, stranger: 409, admin: 401 },
      note: "once hired the offer waits for that hire's payment: its parties may not hire it again (403), others find it taken (409)",
    },
    {
      variant: "offering: re-hire",
      stage: "offerRehire",
      request: async (c) => ({ path: await gigPath(c, "/claim") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
      check: async (c, body) => expect(body).toMatchObject({ paymentRequest: expect.stringMatching(/^lnbc/) }),
      note: "after a withdrawn unpaid hire, the same member hires again only once the worker enabled claiming for them again",
    },
  ],
  "POST /api/gigs/:id/cancel": [
    {
      stage: "claimed",
      request: async (c) => ({ path: await gigPath(c, "/cancel") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
    },
    {
      stage: "submitted",
      request: async (c) => ({ path: await gigPath(c, "/cancel") }),
      expect: { visitor: 401, hirer: { own: 409, other: 403 }, worker: { own: 409, other: 403 }, stranger: 403, admin: 401 },
      note: "after submission nobody cancels: the parties are told the state is wrong (409), everyone else only 403",
    },
  ],
  "POST /api/gigs/:id/start-work": {
    stage: "claimed",
    request: async (c) => ({ path: await gigPath(c, "/start-work") }),
    expect: { visitor: 401, hirer: 403, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/submit": {
    stage: "inProgress",
    request: async (c) => ({ path: await gigPath(c, "/submit"), json: { workSubmission: "Done: https://example.com/logo.svg" } }),
    expect: { visitor: 401, hirer: 403, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/request-revision": {
    stage: "submitted",
    request: async (c) => ({ path: await gigPath(c, "/request-revision"), json: { note: "Bigger letters please" } }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/approve": [
    {
      stage: "submitted",
      request: async (c) => ({ path: await gigPath(c, "/approve") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
    },
    {
      stage: "claimed",
      request: async (c) => ({ path: await gigPath(c, "/approve") }),
      expect: { visitor: 401, hirer: { own: 409, other: 403 }, worker: 403, stranger: 403, admin: 401 },
      note: "nothing to approve yet: 409 for the hirer; the role check comes first, so the others learn nothing (403)",
    },
  ],
  "POST /api/gigs/:id/dispute": {
    stage: "submitted",
    request: async (c) => ({ path: await gigPath(c, "/dispute"), json: { reason: "x" } }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestones/:n/start-work": {
    stage: "claimed",
    request: async (c) => ({ path: await gigPath(c, "/milestones/1/start-work") }),
    expect: { visitor: 401, hirer: 403, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestones/:n/submit": {
    stage: "inProgress",
    request: async (c) => ({ path: await gigPath(c, "/milestones/1/submit"), json: { workSubmission: "Done: https://example.com/logo.svg" } }),
    expect: { visitor: 401, hirer: 403, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestones/:n/request-revision": {
    stage: "submitted",
    request: async (c) => ({ path: await gigPath(c, "/milestones/1/request-revision"), json: { note: "Bigger letters please" } }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestones/:n/approve": [
    {
      stage: "submitted",
      request: async (c) => ({ path: await gigPath(c, "/milestones/1/approve") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
    },
    {
      variant: "not the current milestone",
      stage: "submitted",
      request: async (c) => ({ path: await gigPath(c, "/milestones/2/approve") }),
      expect: { visitor: 401, hirer: { own: 404, other: 403 }, worker: 403, stranger: 403, admin: 401 },
      note: "a gig without a plan has only milestone 1: the hirer is told it does not exist, the others only 403",
    },
  ],
  "POST /api/gigs/:id/milestones/:n/dispute": {
    stage: "submitted",
    request: async (c) => ({ path: await gigPath(c, "/milestones/1/dispute"), json: { reason: "x" } }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestones/:n/fund": {
    stage: "milestones",
    request: async (c) => ({ path: await gigPath(c, "/milestones/2/fund") }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
    check: async (c, body) => expect(body).toMatchObject({ paymentRequest: expect.stringMatching(/^lnbc/), totalCharge: 15_375, milestone: 2 }),
    note: "only the hirer funds a milestone",
  },
  "POST /api/gigs/:id/milestone-proposals": {
    stage: "milestones",
    request: async (c) => ({ path: await gigPath(c, "/milestone-proposals"), json: { milestones: [{ title: "Everything else", amount: 20_000 }] } }),
    expect: { visitor: 401, hirer: { own: 201, other: 403 }, worker: { own: 201, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestone-proposals/:proposalId/accept": {
    stage: "milestoneProposal",
    request: async (c) => {
      const gig = await c.w.gig(c.obj);
      return { path: `/api/gigs/${gig.id}/milestone-proposals/${gig.proposalId}/accept` };
    },
    expect: { visitor: 401, hirer: { own: 403, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
    note: "the hirer proposed it: only the worker answers",
  },
  "POST /api/gigs/:id/milestone-proposals/:proposalId/reject": {
    stage: "milestoneProposal",
    request: async (c) => {
      const gig = await c.w.gig(c.obj);
      return { path: `/api/gigs/${gig.id}/milestone-proposals/${gig.proposalId}/reject` };
    },
    expect: { visitor: 401, hirer: { own: 403, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/milestone-proposals/:proposalId/withdraw": {
    stage: "milestoneProposal",
    request: async (c) => {
      const gig = await c.w.gig(c.obj);
      return { path: `/api/gigs/${gig.id}/milestone-proposals/${gig.proposalId}/withdraw` };
    },
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 403, other: 403 }, stranger: 403, admin: 401 },
  },
  "GET /api/gigs/:id/receipt": [
    {
      stage: "completed",
      request: async (c) => ({ path: await gigPath(c, "/receipt") }),
      expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
      note: "the receipt is the parties'; the admin has no member session (401)",
    },
    {
      stage: "submitted",
      request: async (c) => ({ path: await gigPath(c, "/receipt") }),
      expect: { visitor: 401, hirer: { own: 409, other: 403 }, worker: { own: 409, other: 403 }, stranger: 403, admin: 401 },
      note: "no receipt before completion",
    },
  ],
  "POST /api/gigs/:id/review": {
    stage: "submitted",
    request: async (c) => {
      const gig = await c.w.gig(c.obj);
      // The counterpart on that gig (for a non-party, any party: the role check answers first).
      const revieweeId = c.me?.id === gig.hirer.id ? gig.worker.id : gig.hirer.id;
      return { path: `/api/gigs/${gig.id}/review`, json: { rating: 5, comment: "Great", revieweeId } };
    },
    expect: { visitor: 401, hirer: { own: 201, other: 403 }, worker: { own: 201, other: 403 }, stranger: 403, admin: 401 },
  },

  // -- Interest (pre-claim) messages --
  "POST /api/gigs/:id/pre-claim-messages": [
    {
      stage: "open",
      request: async (c) => ({ path: await gigPath(c, "/pre-claim-messages"), json: { message: "I can do this." } }),
      expect: { visitor: 401, hirer: { own: 403, other: 201 }, worker: 201, stranger: 201, admin: 401 },
      note: "any member but the owner may send interest in an open gig (the worker is not a party before claiming)",
    },
    {
      stage: "pendingPayment",
      request: async (c) => ({ path: await gigPath(c, "/pre-claim-messages"), json: { message: "I can do this." } }),
      expect: { visitor: 401, hirer: { own: 403, other: 404 }, worker: 404, stranger: 404, admin: 401 },
      note: "an unpaid job request does not exist to anyone but its poster, here as in GET /api/gigs/:id",
    },
  ],
  "GET /api/gigs/:id/pre-claim-messages": [
    {
      stage: "pendingPayment",
      request: async (c) => ({ path: await gigPath(c, "/pre-claim-messages") }),
      expect: { visitor: 401, hirer: { own: 200, other: 404 }, worker: 404, stranger: 404, admin: 401 },
      note: "an unpaid job request does not exist to anyone but its poster",
    },
    {
      stage: "interest",
      request: async (c) => ({ path: await gigPath(c, "/pre-claim-messages") }),
      expect: { visitor: 401, hirer: 200, worker: 200, stranger: 200, admin: 401 },
      check: async (c, body) => {
        // The owner sees every message on their gig; anyone else only their own.
        const gig = await c.w.gig(c.obj);
        const list = body as { senderId: string }[];
        const sees = c.obj === "own" && (c.role === "hirer" || c.role === "worker") ? [gig.worker.id] : [];
        expect(list.map((m) => m.senderId)).toEqual(sees);
      },
      note: "200 for every member, but each sees only what is theirs (checked on the body)",
    },
  ],
  "GET /api/pre-claim-messages/pending-count": { objectless: true, request: () => ({ path: "/api/pre-claim-messages/pending-count" }), expect: MEMBERS(200) },
  "PATCH /api/pre-claim-messages/:id/approve": {
    stage: "interest",
    request: async (c) => ({ path: `/api/pre-claim-messages/${(await c.w.gig(c.obj)).interestId}/approve` }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
    note: "only the gig's owner decides; the worker (the message's sender) may not approve their own",
  },
  "PATCH /api/pre-claim-messages/:id/reject": {
    stage: "interest",
    request: async (c) => ({ path: `/api/pre-claim-messages/${(await c.w.gig(c.obj)).interestId}/reject` }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },
  "PATCH /api/pre-claim-messages/:id/enable-claim": {
    stage: "approved",
    request: async (c) => ({ path: `/api/pre-claim-messages/${(await c.w.gig(c.obj)).interestId}/enable-claim` }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },

  // -- Deadline extensions --
  "POST /api/gigs/:id/request-extension": {
    stage: "claimed",
    request: async (c) => ({ path: await gigPath(c, "/request-extension"), json: { daysToAdd: 3, reason: "Need more time" } }),
    expect: { visitor: 401, hirer: 403, worker: { own: 201, other: 403 }, stranger: 403, admin: 401 },
  },
  "GET /api/gigs/:id/extension-requests": {
    stage: "extension",
    request: async (c) => ({ path: await gigPath(c, "/extension-requests") }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/extension-request/:requestId/approve": {
    stage: "extension",
    request: async (c) => {
      const gig = await c.w.gig(c.obj);
      return { path: `/api/gigs/${gig.id}/extension-request/${gig.extensionId}/approve` };
    },
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },
  "POST /api/gigs/:id/extension-request/:requestId/reject": {
    stage: "extension",
    request: async (c) => {
      const gig = await c.w.gig(c.obj);
      return { path: `/api/gigs/${gig.id}/extension-request/${gig.extensionId}/reject` };
    },
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },
  "PATCH /api/gigs/:id/extend-deadline": {
    stage: "claimed",
    request: async (c) => ({ path: await gigPath(c, "/extend-deadline"), json: { newDeadline: IN_60_DAYS() } }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: 403, stranger: 403, admin: 401 },
  },

  // -- Files --
  "POST /api/objects/upload": {
    objectless: true,
    shared: true,
    request: () => ({ path: "/api/objects/upload", json: { filename: "hello.txt", contentType: "text/plain", size: 5 } }),
    expect: MEMBERS(200),
  },
  "PUT /api/objects/upload/:token": {
    request: async (c) => ({
      path: await c.w.uploadPathOf(await c.w.ownerOf(c.role, c.obj)),
      body: new TextEncoder().encode("hello"),
      headers: { "content-type": "text/plain", "content-length": "5" },
    }),
    expect: EVERYONE(200),
    note: "the one-time token in the path is the credential: whoever holds it may PUT, once",
  },
  "GET /api/attachments/:id/download": {
    stage: "submitted",
    request: async (c) => ({ path: `/api/attachments/${await c.w.attachmentOf(c.obj)}/download` }),
    expect: { visitor: 401, hirer: { own: 200, other: 403 }, worker: { own: 200, other: 403 }, stranger: 403, admin: 200 },
  },

  // -- Notifications (own = a notification addressed to the acting member) --
  "GET /api/notifications": {
    objectless: true,
    request: async (c) => {
      await c.w.gig("own");
      return { path: "/api/notifications" };
    },
    expect: MEMBERS(200),
    check: async (c, body) => {
      // Each member's bell holds only their own: the hirer's "New Interest" is in the hirer's list alone.
      const hirersNotification = await c.w.notificationOf(await c.w.member("hirer"));
      expect((body as { id: string }[]).some((n) => n.id === hirersNotification)).toBe(c.role === "hirer");
    },
  },
  "GET /api/notifications/unread-count": { objectless: true, request: () => ({ path: "/api/notifications/unread-count" }), expect: MEMBERS(200) },
  "PATCH /api/notifications/mark-all-read": { objectless: true, shared: true, request: () => ({ path: "/api/notifications/mark-all-read" }), expect: MEMBERS(200) },
  "PATCH /api/notifications/:id/read": {
    stage: "claimed",
    shared: true,
    request: async (c) => {
      await c.w.gig(c.obj);
      return { path: `/api/notifications/${await c.w.notificationOf(await c.w.ownerOf(c.role, c.obj))}/read` };
    },
    expect: { visitor: 401, hirer: { own: 200, other: 404 }, worker: { own: 200, other: 404 }, stranger: 404, admin: 401 },
    note: "someone else's notification is 'not found'",
  },

  // -- Lightning --
  "POST /api/dev/invoices/pay": {
    stage: "pendingPayment",
    request: async (c) => ({ path: "/api/dev/invoices/pay", json: { paymentRequest: (await c.w.gig(c.obj)).paymentRequest } }),
    expect: EVERYONE(200),
    note: "the dev wallet (LIGHTNING_BACKEND=dev only) pays any invoice for anyone; it is 404 in production",
  },
  "POST /api/webhooks/lightning/:secret": {
    objectless: true,
    request: () => ({ path: "/api/webhooks/lightning/not-the-secret", json: { payment_hash: "00".repeat(32) } }),
    expect: EVERYONE(404),
    note: "a wrong secret is 'not found' for everyone",
  },

  // -- Admin --
  "POST /api/admin/auth": {
    objectless: true,
    shared: true,
    request: () => ({ path: "/api/admin/auth", json: { pin: TEST_ADMIN_PIN }, headers: { "cf-connecting-ip": `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } }),
    expect: EVERYONE(200),
    note: "the PIN is the credential (ADMIN_PUBKEYS unset in tests)",
  },
  "POST /api/admin/logout": { objectless: true, request: () => ({ path: "/api/admin/logout" }), expect: EVERYONE(200), note: "ends the admin token it carries, if any" },
  "GET /api/admin/stats": { objectless: true, request: () => ({ path: "/api/admin/stats" }), expect: ADMIN_ONLY(200) },
  "GET /api/admin/money": { objectless: true, request: () => ({ path: "/api/admin/money" }), expect: ADMIN_ONLY(200) },
  "GET /api/user/payouts": {
    objectless: true,
    request: () => ({ path: "/api/user/payouts" }),
    expect: MEMBERS(200),
    check: (_c, body) => expect(body).toEqual([]),
    note: "the caller's own failed payouts only",
  },
  "POST /api/user/payouts/:id/retry": {
    stage: "completed",
    request: async (c) => ({ path: `/api/user/payouts/${await c.w.payoutOf(c.obj)}/retry` }),
    expect: { visitor: 401, hirer: 404, worker: { own: 409, other: 404 }, stranger: 404, admin: 401 },
    note: "only the payee finds their payout (already paid here: 409); to everyone else it does not exist",
  },
  "POST /api/admin/payouts/:id/retry": {
    stage: "completed",
    request: async (c) => ({ path: `/api/admin/payouts/${await c.w.payoutOf(c.obj)}/retry` }),
    expect: ADMIN_ONLY(409),
    note: "the dev wallet already paid the payout: 409 payout_already_paid (wrong state on purpose)",
  },
  "POST /api/admin/payouts/:id/mark-failed": {
    stage: "completed",
    request: async (c) => ({ path: `/api/admin/payouts/${await c.w.payoutOf(c.obj)}/mark-failed`, json: { paymentHashes: ["ab".repeat(32)] } }),
    expect: ADMIN_ONLY(409),
    note: "the dev wallet already paid the payout: 409 payout_not_in_doubt (only a payout held in doubt can be marked failed)",
  },
  "GET /api/admin/gigs": { objectless: true, request: () => ({ path: "/api/admin/gigs" }), expect: ADMIN_ONLY(200) },
  "DELETE /api/admin/gigs": {
    stage: "claimed",
    request: async (c) => ({ path: "/api/admin/gigs", json: { ids: [(await c.w.gig(c.obj)).id] } }),
    expect: ADMIN_ONLY(200),
  },
  "POST /api/admin/gigs/bulk-delete": {
    stage: "claimed",
    request: async (c) => ({ path: "/api/admin/gigs/bulk-delete", json: { ids: [(await c.w.gig(c.obj)).id] } }),
    expect: ADMIN_ONLY(200),
  },
  "DELETE /api/admin/gigs/:id": { stage: "claimed", request: async (c) => ({ path: `/api/admin/gigs/${(await c.w.gig(c.obj)).id}` }), expect: ADMIN_ONLY(200) },
  "GET /api/admin/suggestions": { objectless: true, request: () => ({ path: "/api/admin/suggestions" }), expect: ADMIN_ONLY(200) },
  "PATCH /api/admin/suggestions/:id": {
    shared: true,
    request: async (c) => ({ path: `/api/admin/suggestions/${await c.w.suggestionBy(await c.w.ownerOf(c.role, c.obj))}`, json: { status: "reviewed" } }),
    expect: ADMIN_ONLY(200),
  },
  "GET /api/admin/disputes": { objectless: true, request: () => ({ path: "/api/admin/disputes" }), expect: ADMIN_ONLY(200) },
  "POST /api/admin/disputes/:gigId/resolve": {
    stage: "disputed",
    request: async (c) => ({ path: `/api/admin/disputes/${(await c.w.gig(c.obj)).id}/resolve`, json: { resolution: "refund_hirer" } }),
    expect: ADMIN_ONLY(200),
  },
  "GET /api/admin/unread-chats": { objectless: true, request: () => ({ path: "/api/admin/unread-chats" }), expect: ADMIN_ONLY(200) },
  "GET /api/admin/chat/:gigId": { stage: "claimed", request: async (c) => ({ path: `/api/admin/chat/${(await c.w.gig(c.obj)).id}` }), expect: ADMIN_ONLY(200) },
  "POST /api/admin/chat/:gigId": {
    stage: "claimed",
    shared: true,
    request: async (c) => ({ path: `/api/admin/chat/${(await c.w.gig(c.obj)).id}`, json: { message: "Admin here." } }),
    expect: ADMIN_ONLY(201),
  },

  // -- Reports and suggestions --
  "POST /api/gig-reports": {
    stage: "claimed",
    shared: true,
    request: async (c) => ({ path: "/api/gig-reports", json: { gigId: (await c.w.gig(c.obj)).id, reason: "spam" } }),
    expect: { visitor: 401, hirer: { own: 403, other: 201 }, worker: 201, stranger: 201, admin: 401 },
    note: "any member but the gig's poster may report it (the worker of a job request is not its poster)",
  },
  "GET /api/gig-reports": { objectless: true, request: () => ({ path: "/api/gig-reports" }), expect: ADMIN_ONLY(200) },
  "PATCH /api/gig-reports/:id": {
    stage: "claimed",
    shared: true,
    request: async (c) => ({ path: `/api/gig-reports/${await c.w.reportOn(c.obj)}`, json: { status: "under_review", adminNotes: "Looking" } }),
    expect: ADMIN_ONLY(200),
  },
  "POST /api/suggestions": { objectless: true, shared: true, request: () => ({ path: "/api/suggestions", json: { suggestion: "A dark mode" } }), expect: MEMBERS(201) },

  // -- Real-time chat: the upgrade is open (101); the room decides who joins (first frame authenticates) --
  "GET /ws": {
    stage: "claimed",
    request: async (c) => ({ path: `/ws?gigId=${(await c.w.gig(c.obj)).id}` }),
    expect: { visitor: "refused", hirer: { own: "joined", other: "refused" }, worker: { own: "joined", other: "refused" }, stranger: "refused", admin: "joined" },
  },
  // -- The member's inbox socket: the session rides as a sub-protocol; every member hears their own inbox --
  "GET /api/notifications/socket": {
    objectless: true,
    request: () => ({ path: "/api/notifications/socket" }),
    expect: { visitor: 401, hirer: "listening", worker: "listening", stranger: "listening", admin: 401 },
    note: "The admin has no inbox: the admin token is not a member's session.",
  },
};

// ---- Running a cell -----------------------------------------------------------------------------

const answerFor = (cell: Cell, obj: Obj): Answer => (typeof cell === "object" ? cell[obj] : cell);
const succeeds = (a: Answer) => (typeof a === "number" ? a >= 200 && a < 300 : false);

/** The route pattern as a regular expression over concrete paths. */
function patternOf(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]+/g, "[^/]+")}$`);
}

async function runHttp(key: string, row: Row, c: CellContext): Promise<{ answer: Answer; body: unknown }> {
  const [method, pattern] = key.split(" ") as [string, string];
  const req = await row.request(c);
  expect(req.path.split("?")[0], `the row of ${key} built a path for another route`).toMatch(patternOf(pattern));
  const headers = new Headers(req.headers);
  if (c.me) headers.set("authorization", `Bearer ${c.me.token}`);
  if (c.role === "admin") headers.set("x-admin-token", await c.w.adminToken());
  const res = await api(req.path, { method, headers, json: req.json, body: req.body, env: req.env });
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("json")) return { answer: res.status, body: `<${type}, ${(await res.arrayBuffer()).byteLength} bytes>` };
  return { answer: res.status, body: await res.json() };
}

/** Opens `/ws?gigId=` as the role: signs in with its credential (if any) and asks to join. */
async function runSocket(key: string, row: Row, c: CellContext): Promise<{ answer: Answer; body: unknown }> {
  const req = await row.request(c);
  const gigId = new URL(req.path, "https://gigstr.test").searchParams.get("gigId")!;
  const opened = await openSocket(gigId);
  if (!opened.socket) return { answer: opened.status, body: opened.body };
  const socket = opened.socket;
  try {
    if (c.me) expect(await socket.ask({ type: "auth", sessionToken: c.me.token }), `${key}: auth`).toEqual({ type: "auth_success" });
    if (c.role === "admin") expect(await socket.ask({ type: "auth", adminToken: await c.w.adminToken() }), `${key}: auth`).toEqual({ type: "auth_success" });
    const reply = await socket.ask({ type: "join_gig", gigId });
    if (reply.type === "join_success" && reply.gigId === gigId) return { answer: "joined", body: reply };
    if (reply.type === "error") return { answer: "refused", body: reply };
    return { answer: JSON.stringify(reply) as never, body: reply };
  } finally {
    socket.close();
  }
}

/** Opens the role's inbox socket as a tab does (the session offered beside the protocol): "listening" once its count arrives. */
async function runInbox(c: CellContext): Promise<{ answer: Answer; body: unknown }> {
  const opened = await openInboxSocket(c.me ?? null);
  if (!opened.socket) return { answer: opened.status, body: opened.body };
  try {
    const first = await opened.socket.next();
    expect(first).toEqual({ type: "unread_count", count: expect.any(Number) });
    return { answer: "listening", body: first };
  } finally {
    opened.socket.close();
  }
}

const sharedWorlds = new Map<Stage, World>();
function sharedWorld(stage: Stage): World {
  let w = sharedWorlds.get(stage);
  if (!w) {
    w = new World(stage);
    sharedWorlds.set(stage, w);
  }
  return w;
}

async function runCell(key: string, row: Row, role: Role, obj: Obj, fresh: boolean, expected: Answer) {
  const stage = row.stage ?? "claimed";
  const w = fresh ? new World(stage) : sharedWorld(stage);
  const c: CellContext = { w, role, obj, me: await w.actor(role) };
  const { answer, body } = key === "GET /ws" ? await runSocket(key, row, c) : key === "GET /api/notifications/socket" ? await runInbox(c) : await runHttp(key, row, c);
  expect(answer, `${key} as ${role} on ${obj} object: ${JSON.stringify(body).slice(0, 300)}`).toBe(expected);
  if (row.check && succeeds(answer)) await row.check(c, body);
}

// ---- The route table against the matrix ---------------------------------------------------------

/**
 * Every route the app serves, from Hono's own table: `use()` middleware (method ALL on a wildcard, or on the
 * path of a route that serves it, like the edge cache in front of /.well-known/nostr.json) is not a route.
 */
const isMiddleware = (r: { method: string; path: string }) =>
  r.method === "ALL" && (r.path.endsWith("*") || app.routes.some((o) => o.method !== "ALL" && o.path === r.path));
const SERVED = [...new Set(app.routes.filter((r) => !isMiddleware(r)).map((r) => `${r.method} ${r.path}`))];

interface PlannedCell {
  key: string;
  row: Row;
  role: Role;
  obj: Obj;
  label: string;
  expected: Answer;
  fresh: boolean;
}

const variantsOf = (entry: Row | Row[]): Row[] => (Array.isArray(entry) ? entry : [entry]);

const PLAN: PlannedCell[] = Object.entries(MATRIX).flatMap(([key, entry]) =>
  variantsOf(entry).flatMap((row, _, all) =>
    ROLES.flatMap((role) =>
      (row.objectless ? (["own"] as const) : OBJECTS).map((obj) => {
        const expected = answerFor(row.expect[role], obj);
        const variant = all.length > 1 ? `[${row.variant ?? row.stage}] ` : "";
        return { key, row, role, obj, label: `${variant}${row.objectless ? role : `${role} × ${obj}`}`, expected, fresh: succeeds(expected) && !(row.shared ?? key.startsWith("GET ")) };
      }),
    ),
  ),
);

describe("authorisation matrix: the route table", () => {
  it("has a row for every route the Worker serves (HTTP and /ws)", () => {
    const missing = SERVED.filter((r) => !(r in MATRIX));
    expect(missing.map((r) => `new route without a row: ${r}`)).toEqual([]);
  });

  it("has no row for a route that no longer exists", () => {
    const gone = Object.keys(MATRIX).filter((r) => !SERVED.includes(r));
    expect(gone.map((r) => `row for a route that no longer exists: ${r}`)).toEqual([]);
  });

  it("writes an answer for every role, and own/other only where the route has an object", () => {
    for (const [key, entry] of Object.entries(MATRIX)) {
      for (const row of variantsOf(entry)) {
        for (const role of ROLES) {
          const cell = row.expect[role];
          expect(cell, `${key} × ${role}`).toBeDefined();
          if (row.objectless) expect(typeof cell, `${key} × ${role}: an objectless route has one answer per role`).not.toBe("object");
        }
      }
    }
  });
});

// Refusals (and successes that change nothing others read) first, on one shared fixture per stage;
// then every success on a fresh fixture of its own, so no cell sees another's effects.
for (const fresh of [false, true]) {
  describe(fresh ? "authorisation matrix: allowed calls (fresh fixture each)" : "authorisation matrix: refusals and read-only calls", () => {
    for (const key of Object.keys(MATRIX)) {
      const cells = PLAN.filter((p) => p.key === key && p.fresh === fresh);
      if (cells.length === 0) continue;
      describe(key, () => {
        for (const cell of cells) {
          it(`${cell.label} → ${cell.expected}`, () => runCell(cell.key, cell.row, cell.role, cell.obj, cell.fresh, cell.expected), 30_000);
        }
      });
    }
  });
}
