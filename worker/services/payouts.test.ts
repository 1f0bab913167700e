// Payouts under failure: unclear outcomes are looked up, never paid twice; explicit failures are
// retried; LNURL providers that lie get nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { approveInterest, call, payWithDevWallet, postGig, signUp, submittedJob } from "../test/factories";
import { cancelGig } from "./gig-actions";
import { findUserById } from "./users";
import { expectLedgerBalanced, payoutsOf, receivedBy } from "../test/money";
import { makeDeps } from "../composition";
import type { DevPayFault } from "../lightning/dev-backend";
import { lnurlProvider, scriptedFetch, strangerInvoice, streamingBody, type Handler } from "../lightning/test-helpers";
import { attemptPayout, retryPayouts } from "./payouts";
import { moneyHealth, retryPayoutAsAdmin } from "./admin-money";
import type { Deps } from "./deps";
import type { LightningBackend } from "../lightning/backend";
import { decodeInvoice } from "../lightning/invoice";
import { statement } from "../db/test-statements";
import { adminSignIn, asAdmin } from "../test/admin";
import { payoutFeeCap, splitPayouts, workerPayout } from "../../domain/fees";

/** A job approved with payouts not attempted yet: the payout row exists, pending. */
async function approvedWithPendingPayout() {
  const job = await submittedJob();
  // Approve through the service with a deps whose deferred work we drop, so the test drives the payout.
  const { approveWork } = await import("./gig-actions");
  const { findUserById } = await import("./users");
  const deps = makeDeps(env, () => {});
  await approveWork(deps, await findUserById(deps, job.hirer.id), job.gigId);
  const [payout] = await payoutsOf(job.gigId);
  expect(payout).toMatchObject({ status: "pending", amount: 9_750 });
  return { ...job, payoutId: payout!.id as string, address: `worker${job.tag}@wallet.test` };
}

/** No test reaches outside the machine: an address that is not the dev wallet's answers as unreachable. */
const offline = async (url: string): Promise<Response> => {
  throw new TypeError(`network error: tests do not reach ${new URL(url).host}`);
};

const depsWithFault = (fault: DevPayFault | null) => makeDeps(env, () => {}, { devWallet: { faults: () => fault }, networkFetch: offline });

/** Deps whose wallet, like NWC's pay_invoice (which takes no fee limit), pays and reports 150 sats of fees. */
function overchargingDeps(): Deps {
  const base = depsWithFault(null);
  const dev = base.devWallet!;
  const noLimitWallet: LightningBackend = {
    kind: "nwc",
    createInvoice: (...args) => dev.createInvoice(...args),
    lookupInvoice: (hash) => dev.lookupInvoice(hash),
    async payInvoice(bolt11) {
      const paid = await dev.payInvoice(bolt11, 1_000_000);
      return paid.status === "succeeded" ? { ...paid, feeSats: 150 } : paid;
    },
    lookupPayment: (hash) => dev.lookupPayment(hash),
  };
  return { ...base, lightning: noLimitWallet };
}

const paymentsMade = async () => (await statement("SELECT COUNT(*) AS n FROM dev_lightning_payments").first<{ n: number }>())!.n;

const payoutRow = async (id: string) => (await statement("SELECT * FROM payouts WHERE id = ?", id).first<Record<string, any>>())!;

