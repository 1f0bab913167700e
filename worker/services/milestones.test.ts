// Milestones (issue 28): a job paid step by step, each milestone its own escrow, approval, payout and dispute.
// Every scenario is driven through the API as the hirer, the worker and the admin would, and ends with the
// ledger's invariants (checkLedger: each milestone's escrow holds its total charge while funded, 0 otherwise).
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { splitPayouts } from "../../domain/fees";
import { adminSignIn, asAdmin } from "../test/admin";
import { approveInterest, call, payWithDevWallet, signUp, type Json, type Member } from "../test/factories";
import { approve, deliver, dispute, disputeSecond, fund, fundInvoice, gigOf, hirerAndWorker, ok, plannedJob, postPlanned, type Job } from "../test/milestones";
import { expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { batch, statement } from "../db/test-statements";
import { WAITING_FOR_FUNDING } from "./gig-actions";

/** Each milestone's step as the gig details show it. */
const steps = async (job: Job) => ((await gigOf(job)).milestones as Json[]).map((m) => m.step);

/** The gig's payouts as [purpose, milestone, amount, status], in milestone order. */
async function payoutRows(gigId: string) {
  const rows = await payoutsOf(gigId);
  return rows
    .map((p) => [p.purpose, p.milestone, p.amount, p.status] as [string, number, number, string])
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
}

/** Every ledger amount posted to milestone `n`'s escrow account, in order. */
async function escrowMoves(gigId: string, n: number) {
  const rows = await statement("SELECT amount FROM ledger_entries WHERE account = ? ORDER BY rowid", `escrow:${gigId}:${n}`).all<{ amount: number }>();
  return rows.results.map((r) => r.amount);
}

async function notificationsOf(member: Member, gigId: string) {
  const list = ok(await call("/api/notifications", member.token), "notifications") as unknown as { type: string; title: string; message: string; gigId: string | null }[];
  return list.filter((n) => n.gigId === gigId);
}

async function reputation(member: Member) {
  const me = ok(await call("/api/user/me", member.token), "me");
  return { completed: me.completedGigs as number, successful: me.successfulGigs as number };
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe("a three-milestone job from posting to completion", () => {
  it("funds, works, approves and pays each milestone on its own; the gig completes once, with the last", async () => {
    const { job, posted } = await postPlanned();
    // Posting answers the invoice of milestone 1 and its fee only.
    expect(posted.totalCharge).toBe(10_250);
    expect(posted.gig).toMatchObject({ status: "pending_payment", payment: 60_000, currentMilestone: 1, milestoneCount: 3 });
    expect(ok(await payWithDevWallet(posted.paymentRequest), "pay")).toMatchObject({ outcome: "funded" });

    let gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "open", escrowStatus: "funded", currentMilestone: 1 });
    expect(gig.milestones).toMatchObject([
      { number: 1, title: "Wireframes", amount: 10_000, escrow: "funded", step: "funded", current: true, totalCharge: 10_250, workerPayout: 9_750 },
      { number: 2, title: "Design", amount: 20_000, escrow: "unfunded", step: "unfunded", current: false, totalCharge: 20_500 },
      { number: 3, title: "Build", amount: 30_000, escrow: "unfunded", step: "unfunded", current: false, totalCharge: 30_750 },
    ]);
    expect(await reputation(job.hirer)).toEqual({ completed: 0, successful: 0 });

    await approveInterest(job.gigId, job.hirer, job.worker);
    ok(await call(`/api/gigs/${job.gigId}/claim`, job.worker.token, "POST"), "claim");
    await deliver(job, 1);
    expect(await steps(job)).toEqual(["submitted", "unfunded", "unfunded"]);
    await approve(job, 1);

    // Milestone 1 is paid at once; the gig is back to claimed, on milestone 2, waiting for its funding.
    expect(await payoutRows(job.gigId)).toEqual([["worker_payout", 1, 9_750, "succeeded"]]);
    expect(await receivedBy(job.workerAddress)).toBe(9_750);
    gig = await gigOf(job, job.worker);
    expect(gig).toMatchObject({ status: "claimed", currentMilestone: 2, escrowStatus: "pending", workSubmission: null });
    expect(gig.milestones.map((m: Json) => [m.step, m.current])).toEqual([["paid", false], ["unfunded", true], ["unfunded", false]]);
    const approvedNote = (await notificationsOf(job.worker, job.gigId)).find((n) => n.type === "approved");
    expect(approvedNote?.message).toBe(
      'Your work on "Build a shop" (milestone 1 of 3, "Wireframes") was approved. Payment is on its way to your Lightning address. Milestone 2 is waiting for funding.',
    );
    // Not completed yet: nobody's record counts it.
    expect(await reputation(job.worker)).toEqual({ completed: 0, successful: 0 });

    // The worker cannot start an unfunded milestone, by either route.
    for (const path of ["start-work", "milestones/2/start-work"]) {
      const start = await call(`/api/gigs/${job.gigId}/${path}`, job.worker.token, "POST");
      expect(start).toMatchObject({ status: 409, body: { message: WAITING_FOR_FUNDING } });
    }
    // Milestones are funded in order.
    expect(await fundInvoice(job, 3)).toMatchObject({ status: 409, body: { message: "Fund milestone 2 first" } });
    // Only the hirer funds.
    expect((await call(`/api/gigs/${job.gigId}/milestones/2/fund`, job.worker.token, "POST")).status).toBe(403);

    const first = ok(await fundInvoice(job, 2), "fund 2");
    expect(first).toMatchObject({ totalCharge: 20_500, milestone: 2, paymentRequest: expect.stringMatching(/^lnbcrt/) });
    const again = ok(await fundInvoice(job, 2), "fund 2 again");
    expect(again).toEqual(first);
    expect(await statement("SELECT COUNT(*) AS n FROM invoices WHERE gig_id = ? AND milestone = 2", job.gigId).first("n")).toBe(1);
    // The hirer sees the invoice on the milestone; the worker sees it awaits payment, without the invoice.
    expect((await gigOf(job)).milestones[1]).toMatchObject({ step: "awaiting_payment", paymentRequest: first.paymentRequest });
    expect((await gigOf(job, job.worker)).milestones[1]).toMatchObject({ step: "awaiting_payment", paymentRequest: null });

    expect(ok(await payWithDevWallet(first.paymentRequest), "pay 2")).toMatchObject({ outcome: "funded" });
    gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "claimed", currentMilestone: 2, escrowStatus: "funded" });
    expect(gig.milestones[1]).toMatchObject({ escrow: "funded", step: "funded", paymentRequest: null });
    expect((await notificationsOf(job.worker, job.gigId)).find((n) => n.title === "Milestone Funded")?.message).toBe(
      'The hirer funded the next step of "Build a shop" (milestone 2 of 3, "Design").',
    );
    // A funded milestone cannot be funded again.
    expect((await fundInvoice(job, 2)).status).toBe(409);

    // Milestone 2: a revision, then approval.
    await deliver(job, 2);
    const revise = await call(`/api/gigs/${job.gigId}/milestones/2/request-revision`, job.hirer.token, "POST", { note: "Darker orange, please." });
    expect(revise.status).toBe(200);
    expect((await gigOf(job)).milestones[1]).toMatchObject({ step: "needs_revision", current: true });
    expect((await notificationsOf(job.worker, job.gigId)).find((n) => n.type === "revision_requested")?.message).toBe(
      'The hirer asked for changes to "Build a shop" (milestone 2 of 3, "Design"): Darker orange, please.',
    );
    ok(await call(`/api/gigs/${job.gigId}/milestones/2/submit`, job.worker.token, "POST", { workSubmission: "Darker now." }), "resubmit 2");
    expect((await notificationsOf(job.hirer, job.gigId)).filter((n) => n.type === "work_submitted").map((n) => n.message)).toContain(
      'Work for "Build a shop" (milestone 2 of 3, "Design") was submitted. Please review it.',
    );
    await approve(job, 2);
    expect(await gigOf(job)).toMatchObject({ status: "claimed", currentMilestone: 3, escrowStatus: "pending" });

    // Milestone 3, the last: its approval completes the gig.
    await fund(job, 3);
    await deliver(job, 3);
    await approve(job, 3);
    gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "completed", escrowStatus: "released", currentMilestone: 3 });
    expect(gig.milestones.map((m: Json) => m.step)).toEqual(["paid", "paid", "paid"]);
    expect(await payoutRows(job.gigId)).toEqual([
      ["worker_payout", 1, 9_750, "succeeded"],
      ["worker_payout", 2, 19_500, "succeeded"],
      ["worker_payout", 3, 29_250, "succeeded"],
    ]);
    expect(await receivedBy(job.workerAddress)).toBe(58_500);
    expect(await receivedBy(job.hirerAddress)).toBe(0);
    // One gig for each record, not one per milestone.
    expect(await reputation(job.worker)).toEqual({ completed: 1, successful: 1 });
    expect(await reputation(job.hirer)).toEqual({ completed: 1, successful: 1 });

    // Each milestone's own escrow: its total charge in, then out; the gig's own account unused.
    expect(await escrowMoves(job.gigId, 1)).toEqual([10_250, -10_250]);
    expect(await escrowMoves(job.gigId, 2)).toEqual([20_500, -20_500]);
    expect(await escrowMoves(job.gigId, 3)).toEqual([30_750, -30_750]);
    expect(await statement("SELECT COUNT(*) AS n FROM ledger_entries WHERE account = ?", `escrow:${job.gigId}`).first("n")).toBe(0);
    const events = ok(await call(`/api/gigs/${job.gigId}/events`, job.worker.token), "events") as unknown as { type: string }[];
    expect(events.filter((e) => e.type === "approved")).toHaveLength(3);
    await expectLedgerBalanced();
  });
});

