// Milestones under races (issue 28): requests that land on one milestone at the same moment. Every milestone
// transition is a compare-and-set, so exactly one of them takes effect, the money follows it, and the ledger
// balances after each round (checkLedger: each milestone's escrow holds its total charge while funded, else 0).
//
// Each race runs in rounds. Some rounds are plain (all requests at once: whichever the runtime lets win), others
// hold one request at its commit: it has read everything it decides on, then waits there while another request
// runs to its end, and writes last. That is the interleaving a compare-and-set exists for (both read the same
// state, one writes first), and holding it in turn for each request shows every one of them losing to a stale
// read, and every outcome, rather than whichever order the runtime happens to favour.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { totalCharge } from "../../domain/fees";
import { makeDeps } from "../composition";
import { statement } from "../db/test-statements";
import { api, call, payWithDevWallet, statusAndBody, type Json } from "../test/factories";
import { approve, deliver, fund, fundInvoice, gigOf, ok, plannedJob, type Job } from "../test/milestones";
import { expectLedgerBalanced, payoutsOf } from "../test/money";
import { autoReleaseDue } from "./auto-release";

const ROUNDS = 6;

type Answer = { status: number; body: Json };

// ---- Holding a request at its commit -------------------------------------------------------------------

interface Held {
  /** The D1 binding the held request runs on. */
  DB: D1Database;
  /** Resolves once the request is at its commit (it has read what it decides on; nothing written yet). */
  reached: Promise<void>;
  /** Lets the request write. */
  release: () => void;
}

/**
 * A D1 binding whose first state change waits at its commit: the first batch that begins with a compare-and-set
 * on a gig, a milestone or an invoice (AtomicChange.commit) waits until released; everything else runs as usual.
 */
function heldAtCommit(): Held {
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  const released = new Promise<void>((r) => (release = r));
  let holding = false;
  const statements = new WeakMap<object, { target: D1PreparedStatement; sql: string }>();
  const passThrough = <T extends object>(target: T, prop: string | symbol) => {
    const value = Reflect.get(target, prop);
    return typeof value === "function" ? value.bind(target) : value;
  };
  const statementOf = (target: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(target, {
      get: (t, prop) => (prop === "bind" ? (...values: unknown[]) => statementOf(t.bind(...values), sql) : passThrough(t, prop)),
    });
    statements.set(proxy, { target, sql });
    return proxy;
  };
  const databaseOf = <T extends D1Database | D1DatabaseSession>(db: T): T =>
    new Proxy(db, {
      get(t, prop) {
        if (prop === "prepare") return (sql: string) => statementOf(t.prepare(sql), sql);
        if (prop === "withSession") return (...args: unknown[]) => databaseOf((t as D1Database).withSession(...(args as [string])));
        if (prop === "batch") {
          return async (list: D1PreparedStatement[]) => {
            const first = statements.get(list[0]!)?.sql ?? "";
            if (!holding && /^UPDATE "(gigs|gig_milestones|invoices)" SET/.test(first)) {
              holding = true;
              reach();
              await released;
            }
            return t.batch(list.map((s) => statements.get(s)?.target ?? s));
          };
        }
        return passThrough(t, prop);
      },
    });
  return { DB: databaseOf(env.DB), reached, release };
}

/** A request as `call` makes it, on the given D1 binding. */
async function callOn(DB: D1Database | undefined, path: string, token: string | undefined, method = "GET", json?: unknown): Promise<Answer> {
  return statusAndBody(await api(path, { method, token, json, env: DB ? { DB } : undefined }));
}

/**
 * Runs `racers` so that every one but `free` reads the state and waits at its commit, then `free` runs to its
 * end, then the held ones write. Without `free` (null) they all simply run at once. Results in the order given.
 */
async function race<T>(free: number | null, ...racers: ((DB?: D1Database) => Promise<T>)[]): Promise<T[]> {
  if (free === null) return Promise.all(racers.map((r) => r()));
  const held = racers.map((_, i) => (i === free ? null : heldAtCommit()));
  const started = racers.map((r, i) => (i === free ? null : r(held[i]!.DB)));
  // A held request that ends before writing anything (refused at once) never reaches its commit.
  await Promise.all(held.map((h, i) => (h ? Promise.race([h.reached, started[i]!.then(() => undefined, () => undefined)]) : undefined)));
  const freeResult = await racers[free]!();
  for (const h of held) h?.release();
  const results = await Promise.all(started.map((p) => p ?? Promise.resolve(freeResult)));
  return results;
}

