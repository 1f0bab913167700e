// The payout machine under faults (issue "Never paid twice"): sequences of payouts, cron ticks, admin and
// payee retries, address changes, restarts and late outcomes, run through the Worker's own payout service
// (services/payouts.ts) on a real D1, against a wallet that injects faults on every call. After each
// sequence: nothing was paid twice, every payout is paid, failed with nothing sent, or held in doubt and
// shown to the admin with its hashes, and the ledger check holds.
//
// Backend-agnostic: a `ChaosWallet` brings the Worker's backend (LNbits over the fake LNbits, NWC through a
// relay proxy to @getalby/sdk's wallet service), the payees' invoices, and the truth of what left it.
import fc from "fast-check";
import { expect } from "vitest";
import { AtomicChange, ALWAYS } from "../db/atomic";
import type { Db } from "../db/client";
import { gigs, payouts, users } from "../db/schema";
import { platformFee, routingFeeCap, workerPayout } from "../../domain/fees";
import type { LightningBackend } from "../lightning/backend";
import { sha256Hex } from "../lightning/invoice";
import { lnurlProvider, METADATA, scriptedFetch } from "../lightning/test-helpers";
import type { Env } from "../env";
import type { Deps } from "../services/deps";
import { addPayout, attemptPayout, markPayoutFailed, retryFailedPayoutsOf, retryPayouts } from "../services/payouts";
import { retryPayoutAsAdmin, moneyHealth } from "../services/admin-money";
import { checkLedger, escrowAccount, FEES, payableAccount, postTransaction, WALLET } from "../services/ledger";

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
  | { kind: "admin_marks_failed"; payout: number };

export interface ChaosSequence<F extends string> {
  payments: number[];
  steps: { step: ChaosStep; fault: F; lies: boolean }[];
}

export function chaosSequence<F extends string>(faults: readonly F[]): fc.Arbitrary<ChaosSequence<F>> {
  const payout = fc.integer({ min: 0, max: 2 });
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
  );
  return fc.record({
    // From a 1-sat gig (payout 0: nothing to send) to a large one.
    payments: fc.array(fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 2_000, max: 1_000_000 })), { minLength: 1, maxLength: 3 }),
    // Half the steps meet a fault; a look-up lies on one step in four.
    steps: fc.array(
      fc.record({
        step,
        fault: fc.oneof(fc.constant(faults[0]!), fc.constantFrom(...faults.slice(1))),
        lies: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      }),
      { minLength: 3, maxLength: 25 },
    ),
  });
}

/** What a run found, for `npm run chaos`'s counts. */
export interface ChaosCounts {
  sequences: number;
  steps: number;
  payouts: number;
  faults: number;
  paid: number;
  failedNothingSent: number;
  heldInDoubt: number;
}

export function reportChaos(wallet: string, c: ChaosCounts) {
  console.log(
    `chaos ${wallet}: ${c.sequences} sequences, ${c.steps} steps, ${c.faults} faults injected, ${c.payouts} payouts ` +
      `(${c.paid} paid once, ${c.failedNothingSent} failed with nothing sent, ${c.heldInDoubt} held in doubt for the admin); nothing paid twice`,
  );
}

export const emptyCounts = (): ChaosCounts => ({ sequences: 0, steps: 0, payouts: 0, faults: 0, paid: 0, failedNothingSent: 0, heldInDoubt: 0 });

/** The deps the payout service needs, on a D1 handle, with a wallet and a provider for `*@chaos.test`. */
export function chaosDeps(db: Db, wallet: ChaosWallet, payees: string[]): Deps {
  const routes = Object.assign(
    {},
    ...payees.map((name) =>
      lnurlProvider({
        domain: "chaos.test",
        name,
        payRequest: { maxSendable: 10_000_000_000 },
        invoice: async (msat) => ({ pr: await wallet.issueInvoice(name, msat / 1000, await sha256Hex(METADATA)), routes: [] }),
      }),
    ),
  );
  return {
    db,
    env: {} as Env,
    lightning: wallet.backend,
    devWallet: null,
    lnurl: { fetch: scriptedFetch(routes).fetch },
    defer: () => {},
    committed: () => {},
  };
}

/** A completed gig of `payment` sats whose worker is owed their payout (pending, not attempted yet). */
async function owedPayout(db: Db, payment: number, payee: string): Promise<{ payoutId: string; userId: string; amount: number }> {
  const userId = crypto.randomUUID();
  const gigId = crypto.randomUUID();
  await db.insert(users).values({ id: userId, username: `npub1${userId.replaceAll("-", "")}`, lightningAddress: `${payee}@chaos.test` });
  await db.insert(gigs).values({ id: gigId, gigType: "job_request", title: "Chaos", description: "A gig paid under faults", category: "Other", payment, timeframe: 7, status: "completed", posterId: userId, workerId: userId, hirerId: userId });
  const fee = platformFee(payment);
  const amount = workerPayout(payment);
  const change = new AtomicChange(db, () => {});
  const payoutId = addPayout(change, ALWAYS, { gigId, purpose: "worker_payout", recipientId: userId, amount });
  postTransaction(change, "funding", [[WALLET, -(payment + fee)], [escrowAccount(gigId), payment + fee]], ALWAYS);
  postTransaction(change, "release", [[escrowAccount(gigId), -(payment + fee)], [FEES, 2 * fee], [payableAccount(payoutId), amount]], ALWAYS);
  await change.commit();
  return { payoutId, userId, amount };
}

