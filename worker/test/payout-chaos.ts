// The payout machine under faults (issue "Never paid twice"): sequences of payouts, cron ticks, admin and
// payee retries, address changes, restarts and late outcomes, run through the Worker's own payout service
// (services/payouts.ts) on a real D1, against a wallet that injects faults on every call. After each
// sequence: nothing was paid twice, every payout is paid, failed with nothing sent, or held in doubt and
// shown to the admin with its hashes, and the ledger check holds.
//
// Some sequences carry a gig with a milestone plan (issue 28): 2 to 4 milestones, each in its own escrow
// account (`escrow:<gig>:<n>`), settled one by one between the other steps by the Worker's own escrow functions
// (services/escrow.ts: released to the worker, refunded, split, or the gig cancelled there, refunding every funded
// milestone from it on), so several payouts of one gig, and of one payee, are in flight at once. Every payout
// is judged on its own (what left the wallet for its own invoices), and each wallet call's routing fee cap is
// the one of its milestone: domain/fees.ts payoutFeeCap with that milestone's amount, "split" when it was split.
//
// Backend-agnostic: a `ChaosWallet` brings the Worker's backend (LNbits over the fake LNbits, NWC through a
// relay proxy to @getalby/sdk's wallet service), the payees' invoices, and the truth of what left it.
import fc from "fast-check";
import { expect } from "vitest";
import { AtomicChange, ALWAYS, where } from "../db/atomic";
import type { Db } from "../db/client";
import { gigMilestones, gigs, payoutAttempts, payouts, users } from "../db/schema";
import { payoutFeeCap, platformFee, refundAmount, routingFeeCap, splitPayouts, totalCharge, workerPayout, type PayoutKind } from "../../domain/fees";
import type { LightningBackend } from "../lightning/backend";
import { decodeInvoice, sha256Hex } from "../lightning/invoice";
import { lnurlProvider, METADATA, scriptedFetch } from "../lightning/test-helpers";
import type { Env } from "../env";
import type { Deps } from "../services/deps";
import { addPayout, attemptPayout, markPayoutFailed, retryFailedPayoutsOf, retryPayouts } from "../services/payouts";
import { retryPayoutAsAdmin, moneyHealth } from "../services/admin-money";
import { checkLedger, escrowAccount, FEES, payableAccount, postTransaction, WALLET } from "../services/ledger";
import { loadMilestones, refundFundedFrom, refundMilestone, releaseMilestone, splitMilestone, type MilestoneRow } from "../services/escrow";
import { insertMilestones } from "../services/milestones";
import type { GigRow } from "../services/gig-views";

/** What the wallet under test can be made to do; each adapter names its own faults, "none" first. */
export interface ChaosWallet<F extends string = string> {
  name: string;
  /** The Worker's backend, talking to the wallet through whatever carries the faults. */
  backend: LightningBackend;
  /**
   * Whether the wallet takes a fee limit (LNbits: its fee reserve is checked first). NWC's pay_invoice takes
   * none: a payment over its cap cannot be stopped, only recorded, flagged for the admin and counted against
   * its destination (docs/decisions/016).
   */
  enforcesFeeCap: boolean;
  /** Every fault this wallet can inject into a pay call ("none" included). */
  faults: readonly F[];
  /** The fault for the pay calls of the next step. */
  setFault(fault: F): void;
  /** A look-up of this step may lie once (answer that it does not know, or that the payment is still pending). */
  setLookupLies(lie: boolean): void;
  /** An invoice from the payee's own node, for LNURL-pay. */
  issueInvoice(payee: string, amountSats: number, descriptionHash: string): Promise<string>;
  /** Sats that left the wallet for this payee's invoices (amounts, then routing fees). */
  sentTo(payee: string): { amount: number; fees: number };
  /** Whether any payment of these hashes left, or still may (the truth the admin checks on the node). */
  mayHaveSent(paymentHashes: string[]): boolean;
  /** Payments still on their way resolve (settle or fail, as each was set to). */
  resolveLate(): Promise<void>;
  /** No more faults and no more lies: the wallet answers the truth from now on. */
  honest(): void;
}

