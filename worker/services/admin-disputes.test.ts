// Disputes settled by the admin: every sat where the resolution says, reputation, a balanced ledger,
// once only.
import { describe, expect, it } from "vitest";
import { adminSignIn, adminApi, asAdmin } from "../test/admin";
import { api, call, claimedJob, submittedJob } from "../test/factories";
import { pdfTextLines } from "../test/pdf";
import { escrowBalance, expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { statement } from "../db/test-statements";

/** A 10,000 sat job in dispute (raised by the hirer): 10,250 in escrow. */
async function disputedJob(payment = 10_000) {
  const job = await submittedJob({ payment });
  const r = await call(`/api/gigs/${job.gigId}/dispute`, job.hirer.token, "POST", { reason: "The logo is not an SVG and the colours are wrong." });
  if (r.status !== 200) throw new Error(`dispute failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...job, hirerAddress: `hirer${job.tag}@wallet.test`, workerAddress: `worker${job.tag}@wallet.test` };
}

async function reputation(userId: string) {
  return statement("SELECT completed_gigs AS completed, successful_gigs AS successful FROM users WHERE id = ?", userId).first<{ completed: number; successful: number }>();
}

async function feesOf(gigId: string) {
  const tx = await statement(
    "SELECT COALESCE(SUM(amount), 0) AS fees FROM ledger_entries WHERE account = 'fees' AND tx_id IN (SELECT tx_id FROM ledger_entries WHERE account = ?)",
  `escrow:${gigId}`)
    .first<{ fees: number }>();
  return tx!.fees;
}

describe("GET /api/admin/disputes", () => {
  it("lists disputed gigs with the reason, who raised it and both parties", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    const res = await asAdmin(admin, "/api/admin/disputes");
    expect(res.status).toBe(200);
    const dispute = (res.body as unknown as Record<string, any>[]).find((d) => d.gigId === job.gigId);
    expect(dispute).toMatchObject({
      title: "Design a logo",
      payment: 10_000,
      totalCharge: 10_250,
      workerPayout: 9_750,
      disputeReason: "The logo is not an SVG and the colours are wrong.",
      disputedBy: { id: job.hirer.id, displayName: "Hirer" },
      hirer: { id: job.hirer.id, username: job.hirer.username },
      worker: { id: job.worker.id, username: job.worker.username },
    });
  });
});

describe("POST /api/admin/disputes/{gigId}/resolve", () => {
  it("shows each edit of the gig with the old and new value of what changed, who made it and whether after funding", async () => {
    const job = await claimedJob();
    // The worker rewrites the brief after the money is in: the record keeps what it said before.
    const edited = await call(`/api/gigs/${job.gigId}`, job.worker.token, "PATCH", { description: "Any logo will do, PNG is fine." });
    expect(edited.status).toBe(200);
    expect((await call(`/api/gigs/${job.gigId}`, job.worker.token, "PATCH", { title: "Design a logo" })).status).toBe(200); // no change
    expect((await call(`/api/gigs/${job.gigId}/start-work`, job.worker.token, "POST")).status).toBe(200);
    expect((await call(`/api/gigs/${job.gigId}/submit`, job.worker.token, "POST", { workSubmission: "Here it is" })).status).toBe(200);
    expect((await call(`/api/gigs/${job.gigId}/dispute`, job.hirer.token, "POST", { reason: "The brief was changed after I paid." })).status).toBe(200);

    const events = (await call(`/api/gigs/${job.gigId}/events`, job.hirer.token)).body as unknown as Record<string, unknown>[];
    expect(events.find((e) => e.type === "edited")).toMatchObject({
      changes: [{ field: "description", from: "A clean logo for a bitcoin meetup, SVG please.", to: "Any logo will do, PNG is fine." }],
    });
    const admin = await adminSignIn();
    const dispute = ((await asAdmin(admin, "/api/admin/disputes")).body as unknown as Record<string, any>[]).find((d) => d.gigId === job.gigId);
    expect(dispute!.edits).toEqual([
      {
        at: expect.any(String),
        by: { id: job.worker.id, username: job.worker.username, displayName: "Worker" },
        afterFunding: true,
        changes: [{ field: "description", from: "A clean logo for a bitcoin meetup, SVG please.", to: "Any logo will do, PNG is fine." }],
      },
    ]);
  });

  it("refund_hirer: cancelled, the hirer gets payment + fee back, the platform keeps nothing", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "refund_hirer" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, resolution: "refund_hirer", status: "cancelled", payouts: { worker: 0, hirer: 10_250 }, platformFee: 0 });

    const gig = (await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body;
    expect(gig).toMatchObject({ status: "cancelled", escrowStatus: "refunded", resolution: "refund_hirer" });
    expect(await receivedBy(job.hirerAddress)).toBe(10_250);
    expect(await receivedBy(job.workerAddress)).toBe(0);
    expect(await escrowBalance(job.gigId)).toBe(0);
    expect(await feesOf(job.gigId)).toBe(0);
    expect(await payoutsOf(job.gigId)).toMatchObject([{ purpose: "hirer_refund", amount: 10_250, status: "succeeded", recipient_id: job.hirer.id }]);
    expect(await reputation(job.worker.id)).toEqual({ completed: 1, successful: 0 });
    expect(await reputation(job.hirer.id)).toEqual({ completed: 1, successful: 1 });
    await expectLedgerBalanced();
  });

  it("pay_worker: completed, the worker gets payment − fee, the platform 2 × fee", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "pay_worker" });
    expect(res.body).toMatchObject({ status: "completed", payouts: { worker: 9_750, hirer: 0 }, platformFee: 500 });

    const gig = (await call(`/api/gigs/${job.gigId}`, job.worker.token)).body;
    expect(gig).toMatchObject({ status: "completed", escrowStatus: "released", resolution: "pay_worker" });
    expect(await receivedBy(job.workerAddress)).toBe(9_750);
    expect(await receivedBy(job.hirerAddress)).toBe(0);
    expect(await escrowBalance(job.gigId)).toBe(0);
    expect(await feesOf(job.gigId)).toBe(500);
    expect(await payoutsOf(job.gigId)).toMatchObject([{ purpose: "worker_payout", amount: 9_750, status: "succeeded" }]);
    expect(await reputation(job.worker.id)).toEqual({ completed: 1, successful: 1 });
    expect(await reputation(job.hirer.id)).toEqual({ completed: 1, successful: 1 });
    await expectLedgerBalanced();
  });

  it("split at 30 %: the worker 30 % of payment − fee, the hirer the rest, the platform 2 × fee", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 30 });
    // payment − fee = 9,750: worker floor(9,750 × 0.3) = 2,925, hirer 6,825; 2,925 + 6,825 + 500 = 10,250.
    expect(res.body).toMatchObject({ status: "completed", resolution: "split", payouts: { worker: 2_925, hirer: 6_825 }, platformFee: 500 });

    expect(await receivedBy(job.workerAddress)).toBe(2_925);
    expect(await receivedBy(job.hirerAddress)).toBe(6_825);
    expect(await escrowBalance(job.gigId)).toBe(0);
    expect(await feesOf(job.gigId)).toBe(500);
    const payouts = await payoutsOf(job.gigId);
    expect(payouts.map((p) => [p.purpose, p.amount, p.status]).sort()).toEqual([
      ["hirer_refund", 6_825, "succeeded"],
      ["worker_payout", 2_925, "succeeded"],
    ]);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "completed", escrowStatus: "released", resolution: "split" });
    // The receipt says what each of them got.
    const receipt = await pdfTextLines(await (await api(`/api/gigs/${job.gigId}/receipt`, { token: job.worker.token })).arrayBuffer());
    expect(receipt).toEqual(expect.arrayContaining(["Returned to hirer (dispute settled by the admin): 6,825 sats", "Paid to worker: 2,925 sats"]));
    // Under half to the worker: not a successful gig for the worker.
    expect(await reputation(job.worker.id)).toEqual({ completed: 1, successful: 0 });
    expect(await reputation(job.hirer.id)).toEqual({ completed: 1, successful: 1 });
    await expectLedgerBalanced();
  });

  it("a split's two payouts may spend on routing together at most what the gig earned", async () => {
    // A 10-sat gig earns 2 sats (fee 1 per side): each half of the split may route for at most 1.
    const job = await disputedJob(10);
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 50 })).status).toBe(200);
    const payouts = await payoutsOf(job.gigId);
    expect(payouts.map((p) => [p.purpose, p.fee_cap]).sort()).toEqual([
      ["hirer_refund", 1],
      ["worker_payout", 1],
    ]);
    await expectLedgerBalanced();
  });

  it("split keeps every sat with odd amounts and at 0 % and 100 %", async () => {
    const admin = await adminSignIn();
    for (const [payment, share, worker, hirer] of [
      [777, 33, 249, 508], // fee 20: 757 → 249 + 508; 249 + 508 + 40 = 797
      [10_000, 0, 0, 9_750],
      [10_000, 100, 9_750, 0],
    ] as const) {
      const job = await disputedJob(payment);
      const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: share });
      expect(res.body.payouts).toEqual({ worker, hirer });
      expect(await receivedBy(job.workerAddress)).toBe(worker);
      expect(await receivedBy(job.hirerAddress)).toBe(hirer);
      expect(await escrowBalance(job.gigId)).toBe(0);
      expect(await reputation(job.worker.id)).toEqual({ completed: 1, successful: share >= 50 ? 1 : 0 });
    }
    await expectLedgerBalanced();
  });

  it("settles a dispute once: a second resolution, of any kind, is refused with 409 and moves nothing", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "pay_worker" })).status).toBe(200);
    for (const body of [{ resolution: "pay_worker" }, { resolution: "refund_hirer" }, { resolution: "split", workerSharePercent: 50 }]) {
      const again = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", body);
      expect(again.status).toBe(409);
    }
    expect(await receivedBy(job.workerAddress)).toBe(9_750);
    expect(await receivedBy(job.hirerAddress)).toBe(0);
    expect(await payoutsOf(job.gigId)).toHaveLength(1);
    await expectLedgerBalanced();
  });

  it("two resolutions racing: exactly one wins", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    const results = await Promise.all([
      asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "pay_worker" }),
      asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "refund_hirer" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await receivedBy(job.workerAddress)) + (await receivedBy(job.hirerAddress))).toBeGreaterThan(0);
    expect(await payoutsOf(job.gigId)).toHaveLength(1);
    expect(await escrowBalance(job.gigId)).toBe(0);
    await expectLedgerBalanced();
  });

  it("tells both parties and records the event", async () => {
    const job = await disputedJob();
    const admin = await adminSignIn();
    await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 60 });
    for (const member of [job.hirer, job.worker]) {
      const list = (await call("/api/notifications", member.token)).body as unknown as { type: string; title: string; gigId: string }[];
      expect(list.find((n) => n.gigId === job.gigId && n.type === "dispute_resolved")).toMatchObject({ title: "Dispute Resolved" });
    }
    const events = (await call(`/api/gigs/${job.gigId}/events`, job.worker.token)).body as unknown as { type: string; resolution?: string }[];
    expect(events.at(-1)).toMatchObject({ type: "dispute_resolved", resolution: "split", workerSharePercent: 60 });
  });

  it("refuses what is not a dispute (409), an unknown gig (404) and bad input (400)", async () => {
    const job = await submittedJob();
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "pay_worker" })).status).toBe(409);
    expect((await asAdmin(admin, `/api/admin/disputes/${crypto.randomUUID()}/resolve`, "POST", { resolution: "pay_worker" })).status).toBe(404);
    const disputed = await disputedJob();
    for (const body of [{}, { resolution: "pay_everyone" }, { resolution: "split" }, { resolution: "split", workerSharePercent: 101 }, { resolution: "split", workerSharePercent: 12.5 }]) {
      const res = await asAdmin(admin, `/api/admin/disputes/${disputed.gigId}/resolve`, "POST", body);
      expect(res.status).toBe(400);
    }
    expect(await escrowBalance(disputed.gigId)).toBe(10_250);
  });

  it("is for the admin only: a party, a member and a visitor are refused", async () => {
    const job = await disputedJob();
    for (const token of [job.hirer.token, job.worker.token, undefined]) {
      const res = await adminApi(`/api/admin/disputes/${job.gigId}/resolve`, { method: "POST", token, json: { resolution: "refund_hirer" } });
      expect(res.status).toBe(401);
      expect((await adminApi("/api/admin/disputes", { token })).status).toBe(401);
    }
    expect(await escrowBalance(job.gigId)).toBe(10_250);
  });
});
