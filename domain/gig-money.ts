// A gig's amount in the terms of whoever reads it (issue 26): the worker reads what reaches them, the hirer
// what leaves them, anyone else the gig's payment. The fee maths is fees.ts; this only says who sees which.
import { isValidPayment, totalCharge, workerPayout } from "./fees";
import { formatSats } from "./format";
import type { GigRole } from "./gig";

export type AmountTerms = "receive" | "pay" | "payment";

export interface PartyAmount {
  terms: AmountTerms;
  /** Sats: the worker's payout, the hirer's total charge, or the plain payment. */
  amount: number;
  /** "You receive 9,750 sats", "You pay 10,250 sats" ("You paid" once completed) or "10,000 sats". */
  text: string;
  /** "You receive" / "You pay" / "You paid", or null for the plain payment. */
  lead: string | null;
}

/**
 * The amount one reader of a gig sees. The worker (for a service offering that is its owner) receives the
 * payment minus their fee; the hirer (whoever hires a service offering) pays the payment plus theirs; a
 * visitor or any other member sees the payment itself, and so does everyone once the gig is cancelled
 * (nobody pays or receives anything for it any more: a funded escrow went back to the hirer).
 */
export function amountInTermsOf(payment: number, roles: readonly GigRole[], status?: string): PartyAmount {
  if (isValidPayment(payment) && status !== "cancelled") {
    if (roles.includes("worker")) return party("receive", workerPayout(payment), "You receive");
    // A completed gig's escrow was released: the hirer has paid. (The worker's payout may still be on its way.)
    if (roles.includes("hirer")) return party("pay", totalCharge(payment), status === "completed" ? "You paid" : "You pay");
  }
  return { terms: "payment", amount: payment, text: formatSats(payment), lead: null };
}

function party(terms: AmountTerms, amount: number, lead: string): PartyAmount {
  return { terms, amount, text: `${lead} ${formatSats(amount)}`, lead };
}