export type ChaosStep =
  | { kind: "attempt"; payout: number }
  | { kind: "cron" }
  | { kind: "admin_retry"; payout: number }
  | { kind: "payee_retry"; payout: number }
  | { kind: "address_change"; payout: number }
  | { kind: "restart" }
  | { kind: "time_passes" }
  | { kind: "late_outcomes" }
  | { kind: "admin_marks_failed"; payout: number }
  /** The plan's next milestone is settled (nothing when there is no plan, or it is over). */
  | { kind: "settle_milestone" };

/** How one milestone of a plan ends. */
export type MilestoneOutcome =
  /** Approved: the worker's payout (amount − fee). */
  | { kind: "release" }
  /** The admin refunded it (refund_hirer) and the work goes on: the hirer gets amount + fee back. */
  | { kind: "refund" }
  /** The admin split it: both payouts, each capped as one of a split. */
  | { kind: "split"; workerSharePercent: number }
  /** The gig is cancelled before this milestone starts: it and every later funded one come back in full. */
  | { kind: "cancel" };

export interface ChaosPlan {
  milestones: { amount: number; outcome: MilestoneOutcome }[];
  /** How many milestones the hirer funded up front (the rest are funded as each becomes current). */
  funded: number;
}

export interface ChaosSequence<F extends string> {
  /** Gigs without a plan, each owing its worker one payout. */
  payments: number[];
  /** At most one gig with a milestone plan, whose payouts appear as its milestones are settled. */
  plans: ChaosPlan[];
  steps: { step: ChaosStep; fault: F; lies: boolean }[];
}

/** An amount in sats: from a 1-sat one (a payout of 0: nothing to send) to a large one. */
const sats = (max: number) => fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 2_000, max }));

const milestoneOutcome: fc.Arbitrary<MilestoneOutcome> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "release" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "refund" as const }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 100 }).map((workerSharePercent) => ({ kind: "split" as const, workerSharePercent })) },
  { weight: 1, arbitrary: fc.constant({ kind: "cancel" as const }) },
);

const chaosPlan: fc.Arbitrary<ChaosPlan> = fc
  .array(fc.record({ amount: sats(250_000), outcome: milestoneOutcome }), { minLength: 2, maxLength: 4 })
  .chain((milestones) => fc.record({ milestones: fc.constant(milestones), funded: fc.integer({ min: 1, max: milestones.length }) }));

export function chaosSequence<F extends string>(faults: readonly F[]): fc.Arbitrary<ChaosSequence<F>> {
  // A step's number picks one of the payouts there are (a plan's make up to about six).
  const payout = fc.integer({ min: 0, max: 5 });
  const step: fc.Arbitrary<ChaosStep> = fc.oneof(
    { weight: 4, arbitrary: payout.map((p) => ({ kind: "attempt" as const, payout: p })) },
    { weight: 4, arbitrary: fc.constant({ kind: "cron" as const }) },
    { weight: 2, arbitrary: payout.map((p) => ({ kind: "admin_retry" as const, payout: p })) },
    { weight: 2, arbitrary: payout.map((p) => ({ kind: "payee_retry" as const, payout: p })) },
    { weight: 1, arbitrary: payout.map((p) => ({ kind: "address_change" as const, payout: p })) },
    { weight: 1, arbitrary: fc.constant({ kind: "restart" as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: "time_passes" as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: "late_outcomes" as const }) },
    { weight: 1, arbitrary: payout.map((p) => ({ kind: "admin_marks_failed" as const, payout: p })) },
    { weight: 2, arbitrary: fc.constant({ kind: "settle_milestone" as const }) },
  );
  // Three sequences in four pay gigs without a plan, as before milestones; one in four a plan's milestones (and
  // at most one gig without), so the run costs about what it did.
  const gigsToPay = fc.oneof(
    { weight: 3, arbitrary: fc.record({ payments: fc.array(sats(1_000_000), { minLength: 1, maxLength: 3 }), plans: fc.constant([] as ChaosPlan[]) }) },
    { weight: 1, arbitrary: fc.record({ payments: fc.array(sats(1_000_000), { maxLength: 1 }), plans: chaosPlan.map((p) => [p]) }) },
  );
  return fc.record({
    gigs: gigsToPay,
    // Half the steps meet a fault; a look-up lies on one step in four.
    steps: fc.array(
      fc.record({
        step,
        fault: fc.oneof(fc.constant(faults[0]!), fc.constantFrom(...faults.slice(1))),
        lies: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      }),
      { minLength: 3, maxLength: 25 },
    ),
  }).map(({ gigs, steps }) => ({ payments: gigs.payments, plans: gigs.plans, steps }));
}