// ---- Members, gigs and money -------------------------------------------------------------------------

/** Milestone 1 approved and paid; the gig is claimed on milestone 2, unfunded. */
async function onSecond(): Promise<Job> {
  const job = await plannedJob();
  await deliver(job, 1);
  await approve(job, 1);
  return job;
}

/** Sats held in milestone `n`'s escrow account. */
async function escrowOf(gigId: string, n: number) {
  return (await statement("SELECT COALESCE(SUM(amount), 0) AS b FROM ledger_entries WHERE account = ?", `escrow:${gigId}:${n}`).first<number>("b")) ?? 0;
}

/** Every funded milestone holds exactly its own amount's total charge: nothing funded was changed under it. */
async function expectFundedUnchanged(job: Job) {
  const gig = await gigOf(job);
  for (const m of gig.milestones as Json[]) {
    expect([m.number, await escrowOf(job.gigId, m.number)]).toEqual([m.number, m.escrow === "funded" ? totalCharge(m.amount) : 0]);
  }
  return gig;
}

/** The wallet was paid (nobody told yet): its webhook, a request of its own, then reports it, as LNbits would. */
async function paidAtWallet(paymentRequest: string): Promise<string> {
  return (await makeDeps(env, () => {}).devWallet!.payDevInvoice(paymentRequest)).paymentHash;
}
const walletWebhook = async (paymentHash: string, DB?: D1Database) =>
  statusAndBody(await api("/api/webhooks/lightning/race-secret", { method: "POST", json: { payment_hash: paymentHash }, env: { WEBHOOK_SECRET: "race-secret", ...(DB ? { DB } : {}) } }));

/** What escrow made of the payment of milestone `n`'s latest invoice, from the records (a webhook answers only that it heard). */
async function invoiceOutcome(gigId: string, n: number): Promise<"funded" | "late" | "unpaid"> {
  const invoice = await statement("SELECT id, status FROM invoices WHERE gig_id = ? AND milestone = ? ORDER BY created_at DESC LIMIT 1", gigId, n).first<{ id: string; status: string }>();
  if (!invoice || invoice.status !== "paid") return "unpaid";
  const late = await statement("SELECT COUNT(*) AS n FROM payouts WHERE gig_id = ? AND purpose = ?", gigId, `late_payment:${invoice.id}`).first<number>("n");
  return late ? "late" : "funded";
}

// ---- The races -----------------------------------------------------------------------------------------

describe("approve vs dispute vs auto-release on one submitted milestone", () => {
  it("exactly one wins; one payout or one dispute, never both", async () => {
    const winnersSeen = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const job = await onSecond();
      await fund(job, 2);
      await deliver(job, 2);
      // The hirer's silence ran out: the cron may release milestone 2 just as the hirer approves and the worker disputes.
      await statement("UPDATE gigs SET submitted_at = ? WHERE id = ?", new Date(Date.now() - 15 * 86_400_000).toISOString(), job.gigId).run();

      const deferred: Promise<unknown>[] = [];
      // Rounds 0-2: each of the three in turn runs free while the other two wait at their commits; then all at once.
      const [approved, disputed, cron] = (await race<unknown>(
        round < 3 ? round : null,
        (DB) => callOn(DB, `/api/gigs/${job.gigId}/milestones/2/approve`, job.hirer.token, "POST"),
        (DB) => callOn(DB, `/api/gigs/${job.gigId}/milestones/2/dispute`, job.worker.token, "POST", { reason: "Pay me for milestone 2." }),
        (DB) => autoReleaseDue(makeDeps(DB ? { ...env, DB } : env, (work) => deferred.push(work()))),
      )) as [Answer, Answer, { released: number }];
      await Promise.all(deferred);

      const winners = [approved.status === 200 && "approved", disputed.status === 200 && "disputed", cron.released === 1 && "auto_released"].filter(Boolean);
      expect(winners).toHaveLength(1);
      for (const r of [approved, disputed]) expect([200, 409]).toContain(r.status);
      const winner = winners[0] as string;
      winnersSeen.add(winner);
      if (round < 3) expect(winner).toBe(["approved", "disputed", "auto_released"][round]);

      const gig = await gigOf(job);
      const secondPayouts = (await payoutsOf(job.gigId)).filter((p) => p.milestone === 2);
      if (winner === "disputed") {
        expect(gig).toMatchObject({ status: "disputed", currentMilestone: 2 });
        expect(gig.milestones[1]).toMatchObject({ escrow: "funded", step: "disputed" });
        expect(secondPayouts).toHaveLength(0);
        expect(await escrowOf(job.gigId, 2)).toBe(20_500);
      } else {
        expect(gig).toMatchObject({ status: "claimed", currentMilestone: 3 });
        expect(gig.milestones[1]).toMatchObject({ escrow: "released", resolution: winner });
        expect(gig.milestones[2]).toMatchObject({ escrow: "unfunded", step: "unfunded" });
        expect(secondPayouts.map((p) => [p.purpose, p.amount, p.status])).toEqual([["worker_payout", 19_500, "succeeded"]]);
        expect(await escrowOf(job.gigId, 2)).toBe(0);
      }
      const events = ok(await call(`/api/gigs/${job.gigId}/events`, job.hirer.token), "events") as unknown as { type: string }[];
      expect(events.filter((e) => ["approved", "disputed", "auto_released"].includes(e.type)).map((e) => e.type)).toEqual(["approved", winner]);
      await expectLedgerBalanced();
    }
    expect([...winnersSeen].sort()).toEqual(["approved", "auto_released", "disputed"]);
  });
});