/** A service offering in two milestones (3,000 and 5,000 sats), posted by `worker`. */
async function postTwoRoundOffer(worker: Member) {
  return ok(
    await call("/api/gigs", worker.token, "POST", {
      gigType: "service_offering",
      title: "Logo in two rounds",
      description: "Sketches first, then the final logo in SVG.",
      category: "Design",
      payment: 8_000,
      timeframe: 7,
      milestones: [
        { title: "Sketches", amount: 3_000 },
        { title: "Final logo", amount: 5_000 },
      ],
    }),
    "post offer",
  );
}

describe("a service offering paid in milestones", () => {
  it("hiring invoices milestone 1 and its fee; the rest is funded and paid step by step", async () => {
    const members = await hirerAndWorker();
    const { hirer, worker } = members;
    const offer = await postTwoRoundOffer(worker);
    expect(offer).toMatchObject({ paymentRequest: null, gig: { status: "open", milestoneCount: 2 } });
    const job: Job = { ...members, gigId: offer.gig.id };
    await approveInterest(job.gigId, worker, hirer);
    const hire = ok(await call(`/api/gigs/${job.gigId}/claim`, hirer.token, "POST"), "hire");
    expect(hire).toMatchObject({ totalCharge: 3_075, gig: { status: "pending_payment", hirerId: hirer.id } });
    // Nothing but milestone 1 can be funded before the hire is paid.
    expect((await fundInvoice(job, 2)).status).toBe(409);
    expect(ok(await payWithDevWallet(hire.paymentRequest), "pay hire")).toMatchObject({ outcome: "funded" });
    expect(await gigOf(job)).toMatchObject({ status: "claimed", currentMilestone: 1, escrowStatus: "funded" });

    await deliver(job, 1);
    await approve(job, 1);
    expect((await fund(job, 2)).totalCharge).toBe(5_125);
    await deliver(job, 2);
    await approve(job, 2);
    expect(await gigOf(job)).toMatchObject({ status: "completed" });
    expect(await payoutRows(job.gigId)).toEqual([
      ["worker_payout", 1, 2_925, "succeeded"],
      ["worker_payout", 2, 4_875, "succeeded"],
    ]);
    expect(await escrowMoves(job.gigId, 1)).toEqual([3_075, -3_075]);
    expect(await escrowMoves(job.gigId, 2)).toEqual([5_125, -5_125]);
    await expectLedgerBalanced();
  });
});

