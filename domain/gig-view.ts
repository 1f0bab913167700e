// The gig as the API answers it (SPEC.md §3 Gig), defined once for the Worker that builds it
// (worker/services/gig-views.ts) and the web app that reads it.
import type { EscrowStatus, GigStatus, GigType } from "./gig";
import type { MilestoneProposalView, MilestoneView } from "./milestones";

/** The poster as a gig shows them. */
export interface GigPosterView {
  id: string;
  username: string;
  displayName: string | null;
  profilePicture: string | null;
  completedGigs: number;
  successRate: number;
}

export interface GigView {
  id: string;
  gigType: GigType;
  title: string;
  description: string;
  category: string;
  status: GigStatus;
  payment: number;
  /** Same as payment (the spec's name for a service offering's price). */
  budget: number;
  platformFee: number;
  totalCharge: number;
  timeframe: number;
  deadline: string | null;
  createdAt: string;
  claimedAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  /** The owner: hirer of a job_request, worker of a service_offering. */
  posterId: string;
  hirerId: string | null;
  workerId: string | null;
  escrowStatus: EscrowStatus;
  /** The parties' and the admin's only (null to anyone else), as are revisionNote and disputeReason. */
  workSubmission: string | null;
  revisionNote: string | null;
  disputeReason: string | null;
  resolution: string | null;
  /** The milestone the work is on (domain/milestones.ts); 1 for a gig without a plan. */
  currentMilestone: number;
  /** 1 for a gig without a plan (one implicit milestone), 2 to 10 with one. */
  milestoneCount: number;
  /**
   * Sats held in the gig's escrow now (every funded milestone not yet settled): on the details, and on the
   * lists of the member's own gigs (`participant=me`); not on public lists.
   */
  escrowHeld?: number;
  poster: GigPosterView;
}

/** GET /api/gigs/{id}: the gig, with its open funding invoice for the payer while pending_payment. */
export interface GigDetail extends GigView {
  paymentRequest: string | null;
  /** Every milestone in order (one, the implicit one, for a gig without a plan). */
  milestones: MilestoneView[];
  /** A pending change of the plan, to the hirer and the worker only. */
  milestoneProposal: MilestoneProposalView | null;
}

/** POST /api/gigs and POST /api/gigs/{id}/claim: the gig, and the invoice to fund its escrow when there is one. */
export interface PostedGig {
  gig: GigView;
  paymentRequest: string | null;
  totalCharge: number;
  /**
   * What the invoice funds when there is one: milestone 1 (the whole payment for a gig without a plan). Its
   * amount is what the invoice's totalCharge is the amount + fee of.
   */
  invoicedMilestone: InvoicedMilestone | null;
}

export interface InvoicedMilestone {
  number: number;
  count: number;
  title: string;
  amount: number;
}
