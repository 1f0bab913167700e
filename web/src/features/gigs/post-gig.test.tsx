import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, LocationProbe, renderWithApp } from "../../test/render";
import { makeGig } from "./gig-factories";
import { GigDialogsProvider } from "./gig-dialogs";
import { PostGig } from "./post-gig";

function renderPost(routes: Parameters<typeof mockApi>[0] = {}, lightningAddress: string | null = "me@wallet.test") {
  const api = mockApi({ "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5 }), ...routes });
  renderWithApp(
    <GigDialogsProvider>
      <PostGig />
      <LocationProbe />
    </GigDialogsProvider>,
    { user: makeUser({ id: "me", lightningAddress }) },
  );
  return { api, user: userEvent.setup() };
}

async function fillValidForm(user: ReturnType<typeof userEvent.setup>, { type = "Hiring Now" } = {}) {
  await user.click(await screen.findByRole("radio", { name: new RegExp(type) }));
  await user.type(screen.getByLabelText("Title"), "Bakery website");
  await user.type(screen.getByLabelText("Description"), "A small site with a menu page and opening hours.");
  await user.selectOptions(screen.getByLabelText("Category"), "Development");
  await user.type(screen.getByLabelText("Payment (sats)"), "10000");
}

describe("Post New Gig", () => {
  it("shows the spec's messages and keeps Preview disabled while the form is invalid", async () => {
    const { user } = renderPost();
    const preview = await screen.findByRole("button", { name: "Preview" });
    expect(preview).toBeDisabled();
    expect(screen.getByLabelText("Timeframe (days)")).toHaveValue(7);
    expect(screen.getByRole("radio", { name: /Hiring Now/ })).toBeChecked();

    const title = screen.getByLabelText("Title");
    await user.type(title, "x");
    await user.clear(title);
    expect(screen.getByText("Title is required")).toBeInTheDocument();
    await user.type(title, "a".repeat(101));
    expect(screen.getByText("Title must be less than 100 characters")).toBeInTheDocument();
    expect(title).toHaveAttribute("aria-invalid", "true");

    await user.type(screen.getByLabelText("Description"), "too short");
    expect(screen.getByText("Description must be at least 10 characters")).toBeInTheDocument();

    await user.click(screen.getByLabelText("Category"));
    await user.tab();
    expect(screen.getByText("Category is required")).toBeInTheDocument();

    const payment = screen.getByLabelText("Payment (sats)");
    await user.type(payment, "0");
    expect(screen.getByText("Minimum payment is 1 sat")).toBeInTheDocument();
    await user.clear(payment);
    await user.type(payment, "1000001");
    expect(screen.getByText("Maximum payment is 1,000,000 sats")).toBeInTheDocument();

    const timeframe = screen.getByLabelText("Timeframe (days)");
    await user.clear(timeframe);
    await user.type(timeframe, "31");
    expect(screen.getByText("Maximum timeframe is 30 days")).toBeInTheDocument();
    await user.clear(timeframe);
    await user.type(timeframe, "0");
    expect(screen.getByText("Minimum timeframe is 1 day")).toBeInTheDocument();
    expect(preview).toBeDisabled();
  });

  it("shows the fee each side pays, previews, goes back to edit, and posts a job request into the payment modal", async () => {
    const gig = makeGig({ id: "new-gig-0001", title: "Bakery website", status: "pending_payment", escrowStatus: "pending", payment: 10_000 });
    const { api, user } = renderPost({
      "POST /api/gigs": () => new Response(JSON.stringify({ gig, paymentRequest: "lnbcrt102500n1pdevinvoice", totalCharge: 10_250 }), { status: 201 }),
      "GET /api/gigs/new-gig-0001": () => gig,
    });
    await fillValidForm(user, { type: "For Hire" });
    expect(screen.getByTestId("fee-summary")).toHaveTextContent("You receive 10,000 sats − 2.5% fee (250 sats) = 9,750 sats");
    await user.click(screen.getByRole("radio", { name: /Hiring Now/ }));
    expect(screen.getByTestId("fee-summary")).toHaveTextContent("You pay 10,000 sats + 2.5% fee (250 sats) = 10,250 sats");

    await user.click(screen.getByRole("button", { name: "Preview" }));
    expect(screen.getByRole("heading", { name: "Bakery website" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Edit" }));
    expect(screen.getByLabelText("Title")).toHaveValue("Bakery website");
    await user.click(screen.getByRole("button", { name: "Preview" }));
    await user.click(screen.getByRole("button", { name: "Post & Pay" }));

    const modal = await screen.findByRole("dialog", { name: "Fund Escrow" });
    expect(within(modal).getByText("10,250 sats")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs")[0]!.body).toEqual({
      gigType: "job_request",
      title: "Bakery website",
      description: "A small site with a menu page and opening hours.",
      category: "Development",
      payment: 10_000,
      timeframe: 7,
    });
    expect(api.callsTo("POST", "/api/gigs")[0]!.body).not.toHaveProperty("milestones");
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/?tab=active"));
  });

  it("posts a service offering straight to the Active tab", async () => {
    const gig = makeGig({ gigType: "service_offering", status: "open", escrowStatus: "pending" });
    const { user } = renderPost({ "POST /api/gigs": () => new Response(JSON.stringify({ gig, paymentRequest: null, totalCharge: 10_250 }), { status: 201 }) });
    await fillValidForm(user, { type: "For Hire" });
    await user.click(screen.getByRole("button", { name: "Preview" }));
    await user.click(screen.getByRole("button", { name: "Post Gig" }));
    expect(await findToast("Gig Posted")).toBeInTheDocument();
    // The toast shows in the same commit as the navigation or the one before it: wait for where the page goes.
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/?tab=active"));
    expect(screen.queryByRole("dialog", { name: "Fund Escrow" })).not.toBeInTheDocument();
  });

  it("needs a Lightning address before posting, and opens the settings", async () => {
    const { api, user } = renderPost({ "GET /api/user/me": () => makeUser() }, null);
    expect(await screen.findByText(/A Lightning address is required before posting/)).toBeInTheDocument();
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Preview" }));
    await user.click(screen.getByRole("button", { name: "Post & Pay" }));
    expect(await findToast("Lightning Address Required")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs")).toHaveLength(0);
    expect(await screen.findByRole("dialog", { name: /settings/i })).toBeInTheDocument();
  });

  it("says Failed to Post Gig with the server's message, or the fallback", async () => {
    let answer = apiError(409, "Too many unpaid gigs", "too_many");
    const { user } = renderPost({ "POST /api/gigs": () => answer });
    await fillValidForm(user);
    await user.click(screen.getByRole("button", { name: "Preview" }));
    await user.click(screen.getByRole("button", { name: "Post & Pay" }));
    expect(await findToast("Failed to Post Gig")).toBeInTheDocument();
    expect(await findToast("Too many unpaid gigs")).toBeInTheDocument();

    answer = new Response("", { status: 500 });
    await user.click(screen.getByRole("button", { name: "Post & Pay" }));
    expect(await findToast("Please check your input and try again.")).toBeInTheDocument();
  });

  describe("in milestones", () => {
    /** Switches "Pay in milestones" on, adds rows up to `plan`'s length and types each row. */
    async function fillPlan(user: ReturnType<typeof userEvent.setup>, plan: { title: string; amount: string; days?: string }[]) {
      await user.click(screen.getByRole("switch", { name: "Pay in milestones" }));
      for (let n = 3; n <= plan.length; n++) await user.click(screen.getByRole("button", { name: "Add milestone" }));
      for (const [i, m] of plan.entries()) {
        await user.type(screen.getByLabelText(`Milestone ${i + 1} title`), m.title);
        await user.type(screen.getByLabelText(`Milestone ${i + 1} amount (sats)`), m.amount);
        if (m.days) await user.type(screen.getByLabelText(`Milestone ${i + 1} days`), m.days);
      }
    }
    const PLAN = [
      { title: "Design", amount: "20000", days: "5" },
      { title: "Build", amount: "25000" },
      { title: "Launch", amount: "15000", days: "2" },
    ];

    it("switched on: two rows, and the payment is their sum, read-only; switched off the typed payment is back", async () => {
      const { user } = renderPost();
      await fillValidForm(user);
      const payment = screen.getByLabelText("Payment (sats)");
      await user.click(screen.getByRole("switch", { name: "Pay in milestones" }));
      expect(screen.getAllByLabelText(/^Milestone \d+ title$/)).toHaveLength(2);
      expect(screen.getByLabelText("Payment (sats)")).toHaveAttribute("readonly");
      expect(screen.getByText("The sum of the milestones")).toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Preview" })).toBeDisabled();

      await user.type(screen.getByLabelText("Milestone 1 amount (sats)"), "20000");
      expect(screen.getByLabelText("Payment (sats)")).toHaveValue(20_000);
      await user.type(screen.getByLabelText("Milestone 2 amount (sats)"), "25000");
      expect(screen.getByLabelText("Payment (sats)")).toHaveValue(45_000);
      expect(screen.getByText("2 milestones · 45,000 sats")).toBeInTheDocument();

      await user.click(screen.getByRole("switch", { name: "Pay in milestones" }));
      expect(screen.queryAllByLabelText(/^Milestone \d+ title$/)).toHaveLength(0);
      expect(payment).not.toHaveAttribute("readonly");
      expect(screen.getByLabelText("Payment (sats)")).toHaveValue(10_000);
      expect(screen.getByTestId("fee-summary")).toHaveTextContent("You pay 10,000 sats + 2.5% fee (250 sats) = 10,250 sats");
    });

    it("shows each milestone's error beside it, the sum's beside the payment, and keeps Preview disabled", async () => {
      const { user } = renderPost();
      await fillValidForm(user);
      await user.click(screen.getByRole("switch", { name: "Pay in milestones" }));
      const title1 = screen.getByLabelText("Milestone 1 title");
      await user.type(title1, "x");
      await user.clear(title1);
      expect(title1).toHaveAccessibleDescription("Milestone title is required");
      expect(title1).toHaveAttribute("aria-invalid", "true");

      const amount2 = screen.getByLabelText("Milestone 2 amount (sats)");
      await user.type(amount2, "0");
      expect(amount2).toHaveAccessibleDescription("Each milestone needs an amount of at least 1 sat");
      // The missing amount is the row's to say; the sum says nothing of it.
      expect(screen.queryByText("Minimum payment is 1 sat")).not.toBeInTheDocument();

      const days2 = screen.getByLabelText("Milestone 2 days");
      await user.type(days2, "31");
      expect(days2).toHaveAccessibleDescription("Milestone days must be from 1 to 30");
      await user.tab();
      // Untouched fields say nothing yet.
      expect(screen.getByLabelText("Milestone 2 title")).not.toHaveAccessibleDescription();

      await user.clear(amount2);
      await user.type(amount2, "600000");
      await user.type(screen.getByLabelText("Milestone 1 amount (sats)"), "500000");
      expect(screen.getByLabelText("Payment (sats)")).toHaveAccessibleDescription("The sum of the milestones Maximum payment is 1,000,000 sats");
      expect(screen.getAllByText("Maximum payment is 1,000,000 sats")).toHaveLength(1);
      expect(screen.getByRole("button", { name: "Preview" })).toBeDisabled();
    });

    it("previews the plan and what a job request pays now, posts it, and the payment dialog asks for milestone 1 and its fee", async () => {
      const gig = makeGig({ id: "plan-gig-0001", title: "Bakery website", status: "pending_payment", escrowStatus: "pending", payment: 60_000, milestoneCount: 3 });
      const { api, user } = renderPost({
        "POST /api/gigs": () =>
          new Response(
            JSON.stringify({
              gig,
              paymentRequest: "lnbcrt205000n1pdevinvoice",
              totalCharge: 20_500,
              invoicedMilestone: { number: 1, count: 3, title: "Design", amount: 20_000 },
            }),
            { status: 201 },
          ),
        "GET /api/gigs/plan-gig-0001": () => gig,
      });
      await fillValidForm(user);
      await fillPlan(user, PLAN);
      expect(screen.getByLabelText("Payment (sats)")).toHaveValue(60_000);
      expect(screen.getByText("3 milestones · 60,000 sats")).toBeInTheDocument();
      expect(screen.getByTestId("fee-summary")).toHaveTextContent(
        "You pay now, for milestone 1: 20,000 sats + 2.5% fee (500 sats) = 20,500 sats" + "The whole plan: 60,000 sats + fees (1,500 sats) = 61,500 sats",
      );

      await user.click(screen.getByRole("button", { name: "Preview" }));
      const milestones = within(screen.getByRole("region", { name: "Milestones" }));
      expect(milestones.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
        "Milestone 1 of 3Design20,000 sats5 days",
        "Milestone 2 of 3Build25,000 sats",
        "Milestone 3 of 3Launch15,000 sats2 days",
      ]);
      expect(milestones.getByText("Total").parentElement).toHaveTextContent("60,000 sats");
      expect(screen.getByTestId("fee-summary")).toHaveTextContent("You pay now, for milestone 1: 20,000 sats + 2.5% fee (500 sats) = 20,500 sats");

      // Back to edit and the plan is still there.
      await user.click(screen.getByRole("button", { name: "Edit" }));
      expect(screen.getByLabelText("Milestone 3 title")).toHaveValue("Launch");
      await user.click(screen.getByRole("button", { name: "Preview" }));
      await user.click(screen.getByRole("button", { name: "Post & Pay" }));

      const modal = await screen.findByRole("dialog", { name: "Fund Escrow" });
      expect(within(modal).getByText("You pay").nextElementSibling).toHaveTextContent("20,500 sats");
      expect(within(modal).getByText("Amount").nextElementSibling).toHaveTextContent("20,000 sats");
      expect(within(modal).getByText("Fee (2.5%)").nextElementSibling).toHaveTextContent("500 sats");
      expect(within(modal).queryByText(/61,500|60,000/)).not.toBeInTheDocument();
      expect(within(modal).getByText("Milestone 1 of 3: Design")).toBeInTheDocument();
      expect(api.callsTo("POST", "/api/gigs")[0]!.body).toEqual({
        gigType: "job_request",
        title: "Bakery website",
        description: "A small site with a menu page and opening hours.",
        category: "Development",
        payment: 60_000,
        timeframe: 7,
        milestones: [
          { title: "Design", amount: 20_000, days: 5 },
          { title: "Build", amount: 25_000 },
          { title: "Launch", amount: 15_000, days: 2 },
        ],
      });
    });

    it("tells a service offering's worker what they receive over the plan, and posts the plan", async () => {
      const gig = makeGig({ gigType: "service_offering", status: "open", escrowStatus: "pending", payment: 60_000, milestoneCount: 3 });
      const { api, user } = renderPost({ "POST /api/gigs": () => new Response(JSON.stringify({ gig, paymentRequest: null, totalCharge: 20_500 }), { status: 201 }) });
      await fillValidForm(user, { type: "For Hire" });
      await fillPlan(user, PLAN);
      expect(screen.getByTestId("fee-summary")).toHaveTextContent("You receive 60,000 sats − 2.5% fees (1,500 sats) = 58,500 sats, as each milestone is approved");
      await user.click(screen.getByRole("button", { name: "Preview" }));
      expect(within(screen.getByRole("region", { name: "Milestones" })).getAllByRole("listitem")).toHaveLength(3);
      await user.click(screen.getByRole("button", { name: "Post Gig" }));
      expect(await findToast("Gig Posted")).toBeInTheDocument();
      expect(api.callsTo("POST", "/api/gigs")[0]!.body).toMatchObject({ gigType: "service_offering", payment: 60_000, milestones: [{ title: "Design" }, { title: "Build" }, { title: "Launch" }] });
    });
  });
});
