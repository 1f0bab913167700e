// Test data for the gigs screens (used by the *.test.tsx files next to it).
import { milestoneMoney, type MilestoneView } from "../../../../domain/milestones";
import type { Gig, InterestMessage } from "./types";

let counter = 0;

export function makeGig(overrides: Partial<Gig> = {}): Gig {
  counter += 1;
  const payment = overrides.payment ?? 10_000;
  const fee = Math.ceil(payment * 0.025);
  return {
    id: `a1b2c3d4-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    gigType: "job_request",
    title: `Gig number ${counter}`,
    description: "Build a small website for a local bakery, with a menu page.",
    category: "Development",
    status: "open",
    payment,
    budget: payment,
    platformFee: fee,
    totalCharge: payment + fee,
    timeframe: 7,
    deadline: null,
    createdAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    claimedAt: null,
    submittedAt: null,
    completedAt: null,
    posterId: "poster-1",
    hirerId: "poster-1",
    workerId: null,
    escrowStatus: "funded",
    workSubmission: null,
    revisionNote: null,
    disputeReason: null,
    resolution: null,
    currentMilestone: 1,
    milestoneCount: 1,
    poster: { id: "poster-1", username: "npub1posterxyz", displayName: "Paula Poster", profilePicture: null, completedGigs: 4, successRate: 75 },
    ...overrides,
  };
}

/** Milestone `number` of a plan as the gig's details show it: "Step <number>", 4,000 sats, not funded, unless told otherwise. */
export function makeMilestone(number: number, overrides: Partial<MilestoneView> = {}): MilestoneView {
  const amount = overrides.amount ?? 4_000;
  return {
    number,
    title: `Step ${number}`,
    amount,
    days: null,
    escrow: "unfunded",
    step: "unfunded",
    current: false,
    ...milestoneMoney(amount),
    fundedAt: null,
    settledAt: null,
    resolution: null,
    paymentRequest: null,
    ...overrides,
  };
}

/** The plan of makePlanGig, in order. */
const PLAN = [
  { title: "Design", amount: 3_000 },
  { title: "Build", amount: 4_000 },
  { title: "Launch", amount: 5_000 },
] as const;

/**
 * "gig-1", a job request paid in three milestones (Design 3,000 + Build 4,000 + Launch 5,000 = 12,000 sats) between
 * "hirer" and "worker": milestone 1 funded, in progress and the current one; 2 and 3 not funded, no days.
 * `milestones` changes them by place ({} leaves one as it is); `overrides.milestones` replaces them all.
 */
export function makePlanGig(overrides: Partial<Gig> = {}, milestones: readonly Partial<MilestoneView>[] = []): Gig {
  return makeGig({
    id: "gig-1",
    title: "Shop website",
    status: "in_progress",
    posterId: "hirer",
    hirerId: "hirer",
    workerId: "worker",
    payment: 12_000,
    currentMilestone: 1,
    milestoneCount: 3,
    milestones: PLAN.map((m, i) =>
      makeMilestone(i + 1, { ...m, ...(i === 0 && { escrow: "funded", step: "in_progress", current: true }), ...milestones[i] }),
    ),
    milestoneProposal: null,
    ...overrides,
  });
}

export function makeInterest(overrides: Partial<InterestMessage> = {}): InterestMessage {
  counter += 1;
  return {
    id: `interest-${counter}`,
    gigId: "gig-1",
    senderId: "member-1",
    sender: { username: "npub1memberabc", displayName: "Mia Member", profilePicture: null },
    message: "I have built many bakery websites.",
    status: "pending",
    claimEnabled: false,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** A GET /api/gigs answer: the page, and the next page's cursor in X-Next-Cursor. */
export function gigPageResponse(gigs: Gig[], nextCursor?: string): Response {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (nextCursor) headers["X-Next-Cursor"] = nextCursor;
  return new Response(JSON.stringify(gigs), { status: 200, headers });
}