describe("acting on a milestone that is not the current one", () => {
  it("answers 409 for another milestone, 404 for one that does not exist, and changes nothing", async () => {
    const job = await plannedJob();
    await deliver(job, 1);
    await approve(job, 1);
    await fund(job, 2);
    await deliver(job, 2);

    for (const [n, path, who, body] of [
      [3, "approve", job.hirer, undefined],
      [1, "approve", job.hirer, undefined],
      [3, "request-revision", job.hirer, { note: "More." }],
      [3, "dispute", job.worker, { reason: "Unpaid." }],
      [3, "submit", job.worker, { workSubmission: "Early." }],
      [3, "start-work", job.worker, undefined],
    ] as const) {
      const r = await call(`/api/gigs/${job.gigId}/milestones/${n}/${path}`, who.token, "POST", body);
      expect([n, path, r.status]).toEqual([n, path, 409]);
    }
    expect((await call(`/api/gigs/${job.gigId}/milestones/3/approve`, job.hirer.token, "POST")).body.message).toBe(
      "Milestone 3 is not the current milestone (milestone 2 is)",
    );
    for (const n of ["4", "0", "x"]) {
      expect((await call(`/api/gigs/${job.gigId}/milestones/${n}/approve`, job.hirer.token, "POST")).status).toBe(404);
    }
    expect((await call(`/api/gigs/${job.gigId}/milestones/7/fund`, job.hirer.token, "POST")).status).toBe(404);

    expect(await gigOf(job)).toMatchObject({ status: "work_submitted", currentMilestone: 2 });
    expect(await payoutRows(job.gigId)).toEqual([["worker_payout", 1, 9_750, "succeeded"]]);
    // The right milestone still works.
    await approve(job, 2);
    expect(await gigOf(job)).toMatchObject({ status: "claimed", currentMilestone: 3 });
    await expectLedgerBalanced();
  });
});

