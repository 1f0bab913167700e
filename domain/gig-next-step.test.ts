import { describe, expect, it } from "vitest";
import { GIG_STATUSES, rolesOf, type GigParties, type GigType } from "./gig";
import { nextStep, type InterestSummary, type NextStep, type NextStepInput } from "./gig-next-step";

type Viewer = "visitor" | "member" | "hirer" | "worker";
const VIEWERS: Viewer[] = ["visitor", "member", "hirer", "worker"];

/** A job is posted by its hirer; a service offering by its worker. Everyone is named after their part. */
function partiesOf(gigType: GigType): GigParties {
  return gigType === "job_request"
    ? { gigType, posterId: "hirer", hirerId: "hirer", workerId: "worker" }
    : { gigType, posterId: "worker", hirerId: "hirer", workerId: "worker" };
}

function stepFor(gigType: GigType, status: string, viewer: Viewer, over: Partial<NextStepInput> = {}): NextStep {
  const roles = rolesOf(partiesOf(gigType), viewer === "visitor" ? null : viewer);
  return nextStep({ gigType, status, escrowStatus: "funded", payment: 10_000, roles, hasInvoice: true, interest: [], ...over });
}

/** The step as "act:<action>" or "wait", or "-" for none. */
const shape = (s: NextStep) => (s === null ? "-" : s.kind === "act" ? `act:${s.action}` : "wait");

// Every status × reader, with no interest message yet. On an open gig nobody else is a party yet: the
// "hirer" of an open job and the "worker" of an open offering are its owner.
const JOB: Record<string, Record<Viewer, string>> = {
  pending_payment: { visitor: "-", member: "-", hirer: "act:fund_escrow", worker: "wait" },
  open: { visitor: "act:login_to_claim", member: "act:write_interest", hirer: "wait", worker: "-" },
  claimed: { visitor: "-", member: "-", hirer: "wait", worker: "act:start_work" },
  in_progress: { visitor: "-", member: "-", hirer: "wait", worker: "act:submit_work" },
  needs_revision: { visitor: "-", member: "-", hirer: "wait", worker: "act:submit_work" },
  work_submitted: { visitor: "-", member: "-", hirer: "act:review_delivery", worker: "wait" },
  completed: { visitor: "-", member: "-", hirer: "-", worker: "-" },
  disputed: { visitor: "-", member: "-", hirer: "wait", worker: "wait" },
  cancelled: { visitor: "-", member: "-", hirer: "-", worker: "-" },
};
const OFFERING: Record<string, Record<Viewer, string>> = {
  ...JOB,
  open: { visitor: "act:login_to_claim", member: "act:write_interest", hirer: "-", worker: "wait" },
};