describe("payouts", () => {
  it("an answer lost after paying leaves the payout in flight; the lookup settles it and it is never paid again", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_after_paying"), job.payoutId)).toBe("in_flight");
    expect(await receivedBy(job.address)).toBe(9_750);
    expect((await payoutRow(job.payoutId)).status).toBe("in_flight");

    // Held in doubt: the next attempt looks its hash up, finds it paid, and settles it without paying again.
    expect((await payoutRow(job.payoutId)).hold).toBe("in_doubt");
    expect(await attemptPayout(depsWithFault(null), job.payoutId)).toBe("succeeded");
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
    await statement("UPDATE payouts SET next_attempt_at = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
    await retryPayouts(depsWithFault(null));
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("an answer lost before paying stays in flight and is not paid blindly", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_before_paying"), job.payoutId)).toBe("in_flight");
    // The wallet does not know the hash: still in doubt, nothing paid.
    expect(await attemptPayout(depsWithFault(null), job.payoutId)).toBe("in_flight");
    expect(await receivedBy(job.address)).toBe(0);
    await expectLedgerBalanced();
  });

  it("a payment the wallet does not know stays in flight, held for a look, even long after its invoice expired", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_before_paying"), job.payoutId)).toBe("in_flight");
    const { payment_hash: hash } = await payoutRow(job.payoutId);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3 * 3600_000 });
    try {
      // Hours later, the cron and the next attempts look it up again, and pay nothing.
      await retryPayouts(depsWithFault(null));
      expect(await attemptPayout(depsWithFault(null), job.payoutId)).toBe("in_flight");
    } finally {
      vi.useRealTimers();
    }
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "in_flight", hold: "in_doubt", payment_hash: hash });
    expect(await receivedBy(job.address)).toBe(0);
    await expectLedgerBalanced();
  });

  it("a recipient's node that holds our payment past the time-out and then settles it is paid once", async () => {
    const job = await approvedWithPendingPayout();
    const base = depsWithFault(null);
    const dev = base.devWallet!;
    // A wallet whose payment is held by the recipient's node: the pay call times out, the wallet has no
    // record of it for a while (its look-ups answer not found), then the payment settles.
    let held: { bolt11: string; paymentHash: string } | null = null;
    let settled = false;
    let payCalls = 0;
    const holdingWallet: LightningBackend = {
      kind: "dev",
      createInvoice: (...args) => dev.createInvoice(...args),
      lookupInvoice: (hash) => dev.lookupInvoice(hash),
      async payInvoice(bolt11) {
        payCalls += 1;
        held = { bolt11, paymentHash: decodeInvoice(bolt11).paymentHash };
        return { status: "unknown", reason: "timed out waiting for the payment" };
      },
      async lookupPayment(hash) {
        if (!settled) return { status: "unknown", reason: "no payment with this hash", notFound: true };
        return dev.lookupPayment(hash);
      },
    };
    const deps: Deps = { ...base, lightning: holdingWallet };
    expect(await attemptPayout(deps, job.payoutId)).toBe("in_flight");
    // Minutes pass: the invoice expires, the cron and the admin look it up again and again.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    try {
      for (let i = 0; i < 3; i++) {
        await retryPayouts(deps);
        expect((await retryPayoutAsAdmin(deps, job.payoutId)).status).toBe("in_flight");
      }
      expect(payCalls).toBe(1);
      const health = await moneyHealth(deps);
      expect(health.payouts.find((p) => p.id === job.payoutId)).toMatchObject({ problem: "needs_look", paymentHash: held!.paymentHash, status: "in_flight" });
      // The node settles at last: the wallet now knows the payment.
      expect((await dev.payInvoice(held!.bolt11, 10)).status).toBe("succeeded");
      settled = true;
      await statement("UPDATE payouts SET next_attempt_at = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
      await retryPayouts(deps);
    } finally {
      vi.useRealTimers();
    }
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "succeeded", hold: null });
    expect(payCalls).toBe(1);
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("does not claim a payout while payments are switched off, so none is left in flight", async () => {
    const job = await approvedWithPendingPayout();
    const off = makeDeps({ ...env, LIGHTNING_BACKEND: "dev", LOCAL_DEV: undefined }, () => {});
    await expect(attemptPayout(off, job.payoutId)).rejects.toThrow(/switched off/);
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "pending", attempts: 0, payment_hash: null });
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
    await statement("UPDATE users SET lightning_address = 'alice@provider.com' WHERE id = ?", job.worker.id).run();
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