describe("cancelling a job paid in milestones", () => {
  it("refunds every funded milestone not yet started in full; a paid milestone stays paid", async () => {
    const job = await plannedJob();
    await deliver(job, 1);
    await approve(job, 1);
    await fund(job, 2);
    await fund(job, 3);
    expect(await gigOf(job)).toMatchObject({ status: "claimed", currentMilestone: 2 });
    expect(await steps(job)).toEqual(["paid", "funded", "funded"]);

    const res = await call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST");
    expect(res).toMatchObject({ status: 200, body: { refund: { amount: 20_500 + 30_750 } } });

    const gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "cancelled", escrowStatus: "refunded" });
    expect(gig.milestones.map((m: Json) => [m.step, m.resolution])).toEqual([
      ["paid", "approved"],
      ["refunded", "cancelled"],
      ["refunded", "cancelled"],
    ]);
    expect(await payoutRows(job.gigId)).toEqual([
      ["worker_payout", 1, 9_750, "succeeded"],
      ["hirer_refund", 2, 20_500, "succeeded"],
      ["hirer_refund", 3, 30_750, "succeeded"],
    ]);
    expect(await receivedBy(job.hirerAddress)).toBe(51_250);
    expect(await receivedBy(job.workerAddress)).toBe(9_750);
    expect(await escrowMoves(job.gigId, 2)).toEqual([20_500, -20_500]);
    expect(await escrowMoves(job.gigId, 3)).toEqual([30_750, -30_750]);
    expect((await notificationsOf(job.worker, job.gigId)).find((n) => n.type === "cancelled")?.message).toBe('"Build a shop" was cancelled.');
    // A cancelled gig takes no more funding.
    expect((await fundInvoice(job, 3)).status).toBe(409);
    await expectLedgerBalanced();
  });

  it("a job request still open (no worker yet) with two milestones funded early refunds both in full", async () => {
    const { job, posted } = await postPlanned();
    ok(await payWithDevWallet(posted.paymentRequest), "pay 1");
    await fund(job, 2);
    expect(await steps(job)).toEqual(["funded", "funded", "unfunded"]);
    expect(await call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST")).toMatchObject({ status: 200, body: { refund: { amount: 30_750 } } });
    expect(await steps(job)).toEqual(["refunded", "refunded", "unfunded"]);
    expect(await payoutRows(job.gigId)).toEqual([
      ["hirer_refund", 1, 10_250, "succeeded"],
      ["hirer_refund", 2, 20_500, "succeeded"],
    ]);
    await expectLedgerBalanced();
  });

  it("a started milestone cannot be cancelled", async () => {
    const job = await plannedJob();
    ok(await call(`/api/gigs/${job.gigId}/milestones/1/start-work`, job.worker.token, "POST"), "start");
    expect((await call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST")).status).toBe(409);
    expect(await steps(job)).toEqual(["in_progress", "unfunded", "unfunded"]);
    await expectLedgerBalanced();
  });
});

describe("disputes per milestone", () => {
  /** Milestone 1 approved and paid, milestone 2 funded, delivered and disputed by the hirer; milestone 3 funded or not. */
  async function disputedSecond(fundThird: boolean) {
    const job = await plannedJob();
    await disputeSecond(job, { fundThird });
    expect((await gigOf(job)).milestones[1]).toMatchObject({ step: "disputed", current: true });
    expect((await notificationsOf(job.worker, job.gigId)).find((n) => n.type === "disputed")?.message).toBe(
      'A dispute was raised on "Build a shop" (milestone 2 of 3, "Design"). An admin will review it.',
    );
    return job;
  }

  it("the admin's list shows which milestone is disputed, its escrow, and what later milestones hold", async () => {
    const job = await disputedSecond(true);
    const admin = await adminSignIn();
    const list = ok(await asAdmin(admin, "/api/admin/disputes"), "disputes") as unknown as Json[];
    expect(list.find((d) => d.gigId === job.gigId)).toMatchObject({
      milestone: { number: 2, count: 3, title: "Design", amount: 20_000, escrow: 20_500, laterFunded: 30_750 },
      payment: 20_000,
      totalCharge: 20_500,
      workerPayout: 19_500,
      platformFee: 500,
    });
  });

  for (const fundThird of [false, true]) {
    it(`a split of milestone 2 without ending the gig goes on to milestone 3 (${fundThird ? "funded" : "unfunded"}), milestone 1 stays paid`, async () => {
      const job = await disputedSecond(fundThird);
      const admin = await adminSignIn();
      const split = splitPayouts(20_000, 50);
      expect(split).toMatchObject({ worker: 9_750, hirer: 9_750, platform: 1_000 });
      const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 50 });
      expect(res).toMatchObject({ status: 200, body: { status: "claimed", milestone: 2, payouts: { worker: split.worker, hirer: split.hirer }, platformFee: split.platform } });

      const gig = await gigOf(job);
      expect(gig).toMatchObject({ status: "claimed", currentMilestone: 3, escrowStatus: fundThird ? "funded" : "pending", disputeReason: null });
      expect(gig.milestones.map((m: Json) => [m.escrow, m.step])).toEqual([
        ["released", "paid"],
        ["split", "split"],
        fundThird ? ["funded", "funded"] : ["unfunded", "unfunded"],
      ]);
      expect(await payoutRows(job.gigId)).toEqual([
        ["worker_payout", 1, 9_750, "succeeded"],
        ["hirer_refund", 2, split.hirer, "succeeded"],
        ["worker_payout", 2, split.worker, "succeeded"],
      ]);
      expect(await escrowMoves(job.gigId, 2)).toEqual([20_500, -20_500]);
      expect(await escrowMoves(job.gigId, 3)).toEqual(fundThird ? [30_750] : []);
      expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "dispute_resolved")?.message).toBe(
        `The admin settled the dispute on "Build a shop": the escrow (milestone 2 of 3, "Design") is split: 9,750 sats come back to you.`,
      );
      // The gig is not over: no record counts it yet, and the work goes on.
      expect(await reputation(job.worker)).toEqual({ completed: 0, successful: 0 });
      if (!fundThird) {
        expect((await call(`/api/gigs/${job.gigId}/start-work`, job.worker.token, "POST")).status).toBe(409);
        await fund(job, 3);
      }
      await deliver(job, 3);
      await approve(job, 3);
      expect(await gigOf(job)).toMatchObject({ status: "completed" });
      expect(await reputation(job.worker)).toEqual({ completed: 1, successful: 1 });
      expect(await reputation(job.hirer)).toEqual({ completed: 1, successful: 1 });
      await expectLedgerBalanced();
    });
  }

  it("ending the gig at milestone 2 refunds the funded milestone 3 in full; completed, since the worker was paid", async () => {
    const job = await disputedSecond(true);
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 50, endGig: true });
    expect(res).toMatchObject({ status: 200, body: { status: "completed", milestone: 2, payouts: { worker: 9_750, hirer: 9_750 + 30_750 } } });

    const gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "completed", escrowStatus: "released", resolution: "split" });
    expect(gig.milestones.map((m: Json) => m.step)).toEqual(["paid", "split", "refunded"]);
    expect(await payoutRows(job.gigId)).toEqual([
      ["worker_payout", 1, 9_750, "succeeded"],
      ["hirer_refund", 2, 9_750, "succeeded"],
      ["worker_payout", 2, 9_750, "succeeded"],
      ["hirer_refund", 3, 30_750, "succeeded"],
    ]);
    expect(await receivedBy(job.hirerAddress)).toBe(40_500);
    expect(await escrowMoves(job.gigId, 3)).toEqual([30_750, -30_750]);
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "dispute_resolved")?.message).toMatch(
      /The gig ends here: 30,750 sats of later funded milestones come back to the hirer\.$/,
    );
    expect(await reputation(job.worker)).toEqual({ completed: 1, successful: 1 });
    expect(await reputation(job.hirer)).toEqual({ completed: 1, successful: 1 });
    await expectLedgerBalanced();
  });

  it("refund_hirer on milestone 2 ending the gig: completed all the same, as milestone 1 was paid", async () => {
    const job = await disputedSecond(true);
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "refund_hirer", endGig: true });
    expect(res).toMatchObject({ status: 200, body: { status: "completed", payouts: { worker: 0, hirer: 20_500 + 30_750 }, platformFee: 0 } });
    expect(await steps(job)).toEqual(["paid", "refunded", "refunded"]);
    expect(await receivedBy(job.workerAddress)).toBe(9_750);
    expect(await receivedBy(job.hirerAddress)).toBe(51_250);
    await expectLedgerBalanced();
  });

  it("refund_hirer on milestone 1 of an unpaid plan, ending the gig: cancelled, every funded milestone back", async () => {
    const job = await plannedJob();
    await fund(job, 2);
    await deliver(job, 1);
    await dispute(job, 1);
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "refund_hirer", endGig: true });
    expect(res).toMatchObject({ status: 200, body: { status: "cancelled", milestone: 1, payouts: { worker: 0, hirer: 10_250 + 20_500 }, platformFee: 0 } });
    const gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "cancelled", escrowStatus: "refunded", resolution: "refund_hirer" });
    expect(gig.milestones.map((m: Json) => m.step)).toEqual(["refunded", "refunded", "unfunded"]);
    expect(await payoutRows(job.gigId)).toEqual([
      ["hirer_refund", 1, 10_250, "succeeded"],
      ["hirer_refund", 2, 20_500, "succeeded"],
    ]);
    expect(await receivedBy(job.hirerAddress)).toBe(30_750);
    expect(await receivedBy(job.workerAddress)).toBe(0);
    // Ended by a refund: the worker's record counts it, not as a success.
    expect(await reputation(job.worker)).toEqual({ completed: 1, successful: 0 });
    await expectLedgerBalanced();
  });

  it("pay_worker on the last milestone completes the gig as an approval would", async () => {
    const job = await plannedJob([
      { title: "Half", amount: 5_000 },
      { title: "Other half", amount: 5_000 },
    ]);
    await disputeSecond(job);
    const admin = await adminSignIn();
    const res = await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "pay_worker" });
    expect(res).toMatchObject({ status: 200, body: { status: "completed", milestone: 2, payouts: { worker: 4_875, hirer: 0 } } });
    expect(await gigOf(job)).toMatchObject({ status: "completed", resolution: "pay_worker" });
    expect(await payoutRows(job.gigId)).toEqual([
      ["worker_payout", 1, 4_875, "succeeded"],
      ["worker_payout", 2, 4_875, "succeeded"],
    ]);
    expect(await reputation(job.worker)).toEqual({ completed: 1, successful: 1 });
    expect(await reputation(job.hirer)).toEqual({ completed: 1, successful: 1 });
    await expectLedgerBalanced();
  });
});