describe("funding the next milestone twice at once", () => {
  it("two fund requests: one invoice recorded, both answers carry it, paying it funds the milestone once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const job = await onSecond();
      // Rounds 0-1: one request asks the wallet for an invoice and waits to record it while the other records its own.
      const [a, b] = await race<Answer>(round < 2 ? round : null, (DB) => fundInvoice(job, 2, DB), (DB) => fundInvoice(job, 2, DB));
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.paymentRequest).toBe(b.body.paymentRequest);
      expect(a.body).toMatchObject({ totalCharge: 20_500, milestone: 2 });
      const recorded = await statement("SELECT bolt11 FROM invoices WHERE gig_id = ? AND milestone = 2", job.gigId).all<{ bolt11: string }>();
      expect(recorded.results.map((r) => r.bolt11)).toEqual([a.body.paymentRequest]);
      expect((await gigOf(job)).milestones[1]).toMatchObject({ step: "awaiting_payment", paymentRequest: a.body.paymentRequest });

      expect(ok(await payWithDevWallet(a.body.paymentRequest), "pay")).toMatchObject({ outcome: "funded" });
      expect(ok(await payWithDevWallet(b.body.paymentRequest), "pay again")).toMatchObject({ alreadyPaid: true, outcome: "already_paid" });
      expect((await gigOf(job)).milestones[1]).toMatchObject({ escrow: "funded", step: "funded" });
      expect(await escrowOf(job.gigId, 2)).toBe(20_500);
      await expectLedgerBalanced();
    }
  });

  it("the same payment reported twice at once: the milestone is funded once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const job = await onSecond();
      const invoice = ok(await fundInvoice(job, 2), "fund 2");
      const hash = await paidAtWallet(invoice.paymentRequest);
      // The wallet's webhook and the payer's own report, together; in rounds 0-1 one of them waits at its commit.
      const [webhook, payer] = await race<Answer>(
        round < 2 ? round : null,
        (DB) => walletWebhook(hash, DB),
        (DB) => callOn(DB, "/api/dev/invoices/pay", undefined, "POST", { paymentRequest: invoice.paymentRequest }),
      );
      expect([webhook.status, payer.status]).toEqual([200, 200]);
      expect(payer.body.alreadyPaid).toBe(true);
      expect(await invoiceOutcome(job.gigId, 2)).toBe("funded");
      expect(await escrowOf(job.gigId, 2)).toBe(20_500);
      expect((await payoutsOf(job.gigId)).map((p) => p.purpose)).toEqual(["worker_payout"]); // milestone 1's: nothing refunded
      const funded = await statement("SELECT COUNT(*) AS n FROM gig_events WHERE gig_id = ? AND type = 'escrow_funded'", job.gigId).first<number>("n");
      expect(funded).toBe(2); // milestone 1, milestone 2
      await expectLedgerBalanced();
    }
  });

  it("milestone 3 asked for at the same moment as milestone 2 waits for it; then each holds its own total", async () => {
    const job = await onSecond();
    const [a, b] = await Promise.all([fundInvoice(job, 2), fundInvoice(job, 3)]);
    expect(a.status).toBe(200);
    expect(b).toMatchObject({ status: 409, body: { error: "fund_in_order" } });
    await payWithDevWallet(a.body.paymentRequest);
    await fund(job, 3);
    expect([await escrowOf(job.gigId, 2), await escrowOf(job.gigId, 3)]).toEqual([20_500, 30_750]);
    await expectLedgerBalanced();
  });
});

