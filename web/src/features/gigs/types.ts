// The gig as the web app reads it (SPEC.md §3, the API's GigView). Fields that only some answers carry
// are optional, so a card can be drawn from a list answer and the details modal from GET /api/gigs/{id}.

export type GigType = "job_request" | "service_offering";

export interface GigPoster {
  id?: string;
  username: string;
  displayName: string | null;
  profilePicture: string | null;
  completedGigs: number;
  successRate: number;
}

export interface Gig {
  id: string;
  title: string;
  description: string;
  category: string;
  gigType: GigType;
  status: string;
  payment: number;
  /** Same as payment (the spec's name for a service offering's price). */
  budget?: number;
  platformFee?: number;
  totalCharge?: number;
  timeframe: number;
  deadline?: string | null;
  createdAt: string;
  claimedAt?: string | null;
  submittedAt?: string | null;
  completedAt?: string | null;
  /** The owner: hirer of a job_request, worker of a service_offering. */
  posterId?: string;
  hirerId: string | null;
  workerId: string | null;
  escrowStatus?: "pending" | "funded" | "released" | "refunded" | null;
  workSubmission?: string | null;
  revisionNote?: string | null;
  disputeReason?: string | null;
  resolution?: string | null;
  poster?: GigPoster;
  /** GET /api/gigs/{id} only: the open funding invoice, for the payer while pending_payment. */
  paymentRequest?: string | null;
}

/** POST /api/gigs and POST /api/gigs/{id}/claim. */
export interface GigWithInvoice {
  gig: Gig;
  paymentRequest: string | null;
  totalCharge: number;
}

export type InterestStatus = "pending" | "approved" | "rejected";

/** A pre-claim (interest) message (SPEC.md §3). */
export interface InterestMessage {
  id: string;
  gigId: string;
  senderId: string;
  sender: { username: string; displayName: string | null; profilePicture: string | null };
  message: string;
  status: InterestStatus;
  claimEnabled: boolean;
  createdAt: string;
}

export type ExtensionStatus = "pending" | "approved" | "rejected";

/** A worker's request for more days (SPEC.md §3, §4): one pending at a time; the hirer approves or rejects. */
export interface ExtensionRequest {
  id: string;
  gigId: string;
  status: ExtensionStatus;
  daysToAdd: number;
  reason: string | null;
  createdAt: string;
  decidedAt?: string | null;
}

/** The owner of a gig: the poster, else (older answers) the hirer of a job or the worker of an offer. */
export function ownerIdOf(gig: Pick<Gig, "posterId" | "gigType" | "hirerId" | "workerId">): string | null {
  return gig.posterId ?? (gig.gigType === "service_offering" ? gig.workerId : gig.hirerId);
}
