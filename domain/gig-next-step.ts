// What the reader of a gig can do next, or whose move it is (issue 26: "always see the next step"). The gig
// details show it right under the title. One function of the gig's status and the reader's roles (gig.ts
// rolesOf), so every status × role has exactly one answer, tested in gig-next-step.test.ts. A gig paid in
// milestones (issue 28) says which milestone the step is about, and asks the hirer to fund one that is not.
import { totalCharge, workerPayout, isValidPayment } from "./fees";
import { formatSats } from "./format";
import type { GigRole, GigType } from "./gig";
import { milestoneLabel } from "./milestones";

/** What the step's button does. */
export type NextAction =
  /** A visitor: opens the login dialog (claiming needs login, SPEC.md §5). */
  | "login_to_claim"
  /** A member: goes to the interest message form. */
  | "write_interest"
  /** A member whose message was approved with claiming enabled: claims (hires, for a service offering). */
  | "claim"
  /** The owner of an open gig: goes to the interest messages. */
  | "review_interest"
  /** The hirer: opens the escrow invoice. */
  | "fund_escrow"
  /** The hirer of a gig paid in milestones whose current milestone is not funded: asks for (or reopens) its invoice. */
  | "fund_milestone"
  /** The worker of a claimed gig: starts work. */
  | "start_work"
  /** The worker: goes to the work submission form (also after a revision request). */
  | "submit_work"
  /** The hirer: goes to Approve, Request Revision and Raise Dispute. */
  | "review_delivery"
  /** The hirer of a job cancelled before its escrow was funded: posts it again. */
  | "post_again";

export type NextStep =
  /** The reader's move: a headline, an optional line under it, and one button. */
  | { kind: "act"; title: string; detail?: string; action: NextAction; label: string }
  /** The other party's move: one quiet line. */
  | { kind: "wait"; title: string }
  /** Nothing to do or wait for (a stranger to the gig, a finished gig). */
  | null;

export interface InterestSummary {
  /** The sender's display name (or short username). */
  name: string;
  status: "pending" | "approved" | "rejected";
  claimEnabled: boolean;
}

export interface NextStepInput {
  gigType: GigType;
  status: string;
  escrowStatus: string;
  payment: number;
  /** The reader's roles on the gig (rolesOf): visitor, member, or owner/hirer/worker. */
  roles: readonly GigRole[];
  /** The escrow invoice is at hand (the details answer gives it to the payer while pending_payment). */
  hasInvoice: boolean;
  /**
   * On an open gig, the interest messages the reader sees: every one for the owner, their own for a
   * member. Undefined while they load: nothing is said about them until then.
   */
  interest?: readonly InterestSummary[];
  /** A gig with a milestone plan (milestoneCount > 1); absent or a count of 1 reads as a gig without one. */
  milestone?: MilestoneFacts;
}

/** The milestone facts the step reads: which one is current, of how many, and its money. */
export interface MilestoneFacts {
  current: number;
  count: number;
  /** The current milestone's escrow (domain/milestones.ts MilestoneEscrow): "unfunded" asks the hirer to fund it. */
  escrow: string;
  /** The current milestone's amount (the worker's payout at review is of this, not of the whole payment). */
  amount?: number;
}

/** The owner of an open gig: the hirer of a job, the worker of a service offering (SPEC.md §6). */
const ownerWord = (gigType: GigType) => (gigType === "service_offering" ? "the worker" : "the hirer");

const payout = (payment: number) => (isValidPayment(payment) ? formatSats(workerPayout(payment)) : "the payment");

/** "Wes Worker wants this gig", "Wes and Ann want…", "Wes and 2 others want…". */
function wantText(names: readonly string[], gigType: GigType): string {
  const what = gigType === "service_offering" ? "to hire you" : "this gig";
  if (names.length === 1) return `${names[0]} wants ${what}`;
  const who = names.length === 2 ? `${names[0]} and ${names[1]}` : `${names[0]} and ${names.length - 1} others`;
  return `${who} want ${what}`;
}

export function nextStep(input: NextStepInput): NextStep {
  const m = input.milestone;
  if (m && m.count > 1) return planStep(input, m);
  return singleStep(input);
}