describe("auto-release of a milestone", () => {
  it("releases only the submitted milestone after the silent days and moves on to the next", async () => {
    const job = await plannedJob();
    await fund(job, 2);
    await deliver(job, 1);
    // The hirer is reminded 3 days before, of this milestone.
    await statement("UPDATE gigs SET submitted_at = ? WHERE id = ?", ago(11.5 * 86_400_000), job.gigId).run();
    await runCron();
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "auto_release_reminder")?.message).toBe(
      'Payment for "Build a shop" (milestone 1 of 3, "Wireframes") will be released automatically in 3 days unless you approve, ask for a revision or raise a dispute.',
    );
    await statement("UPDATE gigs SET submitted_at = ? WHERE id = ?", ago(15 * 86_400_000), job.gigId).run();
    await runCron();
    await runCron(); // twice is harmless

    const gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "claimed", currentMilestone: 2, escrowStatus: "funded", submittedAt: null });
    expect(gig.milestones.map((m: Json) => [m.step, m.resolution])).toEqual([
      ["paid", "auto_released"],
      ["funded", null],
      ["unfunded", null],
    ]);
    expect(await payoutRows(job.gigId)).toEqual([["worker_payout", 1, 9_750, "succeeded"]]);
    expect(await escrowMoves(job.gigId, 2)).toEqual([20_500]);
    const hirerNote = (await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "auto_released");
    expect(hirerNote?.message).toBe('You did not answer the submission for "Build a shop" (milestone 1 of 3, "Wireframes"), so payment was released to the worker.');
    expect((await notificationsOf(job.worker, job.gigId)).find((n) => n.title === "Payment Released")?.message).toBe(
      '"Build a shop" (milestone 1 of 3, "Wireframes") was released automatically. Payment is on its way.',
    );
    expect(await reputation(job.worker)).toEqual({ completed: 0, successful: 0 });

    // The next milestone is worked on afresh: its own submission and its own clock.
    await deliver(job, 2);
    await runCron();
    expect(await gigOf(job)).toMatchObject({ status: "work_submitted", currentMilestone: 2 });
    await expectLedgerBalanced();
  });
});

