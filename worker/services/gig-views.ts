// How a gig is shown: the fields of SPEC.md §3 Gig, with what only the parties may see.
import { platformFee, totalCharge } from "../../domain/fees";
import { isParty, type GigType } from "../../domain/gig";
import { successRate } from "../../domain/reputation";
import type { UserRow } from "../context";
import type { gigs } from "../db/schema";

export type GigRow = typeof gigs.$inferSelect;
/** The gig columns a view reads (a list page selects only these). */
export const GIG_VIEW_FIELDS = [
  "id", "gigType", "title", "description", "category", "status", "payment", "timeframe", "deadline", "createdAt", "claimedAt",
  "submittedAt", "completedAt", "posterId", "hirerId", "workerId", "escrowStatus", "workSubmission", "revisionNote",
  "disputeReason", "resolution",
] as const satisfies readonly (keyof GigRow)[];
export type GigViewRow = Pick<GigRow, (typeof GIG_VIEW_FIELDS)[number]>;
export type PosterRow = Pick<UserRow, "id" | "username" | "displayName" | "profilePicture" | "completedGigs" | "successfulGigs">;

export interface GigView {
  id: string;
  gigType: GigType;
  title: string;
  description: string;
  category: string;
  status: string;
  payment: number;
  budget: number;
  platformFee: number;
  totalCharge: number;
  timeframe: number;
  deadline: string | null;
  createdAt: string;
  claimedAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  posterId: string;
  hirerId: string | null;
  workerId: string | null;
  escrowStatus: string;
  workSubmission: string | null;
  revisionNote: string | null;
  disputeReason: string | null;
  resolution: string | null;
  poster: { id: string; username: string; displayName: string | null; profilePicture: string | null; completedGigs: number; successRate: number };
}

export function gigView(gig: GigViewRow, poster: PosterRow, viewer: { userId: string | null; isAdmin: boolean }): GigView {
  const privileged = viewer.isAdmin || isParty(gig, viewer.userId);
  return {
    id: gig.id,
    gigType: gig.gigType,
    title: gig.title,
    description: gig.description,
    category: gig.category,
    status: gig.status,
    payment: gig.payment,
    budget: gig.payment,
    platformFee: platformFee(gig.payment),
    totalCharge: totalCharge(gig.payment),
    timeframe: gig.timeframe,
    deadline: gig.deadline,
    createdAt: gig.createdAt,
    claimedAt: gig.claimedAt,
    submittedAt: gig.submittedAt,
    completedAt: gig.completedAt,
    posterId: gig.posterId,
    hirerId: gig.hirerId,
    workerId: gig.workerId,
    escrowStatus: gig.escrowStatus,
    workSubmission: privileged ? gig.workSubmission : null,
    revisionNote: privileged ? gig.revisionNote : null,
    disputeReason: privileged ? gig.disputeReason : null,
    resolution: gig.resolution,
    poster: {
      id: poster.id,
      username: poster.username,
      displayName: poster.displayName,
      profilePicture: poster.profilePicture,
      completedGigs: poster.completedGigs,
      successRate: successRate(poster.completedGigs, poster.successfulGigs),
    },
  };
}
