// The admin API: who may call it, the stats, every gig and deleting gigs without losing a sat,
// reports, suggestions, the chats the admin watches, and the money health view.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminApi, adminSignIn, asAdmin } from "../test/admin";
import { call, claimedJob, payWithDevWallet, postGig, signUp, submittedJob, type Json } from "../test/factories";
import { escrowBalance, expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { makeDeps } from "../composition";
import { findUserById } from "../services/users";
import { approveWork } from "../services/gig-actions";
import { attemptPayout } from "../services/payouts";
import { unreadChats } from "../services/admin-chat";
import { openDb } from "../db/client";
import { statement, watchedD1 } from "../db/test-statements";

const list = (body: Json) => body as unknown as Json[];

/** A funded, open job request (10,000 sats: 10,250 in escrow). */
async function fundedJob() {
  const tag = crypto.randomUUID().slice(0, 8);
  const hirer = await signUp({ lightningAddress: `hirer${tag}@wallet.test`, displayName: "Hirer" });
  const posted = await postGig(hirer, { title: `Funded ${tag}` });
  await payWithDevWallet(posted.paymentRequest!);
  return { hirer, gigId: posted.gig.id as string, tag, hirerAddress: `hirer${tag}@wallet.test` };
}

/** A message at a given time, kept by the gig's room as the chat move keeps one, with the gig's chat summary after it. */
async function chatMessage(gigId: string, senderId: string | null, message: string, createdAt = new Date().toISOString()) {
  const room = env.GIG_ROOM.get(env.GIG_ROOM.idFromName(gigId));
  await room.importChatMessages(gigId, [{ id: crypto.randomUUID(), senderId, senderType: senderId ? "user" : "admin", message, attachmentId: null, createdAt }]);
  await room.settleChatSummary(gigId);
}

/** The admin's unread chats as the service finds them, with the rows its query read (D1's meta.rows_read). */
async function unreadChatsMetered(): Promise<{ chats: Awaited<ReturnType<typeof unreadChats>>; rowsRead: number }> {
  let rowsRead = 0;
  const metered = watchedD1(env.DB, { rowsRead: (n) => (rowsRead += n) });
  return { chats: await unreadChats({ db: openDb(metered) }), rowsRead };
}

describe("who may call the admin API", () => {
  const endpoints: [string, string, unknown?][] = [
    ["GET", "/api/admin/stats"],
    ["GET", "/api/admin/money"],
    ["GET", "/api/admin/gigs"],
    ["DELETE", `/api/admin/gigs/${crypto.randomUUID()}`],
    ["DELETE", "/api/admin/gigs", { ids: [crypto.randomUUID()] }],
    ["POST", "/api/admin/gigs/bulk-delete", { ids: [crypto.randomUUID()] }],
    ["GET", "/api/admin/suggestions"],
    ["PATCH", `/api/admin/suggestions/${crypto.randomUUID()}`, { status: "reviewed" }],
    ["GET", "/api/admin/disputes"],
    ["POST", `/api/admin/disputes/${crypto.randomUUID()}/resolve`, { resolution: "pay_worker" }],
    ["GET", "/api/admin/unread-chats"],
    ["GET", `/api/admin/chat/${crypto.randomUUID()}`],
    ["POST", `/api/admin/chat/${crypto.randomUUID()}`, { message: "hello" }],
    ["POST", `/api/admin/payouts/${crypto.randomUUID()}/retry`],
    ["GET", "/api/gig-reports"],
    ["PATCH", `/api/gig-reports/${crypto.randomUUID()}`, { status: "resolved" }],
  ];

  it("refuses visitors and members with 401, and lets the admin through", async () => {
    const member = await signUp();
    const admin = await adminSignIn();
    for (const [method, path, json] of endpoints) {
      const visitor = await adminApi(path, { method, json });
      expect([path, visitor.status, visitor.body.error]).toEqual([path, 401, "admin_required"]);
      const asMember = await adminApi(path, { method, json, token: member.token });
      expect([path, asMember.status]).toEqual([path, 401]);
      const asAdminRes = await adminApi(path, { method, json, adminToken: admin });
      // Unknown ids answer 404 to the admin; everything else 200.
      expect([path, [200, 404].includes(asAdminRes.status)]).toEqual([path, true]);
    }
  });
});

describe("GET /api/admin/stats", () => {
  it("computes escrow and revenue from the ledger and counts from the gigs", async () => {
    const admin = await adminSignIn();
    const before = (await asAdmin(admin, "/api/admin/stats")).body;
    expect(Object.keys(before).sort()).toEqual(["activeGigs", "completedGigs", "disputedGigs", "nostrOutbox", "openGigs", "totalEscrow", "totalRevenue", "totalUsers"]);

    const open = await fundedJob(); // +10,250 escrow, +1 open, +1 user
    const active = await claimedJob(); // +10,250 escrow, +1 active, +2 users
    const done = await submittedJob(); // +2 users
    await call(`/api/gigs/${done.gigId}/approve`, done.hirer.token, "POST"); // +1 completed, +500 revenue
    const disputed = await submittedJob(); // +10,250 escrow, +2 users
    await call(`/api/gigs/${disputed.gigId}/dispute`, disputed.hirer.token, "POST", { reason: "Not delivered" });

    const after = (await asAdmin(admin, "/api/admin/stats")).body;
    expect(after.totalEscrow - before.totalEscrow).toBe(3 * 10_250);
    expect(after.totalRevenue - before.totalRevenue).toBe(500);
    expect(after.openGigs - before.openGigs).toBe(1);
    expect(after.activeGigs - before.activeGigs).toBe(1);
    expect(after.completedGigs - before.completedGigs).toBe(1);
    expect(after.disputedGigs - before.disputedGigs).toBe(1);
    expect(after.totalUsers - before.totalUsers).toBe(7);
    const ledger = await expectLedgerBalanced();
    expect(after.totalEscrow).toBe(ledger.escrow);
    expect(after.totalRevenue).toBe(ledger.fees);
    expect(open.gigId && active.gigId).toBeTruthy();

    // A deleted account is not counted.
    const leaving = await signUp();
    const mid = (await asAdmin(admin, "/api/admin/stats")).body.totalUsers;
    expect((await call("/api/user/me", leaving.token, "DELETE")).status).toBe(200);
    expect((await asAdmin(admin, "/api/admin/stats")).body.totalUsers).toBe(mid - 1);
  });
});

describe("GET /api/admin/gigs", () => {
  it("lists every gig, unpaid ones too, with the poster and the dispute reason; filters by status and type", async () => {
    const admin = await adminSignIn();
    const hirer = await signUp({ lightningAddress: "unpaid@wallet.test", displayName: "Unpaid Poster" });
    const unpaid = await postGig(hirer, { title: "Unpaid job" });
    const disputed = await submittedJob();
    await call(`/api/gigs/${disputed.gigId}/dispute`, disputed.worker.token, "POST", { reason: "The hirer keeps moving the goalposts." });
    const offer = await postGig(await signUp({ lightningAddress: "offer@wallet.test" }), { gigType: "service_offering", title: "I draw logos" });

    const all = list((await asAdmin(admin, "/api/admin/gigs")).body);
    expect(all.find((g) => g.id === unpaid.gig.id)).toMatchObject({ status: "pending_payment", poster: { displayName: "Unpaid Poster" } });
    expect(all.find((g) => g.id === disputed.gigId)).toMatchObject({
      status: "disputed",
      disputeReason: "The hirer keeps moving the goalposts.",
      disputedBy: disputed.worker.id,
    });

    const pending = list((await asAdmin(admin, "/api/admin/gigs?status=pending_payment")).body);
    expect(pending.every((g) => g.status === "pending_payment")).toBe(true);
    expect(pending.map((g) => g.id)).toContain(unpaid.gig.id);
    const offers = list((await asAdmin(admin, "/api/admin/gigs?type=service_offering&status=all")).body);
    expect(offers.every((g) => g.gigType === "service_offering")).toBe(true);
    expect(offers.map((g) => g.id)).toContain(offer.gig.id);
    expect(list((await asAdmin(admin, "/api/admin/gigs?status=disputed&type=job_request")).body).map((g) => g.id)).toContain(disputed.gigId);
    expect((await asAdmin(admin, "/api/admin/gigs?status=nonsense")).status).toBe(400);
    expect((await asAdmin(admin, "/api/admin/gigs?type=nonsense")).status).toBe(400);
  });
});

describe("deleting gigs", () => {
  it("refunds a funded gig's hirer in full, cancels it, hides it and resolves its reports", async () => {
    const admin = await adminSignIn();
    const job = await fundedJob();
    const reporter = await signUp();
    const report = await call("/api/gig-reports", reporter.token, "POST", { gigId: job.gigId, reason: "scam" });
    expect(report.status).toBe(201);

    const res = await asAdmin(admin, `/api/admin/gigs/${job.gigId}`, "DELETE");
    expect(res).toMatchObject({ status: 200, body: { success: true, id: job.gigId, refund: { amount: 10_250 } } });

    expect(await receivedBy(job.hirerAddress)).toBe(10_250);
    expect(await escrowBalance(job.gigId)).toBe(0);
    expect(await payoutsOf(job.gigId)).toMatchObject([{ purpose: "hirer_refund", amount: 10_250, status: "succeeded" }]);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "refunded", resolution: "deleted_by_admin" });
    const events = list((await call(`/api/gigs/${job.gigId}/events`, job.hirer.token)).body);
    expect(events.at(-1)).toMatchObject({ type: "deleted_by_admin", previousStatus: "open", refund: 10_250 });
    const reports = list((await asAdmin(admin, "/api/gig-reports")).body);
    expect(reports.find((r) => r.id === report.body.id)).toMatchObject({ status: "resolved", gig: { deleted: true } });
    expect(list((await asAdmin(admin, "/api/admin/gigs")).body).map((g) => g.id)).not.toContain(job.gigId);
    const notes = list((await call("/api/notifications", job.hirer.token)).body);
    expect(notes.find((n) => n.gigId === job.gigId && n.type === "gig_deleted")?.message).toMatch(/10,250 sats are being refunded/);

    // Deleted once: a second delete finds nothing and moves nothing.
    expect((await asAdmin(admin, `/api/admin/gigs/${job.gigId}`, "DELETE")).status).toBe(404);
    expect(await receivedBy(job.hirerAddress)).toBe(10_250);
    await expectLedgerBalanced();
  });

  it("refunds the hirer of a gig with work submitted or in dispute; the worker gets nothing", async () => {
    const admin = await adminSignIn();
    for (const dispute of [false, true]) {
      const job = await submittedJob();
      if (dispute) await call(`/api/gigs/${job.gigId}/dispute`, job.hirer.token, "POST", { reason: "Wrong colours" });
      expect((await asAdmin(admin, `/api/admin/gigs/${job.gigId}`, "DELETE")).body).toMatchObject({ refund: { amount: 10_250 } });
      expect(await receivedBy(`hirer${job.tag}@wallet.test`)).toBe(10_250);
      expect(await receivedBy(`worker${job.tag}@wallet.test`)).toBe(0);
      expect(await escrowBalance(job.gigId)).toBe(0);
    }
    await expectLedgerBalanced();
  });

  it("an unpaid gig is cancelled without money; its invoice paid afterwards is refunded, not lost", async () => {
    const admin = await adminSignIn();
    const tag = crypto.randomUUID().slice(0, 8);
    const hirer = await signUp({ lightningAddress: `late${tag}@wallet.test` });
    const posted = await postGig(hirer);
    const res = await asAdmin(admin, `/api/admin/gigs/${posted.gig.id}`, "DELETE");
    expect(res.body).toEqual({ success: true, id: posted.gig.id });
    expect(await payoutsOf(posted.gig.id)).toEqual([]);

    await payWithDevWallet(posted.paymentRequest!);
    expect(await receivedBy(`late${tag}@wallet.test`)).toBe(10_250);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "cancelled" });
    await expectLedgerBalanced();
  });

  it("a completed gig stays completed (the worker was paid) and is only hidden", async () => {
    const admin = await adminSignIn();
    const job = await submittedJob();
    await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST");
    expect((await asAdmin(admin, `/api/admin/gigs/${job.gigId}`, "DELETE")).body).toEqual({ success: true, id: job.gigId });
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "completed", escrowStatus: "released" });
    expect(await receivedBy(`worker${job.tag}@wallet.test`)).toBe(9_750);
    expect(await receivedBy(`hirer${job.tag}@wallet.test`)).toBe(0);
    await expectLedgerBalanced();
  });

  it("bulk deletion, by DELETE with ids and by POST bulk-delete, reports what it could not delete", async () => {
    const admin = await adminSignIn();
    const a = await fundedJob();
    const b = await fundedJob();
    const c = await fundedJob();
    const missing = crypto.randomUUID();
    const res = await asAdmin(admin, "/api/admin/gigs", "DELETE", { ids: [a.gigId, b.gigId, missing, a.gigId] });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toEqual([
      { id: a.gigId, refund: { amount: 10_250 } },
      { id: b.gigId, refund: { amount: 10_250 } },
    ]);
    expect(res.body.failed).toEqual([{ id: missing, message: "Gig not found" }]);
    expect((await asAdmin(admin, "/api/admin/gigs/bulk-delete", "POST", { ids: [c.gigId] })).body.deleted).toEqual([{ id: c.gigId, refund: { amount: 10_250 } }]);
    for (const job of [a, b, c]) expect(await receivedBy(job.hirerAddress)).toBe(10_250);
    expect((await asAdmin(admin, "/api/admin/gigs", "DELETE", { ids: [] })).status).toBe(400);
    await expectLedgerBalanced();
  });
});