describe("the next step of a gig's reader", () => {
  it.each(GIG_STATUSES.flatMap((status) => VIEWERS.map((viewer) => [status, viewer] as const)))("job request, %s, %s", (status, viewer) => {
    expect(shape(stepFor("job_request", status, viewer))).toBe(JOB[status]![viewer]);
  });

  it.each(GIG_STATUSES.flatMap((status) => VIEWERS.map((viewer) => [status, viewer] as const)))("service offering, %s, %s", (status, viewer) => {
    expect(shape(stepFor("service_offering", status, viewer))).toBe(OFFERING[status]![viewer]);
  });

  it("tells a visitor to log in to claim, or to hire a service offering", () => {
    expect(stepFor("job_request", "open", "visitor")).toEqual({
      kind: "act",
      title: "Log in to send an interest message and claim this gig.",
      action: "login_to_claim",
      label: "Claim Gig",
    });
    expect(stepFor("service_offering", "open", "visitor")).toMatchObject({ title: "Log in to send an interest message and hire this worker.", label: "Hire" });
  });

  it("walks a member through the interest message: write, wait for the answer, wait for claiming, claim", () => {
    const mine = (over: Partial<InterestSummary>): InterestSummary[] => [{ name: "Me", status: "pending", claimEnabled: false, ...over }];
    expect(stepFor("job_request", "open", "member")).toMatchObject({ title: "Want this gig? Tell the hirer why you are a good fit.", label: "Write to the hirer" });
    expect(stepFor("service_offering", "open", "member")).toMatchObject({ title: "Want to hire? Tell the worker what you need.", label: "Write to the worker" });
    expect(stepFor("job_request", "open", "member", { interest: mine({}) })).toEqual({ kind: "wait", title: "Waiting for the hirer to answer your interest message." });
    expect(stepFor("job_request", "open", "member", { interest: mine({ status: "approved" }) })).toEqual({
      kind: "wait",
      title: "Approved! Waiting for the hirer to enable claiming.",
    });
    expect(stepFor("job_request", "open", "member", { interest: mine({ status: "rejected" }) })).toEqual({ kind: "wait", title: "The hirer chose someone else for this gig." });
    expect(stepFor("job_request", "open", "member", { interest: mine({ status: "approved", claimEnabled: true }) })).toMatchObject({
      kind: "act",
      action: "claim",
      label: "Claim Gig",
    });
    expect(stepFor("service_offering", "open", "member", { interest: mine({ status: "approved", claimEnabled: true }) })).toMatchObject({
      action: "claim",
      label: "Hire for 10,250 sats",
    });
  });

  it("says nothing about interest messages while they load", () => {
    expect(stepFor("job_request", "open", "member", { interest: undefined })).toBeNull();
    expect(stepFor("job_request", "open", "hirer", { interest: undefined })).toBeNull();
  });

  it("names who wants the owner's gig, and sends the owner to review them", () => {
    const msg = (name: string, over: Partial<InterestSummary> = {}): InterestSummary => ({ name, status: "pending", claimEnabled: false, ...over });
    expect(stepFor("job_request", "open", "hirer", { interest: [msg("Wes Worker")] })).toEqual({
      kind: "act",
      title: "Wes Worker wants this gig",
      action: "review_interest",
      label: "Review",
    });
    expect(stepFor("job_request", "open", "hirer", { interest: [msg("Wes"), msg("Ann")] })).toMatchObject({ title: "Wes and Ann want this gig" });
    expect(stepFor("job_request", "open", "hirer", { interest: [msg("Wes"), msg("Ann"), msg("Bo"), msg("Old", { status: "rejected" })] })).toMatchObject({
      title: "Wes and 2 others want this gig",
    });
    expect(stepFor("service_offering", "open", "worker", { interest: [msg("Hugo Buyer")] })).toMatchObject({ title: "Hugo Buyer wants to hire you" });
    expect(stepFor("job_request", "open", "hirer", { interest: [msg("Wes", { status: "approved" })] })).toMatchObject({
      kind: "act",
      title: "You approved Wes: enable claiming when you want them to take it.",
      action: "review_interest",
    });
    expect(stepFor("job_request", "open", "hirer", { interest: [msg("Wes", { status: "approved", claimEnabled: true })] })).toEqual({
      kind: "wait",
      title: "Waiting for Wes to claim the gig.",
    });
    expect(stepFor("service_offering", "open", "worker", { interest: [msg("Hugo", { status: "approved", claimEnabled: true })] })).toEqual({
      kind: "wait",
      title: "Waiting for Hugo to hire you.",
    });
    expect(stepFor("job_request", "open", "hirer")).toEqual({ kind: "wait", title: "Waiting for workers to send an interest message." });
  });

  it("asks the hirer to fund the escrow only with the invoice at hand", () => {
    expect(stepFor("job_request", "pending_payment", "hirer")).toMatchObject({ title: "Fund the escrow", label: "Pay Invoice" });
    expect(stepFor("job_request", "pending_payment", "hirer", { hasInvoice: false })).toEqual({
      kind: "wait",
      title: "Waiting for your escrow payment to be confirmed.",
    });
    expect(stepFor("service_offering", "pending_payment", "worker")).toEqual({ kind: "wait", title: "Waiting for the hirer to fund the escrow." });
  });

  it("says the worker's steps and the hirer's, with the worker's payout at review", () => {
    expect(stepFor("job_request", "claimed", "worker")).toMatchObject({ title: "Start work", label: "Start Work", detail: expect.stringContaining("You claimed this gig.") });
    expect(stepFor("service_offering", "claimed", "worker")).toMatchObject({ detail: expect.stringContaining("You were hired") });
    expect(stepFor("job_request", "claimed", "hirer")).toEqual({ kind: "wait", title: "Waiting for the worker to start work." });
    expect(stepFor("job_request", "in_progress", "worker")).toMatchObject({ title: "Submit your work" });
    expect(stepFor("job_request", "needs_revision", "worker")).toMatchObject({ title: "Revise and resubmit" });
    expect(stepFor("job_request", "work_submitted", "hirer")).toMatchObject({
      title: "Review the delivery",
      detail: "Approve it to release 9,750 sats to the worker, or ask for a revision.",
    });
    expect(stepFor("job_request", "submitted", "worker")).toEqual({ kind: "wait", title: "Waiting for the hirer to review your work." });
  });

  it("offers Post again to the hirer of a job cancelled before its escrow was funded, and only then", () => {
    expect(stepFor("job_request", "cancelled", "hirer", { escrowStatus: "pending" })).toMatchObject({ action: "post_again", label: "Post again" });
    expect(stepFor("job_request", "cancelled", "hirer", { escrowStatus: "refunded" })).toBeNull();
    expect(stepFor("job_request", "cancelled", "worker", { escrowStatus: "pending" })).toBeNull();
    expect(stepFor("service_offering", "cancelled", "hirer", { escrowStatus: "pending" })).toBeNull();
  });

  it("has nothing to say on a status this app does not know", () => {
    expect(stepFor("job_request", "on_hold_by_admin", "hirer")).toBeNull();
  });

  it("has the same answer for a gig whose only milestone is implicit as for one without milestone facts", () => {
    for (const gigType of ["job_request", "service_offering"] as const) {
      for (const status of GIG_STATUSES) {
        for (const viewer of VIEWERS) {
          for (const escrow of ["funded", "unfunded"]) {
            expect(stepFor(gigType, status, viewer, { milestone: { current: 1, count: 1, escrow, amount: 10_000 } })).toEqual(stepFor(gigType, status, viewer));
          }
        }
      }
    }
  });
});

