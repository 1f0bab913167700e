// "Never paid twice" through NWC, in Node: the payout machine (services/payouts.ts, the rule in
// domain/payout-rule.ts) on a real D1 (wrangler's platform proxy), through generated sequences of payouts (some
// of them a milestone plan's, settled one by one), cron ticks, admin and payee retries, address changes,
// restarts and late outcomes, against
// @getalby/sdk's wallet service behind a relay proxy that drops sockets, swallows answers and refuses
// (worker/test/chaos-nwc.ts). The same property runs against the fake LNbits inside workerd
// (payouts.property.test.ts). Seeded: a failure prints its seed; replay with CHAOS_SEED=<seed>.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chaosRuns, chaosSeed, chaosSequence, emptyCounts, reportChaos, runSequence } from "../test/payout-chaos";
import { nwcChaosWallet, type NwcChaos } from "../test/chaos-nwc";
import { startNodeD1, type NodeD1 } from "../test/node-d1";

let d1: NodeD1;
let wallet: NwcChaos;
beforeAll(async () => {
  d1 = await startNodeD1();
  wallet = await nwcChaosWallet();
}, 60_000);
afterAll(async () => {
  await wallet?.close();
  await d1?.dispose();
});

describe("never paid twice, whatever the wallet does: NWC", () => {
  it("to @getalby/sdk's wallet service through a relay proxy that drops sockets, swallows answers and refuses", async () => {
    const counts = emptyCounts();
    // Each sequence waits on sockets and on a D1 across a process boundary (~16 ms a query): 25 in npm test,
    // a thirtieth of CHAOS_RUNS in npm run chaos.
    const runs = process.env.CHAOS_RUNS ? Math.max(1, Math.floor(chaosRuns(process.env.CHAOS_RUNS, 750) / 30)) : 25;
    await fc.assert(
      fc.asyncProperty(chaosSequence(wallet.faults), (seq) => runSequence(d1.db, wallet, seq, counts)),
      { numRuns: runs, seed: chaosSeed(process.env.CHAOS_SEED), endOnFailure: true },
    );
    reportChaos("nwc", counts);
    expect(counts.sequences).toBe(runs);
    expect(counts.faults).toBeGreaterThan(0);
  }, 3_600_000);
});
