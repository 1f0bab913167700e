// Requests racing each other: exactly one wins, and the ledger balances after each race.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, claimedJob, postGig, signUp, submittedJob } from "../test/factories";
import { escrowBalance, expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { makeDeps } from "../composition";
import { checkInvoice, markInvoicePaid } from "./escrow";
import { runMinuteJobs } from "./cron";
import { statement } from "../db/test-statements";

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

describe("races", () => {
  it("two approvals: one wins, the worker is paid once", async () => {
    const job = await submittedJob();
    const results = await Promise.all([
      call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST"),
      call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST"),
    ]);
    expect(statuses(results)).toEqual([200, 409]);
    expect(await payoutsOf(job.gigId)).toHaveLength(1);
    expect(await receivedBy(`worker${job.tag}@wallet.test`)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("approve vs dispute vs cancel: exactly one wins and the money follows it", async () => {
    const job = await submittedJob();
    const results = await Promise.all([
      call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST"),
      call(`/api/gigs/${job.gigId}/dispute`, job.worker.token, "POST", { reason: "Not paid yet" }),
      call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST"),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const gig = (await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body;
    if (gig.status === "completed") expect(await escrowBalance(job.gigId)).toBe(0);
    else expect(await escrowBalance(job.gigId)).toBe(10_250);
    // Cancel is never allowed from work_submitted, so it can only have lost.
    expect(results[2]!.status).toBe(409);
    await expectLedgerBalanced();
  });

  it("two workers claiming one job: one gets it", async () => {
    const hirer = await signUp({ lightningAddress: "rh@wallet.test" });
    const a = await signUp({ lightningAddress: "ra@wallet.test" });
    const b = await signUp({ lightningAddress: "rb@wallet.test" });
    const posted = await postGig(hirer);
    await call("/api/dev/invoices/pay", undefined, "POST", { paymentRequest: posted.paymentRequest });
    const { approveInterest } = await import("../test/factories");
    await approveInterest(posted.gig.id, hirer, a);
    await approveInterest(posted.gig.id, hirer, b);
    const results = await Promise.all([call(`/api/gigs/${posted.gig.id}/claim`, a.token, "POST"), call(`/api/gigs/${posted.gig.id}/claim`, b.token, "POST")]);
    expect(statuses(results)).toEqual([200, 409]);
    const gig = (await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body;
    expect([a.id, b.id]).toContain(gig.workerId);
  });

  it("webhook vs alarm on one invoice: the money is recorded once", async () => {
    const hirer = await signUp({ lightningAddress: "wa@wallet.test" });
    const posted = await postGig(hirer);
    const deps = makeDeps(env, () => {});
    await deps.devWallet!.payDevInvoice(posted.paymentRequest!);
    const invoice = await statement("SELECT * FROM invoices WHERE gig_id = ?", posted.gig.id).first<Record<string, any>>();
    const row = await deps.db.query.invoices.findFirst({ where: (t, { eq }) => eq(t.id, invoice!.id) });
    const outcomes = await Promise.all([markInvoicePaid(deps, invoice!.payment_hash), checkInvoice(deps, row!), markInvoicePaid(deps, invoice!.payment_hash)]);
    expect(outcomes.filter((o) => o === "funded")).toHaveLength(1);
    expect(await escrowBalance(posted.gig.id)).toBe(10_250);
    await expectLedgerBalanced();
  });

  it("the cron run twice at once does each job once", async () => {
    const job = await submittedJob();
    await statement("UPDATE gigs SET submitted_at = ? WHERE id = ?", new Date(Date.now() - 15 * 86_400_000).toISOString(), job.gigId).run();
    const pending: Promise<unknown>[] = [];
    const deps = makeDeps(env, (work) => pending.push(work()));
    const [r1, r2] = await Promise.all([runMinuteJobs(deps), runMinuteJobs(deps)]);
    await Promise.all(pending);
    const released = (r: Awaited<ReturnType<typeof runMinuteJobs>>) => ("released" in r.autoRelease ? r.autoRelease.released : Number.NaN);
    expect(released(r1) + released(r2)).toBe(1);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.status).toBe("completed");
    expect(await payoutsOf(job.gigId)).toHaveLength(1);
    expect(await receivedBy(`worker${job.tag}@wallet.test`)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("a cancel racing a start-work: one wins", async () => {
    const job = await claimedJob();
    const results = await Promise.all([
      call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST"),
      call(`/api/gigs/${job.gigId}/start-work`, job.worker.token, "POST"),
    ]);
    expect(statuses(results)).toEqual([200, 409]);
    await expectLedgerBalanced();
  });
});
