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
  await user.click(await screen.findByRole("radio", { name: new RegExp(type) }, { timeout: 5000 }));
  await user.type(screen.getByLabelText("Title"), "Bakery website");
  await user.type(screen.getByLabelText("Description"), "A small site with a menu page and opening hours.");
  await user.selectOptions(screen.getByLabelText("Category"), "Development");
  await user.type(screen.getByLabelText("Payment (sats)"), "10000");
}

describe("Post New Gig", () => {
  it("shows the spec's messages and keeps Preview disabled while the form is invalid", async () => {
    const { user } = renderPost();
    const preview = await screen.findByRole("button", { name: "Preview" }, { timeout: 5000 });
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

    const modal = await screen.findByRole("dialog", { name: "Fund Escrow" }, { timeout: 5000 });
    expect(within(modal).getByText("10,250 sats")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs")[0]!.body).toEqual({
      gigType: "job_request",
      title: "Bakery website",
      description: "A small site with a menu page and opening hours.",
      category: "Development",
      payment: 10_000,
      timeframe: 7,
    });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/?tab=active"));
  });

  it("posts a service offering straight to the Active tab", async () => {
    const gig = makeGig({ gigType: "service_offering", status: "open", escrowStatus: "pending" });
    const { user } = renderPost({ "POST /api/gigs": () => new Response(JSON.stringify({ gig, paymentRequest: null, totalCharge: 10_250 }), { status: 201 }) });
    await fillValidForm(user, { type: "For Hire" });
    await user.click(screen.getByRole("button", { name: "Preview" }));
    await user.click(screen.getByRole("button", { name: "Post Gig" }));
    expect(await findToast("Gig Posted")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/?tab=active");
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
});
