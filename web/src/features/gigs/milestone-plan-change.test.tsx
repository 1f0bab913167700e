import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { MilestoneProposalView } from "../../../../domain/milestones";
import { makeUser } from "../../test/factories";
import { apiError, jsonResponse, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { makeMilestone, makePlanGig } from "./gig-factories";
import { MilestonePlanChange } from "./milestone-plan-change";
import type { Gig } from "./types";

/** Design (funded, worked on), Build (5 days) and Launch (not funded): 12,000 sats. */
const planGig = (over: Partial<Gig> = {}) => makePlanGig(over, [{}, { days: 5 }]);

const proposal = (over: Partial<MilestoneProposalView> = {}): MilestoneProposalView => ({
  id: "prop-1",
  proposerId: "worker",
  fromNumber: 2,
  milestones: [
    { title: "Build", amount: 6_000, days: 7 },
    { title: "Launch", amount: 5_000, days: null },
  ],
  status: "pending",
  createdAt: "2026-11-20T10:00:00Z",
  ...over,
});

function renderChange(gig: Gig, userId: string, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    "POST /api/gigs/gig-1/milestone-proposals": (call) => jsonResponse({ id: "prop-new", fromNumber: 2, milestones: (call.body as { milestones: unknown }).milestones, status: "pending" }, 201),
    "POST /api/gigs/gig-1/milestone-proposals/prop-1/accept": () => ({ id: "prop-1", status: "accepted" }),
    "POST /api/gigs/gig-1/milestone-proposals/prop-1/reject": () => ({ id: "prop-1", status: "rejected" }),
    "POST /api/gigs/gig-1/milestone-proposals/prop-1/withdraw": () => ({ id: "prop-1", status: "withdrawn" }),
    ...routes,
  });
  renderWithApp(<MilestonePlanChange gig={gig} />, { user: makeUser({ id: userId }) });
  return { api, user: userEvent.setup() };
}