function singleStep(input: NextStepInput): NextStep {
  const { gigType, status, roles } = input;
  const service = gigType === "service_offering";
  const isWorker = roles.includes("worker");
  const isHirer = roles.includes("hirer");
  const isOwner = roles.includes("owner");
  const claimLabel = service ? (isValidPayment(input.payment) ? `Hire for ${formatSats(totalCharge(input.payment))}` : "Hire") : "Claim Gig";

  switch (status) {
    case "open": {
      if (roles.includes("visitor")) {
        return {
          kind: "act",
          title: service ? "Log in to send an interest message and hire this worker." : "Log in to send an interest message and claim this gig.",
          action: "login_to_claim",
          label: service ? "Hire" : "Claim Gig",
        };
      }
      if (!input.interest) return null;
      if (isOwner) return ownerOfOpenGig(input.interest, gigType);
      if (isHirer || isWorker) return null;
      const mine = input.interest[0];
      const owner = ownerWord(gigType);
      if (!mine) {
        return {
          kind: "act",
          title: service ? "Want to hire? Tell the worker what you need." : "Want this gig? Tell the hirer why you are a good fit.",
          action: "write_interest",
          label: `Write to ${owner}`,
        };
      }
      if (mine.status === "rejected") return { kind: "wait", title: `${capital(owner)} chose someone else for this gig.` };
      if (mine.status === "pending") return { kind: "wait", title: `Waiting for ${owner} to answer your interest message.` };
      if (!mine.claimEnabled) return { kind: "wait", title: `Approved! Waiting for ${owner} to enable claiming.` };
      return {
        kind: "act",
        title: service ? "You can hire this worker now." : "You can claim this gig now.",
        detail: service ? "You pay into escrow; the worker is paid once you approve the work." : "It is yours once you claim it; the deadline starts then.",
        action: "claim",
        label: claimLabel,
      };
    }
    case "pending_payment":
      if (isHirer) {
        if (!input.hasInvoice) return { kind: "wait", title: "Waiting for your escrow payment to be confirmed." };
        return {
          kind: "act",
          title: "Fund the escrow",
          detail: service ? "The worker can start once the escrow is paid." : "The gig opens to workers once the escrow is paid.",
          action: "fund_escrow",
          label: "Pay Invoice",
        };
      }
      if (isWorker) return { kind: "wait", title: "Waiting for the hirer to fund the escrow." };
      return null;
    case "claimed":
      if (isWorker) {
        return {
          kind: "act",
          title: "Start work",
          detail: `${service ? "You were hired and the escrow is funded." : "You claimed this gig."} Start when you are ready; the hirer is told.`,
          action: "start_work",
          label: "Start Work",
        };
      }
      if (isHirer) return { kind: "wait", title: "Waiting for the worker to start work." };
      return null;
    case "in_progress":
      if (isWorker) {
        return {
          kind: "act",
          title: "Submit your work",
          detail: "Describe what you delivered before the deadline. The hirer approves it to release your payment.",
          action: "submit_work",
          label: "Describe your work",
        };
      }
      if (isHirer) return { kind: "wait", title: "Waiting for the worker to submit the work." };
      return null;
    case "needs_revision":
      if (isWorker) {
        return {
          kind: "act",
          title: "Revise and resubmit",
          detail: "The hirer asked for changes: read their note, then submit the work again.",
          action: "submit_work",
          label: "Describe your work",
        };
      }
      if (isHirer) return { kind: "wait", title: "Waiting for the worker to revise the work." };
      return null;
    case "work_submitted":
    case "submitted":
      if (isHirer) {
        return {
          kind: "act",
          title: "Review the delivery",
          detail: `Approve it to release ${payout(input.payment)} to the worker, or ask for a revision.`,
          action: "review_delivery",
          label: "Review",
        };
      }
      if (isWorker) return { kind: "wait", title: "Waiting for the hirer to review your work." };
      return null;
    case "disputed":
      if (isHirer || isWorker) return { kind: "wait", title: "Under review: the platform admin decides how the escrow is settled." };
      return null;
    case "cancelled":
      // A job whose escrow was never funded (its invoice expired, or the hirer cancelled before paying).
      if (isHirer && isOwner && !service && input.escrowStatus === "pending") {
        return {
          kind: "act",
          title: "This gig was cancelled before its escrow was funded.",
          detail: "No sats were taken.",
          action: "post_again",
          label: "Post again",
        };
      }
      return null;
    default:
      // completed, and any status this app does not know yet.
      return null;
  }
}

