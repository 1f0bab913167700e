// The minute's jobs: invoice expiry, auto-release with reminders, and the alarm watcher.
import { createExecutionContext, createScheduledController, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { call, approveInterest, postGig, signUp, submittedJob } from "../test/factories";
import { escrowBalance, expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { makeDeps } from "../composition";
import { markInvoicePaid } from "./escrow";

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const expireInvoicesOf = (gigId: string) =>
  env.DB.prepare("UPDATE invoices SET expires_at = ? WHERE gig_id = ?").bind(new Date(Date.now() - 1000).toISOString(), gigId).run();

const notificationsOf = async (token: string) => (await call("/api/notifications", token)).body as unknown as { type: string; message: string }[];

describe("invoice expiry", () => {
  it("cancels a job request whose invoice expired unpaid, and refunds a payment that still arrives", async () => {
    const hirer = await signUp({ lightningAddress: `exp${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(hirer);
    await expireInvoicesOf(posted.gig.id);
    await runCron();
    await runCron(); // twice is harmless
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "pending" });
    expect((await notificationsOf(hirer.token)).map((n) => n.type)).toContain("payment_expired");

    const invoice = await env.DB.prepare("SELECT payment_hash, status FROM invoices WHERE gig_id = ?").bind(posted.gig.id).first<{ payment_hash: string; status: string }>();
    expect(invoice!.status).toBe("expired");
    const pending: Promise<unknown>[] = [];
    expect(await markInvoicePaid(makeDeps(env, (w) => pending.push(w())), invoice!.payment_hash)).toBe("refunding_late_payment");
    await Promise.all(pending);
    expect((await payoutsOf(posted.gig.id))[0]).toMatchObject({ status: "succeeded", amount: 10_250 });
    await expectLedgerBalanced();
  });

  it("re-opens a service offering whose hire was not paid in time", async () => {
    const worker_ = await signUp({ lightningAddress: "so-exp@wallet.test" });
    const hirer = await signUp({ lightningAddress: "so-hirer@wallet.test" });
    const offer = await postGig(worker_, { gigType: "service_offering" });
    await approveInterest(offer.gig.id, worker_, hirer);
    expect((await call(`/api/gigs/${offer.gig.id}/claim`, hirer.token, "POST")).status).toBe(200);
    await expireInvoicesOf(offer.gig.id);
    await runCron();
    expect((await call(`/api/gigs/${offer.gig.id}`, worker_.token)).body).toMatchObject({ status: "open", hirerId: null });
    // The same member holds the offer again only once the worker enables claiming for them again.
    expect((await call(`/api/gigs/${offer.gig.id}/claim`, hirer.token, "POST")).body.error).toBe("claim_not_enabled");
  });
});

describe("auto-release", () => {
  it("reminds the hirer 3 days and 1 day before, then releases the payment after 14 silent days", async () => {
    const job = await submittedJob();
    const setSubmitted = (daysAgo: number) =>
      env.DB.prepare("UPDATE gigs SET submitted_at = ? WHERE id = ?").bind(new Date(Date.now() - daysAgo * 86_400_000).toISOString(), job.gigId).run();
    const reminders = async () => (await notificationsOf(job.hirer.token)).filter((n) => n.type === "auto_release_reminder");

    await setSubmitted(10);
    await runCron();
    expect(await reminders()).toHaveLength(0);

    await setSubmitted(11.5);
    await runCron();
    await runCron();
    expect(await reminders()).toHaveLength(1);
    expect((await reminders())[0]!.message).toMatch(/in 3 days/);

    await setSubmitted(13.5);
    await runCron();
    expect(await reminders()).toHaveLength(2);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.status).toBe("work_submitted");

    await setSubmitted(14.01);
    await runCron();
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "completed", escrowStatus: "released" });
    expect(await receivedBy(`worker${job.tag}@wallet.test`)).toBe(9_750);
    expect(await escrowBalance(job.gigId)).toBe(0);
    await expectLedgerBalanced();
  });
});

describe("the gig room's invoice watcher", () => {
  it("notices a payment by alarm and stops watching once funded", async () => {
    const hirer = await signUp({ lightningAddress: "watch@wallet.test" });
    const posted = await postGig(hirer);
    // Paid at the wallet without telling escrow (as an outside wallet would).
    await makeDeps(env, () => {}).devWallet!.payDevInvoice(posted.paymentRequest!);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body.status).toBe("pending_payment");

    const room = env.GIG_ROOM.get(env.GIG_ROOM.idFromName(posted.gig.id));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "open", escrowStatus: "funded" });
    expect(await runInDurableObject(room, (_instance, state) => state.storage.getAlarm())).toBeNull();
  });

  it("finds a payment the dev wallet made without its webhook (POST /api/dev/invoices/pay, webhook: false)", async () => {
    const hirer = await signUp({ lightningAddress: "watch3@wallet.test" });
    const posted = await postGig(hirer);
    const paid = await call("/api/dev/invoices/pay", undefined, "POST", { paymentRequest: posted.paymentRequest, webhook: false });
    expect(paid).toMatchObject({ status: 200, body: { paid: true, alreadyPaid: false, outcome: null } });
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "pending_payment", escrowStatus: "pending" });

    const room = env.GIG_ROOM.get(env.GIG_ROOM.idFromName(posted.gig.id));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "open", escrowStatus: "funded" });
    await expectLedgerBalanced();
  });

  it("refuses a webhook flag that is not true or false, and pays nothing", async () => {
    const hirer = await signUp({ lightningAddress: "watch4@wallet.test" });
    const posted = await postGig(hirer);
    const res = await call("/api/dev/invoices/pay", undefined, "POST", { paymentRequest: posted.paymentRequest, webhook: "no" });
    expect(res).toMatchObject({ status: 400, body: { message: "webhook must be true or false" } });
    // Not paid: paying it now is its first payment, and escrow hears of it.
    expect((await call("/api/dev/invoices/pay", undefined, "POST", { paymentRequest: posted.paymentRequest })).body).toMatchObject({ alreadyPaid: false, outcome: "funded" });
  });

  it("keeps watching while the invoice is unpaid", async () => {
    const hirer = await signUp({ lightningAddress: "watch2@wallet.test" });
    const posted = await postGig(hirer);
    const room = env.GIG_ROOM.get(env.GIG_ROOM.idFromName(posted.gig.id));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect(await runInDurableObject(room, (_instance, state) => state.storage.getAlarm())).toEqual(expect.any(Number));
  });
});