describe("cancel vs the next milestone's payment landing", () => {
  it("either the milestone is funded and then refunded by the cancel, or the payment comes back as a late refund", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const job = await onSecond();
      const invoice = ok(await fundInvoice(job, 2), "fund 2");
      const invoiceId = await statement("SELECT id FROM invoices WHERE gig_id = ? AND milestone = 2", job.gigId).first<string>("id");
      const hash = await paidAtWallet(invoice.paymentRequest);
      // Round 0: the cancel waits at its commit while the payment is recorded; round 1 the other way; then at once.
      const [cancelled, reported] = await race<Answer>(
        round < 2 ? 1 - round : null,
        (DB) => callOn(DB, `/api/gigs/${job.gigId}/cancel`, job.worker.token, "POST"),
        (DB) => walletWebhook(hash, DB),
      );
      expect(reported.status).toBe(200);
      const outcome = await invoiceOutcome(job.gigId, 2);
      outcomes.add(outcome);
      if (round === 0) expect([outcome, cancelled.status]).toEqual(["funded", 409]);
      if (round === 1) expect([outcome, cancelled.status]).toEqual(["late", 200]);

      if (outcome === "funded" && cancelled.status !== 200) {
        // The payment won: the cancel read the gig before it and lost, telling the worker to reload. The gig waits
        // on milestone 2, now funded; cancelled again, it refunds milestone 2 in full.
        expect(cancelled).toMatchObject({ status: 409, body: { error: "stale_gig" } });
        expect(await gigOf(job)).toMatchObject({ status: "claimed", currentMilestone: 2, escrowStatus: "funded" });
        expect(await call(`/api/gigs/${job.gigId}/cancel`, job.worker.token, "POST")).toMatchObject({ status: 200, body: { refund: { amount: 20_500 } } });
      }
      const gig = await gigOf(job);
      expect(gig.status).toBe("cancelled");
      const refunds = (await payoutsOf(job.gigId)).filter((p) => p.milestone === 2).map((p) => [p.purpose, p.amount, p.status]);
      if (outcome === "funded") {
        expect(gig.milestones[1]).toMatchObject({ escrow: "refunded", step: "refunded" });
        expect(refunds).toEqual([["hirer_refund", 20_500, "succeeded"]]);
      } else {
        expect(outcome).toBe("late");
        expect(cancelled).toMatchObject({ status: 200, body: {} });
        expect(gig.milestones[1]).toMatchObject({ escrow: "unfunded" });
        expect(refunds).toEqual([[`late_payment:${invoiceId}`, 20_500, "succeeded"]]);
      }
      // Never sats left in a cancelled gig's escrow.
      expect(await escrowOf(job.gigId, 2)).toBe(0);
      await expectLedgerBalanced();
    }
    expect([...outcomes].sort()).toEqual(["funded", "late"]);
  });
});