describe("changing the plan", () => {
  it("refuses a proposal numbered from a milestone that was funded since the proposer's screen read the plan", async () => {
    const job = await plannedJob();
    await fund(job, 2);
    // The worker's screen still showed milestone 2 as changeable.
    const stale = await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", { fromNumber: 2, milestones: [{ title: "All the rest", amount: 50_000 }] });
    expect(stale).toMatchObject({ status: 409, body: { error: "milestone_funded" } });
    expect((await gigOf(job)).milestoneProposal).toBeNull();
    const fresh = await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", { fromNumber: 3, milestones: [{ title: "All the rest", amount: 30_000 }] });
    expect(fresh.status).toBe(201);
    await expectLedgerBalanced();
  });

  it("the hirer proposes, the worker accepts: unfunded milestones replaced, funded ones unchanged, payment the new sum", async () => {
    const job = await plannedJob();
    const proposal = await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.hirer.token, "POST", {
      milestones: [
        { title: "Design", amount: 25_000 },
        { title: "Build", amount: 30_000 },
        { title: "Launch", amount: 5_000, days: 3 },
      ],
    });
    expect(proposal).toMatchObject({ status: 201, body: { fromNumber: 2, status: "pending" } });
    const id = proposal.body.id as string;
    expect((await gigOf(job, job.worker)).milestoneProposal).toMatchObject({ id, proposerId: job.hirer.id, fromNumber: 2 });
    expect((await notificationsOf(job.worker, job.gigId)).find((n) => n.type === "milestones_proposed")?.message).toBe(
      'A change of the milestones of "Build a shop" from milestone 2 on is waiting for your answer.',
    );

    // One pending change at a time; the proposer does not answer their own.
    expect(await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", { milestones: [{ title: "X", amount: 1_000 }] })).toMatchObject({
      status: 409,
      body: { error: "proposal_pending" },
    });
    expect((await call(`/api/gigs/${job.gigId}/milestone-proposals/${id}/accept`, job.hirer.token, "POST")).status).toBe(403);
    expect((await call(`/api/gigs/${job.gigId}/milestone-proposals/${id}/withdraw`, job.worker.token, "POST")).status).toBe(403);
    expect((await call(`/api/gigs/${job.gigId}/milestone-proposals/${id}/accept`, (await signUp()).token, "POST")).status).toBe(403);

    const accepted = await call(`/api/gigs/${job.gigId}/milestone-proposals/${id}/accept`, job.worker.token, "POST");
    expect(accepted).toMatchObject({ status: 200, body: { status: "accepted" } });
    const gig = await gigOf(job);
    expect(gig).toMatchObject({ payment: 70_000, milestoneCount: 4, currentMilestone: 1, status: "claimed", milestoneProposal: null });
    expect(gig.milestones.map((m: Json) => [m.number, m.title, m.amount, m.days, m.escrow])).toEqual([
      [1, "Wireframes", 10_000, null, "funded"],
      [2, "Design", 25_000, null, "unfunded"],
      [3, "Build", 30_000, null, "unfunded"],
      [4, "Launch", 5_000, 3, "unfunded"],
    ]);
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "milestones_changed")?.message).toBe(
      'Your change of the milestones of "Build a shop" was accepted. The gig\'s payment is now 70,000 sats.',
    );
    // An answered proposal is not answered again.
    expect((await call(`/api/gigs/${job.gigId}/milestone-proposals/${id}/reject`, job.worker.token, "POST")).status).toBe(409);

    // The new milestone 2 is funded at its new amount, into its own account.
    expect((await fund(job, 2)).totalCharge).toBe(25_625);
    expect(await escrowMoves(job.gigId, 2)).toEqual([25_625]);
    // A later proposal starts after the funded milestones.
    const later = await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", { milestones: [{ title: "Build and launch", amount: 35_000 }] });
    expect(later).toMatchObject({ status: 201, body: { fromNumber: 3 } });
    await expectLedgerBalanced();
  });

  it("accepting after a milestone it replaces was funded meanwhile is refused, and nothing changes", async () => {
    const job = await plannedJob();
    const proposal = ok(
      await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", { milestones: [{ title: "Everything else", amount: 60_000 }] }),
      "propose",
    );
    expect(proposal.fromNumber).toBe(2);
    await fund(job, 2);

    const accept = await call(`/api/gigs/${job.gigId}/milestone-proposals/${proposal.id}/accept`, job.hirer.token, "POST");
    expect(accept).toMatchObject({ status: 409, body: { error: "milestone_funded" } });
    const gig = await gigOf(job);
    expect(gig).toMatchObject({ payment: 60_000, milestoneCount: 3 });
    expect(gig.milestones.map((m: Json) => [m.title, m.amount, m.escrow])).toEqual([
      ["Wireframes", 10_000, "funded"],
      ["Design", 20_000, "funded"],
      ["Build", 30_000, "unfunded"],
    ]);
    expect(await escrowMoves(job.gigId, 2)).toEqual([20_500]);

    // The proposer withdraws it; the hirer's next one is rejected by the worker.
    expect(await call(`/api/gigs/${job.gigId}/milestone-proposals/${proposal.id}/withdraw`, job.worker.token, "POST")).toMatchObject({
      status: 200,
      body: { status: "withdrawn" },
    });
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "milestones_withdrawn")?.message).toBe(
      'The proposed change of the milestones of "Build a shop" was withdrawn.',
    );
    const next = ok(
      await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.hirer.token, "POST", { milestones: [{ title: "Build", amount: 20_000 }] }),
      "propose again",
    );
    expect(next.fromNumber).toBe(3);
    expect(await call(`/api/gigs/${job.gigId}/milestone-proposals/${next.id}/reject`, job.worker.token, "POST")).toMatchObject({
      status: 200,
      body: { status: "rejected" },
    });
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "milestones_rejected")?.message).toBe(
      'Your change of the milestones of "Build a shop" was not accepted.',
    );
    expect(await gigOf(job)).toMatchObject({ payment: 60_000, milestoneCount: 3, milestoneProposal: null });
    await expectLedgerBalanced();
  });

  it("an invoice of a milestone that a change replaced is refunded when paid late", async () => {
    const job = await plannedJob();
    const invoice = ok(await fundInvoice(job, 2), "fund 2");
    const proposal = ok(
      await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", { milestones: [{ title: "Design", amount: 15_000 }, { title: "Build", amount: 30_000 }] }),
      "propose",
    );
    ok(await call(`/api/gigs/${job.gigId}/milestone-proposals/${proposal.id}/accept`, job.hirer.token, "POST"), "accept");
    expect((await gigOf(job)).milestones[1]).toMatchObject({ amount: 15_000, escrow: "unfunded", step: "unfunded", paymentRequest: null });

    expect(ok(await payWithDevWallet(invoice.paymentRequest), "pay old invoice")).toMatchObject({ outcome: "refunding_late_payment" });
    const [refund] = await payoutsOf(job.gigId);
    expect(refund).toMatchObject({ purpose: expect.stringMatching(/^late_payment:/), milestone: 2, amount: 20_500, status: "succeeded" });
    expect((await gigOf(job)).milestones[1]).toMatchObject({ escrow: "unfunded" });
    // The new amount's invoice is a new one.
    expect((await fund(job, 2)).totalCharge).toBe(15_375);
    await expectLedgerBalanced();
  });
});

