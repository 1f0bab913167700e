// The payout rule broken on purpose, to show the chaos test catches it: a wallet whose unclear answers
// (LNbits' 520 "failed" from a funding source that sent, a time-out after the request left) are read as
// "failed, nothing sent" — what the Worker did before the one payout rule.
import type { ChaosWallet } from "./payout-chaos";

export function brokenRule<F extends string>(wallet: ChaosWallet<F>): ChaosWallet<F> {
  const backend = wallet.backend;
  return {
    ...wallet,
    backend: {
      ...backend,
      kind: backend.kind,
      createInvoice: backend.createInvoice.bind(backend),
      lookupInvoice: backend.lookupInvoice.bind(backend),
      lookupPayment: backend.lookupPayment.bind(backend),
      async payInvoice(bolt11, maxFeeSats) {
        const result = await backend.payInvoice(bolt11, maxFeeSats);
        return result.status === "unknown" ? { status: "failed", reason: `read as failed: ${result.reason}` } : result;
      },
    },
  };
}
