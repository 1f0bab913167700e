/** What the escrow funding modal needs (SPEC.md §3 Payment request payload, plus the amounts shown). */
export interface PaymentRequestInfo {
  gigId: string;
  /** The BOLT11 funding invoice. */
  paymentRequest: string;
  /** The gig's payment, in sats. */
  payment: number;
  /** What the invoice asks: payment + fee. */
  totalCharge: number;
  /**
   * The milestone this invoice funds when it is not the gig's own first funding (a later milestone): the dialog
   * then watches that milestone's escrow, since the gig's escrow status is its current milestone's.
   */
  milestone?: number;
  /** For a gig paid in milestones: which one this invoice funds, e.g. "Milestone 1 of 3: Sketches". */
  milestoneLabel?: string;
}

/** The payment dialog's info from a post or hire answer: the invoice funds its first milestone (the whole payment without a plan). */
export function paymentOfAnswer(answer: {
  gig: { id: string; payment: number };
  paymentRequest: string;
  totalCharge: number;
  invoicedMilestone?: { number: number; count: number; title: string; amount: number } | null;
}): PaymentRequestInfo {
  const m = answer.invoicedMilestone;
  return {
    gigId: answer.gig.id,
    paymentRequest: answer.paymentRequest,
    payment: m?.amount ?? answer.gig.payment,
    totalCharge: answer.totalCharge,
    ...(m && m.count > 1 ? { milestoneLabel: `Milestone ${m.number} of ${m.count}: ${m.title}` } : {}),
  };
}
