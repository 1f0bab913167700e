// Payouts under failure: unclear outcomes are looked up, never paid twice; explicit failures are
// retried; LNURL providers that lie get nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, submittedJob } from "../test/factories";
import { expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { makeDeps } from "../composition";
import type { DevPayFault } from "../lightning/dev-backend";
import { lnurlProvider, scriptedFetch, strangerInvoice, streamingBody, type Handler } from "../lightning/test-helpers";
import { attemptPayout, resolveInFlightPayout, retryPayouts } from "./payouts";

/** A job approved with payouts not attempted yet: the payout row exists, pending. */
async function approvedWithPendingPayout() {
  const job = await submittedJob();
  // Approve through the service with a deps whose deferred work we drop, so the test drives the payout.
  const { approveWork } = await import("./gig-actions");
  const { findUserById } = await import("./users");
  const deps = makeDeps(env, () => {});
  await approveWork(deps, await findUserById(deps.db, job.hirer.id), job.gigId);
  const [payout] = await payoutsOf(job.gigId);
  expect(payout).toMatchObject({ status: "pending", amount: 9_750 });
  return { ...job, payoutId: payout!.id as string, address: `worker${job.tag}@wallet.test` };
}

const depsWithFault = (fault: DevPayFault | null) => makeDeps(env, () => {}, { devWallet: { faults: () => fault } });

const paymentsMade = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_lightning_payments").first<{ n: number }>())!.n;

const payoutModel = async (id: string) => (await makeDeps(env, () => {}).db.query.payouts.findFirst({ where: (t, { eq }) => eq(t.id, id) }))!;

const payoutRow = async (id: string) => (await env.DB.prepare("SELECT * FROM payouts WHERE id = ?").bind(id).first<Record<string, any>>())!;

describe("payouts", () => {
  it("an answer lost after paying leaves the payout in flight; the lookup settles it and it is never paid again", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_after_paying"), job.payoutId)).toBe("in_flight");
    expect(await receivedBy(job.address)).toBe(9_750);
    expect((await payoutRow(job.payoutId)).status).toBe("in_flight");

    // Another attempt cannot start while it is in flight.
    expect(await attemptPayout(depsWithFault(null), job.payoutId)).toBe("busy");
    expect(await resolveInFlightPayout(depsWithFault(null), await payoutModel(job.payoutId))).toBe("succeeded");
    expect(await receivedBy(job.address)).toBe(9_750);
    expect((await payoutRow(job.payoutId)).status).toBe("succeeded");
    await expectLedgerBalanced();
  });

  it("an explicit failure is retried later with back-off and then paid once", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("fail"), job.payoutId)).toBe("failed");
    const failed = await payoutRow(job.payoutId);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.now());
    expect(await receivedBy(job.address)).toBe(0);

    // Not before its time.
    expect(await attemptPayout(depsWithFault(null), job.payoutId)).toBe("busy");
    await env.DB.prepare("UPDATE payouts SET next_attempt_at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
    await retryPayouts(depsWithFault(null));
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("an answer lost before paying stays in flight and is not paid blindly", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_before_paying"), job.payoutId)).toBe("in_flight");
    expect(await resolveInFlightPayout(depsWithFault(null), await payoutModel(job.payoutId))).not.toBe("succeeded");
    expect(await receivedBy(job.address)).toBe(0);
    await expectLedgerBalanced();
  });

  it("a payment the wallet never saw is retried with a new invoice once the old one can no longer be paid", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_before_paying"), job.payoutId)).toBe("in_flight");
    const expired = await strangerInvoice({ amountMsat: 9_750_000, timestampSec: Math.floor(Date.now() / 1000) - 3600, expirySec: 600 });
    await env.DB.prepare("UPDATE payouts SET bolt11 = ?, payment_hash = ? WHERE id = ?").bind(expired.bolt11, expired.paymentHash, job.payoutId).run();
    expect(await resolveInFlightPayout(depsWithFault(null), await payoutModel(job.payoutId))).toBe("failed");
    await env.DB.prepare("UPDATE payouts SET next_attempt_at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
    expect(await attemptPayout(depsWithFault(null), job.payoutId)).toBe("succeeded");
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("the payout reaches the worker through the approve request itself", async () => {
    const job = await submittedJob();
    await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST");
    expect((await payoutsOf(job.gigId))[0]).toMatchObject({ status: "succeeded", amount: 9_750 });
  });
});

describe("payouts to a Lightning-address provider that misbehaves", () => {
  /** Sets the worker's address to alice@provider.com, played by `routes`, and tries the payout. */
  async function payoutVia(routes: Record<string, Handler>) {
    const job = await approvedWithPendingPayout();
    await env.DB.prepare("UPDATE users SET lightning_address = 'alice@provider.com' WHERE id = ?").bind(job.worker.id).run();
    const scripted = scriptedFetch(routes);
    const deps = makeDeps(env, () => {}, { networkFetch: scripted.fetch });
    const paymentsBefore = await paymentsMade();
    const result = await attemptPayout(deps, job.payoutId);
    return { result, row: await payoutRow(job.payoutId), job, newPayments: (await paymentsMade()) - paymentsBefore };
  }

  it("an honest provider is paid exactly the amount", async () => {
    const provider = lnurlProvider();
    const { result, row, newPayments } = await payoutVia(provider);
    expect(result).toBe("succeeded");
    expect(newPayments).toBe(1);
    expect(provider.issued).toHaveLength(1);
    expect(row.bolt11).toBe(provider.issued[0]);
    await expectLedgerBalanced();
  });

  const liars: [string, () => Record<string, Handler>][] = [
    ["an invoice for the wrong amount", () => lnurlProvider({ invoice: async (msat) => ({ pr: (await strangerInvoice({ amountMsat: msat + 1000, descriptionHash: "00".repeat(32) })).bolt11 }) })],
    ["an invoice with the wrong description hash", () => lnurlProvider({ invoice: async (msat) => ({ pr: (await strangerInvoice({ amountMsat: msat, descriptionHash: "ab".repeat(32) })).bolt11 }) })],
    ["a redirect", () => ({ "https://provider.com/.well-known/lnurlp/alice": () => new Response(null, { status: 302, headers: { location: "https://evil.example/x" } }) })],
    ["a callback on a private host", () => lnurlProvider({ callback: "https://127.0.0.1/callback" })],
    ["a huge body", () => ({ "https://provider.com/.well-known/lnurlp/alice": () => new Response(streamingBody(200 * 1024)) })],
  ];
  for (const [what, routes] of liars) {
    it(`pays nothing for ${what}`, async () => {
      const { result, row, newPayments } = await payoutVia(routes());
      expect(result).toBe("failed");
      expect(row).toMatchObject({ status: "failed", bolt11: null });
      expect(row.last_error).toEqual(expect.any(String));
      expect(newPayments, "the wallet paid nothing").toBe(0);
      await expectLedgerBalanced();
    });
  }
});
