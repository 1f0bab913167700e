// What a payee sees of their own payouts that need them (the Active screen's notice).
export interface MyPayoutView {
  id: string;
  gigId: string;
  gigTitle: string | null;
  amount: number;
  status: "failed";
  /** What went wrong, in the payee's words: "Your payout of N sats failed: <reason>. Update your Lightning address and retry." */
  message: string;
  lastError: string | null;
  /** The Lightning address the last attempt went to. */
  destination: string | null;
  /** When the platform tries again by itself (null: it waits for the payee or the admin). */
  nextAttemptAt: string | null;
  updatedAt: string | null;
}