/** What a run found, for `npm run chaos`'s counts. */
export interface ChaosCounts {
  sequences: number;
  steps: number;
  payouts: number;
  /** Of those, payouts of a milestone of a plan. */
  milestonePayouts: number;
  faults: number;
  paid: number;
  failedNothingSent: number;
  heldInDoubt: number;
}

export function reportChaos(wallet: string, c: ChaosCounts) {
  console.log(
    `chaos ${wallet}: ${c.sequences} sequences, ${c.steps} steps, ${c.faults} faults injected, ${c.payouts} payouts (${c.milestonePayouts} of milestones) ` +
      `(${c.paid} paid once, ${c.failedNothingSent} failed with nothing sent, ${c.heldInDoubt} held in doubt for the admin); nothing paid twice`,
  );
}

export const emptyCounts = (): ChaosCounts => ({ sequences: 0, steps: 0, payouts: 0, milestonePayouts: 0, faults: 0, paid: 0, failedNothingSent: 0, heldInDoubt: 0 });

/**
 * What the harness knows of each invoice handed to the wallet: who it was issued for (a label of its own, so
 * what left the wallet is counted per invoice, hence per payout, even when one payee is owed several payouts),
 * and every pay call made with it (the routing fee cap it was given, and whether the admin's "Pay anyway"
 * allowed the general cap).
 */
interface Invoices {
  labelOf: Map<string, string>;
  payCalls: Map<string, { maxFeeSats: number; adminApproved: boolean }[]>;
  /** Set while the admin retries a payout held over its cap: that retry may route up to the general cap. */
  adminApproving: boolean;
}

/** The deps the payout service needs, on a D1 handle, with a wallet and a provider for `*@chaos.test`. */
export function chaosDeps(db: Db, wallet: ChaosWallet, payees: string[], invoices: Invoices): Deps {
  let issued = 0;
  const routes = Object.assign(
    {},
    ...payees.map((name) =>
      lnurlProvider({
        domain: "chaos.test",
        name,
        payRequest: { maxSendable: 10_000_000_000 },
        invoice: async (msat) => {
          // Each invoice under a label of its own (the payee's name and a number): the wallet counts what it sent per label.
          const label = `${name}.${++issued}`;
          const pr = await wallet.issueInvoice(label, msat / 1000, await sha256Hex(METADATA));
          invoices.labelOf.set(decodeInvoice(pr).paymentHash, label);
          return { pr, routes: [] };
        },
      }),
    ),
  );
  return {
    db,
    env: {} as Env,
    lightning: recordingPayCalls(wallet.backend, invoices),
    devWallet: null,
    lnurl: { fetch: scriptedFetch(routes).fetch },
    defer: () => {},
    committed: () => {},
  };
}

