import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { makeGig, makeMilestone, makePlanGig } from "./gig-factories";
import { GigDialogsContext, type GigDialogsApi } from "./gig-dialogs-context";
import { MilestoneSteps, nextToFund } from "./milestone-steps";
import type { Gig } from "./types";

/** A job of three milestones (3,000 + 4,000 + 5,000), milestone 1 worked on: funded, in progress. Design takes 5 days, Build 1. */
const planGig = (over: Partial<Gig> = {}) => makePlanGig(over, [{ days: 5 }, { days: 1 }]);

function renderSteps(gig: Gig, userId?: string) {
  const api = mockApi({
    "POST /api/gigs/gig-1/milestones/2/fund": () => ({ paymentRequest: "lnbcrt-milestone-2", totalCharge: 4_100, milestone: 2 }),
  });
  const dialogs: GigDialogsApi = { openDetails: vi.fn(), openChat: vi.fn(), openManage: vi.fn(), openPayment: vi.fn() };
  renderWithApp(
    <GigDialogsContext.Provider value={dialogs}>
      <MilestoneSteps gig={gig} />
    </GigDialogsContext.Provider>,
    { user: userId ? makeUser({ id: userId }) : undefined },
  );
  return { api, dialogs, user: userEvent.setup() };
}

const steps = () => within(screen.getByRole("list", { name: "Milestones" })).getAllByRole("listitem");

describe("milestone steps", () => {
  it("lists the milestones in order with title, amount, days and step, the current one marked", () => {
    renderSteps(planGig());
    const items = steps();
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("Design");
    expect(items[0]).toHaveTextContent("3,000 sats");
    expect(items[0]).toHaveTextContent("5 days");
    expect(items[0]).toHaveTextContent("In progress");
    expect(items[1]).toHaveTextContent("Build");
    expect(items[1]).toHaveTextContent("1 day");
    expect(items[1]).toHaveTextContent("Not funded");
    expect(items[2]).toHaveTextContent("Launch");
    expect(items[2]).not.toHaveTextContent("day");
    expect(items.map((li) => li.getAttribute("aria-current"))).toEqual(["step", null, null]);
    expect(within(items[0]!).getByText("Milestone 1:", { exact: false })).toBeInTheDocument();
    expect(screen.getByText("Milestone 1 of 3")).toBeInTheDocument();
  });

  it("says what each milestone costs the hirer and what the worker receives for it", () => {
    const gig = planGig();
    renderSteps(gig, "hirer");
    expect(steps().map((li) => within(li).getByText(/sats$/).textContent)).toEqual(["You pay 3,075 sats", "You pay 4,100 sats", "You pay 5,125 sats"]);
  });

  it("says what the worker receives for each milestone", () => {
    renderSteps(planGig(), "worker");
    expect(steps().map((li) => within(li).getByText(/sats$/).textContent)).toEqual(["You receive 2,925 sats", "You receive 3,900 sats", "You receive 4,875 sats"]);
  });

  it("shows each step's label, and a paid milestone as paid by the hirer", () => {
    const gig = makePlanGig({
      status: "work_submitted",
      currentMilestone: 2,
      milestones: [
        makeMilestone(1, { amount: 3_000, escrow: "released", step: "paid" }),
        makeMilestone(2, { escrow: "funded", step: "submitted", current: true }),
        makeMilestone(3, { escrow: "unfunded", step: "awaiting_payment" }),
      ],
    });
    renderSteps(gig, "hirer");
    const [first, second, third] = steps();
    expect(first).toHaveTextContent("Paid");
    expect(first).toHaveTextContent("You paid 3,075 sats");
    expect(second).toHaveTextContent("Submitted");
    expect(second).toHaveAttribute("aria-current", "step");
    expect(third).toHaveTextContent("Awaiting payment");
  });

  it("shows nothing for a gig without a plan", () => {
    renderSteps(makeGig({ milestoneCount: 1, milestones: [makeMilestone(1, { current: true, escrow: "funded", step: "funded" })] }), "poster-1");
    expect(screen.queryByRole("list", { name: "Milestones" })).not.toBeInTheDocument();
  });

  it("offers the hirer to fund the milestone after the last funded one, and opens its invoice", async () => {
    const { api, dialogs, user } = renderSteps(planGig(), "hirer");
    const [first, second, third] = steps();
    expect(within(first!).queryByRole("button")).not.toBeInTheDocument();
    expect(within(third!).queryByRole("button")).not.toBeInTheDocument();
    await user.click(within(second!).getByRole("button", { name: "Fund milestone 2" }));
    await waitFor(() =>
      expect(dialogs.openPayment).toHaveBeenCalledWith({
        gigId: "gig-1",
        paymentRequest: "lnbcrt-milestone-2",
        payment: 4_000,
        totalCharge: 4_100,
        milestone: 2,
        milestoneLabel: "Milestone 2 of 3: Build",
      }),
    );
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/fund")).toHaveLength(1);
  });

  it("reopens a milestone's invoice the details already carry, without asking for another", async () => {
    const gig = makePlanGig({
      milestones: [
        makeMilestone(1, { amount: 3_000, escrow: "funded", step: "in_progress", current: true }),
        makeMilestone(2, { step: "awaiting_payment", paymentRequest: "lnbcrt-open-invoice" }),
        makeMilestone(3),
      ],
    });
    const { api, dialogs, user } = renderSteps(gig, "hirer");
    await user.click(screen.getByRole("button", { name: "Pay milestone 2" }));
    expect(dialogs.openPayment).toHaveBeenCalledWith(expect.objectContaining({ paymentRequest: "lnbcrt-open-invoice", totalCharge: 4_100, milestone: 2 }));
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/fund")).toHaveLength(0);
  });

  it("says why a milestone could not be funded", async () => {
    const { dialogs, user } = renderSteps(planGig(), "hirer");
    mockApi({ "POST /api/gigs/gig-1/milestones/2/fund": () => apiError(409, "Fund milestone 1 first", "fund_in_order") });
    await user.click(screen.getByRole("button", { name: "Fund milestone 2" }));
    expect(await findToast("Failed to Fund Milestone")).toBeInTheDocument();
    expect(await findToast("Fund milestone 1 first")).toBeInTheDocument();
    expect(dialogs.openPayment).not.toHaveBeenCalled();
  });

  it("offers funding to nobody but the hirer, and not once the gig has ended or before its first milestone is paid", () => {
    renderSteps(planGig(), "worker");
    expect(screen.queryByRole("button", { name: /Fund milestone/ })).not.toBeInTheDocument();
    expect(nextToFund(planGig({ status: "completed" }))).toBeUndefined();
    expect(nextToFund(planGig({ status: "cancelled" }))).toBeUndefined();
    expect(nextToFund(makePlanGig({ status: "pending_payment", milestones: [makeMilestone(1), makeMilestone(2), makeMilestone(3)] }))).toBeUndefined();
    expect(nextToFund(planGig())?.number).toBe(2);
  });

  it("highlights no milestone of a gig that has ended", () => {
    const gig = makePlanGig({
      status: "completed",
      currentMilestone: 3,
      milestones: [
        makeMilestone(1, { escrow: "released", step: "paid" }),
        makeMilestone(2, { escrow: "released", step: "paid" }),
        makeMilestone(3, { escrow: "released", step: "approved", current: true }),
      ],
    });
    renderSteps(gig, "worker");
    expect(steps().map((li) => li.getAttribute("aria-current"))).toEqual([null, null, null]);
    expect(screen.queryByText("Milestone 3 of 3")).not.toBeInTheDocument();
  });
});