describe("reports", () => {
  it("a member reports a gig they do not own; the owner cannot; a reason is required", async () => {
    const job = await fundedJob();
    const member = await signUp({ displayName: "Watchful" });
    const res = await call("/api/gig-reports", member.token, "POST", { gigId: job.gigId, reason: "spam", details: "  Posted ten times  " });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ gigId: job.gigId, reporterId: member.id, reason: "spam", details: "Posted ten times", status: "pending" });

    expect(await call("/api/gig-reports", job.hirer.token, "POST", { gigId: job.gigId, reason: "spam" })).toMatchObject({ status: 403 });
    expect(await call("/api/gig-reports", member.token, "POST", { gigId: job.gigId })).toMatchObject({ status: 400, body: { message: "Please select a reason" } });
    expect(await call("/api/gig-reports", member.token, "POST", { gigId: job.gigId, reason: "ugly" })).toMatchObject({ status: 400, body: { message: "Please select a reason" } });
    expect((await call("/api/gig-reports", member.token, "POST", { gigId: crypto.randomUUID(), reason: "spam" })).status).toBe(404);
    expect((await call("/api/gig-reports", undefined, "POST", { gigId: job.gigId, reason: "spam" })).status).toBe(401);
    // Someone else's unpaid job request is not there to report.
    const unpaid = await postGig(await signUp({ lightningAddress: "x@wallet.test" }));
    expect((await call("/api/gig-reports", member.token, "POST", { gigId: unpaid.gig.id, reason: "spam" })).status).toBe(404);
  });

  it("the admin lists reports with the gig's title and the reporter, and sets status and notes", async () => {
    const admin = await adminSignIn();
    const job = await fundedJob();
    const member = await signUp({ displayName: "Reporter Ria" });
    const { body: created } = await call("/api/gig-reports", member.token, "POST", { gigId: job.gigId, reason: "shitcoinery" });

    const reports = list((await asAdmin(admin, "/api/gig-reports")).body);
    expect(reports.find((r) => r.id === created.id)).toMatchObject({
      gigId: job.gigId,
      gig: { title: `Funded ${job.tag}`, status: "open", deleted: false },
      reporterId: member.id,
      reporter: { displayName: "Reporter Ria", username: member.username },
      reason: "shitcoinery",
      status: "pending",
      adminNotes: null,
    });

    expect(await asAdmin(admin, `/api/gig-reports/${created.id}`, "PATCH", { status: "under_review" })).toMatchObject({ status: 200, body: { status: "under_review" } });
    expect(await asAdmin(admin, `/api/gig-reports/${created.id}`, "PATCH", { adminNotes: "Asked the poster" })).toMatchObject({
      body: { status: "under_review", adminNotes: "Asked the poster" },
    });
    expect((await asAdmin(admin, "/api/gig-reports?status=under_review")).body).toEqual(expect.arrayContaining([expect.objectContaining({ id: created.id })]));
    expect((await asAdmin(admin, `/api/gig-reports/${created.id}`, "PATCH", { status: "closed" })).status).toBe(400);
    expect((await asAdmin(admin, `/api/gig-reports/${created.id}`, "PATCH", {})).status).toBe(400);
    expect((await asAdmin(admin, `/api/gig-reports/${crypto.randomUUID()}`, "PATCH", { status: "dismissed" })).status).toBe(404);
    expect((await call(`/api/gig-reports/${created.id}`, member.token, "PATCH", { status: "dismissed" })).status).toBe(401);
  });
});

