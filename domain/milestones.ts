// Milestones (issue 28): a gig paid step by step. Every gig has milestones: a gig posted without a plan has one
// implicit milestone (its whole payment, its escrow the gig's `escrow:<gig>` account), a gig posted with a plan
// has 2 to 10, each with its own escrow account (`escrow:<gig>:<n>`), funded, worked on, approved and paid out
// on its own. The gig's status is the work state of its *current* milestone (gig.ts's machine is unchanged);
// a milestone row holds its money state. Pure: shared by the Worker and the web app.
import { platformFee, totalCharge, workerPayout } from "./fees";

export const MIN_MILESTONES = 2;
export const MAX_MILESTONES = 10;

/** A milestone's money: not yet paid in, held in its escrow, or settled (released to the worker, refunded, split). */
export const MILESTONE_ESCROW = ["unfunded", "funded", "released", "refunded", "split"] as const;
export type MilestoneEscrow = (typeof MILESTONE_ESCROW)[number];

/** How a settled milestone ended. */
export type MilestoneResolution = "approved" | "auto_released" | "refund_hirer" | "pay_worker" | "split" | "cancelled";

/** One milestone of a plan as posted or proposed. */
export interface MilestonePlanItem {
  title: string;
  amount: number;
  /** Optional: days the worker has for this milestone once it is the current one. */
  days?: number | null;
}

/**
 * What a milestone shows as its step (the gig details' steps): its money state, and for the current one the
 * work state of the gig. "paid" once the worker's payout of an approved milestone has arrived.
 */
export type MilestoneStep =
  | "unfunded"
  | "awaiting_payment"
  | "funded"
  | "in_progress"
  | "needs_revision"
  | "submitted"
  | "disputed"
  | "approved"
  | "paid"
  | "split"
  | "refunded";

export const MILESTONE_STEP_LABELS: Record<MilestoneStep, string> = {
  unfunded: "Not funded",
  awaiting_payment: "Awaiting payment",
  funded: "Funded",
  in_progress: "In progress",
  needs_revision: "Needs revision",
  submitted: "Submitted",
  disputed: "Under review",
  approved: "Approved",
  paid: "Paid",
  split: "Settled",
  refunded: "Refunded",
};

export interface MilestoneView {
  number: number;
  /** The milestone's own title (a gig's implicit milestone has the gig's title). */
  title: string;
  amount: number;
  days: number | null;
  escrow: MilestoneEscrow;
  step: MilestoneStep;
  /** The milestone the work is on now. */
  current: boolean;
  /** Per side, as for a gig (fees.ts): the hirer pays amount + fee, the worker receives amount − fee. */
  platformFee: number;
  totalCharge: number;
  workerPayout: number;
  fundedAt: string | null;
  settledAt: string | null;
  resolution: MilestoneResolution | null;
  /** Only to the hirer, while this milestone's funding invoice waits to be paid. */
  paymentRequest: string | null;
}

/** A pending change of the plan's unfunded milestones: one party proposes, the other accepts. */
export interface MilestoneProposalView {
  id: string;
  proposerId: string;
  /** The first milestone number the proposal replaces; every milestone from it on is replaced by `milestones`. */
  fromNumber: number;
  milestones: MilestonePlanItem[];
  status: "pending" | "accepted" | "rejected" | "withdrawn";
  createdAt: string;
}

/** The facts of a milestone that decide its step. */
export interface MilestoneFacts {
  number: number;
  escrow: MilestoneEscrow;
  resolution: MilestoneResolution | null;
  /** A funding invoice is out for it. */
  awaitingPayment: boolean;
  /** The worker's payout for it has been paid. */
  paidOut: boolean;
}

/** The step a milestone shows, from its own facts and the gig's status and current milestone. */
export function milestoneStep(m: MilestoneFacts, gig: { status: string; currentMilestone: number }): MilestoneStep {
  if (m.escrow === "refunded") return "refunded";
  if (m.escrow === "split") return "split";
  if (m.escrow === "released") return m.paidOut ? "paid" : "approved";
  if (m.escrow === "unfunded") return m.awaitingPayment ? "awaiting_payment" : "unfunded";
  if (m.number !== gig.currentMilestone) return "funded";
  switch (gig.status) {
    case "in_progress":
      return "in_progress";
    case "needs_revision":
      return "needs_revision";
    case "work_submitted":
      return "submitted";
    case "disputed":
      return "disputed";
    default:
      return "funded";
  }
}

/** The money of one milestone of `amount` sats (the gig's fee rules per milestone). */
export function milestoneMoney(amount: number) {
  return { platformFee: platformFee(amount), totalCharge: totalCharge(amount), workerPayout: workerPayout(amount) };
}

/** The sum of a plan: the gig's payment. */
export const planTotal = (plan: readonly Pick<MilestonePlanItem, "amount">[]) => plan.reduce((s, m) => s + m.amount, 0);

/** "Milestone 2 of 3" (empty for a gig with one implicit milestone). */
export function milestoneLabel(current: number, count: number): string {
  return count > 1 ? `Milestone ${current} of ${count}` : "";
}

/** How a notification or an event names a milestone: ` (milestone 2 of 3, "Design")`, nothing for a single-milestone gig. */
export function milestoneSuffix(m: { number: number; title: string } | null | undefined, count: number): string {
  if (!m || count <= 1) return "";
  return ` (milestone ${m.number} of ${count}, "${m.title}")`;
}

/** The escrow account of a milestone: the gig's own for its implicit milestone, one per milestone for a plan. */
export const milestoneEscrowAccount = (gigId: string, number: number, planned: boolean) => (planned ? `escrow:${gigId}:${number}` : `escrow:${gigId}`);