describe("changing the milestones", () => {
  it("lets a party propose new unfunded milestones, funded ones shown but not editable", async () => {
    const { api, user } = renderChange(planGig(), "hirer");
    await user.click(screen.getByRole("button", { name: "Change milestones" }));
    const form = await screen.findByRole("form", { name: "Change milestones" });
    const funded = within(form).getByRole("list", { name: "Funded milestones" });
    expect(funded).toHaveTextContent("Design");
    expect(within(funded).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(form).getByLabelText("Milestone 2 title")).toHaveValue("Build");
    expect(within(form).getByLabelText("Milestone 2 amount (sats)")).toHaveValue(4_000);
    expect(within(form).getByLabelText("Milestone 2 days")).toHaveValue(5);
    expect(within(form).getByLabelText("Milestone 3 title")).toHaveValue("Launch");
    expect(form).toHaveTextContent("3 milestones · 12,000 sats");

    await user.clear(within(form).getByLabelText("Milestone 2 amount (sats)"));
    await user.type(within(form).getByLabelText("Milestone 2 amount (sats)"), "6000");
    await user.click(within(form).getByRole("button", { name: "Add milestone" }));
    await user.type(within(form).getByLabelText("Milestone 4 title"), "Training");
    await user.type(within(form).getByLabelText("Milestone 4 amount (sats)"), "1000");
    await user.type(within(form).getByLabelText("Milestone 4 days"), "2");
    expect(form).toHaveTextContent("4 milestones · 15,000 sats");
    await user.click(within(form).getByRole("button", { name: "Remove milestone 3" }));
    expect(form).toHaveTextContent("3 milestones · 10,000 sats");
    await user.click(within(form).getByRole("button", { name: "Send proposal" }));

    expect(await findToast("Change Proposed")).toBeInTheDocument();
    expect(await findToast("The new milestones apply once the worker accepts them.")).toBeInTheDocument();
    // The screen's numbering goes with it, so a milestone funded meanwhile makes the server refuse the proposal.
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestone-proposals")[0]!.body).toEqual({
      milestones: [
        { title: "Build", amount: 6_000, days: 5 },
        { title: "Training", amount: 1_000, days: 2 },
      ],
      fromNumber: 2,
    });
    expect(screen.queryByRole("form", { name: "Change milestones" })).not.toBeInTheDocument();
  });

  it("checks each milestone with the shared rules before sending", async () => {
    const { api, user } = renderChange(planGig(), "worker");
    await user.click(screen.getByRole("button", { name: "Change milestones" }));
    const form = await screen.findByRole("form", { name: "Change milestones" });
    await user.clear(within(form).getByLabelText("Milestone 2 title"));
    await user.clear(within(form).getByLabelText("Milestone 3 amount (sats)"));
    await user.type(within(form).getByLabelText("Milestone 3 days"), "45");
    await user.click(within(form).getByRole("button", { name: "Send proposal" }));
    expect(within(form).getByLabelText("Milestone 2 title")).toHaveAccessibleDescription("Milestone title is required");
    expect(within(form).getByLabelText("Milestone 3 amount (sats)")).toHaveAccessibleDescription("Each milestone needs an amount of at least 1 sat");
    expect(within(form).getByLabelText("Milestone 3 days")).toHaveAccessibleDescription("Milestone days must be from 1 to 30");
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestone-proposals")).toHaveLength(0);
  });

  it("keeps at least two milestones in the plan and one to propose", async () => {
    const gig = planGig({
      milestoneCount: 2,
      milestones: [makeMilestone(1, { escrow: "funded", step: "in_progress", current: true }), makeMilestone(2)],
    });
    const { user } = renderChange(gig, "hirer");
    await user.click(screen.getByRole("button", { name: "Change milestones" }));
    await screen.findByRole("form", { name: "Change milestones" });
    expect(screen.queryByRole("button", { name: /Remove milestone/ })).not.toBeInTheDocument();
  });

  it("shows the API's refusal as the app shows other failed actions", async () => {
    const { user } = renderChange(planGig(), "hirer", {
      "POST /api/gigs/gig-1/milestone-proposals": () => apiError(409, "A milestone change is already waiting for an answer", "proposal_pending"),
    });
    await user.click(screen.getByRole("button", { name: "Change milestones" }));
    await user.click(await screen.findByRole("button", { name: "Send proposal" }));
    expect(await findToast("Failed to Propose the Change")).toBeInTheDocument();
    expect(await findToast("A milestone change is already waiting for an answer")).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Change milestones" })).toBeInTheDocument();
  });

  it("shows the other party the proposed milestones against the current ones, to accept", async () => {
    const { api, user } = renderChange(planGig({ milestoneProposal: proposal() }), "hirer");
    const region = screen.getByRole("region", { name: "The worker proposes new milestones" });
    expect(region).toHaveTextContent("Milestone 1 stays as it is. From milestone 2 on:");
    const now = within(region).getByRole("list", { name: "Now: milestones" });
    const proposed = within(region).getByRole("list", { name: "Proposed: milestones" });
    expect(within(now).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["2. Build4,000 sats5 days", "3. Launch5,000 sats"]);
    expect(within(proposed).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["2. Build6,000 sats7 days", "3. Launch5,000 sats"]);
    expect(region).toHaveTextContent("Payment: 12,000 sats → becomes 14,000 sats");
    expect(region).toHaveTextContent("You pay 14,350 sats in all.");
    expect(screen.queryByRole("button", { name: "Change milestones" })).not.toBeInTheDocument();
    await user.click(within(region).getByRole("button", { name: "Accept" }));
    expect(await findToast("Milestones Changed")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestone-proposals/prop-1/accept")).toHaveLength(1);
  });

  it("lets the other party reject it", async () => {
    const { api, user } = renderChange(planGig({ milestoneProposal: proposal({ proposerId: "hirer" }) }), "worker");
    const region = screen.getByRole("region", { name: "The hirer proposes new milestones" });
    expect(region).toHaveTextContent("You receive 13,650 sats in all.");
    await user.click(within(region).getByRole("button", { name: "Reject" }));
    expect(await findToast("Change Rejected")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestone-proposals/prop-1/reject")).toHaveLength(1);
  });

  it("tells the proposer it waits for the other party, and lets them withdraw it", async () => {
    const { api, user } = renderChange(planGig({ milestoneProposal: proposal() }), "worker");
    const region = screen.getByRole("region", { name: "You proposed new milestones" });
    expect(region).toHaveTextContent("Waiting for the other party to accept or reject it.");
    expect(within(region).queryByRole("button", { name: "Accept" })).not.toBeInTheDocument();
    await user.click(within(region).getByRole("button", { name: "Withdraw" }));
    expect(await findToast("Change Withdrawn")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestone-proposals/prop-1/withdraw")).toHaveLength(1);
  });

  it("shows an answer the API refuses as a failed action", async () => {
    const { user } = renderChange(planGig({ milestoneProposal: proposal() }), "hirer", {
      "POST /api/gigs/gig-1/milestone-proposals/prop-1/accept": () =>
        apiError(409, "A milestone this change would replace has been funded since; funded milestones never change", "milestone_funded"),
    });
    await user.click(screen.getByRole("button", { name: "Accept" }));
    expect(await findToast("Failed to Accept the Change")).toBeInTheDocument();
    expect(await findToast(/has been funded since/)).toBeInTheDocument();
  });

  it("is offered to nobody else, on no gig without a plan, and not once the gig has ended", () => {
    const cases: [Gig, string][] = [
      [planGig(), "stranger"],
      [planGig({ milestoneCount: 1, milestones: [makeMilestone(1, { current: true })] }), "hirer"],
      [planGig({ status: "completed" }), "hirer"],
      [planGig({ status: "cancelled" }), "worker"],
      [planGig({ status: "open", workerId: null }), "hirer"],
    ];
    for (const [gig, userId] of cases) {
      const { unmount } = renderWithApp(<MilestonePlanChange gig={gig} />, { user: makeUser({ id: userId }) });
      expect(screen.queryByRole("button", { name: "Change milestones" })).not.toBeInTheDocument();
      unmount();
    }
  });
});
