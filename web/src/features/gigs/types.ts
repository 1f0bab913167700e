// The gigs area's answers. The gig itself is the API's GigView, defined once in domain/gig-view.ts; a list
// answer carries no paymentRequest, the details answer (GigDetail) does.
import type { GigDetail, GigView, PostedGig } from "../../../../domain/gig-view";

export type { GigType } from "../../../../domain/gig";
export type { GigPosterView as GigPoster } from "../../../../domain/gig-view";

/** A gig as any answer carries it: GET /api/gigs/{id} adds the open funding invoice (paymentRequest). */
export type Gig = GigView & Partial<Pick<GigDetail, "paymentRequest" | "milestones" | "milestoneProposal">>;

/** POST /api/gigs and POST /api/gigs/{id}/claim. */
export type GigWithInvoice = PostedGig;

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

/** The owner of a gig: its poster. */
export function ownerIdOf(gig: Pick<Gig, "posterId">): string {
  return gig.posterId;
}