describe("routing fees are bounded by what the gig earned", () => {
  /** A funded 1-sat job cancelled by its hirer, whose address is `alice@provider.com`: its 2-sat refund is pending. */
  async function tinyRefundPending() {
    const hirer = await signUp({ lightningAddress: "alice@provider.com" });
    const { gig, paymentRequest } = await postGig(hirer, { payment: 1 });
    expect((await payWithDevWallet(paymentRequest!)).status).toBe(200);
    const deps = makeDeps(env, () => {});
    await cancelGig(deps, await findUserById(deps, hirer.id), gig.id as string);
    const [refund] = await payoutsOf(gig.id as string);
    expect(refund).toMatchObject({ status: "pending", purpose: "hirer_refund", amount: 2 });
    return { gigId: gig.id as string, payoutId: refund!.id as string };
  }

  /** Deps whose outside Lightning addresses are played by `provider`, with routes that cost `feeSats`. */
  const routedAt = (feeSats: number, provider = lnurlProvider()) => makeDeps(env, () => {}, { networkFetch: scriptedFetch(provider).fetch, devWallet: { externalFeeSats: feeSats } });

  it("a 1-sat gig's refund routed at 10 sats is held for the admin, not paid and not retried by the cron", async () => {
    const { payoutId } = await tinyRefundPending();
    const paymentsBefore = await paymentsMade();
    expect(await attemptPayout(routedAt(10), payoutId)).toBe("failed");
    expect(await payoutRow(payoutId)).toMatchObject({ status: "failed", hold: "fee_over_cap", fee_cap: 1 });
    await statement("UPDATE payouts SET next_attempt_at = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), payoutId).run();
    await retryPayouts(routedAt(10));
    expect(await attemptPayout(routedAt(10), payoutId)).toBe("busy");
    expect(await paymentsMade()).toBe(paymentsBefore);
    const health = await moneyHealth(routedAt(10));
    expect(health.payouts.find((p) => p.id === payoutId)).toMatchObject({ problem: "fee_over_cap", hold: "fee_over_cap" });
    await expectLedgerBalanced();
  });

  it("the admin's retry of a held payout pays it anyway, within max(10 sats, 1 %)", async () => {
    const { payoutId } = await tinyRefundPending();
    expect(await attemptPayout(routedAt(10), payoutId)).toBe("failed");
    expect((await retryPayoutAsAdmin(routedAt(10), payoutId)).status).toBe("succeeded");
    expect(await payoutRow(payoutId)).toMatchObject({ status: "succeeded", routing_fee: 10, fee_cap: 10, hold: null });
    await expectLedgerBalanced();
  });

  it("a route within the cap pays at once", async () => {
    const { payoutId } = await tinyRefundPending();
    expect(await attemptPayout(routedAt(1), payoutId)).toBe("succeeded");
    expect(await payoutRow(payoutId)).toMatchObject({ status: "succeeded", routing_fee: 1, over_fee_cap: 0 });
    await expectLedgerBalanced();
  });

  it("a wallet that takes no fee limit and charges more is recorded; a destination over the cap twice gets no more automatic payouts", async () => {
    const destination = `greedy${crypto.randomUUID().slice(0, 6)}@wallet.test`;
    const deps = overchargingDeps();
    const jobs: Awaited<ReturnType<typeof approvedWithPendingPayout>>[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await approvedWithPendingPayout();
      await statement("UPDATE users SET lightning_address = ? WHERE id = ?", destination, job.worker.id).run();
      jobs.push(job);
    }
    for (const job of jobs.slice(0, 2)) {
      expect(await attemptPayout(deps, job.payoutId)).toBe("succeeded");
      expect(await payoutRow(job.payoutId)).toMatchObject({ status: "succeeded", routing_fee: 150, fee_cap: 98, over_fee_cap: 1 });
    }
    expect(await attemptPayout(deps, jobs[2]!.payoutId)).toBe("failed");
    expect(await payoutRow(jobs[2]!.payoutId)).toMatchObject({ status: "failed", hold: "destination_over_cap" });
    expect(await receivedBy(destination)).toBe(2 * 9_750);
    const health = await moneyHealth(deps);
    expect(health.payouts.filter((p) => jobs.some((j) => j.payoutId === p.id)).map((p) => p.problem).sort()).toEqual(["fee_over_cap", "paid_over_cap", "paid_over_cap"]);
    // The admin may still pay it.
    expect((await retryPayoutAsAdmin(deps, jobs[2]!.payoutId)).status).toBe("succeeded");
    await expectLedgerBalanced();
  });
});

describe("a milestone's payouts are capped by what that milestone earned", () => {
  it("approved: up to twice its own fee; split: each part up to its own fee, not the whole gig's", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const hirer = await signUp({ lightningAddress: `hirer${tag}@wallet.test` });
    const worker = await signUp({ lightningAddress: `worker${tag}@wallet.test` });
    // Two small milestones: on 100 sats the platform earns 2 × 3 sats, on the whole 200-sat gig 2 × 5.
    const { gig, paymentRequest } = await postGig(hirer, { payment: 200, milestones: [{ title: "Sketch", amount: 100 }, { title: "Final", amount: 100 }] });
    const gigId = gig.id as string;
    const step = async (path: string, who: { token: string }, json?: unknown) => {
      const r = await call(`/api/gigs/${gigId}/${path}`, who.token, "POST", json);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    expect((await payWithDevWallet(paymentRequest!)).status).toBe(200);
    await approveInterest(gigId, hirer, worker);
    await step("claim", worker);
    await step("milestones/1/start-work", worker);
    await step("milestones/1/submit", worker, { workSubmission: "The sketch." });
    await step("milestones/1/approve", hirer);

    const funding = await step("milestones/2/fund", hirer);
    expect((await payWithDevWallet(funding.paymentRequest)).status).toBe(200);
    await step("milestones/2/start-work", worker);
    await step("milestones/2/submit", worker, { workSubmission: "The final file." });
    await step("milestones/2/dispute", hirer, { reason: "Only half of it is final." });
    const admin = await adminSignIn();
    expect((await asAdmin(admin, `/api/admin/disputes/${gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 50 })).status).toBe(200);

    const split = splitPayouts(100, 50);
    const rows = (await payoutsOf(gigId)).map((p) => [p.milestone, p.purpose, p.amount, p.status, p.fee_cap]).sort((a, b) => a[0] - b[0] || String(a[1]).localeCompare(String(b[1])));
    expect(rows).toEqual([
      [1, "worker_payout", workerPayout(100), "succeeded", payoutFeeCap(workerPayout(100), 100, "worker")],
      [2, "hirer_refund", split.hirer, "succeeded", payoutFeeCap(split.hirer, 100, "split")],
      [2, "worker_payout", split.worker, "succeeded", payoutFeeCap(split.worker, 100, "split")],
    ]);
    // In sats: 6 (not the whole gig's 10), and 3 for each part of the split (not 5, nor 6 as an approval, nor 4 as a refund).
    expect(rows.map((r) => r[4])).toEqual([6, 3, 3]);
    await expectLedgerBalanced();
  });
});

describe("payees unstick their own payouts", () => {
  const downProvider = () => scriptedFetch({ "https://provider.com/.well-known/lnurlp/alice": () => new Response("down", { status: 503 }) });
  const failedNotices = async (token: string) => ((await call("/api/notifications", token)).body as unknown as { type: string; title: string; message: string }[]).filter((n) => n.type === "payout_failed");

  it("tells the payee once, lists the payout with the reason, and a new Lightning address pays it at once", async () => {
    const job = await approvedWithPendingPayout();
    await statement("UPDATE users SET lightning_address = 'alice@provider.com' WHERE id = ?", job.worker.id).run();
    const down = makeDeps(env, () => {}, { networkFetch: downProvider().fetch });
    expect(await attemptPayout(down, job.payoutId)).toBe("failed");

    const notices = await failedNotices(job.worker.token);
    expect(notices).toEqual([
      expect.objectContaining({ title: "Payout Failed", message: expect.stringMatching(/^Your payout of 9,750 sats failed: .+\. Update your Lightning address and retry\.$/) }),
    ]);
    const mine = await call("/api/user/payouts", job.worker.token);
    expect(mine.body).toEqual([expect.objectContaining({ id: job.payoutId, amount: 9_750, status: "failed", destination: "alice@provider.com", message: notices[0]!.message })]);
    expect((await call("/api/user/payouts", job.hirer.token)).body).toEqual([]);

    // The cron's retry fails at the same address: no second notice.
    await statement("UPDATE payouts SET next_attempt_at = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
    expect(await attemptPayout(down, job.payoutId)).toBe("failed");
    expect(await failedNotices(job.worker.token)).toHaveLength(1);

    // The admin sees where each attempt went.
    const health = await moneyHealth(down);
    expect(health.payouts.find((p) => p.id === job.payoutId)!.history.map((a) => [a.attempt, a.destination, a.outcome])).toEqual([
      [1, "alice@provider.com", "failed"],
      [2, "alice@provider.com", "failed"],
    ]);

    // A new address: retried at once, after the answer.
    const newAddress = `fixed${job.tag}@wallet.test`;
    expect((await call("/api/user/me", job.worker.token, "PATCH", { lightningAddress: newAddress })).status).toBe(200);
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "succeeded", destination: newAddress });
    expect(await receivedBy(newAddress)).toBe(9_750);
    expect((await call("/api/user/payouts", job.worker.token)).body).toEqual([]);
    await expectLedgerBalanced();
  });

  it("Retry now is the payee's own: another member gets 404, a paid payout 409", async () => {
    const job = await approvedWithPendingPayout();
    await statement("UPDATE users SET lightning_address = 'alice@provider.com' WHERE id = ?", job.worker.id).run();
    expect(await attemptPayout(makeDeps(env, () => {}, { networkFetch: downProvider().fetch }), job.payoutId)).toBe("failed");
    expect(await call(`/api/user/payouts/${job.payoutId}/retry`, job.hirer.token, "POST")).toMatchObject({ status: 404, body: { error: "payout_not_found" } });
    expect((await payoutRow(job.payoutId)).status).toBe("failed");

    await statement("UPDATE users SET lightning_address = ? WHERE id = ?", job.address, job.worker.id).run();
    expect(await call(`/api/user/payouts/${job.payoutId}/retry`, job.worker.token, "POST")).toMatchObject({ status: 200, body: { status: "succeeded" } });
    expect(await call(`/api/user/payouts/${job.payoutId}/retry`, job.worker.token, "POST")).toMatchObject({ status: 409, body: { error: "payout_already_paid" } });
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });
});

describe("the one payout rule: a new invoice only when every earlier attempt is known never to have sent money", () => {
  /**
   * A wallet whose first pay call waits until the test answers it (later ones, of other tests' payouts the
   * cron may pick up, are refused); look-ups answer what the test says.
   */
  function gatedWallet(dev: LightningBackend) {
    const pending: { bolt11: string; answer: (r: Awaited<ReturnType<LightningBackend["payInvoice"]>>) => void }[] = [];
    const lookups: string[] = [];
    let lookupAnswer: Awaited<ReturnType<LightningBackend["lookupPayment"]>> = { status: "pending" };
    const wallet: LightningBackend = {
      kind: "dev",
      createInvoice: (...args) => dev.createInvoice(...args),
      lookupInvoice: (hash) => dev.lookupInvoice(hash),
      payInvoice: (bolt11) =>
        pending.length === 0 ? new Promise((answer) => pending.push({ bolt11, answer })) : Promise.resolve({ status: "failed", reason: "another test's payout" }),
      async lookupPayment(hash) {
        lookups.push(hash);
        return lookupAnswer;
      },
    };
    return { wallet, pending, lookups, answerLookups: (a: typeof lookupAnswer) => (lookupAnswer = a) };
  }

  async function until(condition: () => boolean) {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(condition()).toBe(true);
  }

  it("the cron neither looks up nor retries a payout whose attempt may still be running (an LNbits pay call can last 95 s)", async () => {
    const job = await approvedWithPendingPayout();
    const base = depsWithFault(null);
    const gate = gatedWallet(base.devWallet!);
    const deps: Deps = { ...base, lightning: gate.wallet };
    const running = attemptPayout(deps, job.payoutId);
    await until(() => gate.pending.length === 1);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 95_000 });
    try {
      await retryPayouts(deps);
      expect(await retryPayoutAsAdmin(deps, job.payoutId).catch((e: { status: number }) => e.status)).toBe(409);
      expect(await call(`/api/user/payouts/${job.payoutId}/retry`, job.worker.token, "POST")).toMatchObject({ status: 409 });
    } finally {
      vi.useRealTimers();
    }
    expect(gate.lookups).not.toContain(decodeInvoice(gate.pending[0]!.bolt11).paymentHash);
    expect(gate.pending).toHaveLength(1);
    // The slow payment settles: paid once.
    const paid = await base.devWallet!.payInvoice(gate.pending[0]!.bolt11, 100);
    gate.pending[0]!.answer(paid);
    expect(await running).toBe("succeeded");
    expect(await receivedBy(job.address)).toBe(9_750);
    await expectLedgerBalanced();
  });

  it("an attempt that outlived its claim cannot write its outcome over the newer claim's: its late 'failed' never frees a new invoice", async () => {
    const job = await approvedWithPendingPayout();
    const base = depsWithFault(null);
    const gate = gatedWallet(base.devWallet!);
    const deps: Deps = { ...base, lightning: gate.wallet };
    const stale = attemptPayout(deps, job.payoutId);
    await until(() => gate.pending.length === 1);
    // The first attempt's worker went quiet past its claim; the cron takes the payout over and looks its hash up.
    await statement("UPDATE payouts SET claimed_until = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
    expect(await attemptPayout(deps, job.payoutId)).toBe("in_flight");
    expect(gate.lookups).toHaveLength(1);
    // Now the stale attempt hears "failed": too late, its claim is gone.
    gate.pending[0]!.answer({ status: "failed", reason: "no route" });
    await stale;
    expect(await payoutRow(job.payoutId)).toMatchObject({ status: "in_flight", hold: "in_doubt" });
    await statement("UPDATE payouts SET next_attempt_at = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), job.payoutId).run();
    await retryPayouts(deps);
    expect(gate.pending, "no second invoice was handed to the wallet").toHaveLength(1);
  });

  it("keeps every attempt's hash; the admin marks a payout in doubt failed only by naming exactly those hashes, and only then is a new invoice paid", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_before_paying"), job.payoutId)).toBe("in_flight");
    const first = (await payoutRow(job.payoutId)).payment_hash as string;
    const admin = await adminSignIn();
    const markFailed = (paymentHashes: unknown) => asAdmin(admin, `/api/admin/payouts/${job.payoutId}/mark-failed`, "POST", { paymentHashes });

    const health = await moneyHealth(depsWithFault(null));
    expect(health.payouts.find((p) => p.id === job.payoutId)).toMatchObject({ problem: "needs_look", hold: "in_doubt", doubtfulHashes: [first] });
    // The payee cannot retry it: it is not failed.
    expect(await call(`/api/user/payouts/${job.payoutId}/retry`, job.worker.token, "POST")).toMatchObject({ status: 409 });

    expect(await markFailed(["ab".repeat(32)])).toMatchObject({ status: 400, body: { error: "hashes_mismatch" } });
    expect(await markFailed([])).toMatchObject({ status: 400 });
    expect((await payoutRow(job.payoutId)).status).toBe("in_flight");
    expect(await markFailed([first])).toMatchObject({ status: 200, body: { status: "failed" } });
    expect(await markFailed([first])).toMatchObject({ status: 409, body: { error: "payout_not_in_doubt" } });

    // Now a new invoice is paid, once; the first attempt stays in the history as marked failed.
    expect((await retryPayoutAsAdmin(depsWithFault(null), job.payoutId)).status).toBe("succeeded");
    expect(await receivedBy(job.address)).toBe(9_750);
    const attempts = (await statement("SELECT outcome, payment_hash, detail FROM payout_attempts WHERE payout_id = ? AND payment_hash IS NOT NULL ORDER BY created_at, attempt", job.payoutId).all<Record<string, string>>()).results;
    expect(attempts.map((a) => a.outcome)).toEqual(["marked_failed", "succeeded"]);
    expect(attempts[0]).toMatchObject({ payment_hash: first, detail: "Marked failed by the admin after checking the node" });
    expect(attempts[1]!.payment_hash).not.toBe(first);
    await expectLedgerBalanced();
  });

  it("a payout is never marked failed while paid: a look-up that finds the payment settles it instead", async () => {
    const job = await approvedWithPendingPayout();
    expect(await attemptPayout(depsWithFault("unknown_after_paying"), job.payoutId)).toBe("in_flight");
    const admin = await adminSignIn();
    // The admin's Look up comes first and finds it paid; marking it failed afterwards is refused.
    expect((await retryPayoutAsAdmin(depsWithFault(null), job.payoutId)).status).toBe("succeeded");
    const hash = (await payoutRow(job.payoutId)).payment_hash as string;
    expect(await asAdmin(admin, `/api/admin/payouts/${job.payoutId}/mark-failed`, "POST", { paymentHashes: [hash] })).toMatchObject({ status: 409 });
    expect(await receivedBy(job.address)).toBe(9_750);
  });

  it("a member paid above the cap twice stays held whatever address they set, in any case", async () => {
    const deps = overchargingDeps();
    // One member is paid twice at an address, above the cap each time.
    const [first, second, third, fourth] = [await approvedWithPendingPayout(), await approvedWithPendingPayout(), await approvedWithPendingPayout(), await approvedWithPendingPayout()];
    const address = `Greedy${first.tag}@wallet.test`;
    await statement("UPDATE users SET lightning_address = ? WHERE id = ?", address, first.worker.id).run();
    await statement("UPDATE payouts SET recipient_id = ? WHERE id IN (?, ?, ?)", first.worker.id, first.payoutId, second.payoutId, third.payoutId).run();
    expect(await attemptPayout(deps, first.payoutId)).toBe("succeeded");
    expect(await attemptPayout(deps, second.payoutId)).toBe("succeeded");
    // A brand-new address does not reset the member's count.
    await statement("UPDATE users SET lightning_address = ? WHERE id = ?", `fresh${first.tag}@wallet.test`, first.worker.id).run();
    expect(await attemptPayout(deps, third.payoutId)).toBe("failed");
    expect(await payoutRow(third.payoutId)).toMatchObject({ hold: "destination_over_cap" });
    // Another member at the same address, written in capitals, is held too.
    await statement("UPDATE users SET lightning_address = ? WHERE id = ?", address.toUpperCase(), fourth.worker.id).run();
    expect(await attemptPayout(deps, fourth.payoutId)).toBe("failed");
    expect(await payoutRow(fourth.payoutId)).toMatchObject({ hold: "destination_over_cap" });
  });

  it("a 1,000,000-sat refund, on which the platform earns nothing, may spend at most 10 sats on routing", async () => {
    const hirer = await signUp({ lightningAddress: "alice@provider.com" });
    const { gig, paymentRequest } = await postGig(hirer, { payment: 1_000_000 });
    expect((await payWithDevWallet(paymentRequest!)).status).toBe(200);
    const deps = makeDeps(env, () => {}, { networkFetch: scriptedFetch(lnurlProvider({ payRequest: { maxSendable: 2_000_000_000 } })).fetch, devWallet: { externalFeeSats: 11 } });
    await cancelGig(deps, await findUserById(deps, hirer.id), gig.id as string);
    const [refund] = await payoutsOf(gig.id as string);
    const paymentsBefore = await paymentsMade();
    expect(await attemptPayout(deps, refund!.id)).toBe("failed");
    expect(await payoutRow(refund!.id)).toMatchObject({ status: "failed", hold: "fee_over_cap", fee_cap: 10, amount: 1_025_000 });
    expect(await paymentsMade()).toBe(paymentsBefore);
    await expectLedgerBalanced();
  });
});