/** The wallet as the payout service sees it, each pay call's fee cap noted before it goes through. */
function recordingPayCalls(backend: LightningBackend, invoices: Invoices): LightningBackend {
  return {
    kind: backend.kind,
    createInvoice: backend.createInvoice.bind(backend),
    lookupInvoice: backend.lookupInvoice.bind(backend),
    lookupPayment: backend.lookupPayment.bind(backend),
    async payInvoice(bolt11, maxFeeSats) {
      const hash = decodeInvoice(bolt11).paymentHash;
      invoices.payCalls.set(hash, [...(invoices.payCalls.get(hash) ?? []), { maxFeeSats, adminApproved: invoices.adminApproving }]);
      return backend.payInvoice(bolt11, maxFeeSats);
    },
  };
}

/** One payout the sequence follows, with what it should be. */
interface Owed {
  payoutId: string;
  gigId: string;
  userId: string;
  amount: number;
  /** The recipient's two Lightning addresses (`<payee>@chaos.test`): an address change moves between them. */
  payees: string[];
  /** Its routing fee cap: domain/fees.ts payoutFeeCap from what its milestone (or its gig without a plan) escrowed. */
  feeCap: number;
  /** The milestone of a plan it pays out, or null for a gig without a plan. */
  milestone: number | null;
}

/** A completed gig of `payment` sats whose worker is owed their payout (pending, not attempted yet). */
async function owedPayout(db: Db, payment: number, payee: string): Promise<Owed> {
  const userId = await chaosUser(db, payee);
  const gigId = crypto.randomUUID();
  await db.insert(gigs).values({ id: gigId, gigType: "job_request", title: "Chaos", description: "A gig paid under faults", category: "Other", payment, timeframe: 7, status: "completed", posterId: userId, workerId: userId, hirerId: userId });
  const fee = platformFee(payment);
  const amount = workerPayout(payment);
  const change = new AtomicChange(db, () => {});
  const payoutId = addPayout(change, ALWAYS, { gigId, purpose: "worker_payout", recipientId: userId, amount });
  postTransaction(change, "funding", [[WALLET, -(payment + fee)], [escrowAccount(gigId), payment + fee]], ALWAYS);
  postTransaction(change, "release", [[escrowAccount(gigId), -(payment + fee)], [FEES, 2 * fee], [payableAccount(payoutId), amount]], ALWAYS);
  await change.commit();
  return { payoutId, gigId, userId, amount, payees: [], feeCap: payoutFeeCap(amount, payment, "worker"), milestone: null };
}

async function chaosUser(db: Db, payee: string): Promise<string> {
  const userId = crypto.randomUUID();
  await db.insert(users).values({ id: userId, username: `npub1${userId.replaceAll("-", "")}`, lightningAddress: `${payee}@chaos.test` });
  return userId;
}

/** A gig with a milestone plan, in progress: its hirer and worker, and how far its settling has gone. */
interface PlannedGig {
  gigId: string;
  plan: ChaosPlan;
  hirer: { id: string; payees: string[] };
  worker: { id: string; payees: string[] };
  /** The next milestone to settle (1-based); past the plan, or `ended`, nothing is left. */
  next: number;
  ended: boolean;
}

/** Posts the plan's gig as the Worker writes one (services/milestones.ts insertMilestones) and funds its first milestones. */
async function plannedGig(db: Db, plan: ChaosPlan, run: string): Promise<PlannedGig> {
  const hirer = { id: await chaosUser(db, `mh${run}a`), payees: [`mh${run}a`, `mh${run}b`] };
  const worker = { id: await chaosUser(db, `mw${run}a`), payees: [`mw${run}a`, `mw${run}b`] };
  const gigId = crypto.randomUUID();
  const payment = plan.milestones.reduce((s, m) => s + m.amount, 0);
  const change = new AtomicChange(db, () => {});
  change.insert(gigs, {
    id: gigId, gigType: "job_request", title: "Chaos plan", description: "A gig paid step by step under faults", category: "Other", payment, timeframe: 7,
    status: "in_progress", escrowStatus: "funded", currentMilestone: 1, milestoneCount: plan.milestones.length, posterId: hirer.id, hirerId: hirer.id, workerId: worker.id,
  }, ALWAYS);
  insertMilestones(change, ALWAYS, gigId, plan.milestones.map((m, i) => ({ title: `Step ${i + 1}`, amount: m.amount })), payment);
  await change.commit();
  for (let n = 1; n <= plan.funded; n++) await fundMilestone(db, gigId, n);
  return { gigId, plan, hirer, worker, next: 1, ended: false };
}