describe("suggestions", () => {
  it("a member sends one (trimmed, required); the admin lists them with the sender and sets the status", async () => {
    const admin = await adminSignIn();
    const member = await signUp({ displayName: "Idea Ida" });
    const res = await call("/api/suggestions", member.token, "POST", { suggestion: "  Dark mode please  " });
    expect(res).toMatchObject({ status: 201, body: { suggestion: "Dark mode please", status: "pending" } });
    for (const suggestion of ["   ", undefined]) {
      expect(await call("/api/suggestions", member.token, "POST", { suggestion })).toMatchObject({
        status: 400,
        body: { message: "Please enter your suggestion or feature request" },
      });
    }
    expect((await call("/api/suggestions", undefined, "POST", { suggestion: "hi" })).status).toBe(401);

    const listed = list((await asAdmin(admin, "/api/admin/suggestions")).body);
    expect(listed.find((s) => s.id === res.body.id)).toMatchObject({ suggestion: "Dark mode please", status: "pending", user: { displayName: "Idea Ida", username: member.username } });
    for (const status of ["reviewed", "implemented", "rejected", "pending"]) {
      expect(await asAdmin(admin, `/api/admin/suggestions/${res.body.id}`, "PATCH", { status })).toMatchObject({ status: 200, body: { status } });
    }
    expect((await asAdmin(admin, `/api/admin/suggestions/${res.body.id}`, "PATCH", { status: "done" })).status).toBe(400);
    expect((await asAdmin(admin, `/api/admin/suggestions/${crypto.randomUUID()}`, "PATCH", { status: "reviewed" })).status).toBe(404);
  });
});