describe("the next step of a gig paid in milestones", () => {
  /** Milestone 2 of 3 is current: 4,000 of the gig's 10,000 sats. */
  const planStep = (gigType: GigType, status: string, viewer: Viewer, escrow = "funded", over: Partial<NextStepInput> = {}) =>
    stepFor(gigType, status, viewer, { milestone: { current: 2, count: 3, escrow, amount: 4_000 }, ...over });

  // A funded current milestone: the same moves as a gig without a plan, status by status.
  it.each(GIG_STATUSES.flatMap((status) => VIEWERS.map((viewer) => [status, viewer] as const)))("funded current milestone, job request, %s, %s", (status, viewer) => {
    expect(shape(planStep("job_request", status, viewer))).toBe(JOB[status]![viewer]);
  });

  // An unfunded current milestone (the one before it was approved; the gig went back to claimed).
  const UNFUNDED: Record<Viewer, string> = { visitor: "-", member: "-", hirer: "act:fund_milestone", worker: "wait" };
  it.each(["job_request", "service_offering"] as const)("asks the hirer of a %s to fund the current milestone, and the worker to wait for it", (gigType) => {
    for (const viewer of VIEWERS) expect(shape(planStep(gigType, "claimed", viewer, "unfunded"))).toBe(UNFUNDED[viewer]);
    expect(planStep(gigType, "claimed", "hirer", "unfunded")).toEqual({
      kind: "act",
      title: "Fund milestone 2",
      detail: "Milestone 2 of 3 starts once it is funded: you pay 4,100 sats into its escrow.",
      action: "fund_milestone",
      label: "Fund milestone 2",
    });
    expect(planStep(gigType, "claimed", "worker", "unfunded")).toEqual({ kind: "wait", title: "Waiting for the hirer to fund milestone 2." });
  });

  it("names the milestone in each party's step, with the milestone's own payout at review", () => {
    expect(planStep("job_request", "claimed", "worker")).toEqual({
      kind: "act",
      title: "Milestone 2 of 3: start work",
      detail: "Milestone 2 is funded. Start when you are ready; the hirer is told.",
      action: "start_work",
      label: "Start milestone 2",
    });
    expect(planStep("job_request", "claimed", "hirer")).toEqual({ kind: "wait", title: "Waiting for the worker to start milestone 2." });
    expect(planStep("job_request", "in_progress", "worker")).toMatchObject({ title: "Milestone 2 of 3: submit your work", action: "submit_work" });
    expect(planStep("job_request", "in_progress", "hirer")).toEqual({ kind: "wait", title: "Waiting for the worker to submit milestone 2." });
    expect(planStep("job_request", "needs_revision", "worker")).toMatchObject({ title: "Milestone 2 of 3: revise and resubmit" });
    expect(planStep("job_request", "needs_revision", "hirer")).toEqual({ kind: "wait", title: "Waiting for the worker to revise milestone 2." });
    expect(planStep("job_request", "work_submitted", "hirer")).toMatchObject({
      title: "Milestone 2 of 3: review the delivery",
      detail: "Approve it to release 3,900 sats to the worker, or ask for a revision.",
      action: "review_delivery",
    });
    expect(planStep("job_request", "work_submitted", "worker")).toEqual({ kind: "wait", title: "Waiting for the hirer to review milestone 2." });
    expect(planStep("job_request", "disputed", "worker")).toEqual({
      kind: "wait",
      title: "Milestone 2 is under review: the platform admin decides how its escrow is settled.",
    });
  });

  it("keeps the first milestone's start in the gig's own words", () => {
    expect(stepFor("job_request", "claimed", "worker", { milestone: { current: 1, count: 3, escrow: "funded", amount: 3_000 } })).toMatchObject({
      title: "Milestone 1 of 3: start work",
      detail: expect.stringContaining("You claimed this gig."),
    });
  });

  it("reads as any gig before it has a worker and once it has ended", () => {
    for (const status of ["pending_payment", "open", "completed", "cancelled"]) {
      for (const viewer of VIEWERS) {
        expect(planStep("job_request", status, viewer, "unfunded", { escrowStatus: "pending" })).toEqual(stepFor("job_request", status, viewer, { escrowStatus: "pending" }));
      }
    }
  });
});