/** The hirer's payment of milestone `n` arrives in its escrow account (as services/escrow.ts markInvoicePaid records it). */
async function fundMilestone(db: Db, gigId: string, n: number) {
  const m = (await db.query.gigMilestones.findFirst({ where: (t, { and, eq }) => and(eq(t.gigId, gigId), eq(t.number, n)) }))!;
  if (m.escrow !== "unfunded") return;
  const change = new AtomicChange(db, () => {});
  change.update(gigMilestones, { escrow: "funded", fundedAt: change.at }, where("id = ? AND escrow = 'unfunded'", m.id), ALWAYS);
  postTransaction(change, "escrow funded", [[WALLET, -totalCharge(m.amount)], [m.escrowAccount, totalCharge(m.amount)]], ALWAYS);
  await change.commit();
}

/**
 * Settles the plan's next milestone as its outcome says, through the Worker's own escrow functions, and moves
 * the gig on (or ends it); answers the payouts it made. Nothing when the plan is over.
 */
async function settleNextMilestone(db: Db, g: PlannedGig): Promise<Owed[]> {
  if (g.ended || g.next > g.plan.milestones.length) return [];
  const number = g.next;
  await fundMilestone(db, g.gigId, number); // the hirer funds the current milestone before its work starts
  const gig = (await db.query.gigs.findFirst({ where: (t, { eq }) => eq(t.id, g.gigId) })) as GigRow;
  const milestones = await loadMilestones({ db }, gig);
  const m = milestones.find((x) => x.number === number)!;
  const outcome = g.plan.milestones[number - 1]!.outcome;
  const last = number === g.plan.milestones.length;
  const change = new AtomicChange(db, () => {});
  const owed: Owed[] = [];
  const to = (who: PlannedGig["hirer"], payoutId: string, amount: number, ms: MilestoneRow, kind: PayoutKind) =>
    owed.push({ payoutId, gigId: g.gigId, userId: who.id, amount, payees: who.payees, feeCap: payoutFeeCap(amount, ms.amount, kind), milestone: ms.number });
  switch (outcome.kind) {
    case "release":
      to(g.worker, releaseMilestone(change, ALWAYS, gig, m, "approved"), workerPayout(m.amount), m, "worker");
      break;
    case "refund":
      to(g.hirer, refundMilestone(change, ALWAYS, gig, m, "refund_hirer"), refundAmount(m.amount), m, "refund");
      break;
    case "split": {
      const split = splitPayouts(m.amount, outcome.workerSharePercent);
      const [workerId, hirerId] = splitMilestone(change, ALWAYS, gig, m, split.worker, split.hirer);
      to(g.worker, workerId!, split.worker, m, "split");
      to(g.hirer, hirerId!, split.hirer, m, "split");
      break;
    }
    case "cancel": {
      const refunded = refundFundedFrom(change, ALWAYS, gig, milestones, number);
      const funded = milestones.filter((x) => x.number >= number && x.escrow === "funded");
      refunded.payoutIds.forEach((id, i) => to(g.hirer, id, refundAmount(funded[i]!.amount), funded[i]!, "refund"));
      break;
    }
  }
  const ended = outcome.kind === "cancel" || last;
  change.update(gigs,
    ended
      ? { status: outcome.kind === "cancel" ? "cancelled" : "completed", escrowStatus: outcome.kind === "cancel" ? "refunded" : "released" }
      : { status: "claimed", currentMilestone: number + 1 },
    where("id = ?", g.gigId),
    ALWAYS,
  );
  await change.commit();
  g.next = number + 1;
  g.ended = ended;
  return owed;
}