describe("chats the admin watches", () => {
  it("lists disputed gigs and mentions of @admin with unread members' messages; reading a chat marks it read", async () => {
    const admin = await adminSignIn();
    const disputed = await submittedJob();
    await call(`/api/gigs/${disputed.gigId}/dispute`, disputed.hirer.token, "POST", { reason: "Late" });
    await chatMessage(disputed.gigId, disputed.hirer.id, "This is late", "2026-01-01T10:00:00.000Z");
    await chatMessage(disputed.gigId, disputed.worker.id, "It is not", "2026-01-01T10:01:00.000Z");
    const mention = await claimedJob();
    await chatMessage(mention.gigId, mention.worker.id, "Hello", "2026-01-01T10:00:00.000Z");
    await chatMessage(mention.gigId, mention.hirer.id, "Can the @ADMIN look at this?", "2026-01-01T10:02:00.000Z");
    const quiet = await claimedJob();
    await chatMessage(quiet.gigId, quiet.worker.id, "Started", "2026-01-01T10:03:00.000Z");

    const unread = list((await asAdmin(admin, "/api/admin/unread-chats")).body);
    expect(unread.find((u) => u.gigId === disputed.gigId)).toEqual({
      gigId: disputed.gigId,
      gigTitle: "Design a logo",
      reason: "disputed",
      messageCount: 2,
      lastMessageTime: "2026-01-01T10:01:00.000Z",
    });
    expect(unread.find((u) => u.gigId === mention.gigId)).toMatchObject({ reason: "mention", messageCount: 2, lastMessageTime: "2026-01-01T10:02:00.000Z" });
    expect(unread.map((u) => u.gigId)).not.toContain(quiet.gigId);

    const chat = await asAdmin(admin, `/api/admin/chat/${disputed.gigId}`);
    expect(chat.status).toBe(200);
    expect(list(chat.body).map((m) => [m.message, m.senderType, (m.sender as Json).displayName])).toEqual([
      ["This is late", "user", "Hirer"],
      ["It is not", "user", "Worker"],
    ]);
    expect(list(chat.body)[0]).toMatchObject({ sender: { username: disputed.hirer.username }, createdAt: "2026-01-01T10:00:00.000Z" });
    let after = list((await asAdmin(admin, "/api/admin/unread-chats")).body);
    expect(after.map((u) => u.gigId)).not.toContain(disputed.gigId);
    expect(after.map((u) => u.gigId)).toContain(mention.gigId);

    // A new message makes it unread again, counting only what is new; the admin's own messages never do.
    await chatMessage(disputed.gigId, null, "The admin is looking", "2026-01-01T10:05:00.000Z");
    expect(list((await asAdmin(admin, "/api/admin/unread-chats")).body).map((u) => u.gigId)).not.toContain(disputed.gigId);
    await chatMessage(disputed.gigId, disputed.worker.id, "Thanks", "2026-01-01T10:06:00.000Z");
    after = list((await asAdmin(admin, "/api/admin/unread-chats")).body);
    expect(after.find((u) => u.gigId === disputed.gigId)).toMatchObject({ messageCount: 1, lastMessageTime: "2026-01-01T10:06:00.000Z" });

    expect((await asAdmin(admin, `/api/admin/chat/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("finds the unread chats without reading every chat: ordinary messages elsewhere add no rows read", async () => {
    const disputed = await submittedJob();
    await call(`/api/gigs/${disputed.gigId}/dispute`, disputed.hirer.token, "POST", { reason: "Late" });
    await chatMessage(disputed.gigId, disputed.hirer.id, "This is late");
    const mention = await claimedJob();
    await chatMessage(mention.gigId, mention.hirer.id, "@admin please look");
    const before = await unreadChatsMetered();

    const quiet = await claimedJob();
    for (let i = 0; i < 40; i++) await chatMessage(quiet.gigId, i % 2 ? quiet.worker.id : quiet.hirer.id, `Progress note ${i}, no admin needed`);
    const after = await unreadChatsMetered();

    expect(after.chats).toEqual(before.chats);
    expect(after.chats.map((c) => c.gigId)).toEqual(expect.arrayContaining([disputed.gigId, mention.gigId]));
    expect(after.chats.map((c) => c.gigId)).not.toContain(quiet.gigId);
    // The 40 messages add none of their own rows (the scan over every message read 3 rows each). Each listed
    // gig's messages are a range of the (gig_id, created_at) index, and ending that range may read the next
    // gig's first entry: at most one more row per listed gig, depending on where the new gig's id sorts.
    expect(after.rowsRead - before.rowsRead).toBeGreaterThanOrEqual(0);
    expect(after.rowsRead - before.rowsRead).toBeLessThanOrEqual(after.chats.length);
  });

  it("the admin posts in a gig's chat as the platform admin; the parties see it in the history", async () => {
    const admin = await adminSignIn();
    const job = await claimedJob();
    const res = await asAdmin(admin, `/api/admin/chat/${job.gigId}`, "POST", { message: "  Hello from the admin  " });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ message: "Hello from the admin", senderType: "admin", senderId: "ADMIN" });

    const history = list((await call(`/api/gigs/${job.gigId}/messages`, job.hirer.token)).body);
    expect(history.at(-1)).toMatchObject({ message: "Hello from the admin", senderType: "admin", senderId: "ADMIN" });
    const chat = list((await asAdmin(admin, `/api/admin/chat/${job.gigId}`)).body);
    expect(chat.at(-1)).toMatchObject({ message: "Hello from the admin", senderType: "admin", sender: { displayName: "Platform Admin" } });
    const notes = list((await call("/api/notifications", job.worker.token)).body);
    expect(notes.find((n) => n.gigId === job.gigId && n.type === "message")).toBeTruthy();

    for (const message of ["   ", "", undefined]) expect((await asAdmin(admin, `/api/admin/chat/${job.gigId}`, "POST", { message })).status).toBe(400);
    expect((await asAdmin(admin, `/api/admin/chat/${crypto.randomUUID()}`, "POST", { message: "hi" })).status).toBe(404);
  });
});

describe("money health", () => {
  /** A completed gig whose worker payout failed once (the wallet said no). */
  async function failedPayout() {
    const job = await submittedJob();
    const deps = makeDeps(env, () => {});
    await approveWork(deps, await findUserById(deps, job.hirer.id), job.gigId);
    const [payout] = await payoutsOf(job.gigId);
    const failing = makeDeps(env, () => {}, { devWallet: { faults: () => "fail" } });
    expect(await attemptPayout(failing, payout!.id)).toBe("failed");
    return { ...job, payoutId: payout!.id as string, address: `worker${job.tag}@wallet.test` };
  }

  it("shows the ledger check and a failed payout with its last error; retry pays it exactly once", async () => {
    const admin = await adminSignIn();
    const job = await failedPayout();
    const health = (await asAdmin(admin, "/api/admin/money")).body;
    expect(health.ledger).toMatchObject({ ok: true, problems: [] });
    const problem = list(health.payouts as Json).find((p) => p.id === job.payoutId);
    expect(problem).toMatchObject({
      gigId: job.gigId,
      gigTitle: "Design a logo",
      purpose: "worker_payout",
      amount: 9_750,
      status: "failed",
      problem: "failed",
      attempts: 1,
      recipient: { id: job.worker.id, lightningAddress: job.address },
    });
    expect(problem!.lastError).toBeTruthy();
    expect(await receivedBy(job.address)).toBe(0);

    const retried = await asAdmin(admin, `/api/admin/payouts/${job.payoutId}/retry`, "POST");
    expect(retried).toMatchObject({ status: 200, body: { id: job.payoutId, status: "succeeded" } });
    expect(await receivedBy(job.address)).toBe(9_750);
    expect((await asAdmin(admin, `/api/admin/payouts/${job.payoutId}/retry`, "POST")).status).toBe(409);
    expect(await receivedBy(job.address)).toBe(9_750);
    expect(list((await asAdmin(admin, "/api/admin/money")).body.payouts as Json).map((p) => p.id)).not.toContain(job.payoutId);
    await expectLedgerBalanced();
  });

  it("two retries at once pay once", async () => {
    const admin = await adminSignIn();
    const job = await failedPayout();
    const results = await Promise.all([1, 2, 3].map(() => asAdmin(admin, `/api/admin/payouts/${job.payoutId}/retry`, "POST")));
    expect(results.filter((r) => r.body.status === "succeeded")).toHaveLength(1);
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("a payout stuck in flight is only looked up, never paid again; a fresh one is left alone", async () => {
    const admin = await adminSignIn();
    const job = await submittedJob();
    const deps = makeDeps(env, () => {});
    await approveWork(deps, await findUserById(deps, job.hirer.id), job.gigId);
    const [payout] = await payoutsOf(job.gigId);
    const lost = makeDeps(env, () => {}, { devWallet: { faults: () => "unknown_after_paying" } });
    expect(await attemptPayout(lost, payout!.id)).toBe("in_flight");
    const address = `worker${job.tag}@wallet.test`;
    expect(await receivedBy(address)).toBe(9_750);

    // Held in doubt, with its hash, on Money Health.
    const hash = (await payoutsOf(job.gigId))[0]!.payment_hash as string;
    expect(list((await asAdmin(admin, "/api/admin/money")).body.payouts as Json).find((p) => p.id === payout!.id)).toMatchObject({ status: "in_flight", problem: "needs_look", doubtfulHashes: [hash] });

    // While an attempt holds its claim it may still be running: the admin is asked to wait.
    await statement("UPDATE payouts SET claimed_until = ? WHERE id = ?", new Date(Date.now() + 60_000).toISOString(), payout!.id).run();
    expect((await asAdmin(admin, `/api/admin/payouts/${payout!.id}/retry`, "POST")).status).toBe(409);

    // Once the claim has run out, the retry only looks the hash up: paid, so settled, not paid again.
    await statement("UPDATE payouts SET claimed_until = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), payout!.id).run();
    expect((await asAdmin(admin, `/api/admin/payouts/${payout!.id}/retry`, "POST")).body).toMatchObject({ status: "succeeded" });
    expect(await receivedBy(address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("shows a ledger problem when the books do not balance", async () => {
    const admin = await adminSignIn();
    const tx = crypto.randomUUID();
    await statement("INSERT INTO ledger_entries (tx_id, account, amount, memo) VALUES (?, 'fees', 5, 'test: unbalanced')", tx).run();
    const health = (await asAdmin(admin, "/api/admin/money")).body;
    expect(health.ledger.ok).toBe(false);
    expect(health.ledger.problems.join(" ")).toContain(tx);
    await statement("DELETE FROM ledger_entries WHERE tx_id = ?", tx).run();
    expect((await asAdmin(admin, "/api/admin/money")).body.ledger.ok).toBe(true);
  });
});