/** Runs one sequence; throws (through expect) when the rule was broken. */
export async function runSequence<F extends string>(db: Db, wallet: ChaosWallet<F>, seq: ChaosSequence<F>, counts: ChaosCounts): Promise<void> {
  const run = crypto.randomUUID().slice(0, 8);
  const payees = seq.payments.flatMap((_, i) => [`p${i}a${run}`, `p${i}b${run}`]);
  const deps = chaosDeps(db, wallet, payees);
  const owed: { payoutId: string; userId: string; amount: number; payees: string[] }[] = [];
  for (const [i, payment] of seq.payments.entries()) owed.push({ ...(await owedPayout(db, payment, `p${i}a${run}`)), payees: [`p${i}a${run}`, `p${i}b${run}`] });
  const pick = (i: number) => owed[i % owed.length]!;
  const ignoreConflicts = (err: unknown) => {
    if ((err as { status?: number }).status === 409 || (err as { status?: number }).status === 400) return;
    throw err;
  };

  for (const { step, fault, lies } of seq.steps) {
    wallet.setFault(fault);
    wallet.setLookupLies(lies);
    if (fault !== "none") counts.faults += 1;
    counts.steps += 1;
    switch (step.kind) {
      case "attempt":
        await attemptPayout(deps, pick(step.payout).payoutId);
        break;
      case "cron":
        await retryPayouts(deps, 100);
        break;
      case "admin_retry":
        await retryPayoutAsAdmin(deps, pick(step.payout).payoutId).catch(ignoreConflicts);
        break;
      case "payee_retry":
        await retryFailedPayoutsOf(deps, pick(step.payout).userId, pick(step.payout).payoutId);
        break;
      case "address_change": {
        // The payee moves to their other address: their failed payouts are retried at once (routes/users.ts).
        const p = pick(step.payout);
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
        const p = pick(step.payout);
        const health = await moneyHealth(deps);
        const row = health.payouts.find((x) => x.id === p.payoutId);
        if (row && row.doubtfulHashes.length > 0 && !wallet.mayHaveSent(row.doubtfulHashes)) {
          await markPayoutFailed(deps, p.payoutId, row.doubtfulHashes).catch(ignoreConflicts);
        }
        break;
      }
    }
    await expectNothingPaidTwice(wallet, owed);
  }

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
  await expectNothingPaidTwice(wallet, owed);
  const health = await moneyHealth(deps, new Date(Date.now() + 3600_000));
  for (const p of owed) {
    const row = (await db.query.payouts.findFirst({ where: (t, { eq }) => eq(t.id, p.payoutId) }))!;
    const sent = p.payees.reduce((n, payee) => n + wallet.sentTo(payee).amount, 0);
    const fees = p.payees.reduce((n, payee) => n + wallet.sentTo(payee).fees, 0);
    if (!wallet.enforcesFeeCap && fees > routingFeeCap(p.amount)) {
      expect(row.overFeeCap, `payout ${p.payoutId} routed for ${fees} sats, over its cap: flagged for the admin`).toBe(true);
    }
    counts.payouts += 1;
    if (row.status === "succeeded") {
      counts.paid += 1;
      expect(sent, `payout ${p.payoutId} is recorded paid: exactly its amount left`).toBe(p.amount);
    } else if (row.status === "failed") {
      counts.failedNothingSent += 1;
      expect(sent, `payout ${p.payoutId} is failed: nothing left`).toBe(0);
    } else {
      counts.heldInDoubt += 1;
      expect(row, `payout ${p.payoutId} neither paid nor failed is held in doubt`).toMatchObject({ status: "in_flight", hold: "in_doubt" });
      const shown = health.payouts.find((x) => x.id === p.payoutId);
      expect(shown?.problem, "a payout in doubt is on Money Health").toBe("needs_look");
      expect(shown?.doubtfulHashes.length, "with each hash in doubt").toBeGreaterThan(0);
    }
  }
  const ledger = await checkLedger(db);
  expect(ledger.problems, "the ledger check holds").toEqual([]);
  counts.sequences += 1;
  // This sequence is over: its payouts are not due again, so later sequences' cron ticks carry only their own.
  await db.update(payouts).set({ nextAttemptAt: "9999-12-31T00:00:00.000Z" }).where(inIds(owed.map((o) => o.payoutId)));
}

/**
 * For every payout: what left the wallet is at most what was owed, and its routing at most the general cap
 * where the wallet takes a fee limit.
 */
async function expectNothingPaidTwice(wallet: ChaosWallet, owed: { payoutId: string; amount: number; payees: string[] }[]) {
  for (const p of owed) {
    const sent = p.payees.map((payee) => wallet.sentTo(payee));
    const amount = sent.reduce((n, s) => n + s.amount, 0);
    const fees = sent.reduce((n, s) => n + s.fees, 0);
    expect(amount, `payout ${p.payoutId} of ${p.amount} sats: ${amount} sats left the wallet`).toBeLessThanOrEqual(p.amount);
    if (wallet.enforcesFeeCap) expect(fees, `payout ${p.payoutId}: routing within the general cap`).toBeLessThanOrEqual(routingFeeCap(p.amount));
  }
}

import { eq, inArray } from "drizzle-orm";

/** Time passes for these payouts: their back-offs run out. */
async function timePasses(db: Db, ids: string[]) {
  await db.update(payouts).set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() }).where(inIds(ids));
}
const eqId = (id: string) => eq(users.id, id);
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
