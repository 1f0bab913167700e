// The minute's jobs: invoice expiry, auto-release with reminders, and the alarm watcher.
import { createExecutionContext, createScheduledController, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { call, approveInterest, payWithDevWallet, postGig, signUp, submittedJob } from "../test/factories";
import { escrowBalance, expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { makeDeps } from "../composition";
import { checkLatePayments, GIVE_UP_AFTER_EXPIRY_MS, LATE_PAYMENT_CHECKS_AFTER_EXPIRY_MS, markInvoicePaid } from "./escrow";
import { approveWork } from "./gig-actions";
import { attemptPayout } from "./payouts";
import { findUserById } from "./users";
import { statement, batch } from "../db/test-statements";

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** The gig's invoices ran out, at the wallet too: it now answers "expired". */
const expireInvoicesOf = (gigId: string) =>
  batch([
    statement("UPDATE invoices SET expires_at = ? WHERE gig_id = ?", ago(1000), gigId),
    statement(
      "UPDATE dev_lightning_invoices SET record = json_set(record, '$.expiresAt', ?) WHERE payment_hash IN (SELECT payment_hash FROM invoices WHERE gig_id = ?)",
    ago(1000), gigId),
  ]);

/** Our clock says the gig's invoices ran out `msAgo` ago; the wallet still waits for a payment (one in flight, its clock behind ours). */
const expireOnlyHere = (gigId: string, msAgo: number) => statement("UPDATE invoices SET expires_at = ? WHERE gig_id = ?", ago(msAgo), gigId).run();

/** The wallet's webhook for a payment (the route answers only with WEBHOOK_SECRET set). */
async function walletWebhook(paymentHash: string): Promise<number> {
  const ctx = createExecutionContext();
  const request = new Request("https://gigstr.test/api/webhooks/lightning/cron-test-secret", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ payment_hash: paymentHash }),
  });
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, WEBHOOK_SECRET: "cron-test-secret" }, ctx);
  await waitOnExecutionContext(ctx);
  return res.status;
}

const gigOf = async (gigId: string, token: string) => (await call(`/api/gigs/${gigId}`, token)).body;

const notificationsOf = async (token: string) => (await call("/api/notifications", token)).body as unknown as { type: string; title: string; message: string; gigId: string | null }[];

/**
 * A job whose invoice our side gave up on (long past its expiry, the wallet still calling it pending):
 * the cron cancelled the gig. Its hirer's address is `<prefix>…@wallet.test`.
 */
async function givenUpJob(prefix: string) {
  const address = `${prefix}${crypto.randomUUID().slice(0, 6)}@wallet.test`;
  const hirer = await signUp({ lightningAddress: address });
  const posted = await postGig(hirer);
  await expireOnlyHere(posted.gig.id, GIVE_UP_AFTER_EXPIRY_MS + 1000);
  await runCron();
  expect(await gigOf(posted.gig.id, hirer.token)).toMatchObject({ status: "cancelled", escrowStatus: "pending" });
  return { address, hirer, posted };
}