describe("a service offering hired again after a withdrawn hire", () => {
  it("offers the new hirer only their own invoice for milestone 1; paying it funds their hire, and the first hirer gets nothing", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const worker = await signUp({ lightningAddress: `rehired-w${tag}@wallet.test` });
    const first = await signUp({ lightningAddress: `rehired-a${tag}@wallet.test` });
    const second = await signUp({ lightningAddress: `rehired-b${tag}@wallet.test` });
    const offer = await postTwoRoundOffer(worker);
    const gigId = offer.gig.id as string;
    await approveInterest(gigId, worker, first);
    const firstHire = ok(await call(`/api/gigs/${gigId}/claim`, first.token, "POST"), "first hire");
    // The first hirer withdraws; their invoice stays open at the wallet until it expires.
    ok(await call(`/api/gigs/${gigId}/cancel`, first.token, "POST"), "withdraw");
    await approveInterest(gigId, worker, second);
    const secondHire = ok(await call(`/api/gigs/${gigId}/claim`, second.token, "POST"), "second hire");
    expect(secondHire.paymentRequest).not.toBe(firstHire.paymentRequest);

    const details = ok(await call(`/api/gigs/${gigId}`, second.token), "details");
    expect({ gig: details.paymentRequest, milestones: (details.milestones as Json[]).map((m) => [m.step, m.paymentRequest]) }).toEqual({
      gig: secondHire.paymentRequest,
      milestones: [
        ["awaiting_payment", secondHire.paymentRequest],
        ["unfunded", null],
      ],
    });
    // Nobody else is offered an invoice: not the first hirer, not the worker.
    for (const member of [first, worker]) {
      const theirs = ok(await call(`/api/gigs/${gigId}`, member.token), "their details");
      expect([theirs.paymentRequest, ...(theirs.milestones as Json[]).map((m) => m.paymentRequest)]).toEqual([null, null, null]);
    }

    expect(ok(await payWithDevWallet((details.milestones as Json[])[0]!.paymentRequest as string), "pay")).toMatchObject({ outcome: "funded" });
    expect(ok(await call(`/api/gigs/${gigId}`, second.token), "after")).toMatchObject({ status: "claimed", hirerId: second.id, escrowStatus: "funded" });
    expect(await receivedBy(`rehired-a${tag}@wallet.test`)).toBe(0);
    expect((await payoutsOf(gigId)).filter((p) => String(p.purpose).startsWith("late_payment:"))).toEqual([]);
    await expectLedgerBalanced();
  });
});

