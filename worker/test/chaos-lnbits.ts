// The LNbits wallet the payout chaos test runs against (worker/test/payout-chaos.ts), inside workerd: the
// Worker's LnbitsBackend → a fetch that times out before or after the request → the fake LNbits, which
// answers as LNbits' source does (docs/decisions/021), its funding source's truth kept apart.
import { LnbitsBackend } from "../lightning/lnbits";
import type { FetchLike } from "../lightning/lnurl";
import { fakeLnbits, strangerInvoice, type FundingOutcome } from "../lightning/test-helpers";
import type { ChaosWallet } from "./payout-chaos";

const LNBITS_FAULTS = [
  "none",
  // The way to LNbits: no answer before the request arrived, or after it did its work.
  "timeout_before",
  "timeout_after",
  // LNbits' funding source (test-helpers.ts FundingOutcome, each from LNbits' source).
  "failed",
  "failed_but_sent",
  "pending",
  "success_without_preimage",
  "refused_400",
  "sent_then_400",
  "unsent_400",
  "sent_then_500",
  "unsent_500",
  "pending_lookup_lies_once",
  // LNbits would charge more than the cap (its service fee): refused before paying, held for the admin.
  "fees_over_cap",
] as const;
export type LnbitsFault = (typeof LNBITS_FAULTS)[number];

export function lnbitsChaosWallet(): ChaosWallet<LnbitsFault> & { fake: ReturnType<typeof fakeLnbits> } {
  const fake = fakeLnbits({ balanceSats: 1_000_000_000 });
  let fault: LnbitsFault = "none";
  let lies = false;
  const payeeOf = new Map<string, string>();
  const faulty: FetchLike = async (url, init) => {
    const u = new URL(url);
    const paying = init.method === "POST" && u.pathname === "/api/v1/payments" && JSON.parse(String(init.body)).out === true;
    if (paying && fault === "timeout_before") throw new TypeError("network error: connection reset before the request was sent");
    if (!paying && lies && init.method === "GET" && /^\/api\/v1\/payments\/[0-9a-f]{64}$/.test(u.pathname)) {
      lies = false;
      return Response.json({ detail: "Payment does not exist." }, { status: 404 });
    }
    const answer = await fake.fetch(url, init);
    if (paying && fault === "timeout_after") throw new TypeError("network error: connection reset while waiting for the answer");
    return answer;
  };
  const backend = new LnbitsBackend({
    url: fake.base,
    adminKey: fake.keys.admin,
    fetch: faulty,
    timeoutMs: 2_000,
    payTimeoutMs: 2_000,
    failureConfirmDelayMs: 0,
    sleep: async () => {},
    walletChecks: new Map(),
  });
  const resolvePending = () => {
    for (const hash of fake.pendingOutgoing()) {
      // Half the payments still on their way settle, half fail, as the hash's first digit says.
      if (parseInt(hash[0]!, 16) % 2 === 0) fake.settleOutgoing(hash);
      else fake.failOutgoing(hash);
    }
  };
  return {
    name: "lnbits",
    fake,
    backend,
    enforcesFeeCap: true,
    faults: LNBITS_FAULTS,
    setFault(next) {
      fault = next;
      const outcome: FundingOutcome = next === "none" || next === "timeout_before" || next === "timeout_after" || next === "fees_over_cap" ? "success" : next;
      fake.state.outcome = outcome;
      fake.state.serviceFeePercent = next === "fees_over_cap" ? 5 : 0;
    },
    setLookupLies(lie) {
      lies = lie;
    },
    async issueInvoice(payee, amountSats, descriptionHash) {
      const invoice = await strangerInvoice({ amountMsat: amountSats * 1000, descriptionHash });
      payeeOf.set(invoice.paymentHash, payee);
      return invoice.bolt11;
    },
    sentTo(payee) {
      let amount = 0;
      let fees = 0;
      for (const [hash, who] of payeeOf) {
        if (who !== payee) continue;
        const sent = fake.sentOf(hash);
        amount += sent.amountMsat / 1000;
        fees += sent.feeMsat / 1000;
      }
      return { amount, fees: Math.ceil(fees) };
    },
    mayHaveSent(hashes) {
      return hashes.some((h) => fake.sourceStatus(h) !== null && fake.sourceStatus(h) !== "failed");
    },
    async resolveLate() {
      resolvePending();
    },
    honest() {
      fault = "none";
      lies = false;
      fake.state.outcome = "success";
      fake.state.serviceFeePercent = 0;
    },
  };
}