/** Statuses in which a plan's work goes on: the current milestone is worked on, or waits for its funding. */
const WORKING = ["claimed", "in_progress", "needs_revision", "work_submitted", "submitted", "disputed"];

/**
 * A gig paid in milestones. Before it has a worker (pending_payment, open) and once it has ended it reads as any
 * gig. While the work goes on, an unfunded current milestone waits for the hirer; otherwise each step says which
 * milestone it is about ("Milestone 2 of 3: Submit your work"), and the review names that milestone's payout.
 */
function planStep(input: NextStepInput, m: MilestoneFacts): NextStep {
  if (!WORKING.includes(input.status)) return singleStep(input);
  const isWorker = input.roles.includes("worker");
  const isHirer = input.roles.includes("hirer");
  const label = milestoneLabel(m.current, m.count);
  const n = m.current;
  if (m.escrow === "unfunded") {
    if (isHirer) {
      return {
        kind: "act",
        title: `Fund milestone ${n}`,
        detail: `${label} starts once it is funded${isValidPayment(m.amount ?? 0) ? `: you pay ${formatSats(totalCharge(m.amount!))} into its escrow` : ""}.`,
        action: "fund_milestone",
        label: `Fund milestone ${n}`,
      };
    }
    if (isWorker) return { kind: "wait", title: `Waiting for the hirer to fund milestone ${n}.` };
    return null;
  }
  const step = singleStep({ ...input, payment: m.amount ?? input.payment });
  if (!step) return null;
  if (step.kind === "act") {
    const detail = input.status === "claimed" && n > 1 ? `Milestone ${n} is funded. Start when you are ready; the hirer is told.` : step.detail;
    const button = step.action === "start_work" ? `Start milestone ${n}` : step.label;
    return { ...step, title: `${label}: ${lowerFirst(step.title)}`, ...(detail ? { detail } : {}), label: button };
  }
  return { kind: "wait", title: PLAN_WAITS[input.status]?.(n) ?? step.title };
}

/** The other party's move on a plan's current milestone, naming it. */
const PLAN_WAITS: Record<string, (n: number) => string> = {
  claimed: (n) => `Waiting for the worker to start milestone ${n}.`,
  in_progress: (n) => `Waiting for the worker to submit milestone ${n}.`,
  needs_revision: (n) => `Waiting for the worker to revise milestone ${n}.`,
  work_submitted: (n) => `Waiting for the hirer to review milestone ${n}.`,
  submitted: (n) => `Waiting for the hirer to review milestone ${n}.`,
  disputed: (n) => `Milestone ${n} is under review: the platform admin decides how its escrow is settled.`,
};

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function ownerOfOpenGig(interest: readonly InterestSummary[], gigType: GigType): NextStep {
  const pending = interest.filter((m) => m.status === "pending").map((m) => m.name);
  if (pending.length > 0) return { kind: "act", title: wantText(pending, gigType), action: "review_interest", label: "Review" };
  const toEnable = interest.find((m) => m.status === "approved" && !m.claimEnabled);
  if (toEnable) {
    return {
      kind: "act",
      title: `You approved ${toEnable.name}: enable claiming when you want them to take it.`,
      action: "review_interest",
      label: "Review",
    };
  }
  const enabled = interest.find((m) => m.status === "approved" && m.claimEnabled);
  if (enabled) return { kind: "wait", title: `Waiting for ${enabled.name} to ${gigType === "service_offering" ? "hire you" : "claim the gig"}.` };
  return { kind: "wait", title: gigType === "service_offering" ? "Waiting for hirers to send an interest message." : "Waiting for workers to send an interest message." };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