describe("invoice expiry", () => {
  it("cancels a job request whose invoice expired unpaid, and refunds a payment that still arrives", async () => {
    const hirer = await signUp({ lightningAddress: `exp${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(hirer);
    await expireInvoicesOf(posted.gig.id);
    await runCron();
    await runCron(); // twice is harmless
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "pending" });
    expect((await notificationsOf(hirer.token)).map((n) => n.type)).toContain("payment_expired");

    const invoice = await statement("SELECT payment_hash, status FROM invoices WHERE gig_id = ?", posted.gig.id).first<{ payment_hash: string; status: string }>();
    expect(invoice!.status).toBe("expired");
    const pending: Promise<unknown>[] = [];
    expect(await markInvoicePaid(makeDeps(env, (w) => pending.push(w())), invoice!.payment_hash)).toBe("refunding_late_payment");
    await Promise.all(pending);
    expect((await payoutsOf(posted.gig.id))[0]).toMatchObject({ status: "succeeded", amount: 10_250 });
    await expectLedgerBalanced();
  });

  it("waits for an invoice the wallet still calls pending after our clock's expiry: a payment settling then funds the gig", async () => {
    const hirer = await signUp({ lightningAddress: `inflight${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(hirer);
    await expireOnlyHere(posted.gig.id, 30_000);
    await runCron();
    expect(await gigOf(posted.gig.id, hirer.token)).toMatchObject({ status: "pending_payment" });

    expect((await payWithDevWallet(posted.paymentRequest!)).body).toMatchObject({ outcome: "funded" });
    expect(await gigOf(posted.gig.id, hirer.token)).toMatchObject({ status: "open", escrowStatus: "funded" });
    await expectLedgerBalanced();
  });

  it("gives up on a pending invoice long after its expiry, and refunds a payment that settles after that (webhook)", async () => {
    const { address, hirer, posted } = await givenUpJob("settled");

    // The wallet settles it anyway and tells us: the invoice is expired here, and is still looked up.
    const paid = await makeDeps(env, () => {}).devWallet!.payDevInvoice(posted.paymentRequest!);
    expect(await walletWebhook(paid.paymentHash)).toBe(200);
    expect(await statement("SELECT status FROM invoices WHERE gig_id = ?", posted.gig.id).first("status")).toBe("paid");
    await expect.poll(async () => (await payoutsOf(posted.gig.id))[0]).toMatchObject({ purpose: expect.stringMatching(/^late_payment:/), amount: 10_250, status: "succeeded" });
    expect(await receivedBy(address)).toBe(10_250);
    await expectLedgerBalanced();
  });

  it("finds a payment that settled after the invoice expired, with no webhook (as NWC), and refunds it once", async () => {
    const { address, hirer, posted } = await givenUpJob("late");

    // The wallet records the payment and tells no one.
    await makeDeps(env, () => {}).devWallet!.payDevInvoice(posted.paymentRequest!);
    await runCron();
    await expect.poll(async () => (await payoutsOf(posted.gig.id))[0]).toMatchObject({ purpose: expect.stringMatching(/^late_payment:/), amount: 10_250, status: "succeeded" });
    await runCron();
    expect(await payoutsOf(posted.gig.id)).toHaveLength(1);
    expect(await receivedBy(address)).toBe(10_250);
    expect((await notificationsOf(hirer.token)).map((n) => n.type)).toContain("refund");
    await expectLedgerBalanced();
  });

  it("refunds a late payment once when the cron's look-up and the wallet's webhook race", async () => {
    const { address, posted } = await givenUpJob("race");
    const paid = await makeDeps(env, () => {}).devWallet!.payDevInvoice(posted.paymentRequest!);
    const deferred: Promise<unknown>[] = [];
    const [, webhook] = await Promise.all([checkLatePayments(makeDeps(env, (w) => deferred.push(w()))), walletWebhook(paid.paymentHash), runCron()]);
    await Promise.all(deferred);
    expect(webhook).toBe(200);
    await expect.poll(async () => (await payoutsOf(posted.gig.id)).map((p) => p.status)).toEqual(["succeeded"]);
    expect(await receivedBy(address)).toBe(10_250);
    await expectLedgerBalanced();
  });

  it("asks about an expired invoice a few times, further apart, then no more", async () => {
    const hirer = await signUp({ lightningAddress: `quiet${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(hirer);
    await expireInvoicesOf(posted.gig.id);
    await runCron();
    const row = () => statement("SELECT status, late_checks, late_check_at FROM invoices WHERE gig_id = ?", posted.gig.id).first<{ status: string; late_checks: number; late_check_at: string | null }>();
    expect(await row()).toMatchObject({ status: "expired", late_checks: 0 });
    const deps = makeDeps(env, () => {});
    for (let i = 1; i <= LATE_PAYMENT_CHECKS_AFTER_EXPIRY_MS.length; i++) {
      await statement("UPDATE invoices SET late_check_at = ? WHERE gig_id = ?", ago(1000), posted.gig.id).run();
      await checkLatePayments(deps);
      expect((await row())!.late_checks).toBe(i);
    }
    expect((await row())!.late_check_at).toBeNull();
    expect(await payoutsOf(posted.gig.id)).toHaveLength(0);
  });

  it("one invoice the wallet cannot find keeps neither payout retries nor its own expiry from happening", async () => {
    // A worker's payout failed once and is due for its retry.
    const job = await submittedJob();
    const quiet = makeDeps(env, () => {}); // runs no deferred work: the payout is attempted below
    await approveWork(quiet, await findUserById(quiet, job.hirer.id), job.gigId);
    const [payout] = await payoutsOf(job.gigId);
    expect(await attemptPayout(makeDeps(env, () => {}, { devWallet: { faults: () => "fail" } }), payout!.id)).toBe("failed");
    await statement("UPDATE payouts SET next_attempt_at = ? WHERE id = ?", ago(1000), payout!.id).run();

    // Elsewhere an unpaid invoice ran out that the wallet no longer knows (purged, or another wallet since).
    const other = await signUp({ lightningAddress: `purged${job.tag}@wallet.test` });
    const purged = await postGig(other);
    await expireOnlyHere(purged.gig.id, 1000);
    await statement("DELETE FROM dev_lightning_invoices WHERE payment_hash IN (SELECT payment_hash FROM invoices WHERE gig_id = ?)", purged.gig.id).run();

    await runCron();
    await expect.poll(async () => (await payoutsOf(job.gigId))[0]).toMatchObject({ status: "succeeded" });
    expect(await receivedBy(`worker${job.tag}@wallet.test`)).toBe(9_750);
    expect(await gigOf(purged.gig.id, other.token)).toMatchObject({ status: "pending_payment" });

    // Long after its expiry, a wallet that does not know it will not be paid through it.
    await expireOnlyHere(purged.gig.id, GIVE_UP_AFTER_EXPIRY_MS + 1000);
    await runCron();
    expect(await gigOf(purged.gig.id, other.token)).toMatchObject({ status: "cancelled" });
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
    // So the worker is told, and told how (the hirer's "Hire again" waits on them).
    const told = (await notificationsOf(worker_.token)).filter((n) => n.type === "payment_expired" && n.gigId === offer.gig.id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: "Hire Expired", message: expect.stringMatching(/open again.*enable claiming for them/) });
    expect((await notificationsOf(hirer.token)).filter((n) => n.type === "payment_expired" && n.gigId === offer.gig.id)).toHaveLength(1);
    // Running the expiry again tells nobody twice.
    await runCron();
    expect((await notificationsOf(worker_.token)).filter((n) => n.type === "payment_expired" && n.gigId === offer.gig.id)).toHaveLength(1);
  });
});

describe("auto-release", () => {
  it("reminds the hirer 3 days and 1 day before, then releases the payment after 14 silent days", async () => {
    const job = await submittedJob();
    const setSubmitted = (daysAgo: number) =>
      statement("UPDATE gigs SET submitted_at = ? WHERE id = ?", new Date(Date.now() - daysAgo * 86_400_000).toISOString(), job.gigId).run();
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