/** Runs one sequence; throws (through expect) when the rule was broken. */
export async function runSequence<F extends string>(db: Db, wallet: ChaosWallet<F>, seq: ChaosSequence<F>, counts: ChaosCounts): Promise<void> {
  const run = crypto.randomUUID().slice(0, 8);
  const payees = [
    ...seq.payments.flatMap((_, i) => [`p${i}a${run}`, `p${i}b${run}`]),
    ...(seq.plans.length ? [`mh${run}a`, `mh${run}b`, `mw${run}a`, `mw${run}b`] : []),
  ];
  const invoices: Invoices = { labelOf: new Map(), payCalls: new Map(), adminApproving: false };
  const deps = chaosDeps(db, wallet, payees, invoices);
  const owed: Owed[] = [];
  for (const [i, payment] of seq.payments.entries()) owed.push({ ...(await owedPayout(db, payment, `p${i}a${run}`)), payees: [`p${i}a${run}`, `p${i}b${run}`] });
  const planned = await Promise.all(seq.plans.map((plan) => plannedGig(db, plan, run)));
  const pick = (i: number) => owed[i % owed.length];
  const ignoreConflicts = (err: unknown) => {
    if ((err as { status?: number }).status === 409 || (err as { status?: number }).status === 400) return;
    throw err;
  };

  for (const { step, fault, lies } of seq.steps) {
    wallet.setFault(fault);
    wallet.setLookupLies(lies);
    if (fault !== "none") counts.faults += 1;
    counts.steps += 1;
    const p = "payout" in step ? pick(step.payout) : undefined;
    switch (step.kind) {
      case "attempt":
        if (p) await attemptPayout(deps, p.payoutId);
        break;
      case "cron":
        await retryPayouts(deps, 100);
        break;
      case "admin_retry": {
        if (!p) break;
        // The admin's retry of a payout held over its cap is "Pay anyway": it may route up to the general cap.
        const row = await db.query.payouts.findFirst({ where: (t, { eq }) => eq(t.id, p.payoutId) });
        invoices.adminApproving = row?.status === "failed" && (row.hold === "fee_over_cap" || row.hold === "destination_over_cap");
        await retryPayoutAsAdmin(deps, p.payoutId).catch(ignoreConflicts).finally(() => (invoices.adminApproving = false));
        break;
      }
      case "payee_retry":
        if (p) await retryFailedPayoutsOf(deps, p.userId, p.payoutId);
        break;
      case "address_change": {
        // The payee moves to their other address: their failed payouts are retried at once (routes/users.ts).
        if (!p) break;
        const row = await db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, p.userId) });
        const next = row?.lightningAddress === `${p.payees[0]}@chaos.test` ? p.payees[1]! : p.payees[0]!;
        await db.update(users).set({ lightningAddress: `${next}@chaos.test` }).where(eqId(p.userId));
        await retryFailedPayoutsOf(deps, p.userId);
        break;
      }
      case "restart":
        // The Worker went away in the middle of attempts: their claims run out.
        await db.update(payouts).set({ claimedUntil: new Date(Date.now() - 1000).toISOString() }).where(inIds(owed.map((o) => o.payoutId)));
        break;
      case "time_passes":
        await timePasses(db, owed.map((o) => o.payoutId));
        break;
      case "late_outcomes":
        await wallet.resolveLate();
        break;
      case "admin_marks_failed": {
        // An honest admin: checks the node, and marks failed only what never left and never will.
        if (!p) break;
        const health = await moneyHealth(deps);
        const row = health.payouts.find((x) => x.id === p.payoutId);
        if (row && row.doubtfulHashes.length > 0 && !wallet.mayHaveSent(row.doubtfulHashes)) {
          await markPayoutFailed(deps, p.payoutId, row.doubtfulHashes).catch(ignoreConflicts);
        }
        break;
      }
      case "settle_milestone":
        for (const g of planned) owed.push(...(await settleNextMilestone(db, g)));
        break;
    }
    await expectNothingPaidTwice(db, wallet, invoices, owed);
  }

  // What is left of the plan is settled (each of its milestones ends as generated), so every payout it makes
  // goes through what follows.
  for (const g of planned) while (!g.ended && g.next <= g.plan.milestones.length) owed.push(...(await settleNextMilestone(db, g)));

  // Then the wallet is honest again, late payments resolve, time passes and the cron runs: each payout ends
  // paid, failed with nothing sent, or held in doubt and visible to the admin.
  wallet.honest();
  for (let i = 0; i < 3; i++) {
    await wallet.resolveLate();
    await timePasses(db, owed.map((o) => o.payoutId));
    await db.update(payouts).set({ claimedUntil: null }).where(inIds(owed.map((o) => o.payoutId)));
    await retryPayouts(deps, 100);
    // A payout still pending is one whose request died before its first attempt: the cron takes it a
    // minute later (PENDING_GRACE_MS); here, at once.
    for (const p of owed) await attemptPayout(deps, p.payoutId);
  }
  const sent = await expectNothingPaidTwice(db, wallet, invoices, owed);
  const health = await moneyHealth(deps, new Date(Date.now() + 3600_000));
  for (const p of owed) {
    const row = (await db.query.payouts.findFirst({ where: (t, { eq }) => eq(t.id, p.payoutId) }))!;
    const { amount, fees } = sent.get(p.payoutId)!;
    if (!wallet.enforcesFeeCap && fees > routingFeeCap(p.amount)) {
      expect(row.overFeeCap, `payout ${p.payoutId} routed for ${fees} sats, over its cap: flagged for the admin`).toBe(true);
    }
    counts.payouts += 1;
    if (p.milestone !== null) counts.milestonePayouts += 1;
    if (row.status === "succeeded") {
      counts.paid += 1;
      expect(amount, `payout ${p.payoutId} is recorded paid: exactly its amount left`).toBe(p.amount);
    } else if (row.status === "failed") {
      counts.failedNothingSent += 1;
      expect(amount, `payout ${p.payoutId} is failed: nothing left`).toBe(0);
    } else {
      counts.heldInDoubt += 1;
      expect(row, `payout ${p.payoutId} neither paid nor failed is held in doubt`).toMatchObject({ status: "in_flight", hold: "in_doubt" });
      const shown = health.payouts.find((x) => x.id === p.payoutId);
      expect(shown?.problem, "a payout in doubt is on Money Health").toBe("needs_look");
      expect(shown?.doubtfulHashes.length, "with each hash in doubt").toBeGreaterThan(0);
    }
  }
  // The plan's gig has exactly the payouts followed here, each on the milestone whose escrow it paid out.
  for (const g of planned) {
    const rows = await db.select({ id: payouts.id, milestone: payouts.milestone }).from(payouts).where(eq(payouts.gigId, g.gigId));
    const followed = owed.filter((o) => o.gigId === g.gigId).map((o) => ({ id: o.payoutId, milestone: o.milestone }));
    expect(sortById(rows), "the plan's payouts, each of its milestone").toEqual(sortById(followed));
  }
  const ledger = await checkLedger(db);
  expect(await beyondOverCapRouting(db, wallet, ledger.problems), "the ledger check holds").toEqual([]);
  counts.sequences += 1;
  // This sequence is over: its payouts are not due again, so later sequences' cron ticks carry only their own.
  await db.update(payouts).set({ nextAttemptAt: "9999-12-31T00:00:00.000Z" }).where(inIds(owed.map((o) => o.payoutId)));
}

