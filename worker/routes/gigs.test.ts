import { describe, expect, it } from "vitest";
import { call, claimedJob, payWithDevWallet, postGig, signUp, submittedJob, api } from "../test/factories";
import { pdfTextLines } from "../test/pdf";

const form = {
  gigType: "job_request",
  title: "Write a blog post",
  description: "800 words about running a Lightning node at home.",
  category: "Writing",
  payment: 5_000,
  timeframe: 5,
};

describe("POST /api/gigs", () => {
  it("answers each validation rule with the spec's message and creates nothing", async () => {
    const m = await signUp({ lightningAddress: "v@wallet.test" });
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "" }, "Title is required"],
      [{ title: undefined }, "Title is required"],
      [{ description: undefined }, "Description must be at least 10 characters"],
      [{ title: "x".repeat(101) }, "Title must be less than 100 characters"],
      [{ description: "too short" }, "Description must be at least 10 characters"],
      [{ description: "x".repeat(1001) }, "Description must be less than 1000 characters"],
      [{ category: "" }, "Category is required"],
      [{ payment: 0 }, "Minimum payment is 1 sat"],
      [{ payment: 1_000_001 }, "Maximum payment is 1,000,000 sats"],
      [{ timeframe: 0 }, "Minimum timeframe is 1 day"],
      [{ timeframe: 31 }, "Maximum timeframe is 30 days"],
      [{ gigType: "auction" }, "Gig type must be job_request or service_offering"],
    ];
    for (const [change, message] of cases) {
      const res = await call("/api/gigs", m.token, "POST", { ...form, ...change });
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual({ message, error: "invalid_input" });
    }
    expect((await call("/api/gigs?participant=me", m.token)).body).toEqual([]);
  });

  it("defaults to a 7-day job request and answers gig, paymentRequest and totalCharge", async () => {
    const m = await signUp({ lightningAddress: "d@wallet.test" });
    const { gigType: _t, timeframe: _f, ...rest } = form;
    const res = await call("/api/gigs", m.token, "POST", rest);
    expect(res.status).toBe(201);
    expect(res.body.gig).toMatchObject({ gigType: "job_request", timeframe: 7, payment: 5_000, status: "pending_payment", poster: { username: m.npub } });
    expect(res.body.totalCharge).toBe(5_125);
    expect(res.body.paymentRequest).toMatch(/^lnbcrt51250n1/);
  });

  it("needs a Lightning address, and a session", async () => {
    const m = await signUp();
    const res = await call("/api/gigs", m.token, "POST", form);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("lightning_address_required");
    expect(res.body.message).toMatch(/^Lightning Address Required/);
    expect((await call("/api/gigs", undefined, "POST", form)).status).toBe(401);
  });
});