describe("later milestones' invoices", () => {
  it("once the gig is cancelled, a later milestone's open invoice is no longer offered to the hirer", async () => {
    const job = await plannedJob();
    await deliver(job, 1);
    await approve(job, 1);
    ok(await fundInvoice(job, 2), "fund 2");
    ok(await call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST"), "cancel");
    const gig = await gigOf(job);
    expect(gig.status).toBe("cancelled");
    expect((gig.milestones as Json[])[1]).toMatchObject({ step: "unfunded", paymentRequest: null });
  });

  it("an invoice replaced after our clock ran out, which expires at the wallet later, leaves the funded milestone alone and tells nobody", async () => {
    const job = await plannedJob();
    const first = ok(await fundInvoice(job, 2), "fund 2");
    // Our clock says the invoice ran out; the wallet still waits (a payment may be in flight).
    await statement("UPDATE invoices SET expires_at = ? WHERE gig_id = ? AND milestone = 2", ago(30_000), job.gigId).run();
    await runCron();
    expect(await statement("SELECT status FROM invoices WHERE gig_id = ? AND milestone = 2", job.gigId).first("status")).toBe("pending");

    // The hirer asks again: a new invoice, paid at once.
    const second = ok(await fundInvoice(job, 2), "fund 2 again");
    expect(second.paymentRequest).not.toBe(first.paymentRequest);
    expect(ok(await payWithDevWallet(second.paymentRequest), "pay")).toMatchObject({ outcome: "funded" });

    // Later the wallet, too, gives up on the first one.
    await statement(
      "UPDATE dev_lightning_invoices SET record = json_set(record, '$.expiresAt', ?) WHERE payment_hash IN (SELECT payment_hash FROM invoices WHERE bolt11 = ?)",
      ago(1000),
      first.paymentRequest,
    ).run();
    await runCron();
    expect(await statement("SELECT status FROM invoices WHERE bolt11 = ?", first.paymentRequest).first("status")).toBe("expired");
    expect((await gigOf(job)).milestones[1]).toMatchObject({ escrow: "funded", step: "funded" });
    // Milestone 2 is funded: the hirer is not told to fund it again.
    expect((await notificationsOf(job.hirer, job.gigId)).filter((n) => n.type === "payment_expired")).toEqual([]);
    await expectLedgerBalanced();
  });


  it("an invoice paid after the gig was cancelled is refunded as a late payment", async () => {
    const job = await plannedJob();
    await deliver(job, 1);
    await approve(job, 1);
    const invoice = ok(await fundInvoice(job, 2), "fund 2");
    expect(await call(`/api/gigs/${job.gigId}/cancel`, job.worker.token, "POST")).toMatchObject({ status: 200, body: {} });
    expect((await gigOf(job)).status).toBe("cancelled");

    expect(ok(await payWithDevWallet(invoice.paymentRequest), "late pay")).toMatchObject({ outcome: "refunding_late_payment" });
    const invoiceId = await statement("SELECT id FROM invoices WHERE gig_id = ? AND milestone = 2", job.gigId).first<string>("id");
    expect(await payoutRows(job.gigId)).toEqual([
      ["worker_payout", 1, 9_750, "succeeded"],
      [`late_payment:${invoiceId}`, 2, 20_500, "succeeded"],
    ]);
    expect(await receivedBy(job.hirerAddress)).toBe(20_500);
    expect(await steps(job)).toEqual(["paid", "unfunded", "unfunded"]);
    expect(await escrowMoves(job.gigId, 2)).toEqual([]);
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "refund")?.title).toBe("Payment Refunded");
    await expectLedgerBalanced();
  });

  it("an invoice that expires leaves the milestone unfunded; funding again gives a new invoice", async () => {
    const job = await plannedJob();
    const first = ok(await fundInvoice(job, 2), "fund 2");
    await batch([
      statement("UPDATE invoices SET expires_at = ? WHERE gig_id = ? AND milestone = 2", ago(1000), job.gigId),
      statement(
        "UPDATE dev_lightning_invoices SET record = json_set(record, '$.expiresAt', ?) WHERE payment_hash IN (SELECT payment_hash FROM invoices WHERE gig_id = ? AND milestone = 2)",
        ago(1000),
        job.gigId,
      ),
    ]);
    await runCron();

    expect(await statement("SELECT status FROM invoices WHERE gig_id = ? AND milestone = 2", job.gigId).first("status")).toBe("expired");
    const gig = await gigOf(job);
    expect(gig).toMatchObject({ status: "claimed", currentMilestone: 1 });
    expect(gig.milestones[1]).toMatchObject({ escrow: "unfunded", step: "unfunded", paymentRequest: null });
    expect((await notificationsOf(job.hirer, job.gigId)).find((n) => n.type === "payment_expired")?.message).toBe(
      'The invoice for the next step of "Build a shop" (milestone 2 of 3, "Design") expired unpaid. No sats were taken; you can fund it again from the gig.',
    );

    const second = ok(await fundInvoice(job, 2), "fund 2 again");
    expect(second.paymentRequest).not.toBe(first.paymentRequest);
    expect(second.totalCharge).toBe(20_500);
    expect(ok(await payWithDevWallet(second.paymentRequest), "pay")).toMatchObject({ outcome: "funded" });
    expect((await gigOf(job)).milestones[1]).toMatchObject({ escrow: "funded" });
    await expectLedgerBalanced();
  });
});

describe("milestone days", () => {
  const DAY = 86_400_000;
  const daysAhead = (iso: unknown) => Math.round((Date.parse(String(iso)) - Date.now()) / DAY);

  it("set the deadline when their milestone can be worked on: milestone 1 at the claim, a later one once it is funded", async () => {
    const job = await plannedJob([
      { title: "Sketches", amount: 1_000, days: 5 },
      { title: "Pages", amount: 2_000, days: 3 },
    ]);
    expect(daysAhead((await gigOf(job)).deadline)).toBe(5);
    await deliver(job, 1);
    await approve(job, 1);
    // Milestone 2 waits for funding: its 3 days have not started, the deadline stays where it was.
    expect(daysAhead((await gigOf(job)).deadline)).toBe(5);
    await fund(job, 2);
    expect(daysAhead((await gigOf(job)).deadline)).toBe(3);
    await expectLedgerBalanced();
  });
});

describe("what a plan's escrow holds", () => {
  it("is told on the details and on the member's own list: every funded milestone's total charge, none of the unfunded", async () => {
    const job = await plannedJob();
    await fund(job, 2);
    const held = 10_250 + 20_500;
    expect((await gigOf(job)).escrowHeld).toBe(held);
    const mine = ok(await call("/api/gigs?participant=me", job.hirer.token), "my gigs") as unknown as Json[];
    expect(mine.find((g) => g.id === job.gigId)).toMatchObject({ escrowHeld: held });
    // A public list does not say it.
    const open = ok(await call("/api/gigs?limit=100", undefined), "browse") as unknown as Json[];
    expect(open.every((g) => !("escrowHeld" in g))).toBe(true);
    await deliver(job, 1);
    await approve(job, 1);
    expect((await gigOf(job)).escrowHeld).toBe(20_500);
  });
});
