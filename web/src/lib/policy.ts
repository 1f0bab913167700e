// The business constants the static pages quote (SPEC.md §4, §9). One place, so the pages agree;
// the money rules themselves are domain/fees.ts.
export { MAX_PAYMENT as MAX_PAYMENT_SATS, MIN_PAYMENT as MIN_PAYMENT_SATS, totalCharge, workerPayout } from "../../../domain/fees";

export const FEE_PERCENT_PER_SIDE = 2.5;
export const SATS_PER_BITCOIN = 100_000_000;
export const MIN_TIMEFRAME_DAYS = 1;
export const MAX_TIMEFRAME_DAYS = 30;
export const DEFAULT_TIMEFRAME_DAYS = 7;
export const FEE_CHANGE_NOTICE_DAYS = 30;
export const TERMS_CHANGE_NOTICE_DAYS = 14;
export const SUSPENSION_APPEAL_DAYS = 7;
export const MINIMUM_AGE = 18;
export const LIABILITY_FLOOR_SATS = 10_000;
export const LIABILITY_FEE_MONTHS = 12;
export const MAX_ATTACHMENT_MB = 50;

/** The dispute timeline of the terms (SPEC.md §4). */
export const DISPUTE_TIMELINE = [
  { when: "Day 0", what: "Initiation: the hirer or the worker raises a dispute on submitted work, giving a reason." },
  { when: "Days 1-3", what: "Good faith: both parties try to settle it between themselves in the gig chat." },
  { when: "Days 4-7", what: "Evidence: both parties submit their evidence (messages, files, deliverables)." },
  { when: "Days 8-14", what: "Admin review: the platform administrator reviews the gig, the chat and the evidence." },
  { when: "Day 14", what: "Decision: the administrator decides how the escrowed payment is settled." },
  { when: "Within 48 hours", what: "Appeal: either party may appeal the decision within 48 hours. A secondary review is completed within 5 business days and is final." },
] as const;