/**
 * The ledger's problems, but for the platform's earnings (`fees`) being short by no more than the routing it paid
 * on payouts routed above their cap. A wallet that takes no fee limit (NWC) can charge a payout more than the
 * platform earned on it, and more than it has earned at all when the books are young (the first sequence of a
 * run): that is the platform's own loss, each such payout flagged for the admin (checked above), and the ledger
 * check rightly shows the account as negative on Money Health. Anything else, or a shortfall beyond that
 * routing, is still a problem.
 */
async function beyondOverCapRouting(db: Db, wallet: ChaosWallet, problems: string[]): Promise<string[]> {
  if (wallet.enforcesFeeCap) return problems;
  const [row] = await db
    .select({ routed: sql<number>`COALESCE(SUM(${payouts.routingFee}), 0)` })
    .from(payouts)
    .where(eq(payouts.overFeeCap, true));
  const overCapRouting = Number(row?.routed ?? 0);
  return problems.filter((problem) => {
    const short = new RegExp(`^account ${FEES} is negative \\((-\\d+)\\)$`).exec(problem);
    return !short || -Number(short[1]) > overCapRouting;
  });
}

/**
 * For every payout, counting only its own invoices: what left the wallet is at most what was owed, its routing
 * at most the general cap where the wallet takes a fee limit, and every pay call was given the payout's own fee
 * cap (the general cap only on the admin's "Pay anyway"). Answers what left for each.
 */
