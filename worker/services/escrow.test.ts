import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, claimedJob, payWithDevWallet, postGig, signUp, submittedJob, approveInterest } from "../test/factories";
import { escrowBalance, expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";

describe("a job request from posting to payout", () => {
  it("charges payment + fee, holds it in escrow, and pays the worker payment − fee on approval", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const hirer = await signUp({ lightningAddress: `h${tag}@wallet.test` });
    const worker = await signUp({ lightningAddress: `w${tag}@wallet.test` });

    const posted = await postGig(hirer, { payment: 10_000 });
    expect(posted.totalCharge).toBe(10_250);
    expect(posted.paymentRequest).toMatch(/^lnbcrt/);
    expect(posted.gig).toMatchObject({ status: "pending_payment", escrowStatus: "pending", payment: 10_000 });
    const gigId = posted.gig.id;

    // Not visible to others until funded.
    expect((await call(`/api/gigs/${gigId}`, worker.token)).status).toBe(404);

    expect((await payWithDevWallet(posted.paymentRequest!)).body).toMatchObject({ paid: true, outcome: "funded" });
    const funded = (await call(`/api/gigs/${gigId}`, worker.token)).body;
    expect(funded).toMatchObject({ status: "open", escrowStatus: "funded" });
    expect(await escrowBalance(gigId)).toBe(10_250);

    await approveInterest(gigId, hirer, worker);
    const claim = await call(`/api/gigs/${gigId}/claim`, worker.token, "POST");
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ paymentRequest: null, totalCharge: 10_250, gig: { status: "claimed", workerId: worker.id } });
    expect(Date.parse(claim.body.gig.deadline) - Date.parse(claim.body.gig.claimedAt)).toBe(7 * 86_400_000);

    expect((await call(`/api/gigs/${gigId}/start-work`, worker.token, "POST")).status).toBe(200);
    expect((await call(`/api/gigs/${gigId}/submit`, worker.token, "POST", { workSubmission: "Done: https://example.com/logo.svg" })).status).toBe(200);
    expect((await call(`/api/gigs/${gigId}/approve`, hirer.token, "POST")).status).toBe(200);

    const done = (await call(`/api/gigs/${gigId}`, hirer.token)).body;
    expect(done).toMatchObject({ status: "completed", escrowStatus: "released", workSubmission: "Done: https://example.com/logo.svg" });
    expect(await receivedBy(`w${tag}@wallet.test`)).toBe(9_750);
    expect(await escrowBalance(gigId)).toBe(0);
    const [payout] = await payoutsOf(gigId);
    expect(payout).toMatchObject({ purpose: "worker_payout", amount: 9_750, status: "succeeded", attempts: 1 });
    const ledger = await expectLedgerBalanced();
    expect(ledger.fees).toBeGreaterThanOrEqual(500);

    const events = (await call(`/api/gigs/${gigId}/events`, worker.token)).body as unknown as { type: string }[];
    expect(events.map((e) => e.type)).toEqual(["posted", "escrow_funded", "claimed", "work_started", "work_submitted", "approved"]);

    const me = (await call("/api/user/me", worker.token)).body;
    expect(me).toMatchObject({ completedGigs: 1, successfulGigs: 1, successRate: 100 });
  });

  it("a 1 sat gig pays out 0 sats without a Lightning call and keeps the ledger balanced", async () => {
    const job = await submittedJob({ payment: 1 });
    expect((await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST")).status).toBe(200);
    const [payout] = await payoutsOf(job.gigId);
    expect(payout).toMatchObject({ amount: 0, status: "succeeded", bolt11: null });
    expect(await escrowBalance(job.gigId)).toBe(0);
    await expectLedgerBalanced();
  });
});

describe("a service offering hired and funded", () => {
  it("is open at once, goes to pending_payment on hire, and to claimed with a deadline once paid", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const worker = await signUp({ lightningAddress: `w${tag}@wallet.test` });
    const hirer = await signUp({ lightningAddress: `h${tag}@wallet.test` });
    const posted = await postGig(worker, { gigType: "service_offering", payment: 20_000, timeframe: 3 });
    expect(posted.paymentRequest).toBeNull();
    expect(posted.gig).toMatchObject({ status: "open", workerId: worker.id, hirerId: null });

    await approveInterest(posted.gig.id, worker, hirer);
    const hire = await call(`/api/gigs/${posted.gig.id}/claim`, hirer.token, "POST");
    expect(hire.status).toBe(200);
    expect(hire.body.totalCharge).toBe(20_500);
    expect(hire.body.gig).toMatchObject({ status: "pending_payment", hirerId: hirer.id });
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body.paymentRequest).toBe(hire.body.paymentRequest);

    await payWithDevWallet(hire.body.paymentRequest);
    const gig = (await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body;
    expect(gig).toMatchObject({ status: "claimed", escrowStatus: "funded" });
    expect(Date.parse(gig.deadline) - Date.parse(gig.claimedAt)).toBe(3 * 86_400_000);
    expect(await escrowBalance(posted.gig.id)).toBe(20_500);
    await expectLedgerBalanced();
  });
});

describe("cancelling", () => {
  it("refunds payment + fee in full to the hirer once funded", async () => {
    const job = await claimedJob({ payment: 10_000 });
    const res = await call(`/api/gigs/${job.gigId}/cancel`, job.worker.token, "POST");
    expect(res.status).toBe(200);
    expect(res.body.refund).toEqual({ amount: 10_250 });
    expect(await receivedBy(`hirer${job.tag}@wallet.test`)).toBe(10_250);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "refunded" });
    await expectLedgerBalanced();
  });

  it("cancels an unpaid job without moving money, and refunds a payment that arrives afterwards", async () => {
    const hirer = await signUp({ lightningAddress: `late${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    const posted = await postGig(hirer);
    const res = await call(`/api/gigs/${posted.gig.id}/cancel`, hirer.token, "POST");
    expect(res.status).toBe(200);
    expect(res.body.refund).toBeUndefined();

    const late = await payWithDevWallet(posted.paymentRequest!);
    expect(late.body.outcome).toBe("refunding_late_payment");
    const [refund] = await payoutsOf(posted.gig.id);
    expect(refund).toMatchObject({ amount: 10_250, status: "succeeded", recipient_id: hirer.id });
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body.status).toBe("cancelled");
    await expectLedgerBalanced();
  });
});

describe("funding invoices", () => {
  it("paying the same invoice twice records the money once", async () => {
    const hirer = await signUp({ lightningAddress: "twice@wallet.test" });
    const posted = await postGig(hirer);
    const [a, b] = await Promise.all([payWithDevWallet(posted.paymentRequest!), payWithDevWallet(posted.paymentRequest!)]);
    expect([a.body.outcome, b.body.outcome].sort()).toEqual(["already_paid", "funded"]);
    expect(await escrowBalance(posted.gig.id)).toBe(10_250);
    await expectLedgerBalanced();
  });

  it("the dev wallet refuses invoices it did not issue", async () => {
    const res = await payWithDevWallet("lnbc1notaninvoice");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_invoice");
  });

  void env;
});
