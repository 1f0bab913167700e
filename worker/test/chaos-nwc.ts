// The NWC wallet the payout chaos test runs against (worker/test/payout-chaos.ts), in Node: the Worker's
// NwcBackend → a relay proxy that drops sockets (scripts/local-nostr/drop-proxy.ts) → a real relay →
// @getalby/sdk's NWCWalletService over the simulated node, which holds, fails or overcharges payments.
import { NwcBackend, relayTransport } from "../lightning/nwc";
import type { LightningBackend } from "../lightning/backend";
import { startRelay, type LocalRelay } from "../../scripts/local-nostr/relay";
import { startWalletService, type LocalWallet, type PaymentScenario } from "../../scripts/local-nostr/wallet-service";
import { startDropProxy, type DropProxy, type ProxyFault } from "../../scripts/local-nostr/drop-proxy";
import type { ChaosWallet } from "./payout-chaos";

const NWC_FAULTS = [
  "none",
  // The relay, or the way to it, fails the request (the first of the step's requests).
  "drop_before_forward",
  "drop_after_forward",
  "drop_after_ok",
  "swallow_answer",
  "refuse",
  // The wallet's node: a payment that fails (PAYMENT_FAILED), one held by the recipient's node until later,
  // one the wallet does not know until it settles, one that costs far more than the cap in fees.
  "node_fails",
  "node_holds",
  "node_unknown_until_settled",
  "node_fees_over_cap",
] as const;
export type NwcFault = (typeof NWC_FAULTS)[number];

export interface NwcChaos extends ChaosWallet<NwcFault> {
  close(): Promise<void>;
}

export async function nwcChaosWallet(timeoutMs = 400): Promise<NwcChaos> {
  const relay: LocalRelay = await startRelay();
  const wallet: LocalWallet = await startWalletService(relay.url);
  let pendingFault: ProxyFault | null = null;
  const proxy: DropProxy = await startDropProxy(relay.url, {
    // One fault per step, on its first request.
    decide: () => {
      const fault = pendingFault ?? "pass";
      pendingFault = null;
      return fault;
    },
  });
  const url = wallet.nwcUrl.replace(/relay=[^&]+/, `relay=${encodeURIComponent(proxy.url)}`);
  const backend: LightningBackend = new NwcBackend({ url, transport: relayTransport(), timeoutMs, payTimeoutMs: timeoutMs });
  const payeeOf = new Map<string, string>();
  const node = wallet.node;
  /** Payments the node holds until released (private to the simulated node). */
  const held = () => (node as unknown as { held: Map<string, () => void> }).held;
  const scenarioOf: Partial<Record<NwcFault, PaymentScenario>> = {
    node_fails: { kind: "fail" },
    node_holds: { kind: "hold" },
    node_unknown_until_settled: { kind: "unknown_until_settled" },
    node_fees_over_cap: { kind: "fees", feesMsat: 5_000_000 },
  };
  const releaseAll = async () => {
    for (const hash of [...held().keys()]) {
      node.release(hash);
      held().delete(hash);
    }
    await proxy.settled();
  };
  return {
    name: "nwc",
    backend,
    enforcesFeeCap: false,
    faults: NWC_FAULTS,
    setFault(fault) {
      pendingFault = fault === "none" || fault.startsWith("node_") ? null : (fault as ProxyFault);
      node.nextPaymentScenario = scenarioOf[fault] ?? null;
    },
    setLookupLies() {
      // The NWC wallet's look-ups are the node's own records; the relay faults above already lose answers.
    },
    async issueInvoice(payee, amountSats, descriptionHash) {
      const invoice = await node.issue(amountSats * 1000, { hash: descriptionHash }, 600, payee);
      payeeOf.set(invoice.paymentHash, payee);
      return invoice.bolt11;
    },
    sentTo(payee) {
      let fees = 0;
      for (const p of node.payments.values()) if (p.state === "settled" && payeeOf.get(p.paymentHash) === payee) fees += p.feesMsat;
      return { amount: node.receivedBy(payee), fees: Math.ceil(fees / 1000) };
    },
    mayHaveSent(hashes) {
      return hashes.some((h) => node.payments.has(h) || held().has(h) || (node.invoices.get(h)?.settledAt ?? null) !== null);
    },
    async resolveLate() {
      await releaseAll();
    },
    honest() {
      pendingFault = null;
      node.nextPaymentScenario = null;
    },
    async close() {
      await releaseAll();
      wallet.close();
      await proxy.close();
      await relay.close();
    },
  };
}