async function expectNothingPaidTwice(db: Db, wallet: ChaosWallet, invoices: Invoices, owed: Owed[]): Promise<Map<string, { amount: number; fees: number }>> {
  const sent = new Map<string, { amount: number; fees: number }>();
  if (owed.length === 0) return sent;
  const attempts = await db
    .selectDistinct({ payoutId: payoutAttempts.payoutId, paymentHash: payoutAttempts.paymentHash })
    .from(payoutAttempts)
    .where(inArray(payoutAttempts.payoutId, owed.map((o) => o.payoutId)));
  for (const p of owed) {
    let amount = 0;
    let fees = 0;
    for (const { paymentHash } of attempts.filter((a) => a.payoutId === p.payoutId && a.paymentHash !== null)) {
      const label = invoices.labelOf.get(paymentHash!);
      expect(label, `payout ${p.payoutId}: its invoice ${paymentHash} came from its payee's provider`).toBeDefined();
      const out = wallet.sentTo(label!);
      amount += out.amount;
      fees += out.fees;
      for (const call of invoices.payCalls.get(paymentHash!) ?? []) {
        const cap = call.adminApproved ? routingFeeCap(p.amount) : p.feeCap;
        expect(call.maxFeeSats, `payout ${p.payoutId} (${p.milestone === null ? "a gig without a plan" : `milestone ${p.milestone}`}) was paid with its own routing fee cap`).toBe(cap);
      }
    }
    expect(amount, `payout ${p.payoutId} of ${p.amount} sats: ${amount} sats left the wallet`).toBeLessThanOrEqual(p.amount);
    if (wallet.enforcesFeeCap) expect(fees, `payout ${p.payoutId}: routing within the general cap`).toBeLessThanOrEqual(routingFeeCap(p.amount));
    sent.set(p.payoutId, { amount, fees });
  }
  return sent;
}

import { eq, inArray, sql } from "drizzle-orm";

/** Time passes for these payouts: their back-offs run out. */
async function timePasses(db: Db, ids: string[]) {
  await db.update(payouts).set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() }).where(inIds(ids));
}
const eqId = (id: string) => eq(users.id, id);
const sortById = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
const inIds = (ids: string[]) => inArray(payouts.id, ids);

/** How many sequences: CHAOS_RUNS (a number, as a string from the environment), else `fallback`. */
export function chaosRuns(setting: string | undefined, fallback: number): number {
  const n = Number(setting);
  return setting && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The seed: CHAOS_SEED to replay a failure, else a fresh one (fast-check prints it on failure). */
export function chaosSeed(setting: string | undefined): number | undefined {
  const n = Number(setting);
  return setting && Number.isInteger(n) ? n : undefined;
}