describe("GET /api/gigs", () => {
  it("filters by status, type, category, payment range and text, newest first", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "f@wallet.test" });
    const a = await postGig(poster, { gigType: "service_offering", title: `Alpha ${tag}`, category: "Design", payment: 5_000 });
    const b = await postGig(poster, { gigType: "service_offering", title: `Beta ${tag}`, category: "Writing", payment: 60_000 });
    const c = await postGig(poster, { gigType: "job_request", title: `Gamma ${tag}`, category: "Design", payment: 20_000 });
    await payWithDevWallet(c.paymentRequest!);

    const ids = async (query: string) => ((await call(`/api/gigs?q=${tag}&${query}`, undefined)).body as unknown as { id: string }[]).map((g) => g.id);
    expect(await ids("status=open")).toEqual([c.gig.id, b.gig.id, a.gig.id]);
    expect(await ids("status=open&gigType=service_offering")).toEqual([b.gig.id, a.gig.id]);
    expect(await ids("status=open&gigType=all&category=Design")).toEqual([c.gig.id, a.gig.id]);
    expect(await ids("minPayment=10000&maxPayment=50000")).toEqual([c.gig.id]);
    expect(await ids("category=All&maxPayment=9999")).toEqual([a.gig.id]);
  });

  it("pages by cursor without gaps or repeats", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "p@wallet.test" });
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) posted.unshift((await postGig(poster, { gigType: "service_offering", title: `Page ${tag} ${i}` })).gig.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api(`/api/gigs?q=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...((await res.json()) as { id: string }[]).map((g) => g.id));
      cursor = res.headers.get("x-next-cursor");
    } while (cursor);
    expect(seen).toEqual(posted);
  });

  it("reads about as many rows as a page returns, however many gigs exist (X-Rows-Read)", async () => {
    // Two posters: one member may post 30 gigs a minute (worker/rate-limits.ts).
    const posters = [await signUp({ lightningAddress: "rows@wallet.test" }), await signUp({ lightningAddress: "rows2@wallet.test" })];
    for (let i = 0; i < 40; i++) await postGig(posters[i % 2]!, { gigType: "service_offering", title: `Rows ${i}` });
    const first = await api("/api/gigs?status=open&limit=10");
    expect(((await first.json()) as unknown[]).length).toBe(10);
    expect(Number(first.headers.get("x-rows-read"))).toBeLessThanOrEqual(2 * 10 + 5);
    const second = await api(`/api/gigs?status=open&limit=10&cursor=${first.headers.get("x-next-cursor")}`);
    expect(Number(second.headers.get("x-rows-read"))).toBeLessThanOrEqual(2 * 10 + 5);
  });

  it("keeps unfunded job requests to their poster, and participant=me lists my gigs", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: "u@wallet.test" });
    const other = await signUp();
    const unfunded = await postGig(poster, { title: `Hidden ${tag}` });
    expect((await call(`/api/gigs?q=${tag}`, other.token)).body).toEqual([]);
    expect((await call(`/api/gigs?q=${tag}`, poster.token)).body).toHaveLength(1);
    expect(((await call("/api/gigs?participant=me", poster.token)).body as unknown as { id: string }[]).map((g) => g.id)).toContain(unfunded.gig.id);
    expect((await call("/api/gigs?participant=me", undefined)).status).toBe(401);
  });

  it("refuses bad filters with a message", async () => {
    for (const q of ["status=nope", "limit=0", "limit=101", "minPayment=-1", "cursor=%%%"]) {
      const res = await call(`/api/gigs?${q}`, undefined);
      expect(res.status, q).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });
});

describe("GET /api/gigs/:id", () => {
  it("shows the poster's reputation and hides the submission from strangers", async () => {
    const job = await submittedJob();
    const stranger = await signUp();
    const asStranger = (await call(`/api/gigs/${job.gigId}`, stranger.token)).body;
    expect(asStranger).toMatchObject({ status: "work_submitted", workSubmission: null, poster: { username: job.hirer.npub, completedGigs: 0, successRate: 100 } });
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.workSubmission).toMatch(/logo/);
    expect((await call(`/api/gigs/${job.gigId}/events`, stranger.token)).status).toBe(403);
    expect((await call(`/api/gigs/${crypto.randomUUID()}`, undefined)).status).toBe(404);
  });
});

describe("PATCH /api/gigs/:id", () => {
  it("lets a party edit title and description, and only the owner of an open service offering change the budget", async () => {
    const job = await claimedJob();
    const edited = await call(`/api/gigs/${job.gigId}`, job.worker.token, "PATCH", { title: "A better title" });
    expect(edited.status).toBe(200);
    expect(edited.body.title).toBe("A better title");
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token, "PATCH", { budget: 1 })).status).toBe(403);
    expect((await call(`/api/gigs/${job.gigId}`, (await signUp()).token, "PATCH", { title: "Mine now" })).status).toBe(403);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token, "PATCH", { title: "" })).body.message).toBe("Title is required");

    const worker = await signUp({ lightningAddress: "so@wallet.test" });
    const offer = await postGig(worker, { gigType: "service_offering", payment: 3_000 });
    const rebudget = await call(`/api/gigs/${offer.gig.id}`, worker.token, "PATCH", { budget: 4_000 });
    expect(rebudget.body).toMatchObject({ payment: 4_000, totalCharge: 4_100 });
  });
});

describe("interest messages", () => {
  it("once per member, never by the owner, blank refused; senders see only their own", async () => {
    const owner = await signUp({ lightningAddress: "o@wallet.test" });
    const offer = await postGig(owner, { gigType: "service_offering" });
    const path = `/api/gigs/${offer.gig.id}/pre-claim-messages`;
    const a = await signUp();
    const b = await signUp();
    expect((await call(path, owner.token, "POST", { message: "me" })).status).toBe(403);
    const blank = await call(path, a.token, "POST", { message: "   " });
    expect(blank.body.message).toBe("Message Required: Please write a message to express your interest.");
    expect((await call(path, a.token, "POST", { message: "Hello from A" })).status).toBe(201);
    expect((await call(path, a.token, "POST", { message: "Again" })).status).toBe(409);
    await call(path, b.token, "POST", { message: "Hello from B" });

    expect(((await call(path, owner.token)).body as unknown as unknown[]).length).toBe(2);
    const mine = (await call(path, a.token)).body as unknown as { message: string; sender: { username: string } }[];
    expect(mine.map((m) => m.message)).toEqual(["Hello from A"]);
    expect(mine[0]!.sender.username).toBe(a.npub);
    expect((await call("/api/pre-claim-messages/pending-count", owner.token)).body).toEqual({ count: 2 });
  });

  it("claiming needs an approved message with claim enabled, by the owner only", async () => {
    const owner = await signUp({ lightningAddress: "o2@wallet.test" });
    const offer = await postGig(owner, { gigType: "service_offering" });
    const hirer = await signUp({ lightningAddress: "h2@wallet.test" });
    const sent = await call(`/api/gigs/${offer.gig.id}/pre-claim-messages`, hirer.token, "POST", { message: "Hire you" });
    expect((await call(`/api/gigs/${offer.gig.id}/claim`, hirer.token, "POST")).body.error).toBe("claim_not_enabled");
    expect((await call(`/api/pre-claim-messages/${sent.body.id}/approve`, hirer.token, "PATCH")).status).toBe(403);
    expect((await call(`/api/pre-claim-messages/${sent.body.id}/enable-claim`, owner.token, "PATCH")).status).toBe(409);
    expect((await call(`/api/pre-claim-messages/${sent.body.id}/approve`, owner.token, "PATCH")).body).toMatchObject({ status: "approved", claimEnabled: false });
    expect((await call(`/api/gigs/${offer.gig.id}/claim`, hirer.token, "POST")).status).toBe(403);
    expect((await call(`/api/pre-claim-messages/${sent.body.id}/enable-claim`, owner.token, "PATCH")).body).toMatchObject({ claimEnabled: true });
    expect((await call(`/api/gigs/${offer.gig.id}/claim`, hirer.token, "POST")).status).toBe(200);
  });

  it("a rejected member cannot claim", async () => {
    const owner = await signUp({ lightningAddress: "o3@wallet.test" });
    const offer = await postGig(owner, { gigType: "service_offering" });
    const m = await signUp({ lightningAddress: "m3@wallet.test" });
    const sent = await call(`/api/gigs/${offer.gig.id}/pre-claim-messages`, m.token, "POST", { message: "Pick me" });
    expect((await call(`/api/pre-claim-messages/${sent.body.id}/reject`, owner.token, "PATCH")).body.status).toBe("rejected");
    expect((await call(`/api/pre-claim-messages/${sent.body.id}/approve`, owner.token, "PATCH")).status).toBe(409);
    expect((await call(`/api/gigs/${offer.gig.id}/claim`, m.token, "POST")).status).toBe(403);
  });
});

describe("receipt", () => {
  it("is a PDF for the parties of a completed gig only", async () => {
    const job = await submittedJob();
    expect((await call(`/api/gigs/${job.gigId}/receipt`, job.worker.token)).status).toBe(409);
    await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST");
    const res = await api(`/api/gigs/${job.gigId}/receipt`, { token: job.hirer.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const pdf = await res.arrayBuffer();
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    expect(await pdfTextLines(pdf)).toEqual(expect.arrayContaining(["Total paid by hirer: 10,250 sats", "Paid to worker: 9,750 sats"]));
    expect((await call(`/api/gigs/${job.gigId}/receipt`, (await signUp()).token)).status).toBe(403);
  });
});

describe("a gig the admin removed", () => {
  it("disappears for everyone but its parties", async () => {
    const job = await claimedJob();
    const auth = await call("/api/admin/auth", undefined, "POST", { pin: "135790" });
    const del = await api(`/api/admin/gigs/${job.gigId}`, { method: "DELETE", headers: { "x-admin-token": auth.body.adminToken } });
    expect(del.status).toBe(200);
    const stranger = await signUp();
    expect((await call(`/api/gigs/${job.gigId}`, stranger.token)).status).toBe(404);
    const listed = (await call("/api/gigs?status=cancelled&limit=100", stranger.token)).body as unknown as { id: string }[];
    expect(listed.map((g) => g.id)).not.toContain(job.gigId);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "refunded" });
  });
});
