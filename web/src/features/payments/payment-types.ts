/** What the escrow funding modal needs (SPEC.md §3 Payment request payload, plus the amounts shown). */
export interface PaymentRequestInfo {
  gigId: string;
  /** The BOLT11 funding invoice. */
  paymentRequest: string;
  /** The gig's payment, in sats. */
  payment: number;
  /** What the invoice asks: payment + fee. */
  totalCharge: number;
}