describe("accepting a plan change vs funding the milestone it replaces", () => {
  it("the payment landing as the hirer accepts: never a funded milestone changed", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const job = await onSecond();
      // The hirer already holds milestone 2's invoice when the worker proposes a new milestone 2 and 3.
      const invoice = ok(await fundInvoice(job, 2), "fund 2");
      const proposal = ok(
        await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.worker.token, "POST", {
          milestones: [
            { title: "Design, bigger", amount: 25_000 },
            { title: "Build", amount: 30_000 },
          ],
        }),
        "propose",
      );
      expect(proposal.fromNumber).toBe(2);
      const hash = await paidAtWallet(invoice.paymentRequest);
      // Round 0: the acceptance waits at its commit while the payment is recorded; round 1 the other way; then at once.
      const [accepted, reported] = await race<Answer>(
        round < 2 ? 1 - round : null,
        (DB) => callOn(DB, `/api/gigs/${job.gigId}/milestone-proposals/${proposal.id}/accept`, job.hirer.token, "POST"),
        (DB) => walletWebhook(hash, DB),
      );
      expect(reported.status).toBe(200);
      const outcome = await invoiceOutcome(job.gigId, 2);
      outcomes.add(outcome);
      if (round === 0) expect([outcome, accepted.status]).toEqual(["funded", 409]);
      if (round === 1) expect([outcome, accepted.status]).toEqual(["late", 200]);

      const gig = await expectFundedUnchanged(job);
      if (accepted.status === 200) {
        // The change came first: the old milestone 2's invoice no longer funds anything and is refunded in full.
        expect(outcome).toBe("late");
        expect(gig).toMatchObject({ payment: 65_000, milestoneProposal: null });
        expect(gig.milestones[1]).toMatchObject({ title: "Design, bigger", amount: 25_000, escrow: "unfunded" });
        const [refund] = (await payoutsOf(job.gigId)).filter((p) => p.milestone === 2);
        expect(refund).toMatchObject({ purpose: expect.stringMatching(/^late_payment:/), amount: 20_500, status: "succeeded" });
      } else {
        // The payment came first: milestone 2 is funded as it was, and the change is refused, again when retried.
        expect(accepted.status).toBe(409);
        expect(outcome).toBe("funded");
        expect(gig).toMatchObject({ payment: 60_000 });
        expect(gig.milestones[1]).toMatchObject({ title: "Design", amount: 20_000, escrow: "funded" });
        expect(await call(`/api/gigs/${job.gigId}/milestone-proposals/${proposal.id}/accept`, job.hirer.token, "POST")).toMatchObject({
          status: 409,
          body: { error: "milestone_funded" },
        });
      }
      await expectLedgerBalanced();
    }
    expect([...outcomes].sort()).toEqual(["funded", "late"]);
  });

  it("asking for the invoice as the other party accepts: an invoice of the replaced amount only ever comes back as a refund", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const job = await onSecond();
      const proposal = ok(
        await call(`/api/gigs/${job.gigId}/milestone-proposals`, job.hirer.token, "POST", { milestones: [{ title: "All the rest", amount: 45_000 }] }),
        "propose",
      );
      // Round 0: the fund request records its invoice of the old amount while the acceptance waits at its commit;
      // round 1: the fund request asks the wallet for an invoice of the old amount and waits while the change is
      // accepted, then finds its milestone gone; then at once.
      const [accepted, invoice] = await race<Answer>(
        round < 2 ? 1 - round : null,
        (DB) => callOn(DB, `/api/gigs/${job.gigId}/milestone-proposals/${proposal.id}/accept`, job.worker.token, "POST"),
        (DB) => fundInvoice(job, 2, DB),
      );
      if (round === 0) expect([accepted.status, invoice.status, invoice.body.totalCharge]).toEqual([200, 200, 20_500]);
      if (round === 1) expect([accepted.status, invoice.status, invoice.body.error]).toEqual([200, 409, "stale_gig"]);
      expect([200, 409]).toContain(accepted.status);
      expect([200, 409]).toContain(invoice.status);
      // Whatever the fund request answered is paid by the hirer.
      const paid = invoice.status === 200 ? ok(await payWithDevWallet(invoice.body.paymentRequest), "pay") : null;

      const gig = await expectFundedUnchanged(job);
      const second = gig.milestones[1] as Json;
      if (accepted.status === 200) {
        expect(gig).toMatchObject({ milestoneCount: 2, payment: 55_000 });
        expect(second).toMatchObject({ title: "All the rest", amount: 45_000 });
        if (paid?.outcome === "funded") {
          // Funded only through an invoice of its new amount.
          expect(invoice.body.totalCharge).toBe(totalCharge(45_000));
          expect(second.escrow).toBe("funded");
        } else if (paid) {
          // An invoice of the old amount, answered before the change: it funds nothing and comes back in full.
          expect(paid.outcome).toBe("refunding_late_payment");
          expect(second.escrow).toBe("unfunded");
          expect((await payoutsOf(job.gigId)).filter((p) => String(p.purpose).startsWith("late_payment:")).map((p) => p.amount)).toEqual([20_500]);
        }
      } else {
        expect(paid?.outcome).toBe("funded");
        expect(gig).toMatchObject({ milestoneCount: 3, payment: 60_000 });
        expect(second).toMatchObject({ title: "Design", amount: 20_000, escrow: "funded" });
      }
      await expectLedgerBalanced();
    }
  });
});
