import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { makeGig, makeInterest } from "../gigs/gig-factories";
import { GigDialogsProvider } from "../gigs/gig-dialogs";
import type { Gig } from "../gigs/types";
import { PostAgainButton } from "./post-again-button";

const NEW_INVOICE = "lnbcrt51250n1newinvoiceforthesamegigqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq";
const me = makeUser({ id: "me", lightningAddress: "me@wallet.test" });

function expiredJob(overrides: Partial<Gig> = {}) {
  return makeGig({
    id: "old-gig",
    title: "Translate a menu",
    description: "Translate a two-page menu from Spanish to English.",
    category: "Writing",
    payment: 5_000,
    timeframe: 3,
    status: "cancelled",
    escrowStatus: "pending",
    posterId: "me",
    hirerId: "me",
    ...overrides,
  });
}

function render(gig: Gig, routes: Parameters<typeof mockApi>[0] = {}, user = me) {
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  const newGig = { ...gig, id: "new-gig", status: "pending_payment" as const, escrowStatus: "pending" as const };
  const api = mockApi({
    "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
    "POST /api/gigs": async () => {
      await answered;
      return new Response(JSON.stringify({ gig: newGig, paymentRequest: NEW_INVOICE, totalCharge: 5_125 }), { status: 201 });
    },
    "GET /api/gigs/new-gig": () => newGig,
    "GET /api/gigs": () => [],
    ...routes,
  });
  const onPosted = vi.fn();
  renderWithApp(
    <GigDialogsProvider>
      <PostAgainButton gig={gig} onPosted={onPosted} />
    </GigDialogsProvider>,
    { user },
  );
  return { api, onPosted, release };
}

describe("Post again", () => {
  it("posts one new gig with the same title, description and terms however often it is clicked, and opens its payment", async () => {
    const { api, onPosted, release } = render(expiredJob());
    const button = await screen.findByRole("button", { name: "Post again" });
    expect(screen.getByText(/same title, description and terms \(5,000 sats, 3 days\)/)).toBeInTheDocument();
    // A double tap: both clicks land before the first answer.
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole("button", { name: "Posting..." })).toBeDisabled());
    await userEvent.setup().click(screen.getByRole("button", { name: "Posting..." }));
    release();

    const pay = await screen.findByRole("dialog", { name: /Fund Escrow/ });
    expect(within(pay).getByRole("link", { name: "Open in Wallet" })).toHaveAttribute("href", `lightning:${NEW_INVOICE}`);
    expect(within(pay).getByText("5,125 sats")).toBeInTheDocument();
    expect(within(pay).getByText("new-gig".slice(0, 8))).toBeInTheDocument();
    expect(onPosted).toHaveBeenCalledOnce();

    expect(api.callsTo("POST", "/api/gigs")).toHaveLength(1);
    expect(api.callsTo("POST", "/api/gigs")[0]!.body).toEqual({
      gigType: "job_request",
      title: "Translate a menu",
      description: "Translate a two-page menu from Spanish to English.",
      category: "Writing",
      payment: 5_000,
      timeframe: 3,
    });
  });

  it("stays done once the new gig exists: no second gig from a later click", async () => {
    const { api, release } = render(expiredJob());
    release();
    await userEvent.setup().click(await screen.findByRole("button", { name: "Post again" }));
    await screen.findByRole("dialog", { name: /Fund Escrow/ });
    expect(screen.getByRole("button", { name: "Post again", hidden: true })).toBeDisabled();
    expect(api.callsTo("POST", "/api/gigs")).toHaveLength(1);
  });

  it("may be tried again after a failure, which it reports", async () => {
    let fail = true;
    const { api, release } = render(expiredJob(), {
      "POST /api/gigs": () => (fail ? apiError(429, "Too many gigs posted, try later", "rate_limited") : new Response("{}", { status: 500 })),
    });
    release();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Post again" }));
    expect(await findToast("Failed to Post Gig")).toBeInTheDocument();
    expect(await findToast("Too many gigs posted, try later")).toBeInTheDocument();
    fail = false;
    await waitFor(() => expect(screen.getByRole("button", { name: "Post again" })).toBeEnabled());
    await user.click(screen.getByRole("button", { name: "Post again" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/gigs")).toHaveLength(2));
  });

  it("asks for a Lightning address first, as posting does", async () => {
    const { api } = render(expiredJob(), {}, makeUser({ id: "me", lightningAddress: null }));
    await userEvent.setup().click(await screen.findByRole("button", { name: "Post again" }));
    expect(await findToast("Lightning Address Required")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs")).toHaveLength(0);
  });

  it("is offered to the gig's owner only", async () => {
    render(expiredJob({ posterId: "someone-else", hirerId: "someone-else" }));
    expect(screen.queryByRole("button", { name: "Post again" })).not.toBeInTheDocument();
  });

  it("hires a service offering again, once, when the worker has enabled hiring for this member", async () => {
    const offer = makeGig({ id: "offer", gigType: "service_offering", title: "Logo design", status: "open", escrowStatus: "pending", posterId: "worker", workerId: "worker", hirerId: null });
    const hired = { ...offer, status: "pending_payment" as const, hirerId: "me" };
    const api = mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
      "GET /api/gigs/offer/pre-claim-messages": () => [makeInterest({ gigId: "offer", senderId: "me", status: "approved", claimEnabled: true })],
      "POST /api/gigs/offer/claim": () => ({ gig: hired, paymentRequest: NEW_INVOICE, totalCharge: 10_250 }),
      "GET /api/gigs/offer": () => hired,
    });
    renderWithApp(
      <GigDialogsProvider>
        <PostAgainButton gig={offer} />
      </GigDialogsProvider>,
      { user: me },
    );
    const hire = await screen.findByRole("button", { name: "Hire again" });
    fireEvent.click(hire);
    fireEvent.click(hire);
    const pay = await screen.findByRole("dialog", { name: /Fund Escrow/ });
    expect(within(pay).getByRole("link", { name: "Open in Wallet" })).toHaveAttribute("href", `lightning:${NEW_INVOICE}`);
    expect(api.callsTo("POST", "/api/gigs/offer/claim")).toHaveLength(1);
    expect(api.callsTo("POST", "/api/gigs")).toHaveLength(0);
  });

  it("says the worker must enable hiring again before a lapsed hire can be made again", async () => {
    const offer = makeGig({ id: "offer", gigType: "service_offering", status: "open", escrowStatus: "pending", posterId: "worker", workerId: "worker", hirerId: null });
    const api = mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
      "GET /api/gigs/offer/pre-claim-messages": () => [makeInterest({ gigId: "offer", senderId: "me", status: "approved", claimEnabled: false })],
    });
    renderWithApp(
      <GigDialogsProvider>
        <PostAgainButton gig={offer} />
      </GigDialogsProvider>,
      { user: me },
    );
    expect(await screen.findByText(/the worker needs to enable hiring for you again/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "View the offer" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Hire again" })).not.toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/offer/claim")).toHaveLength(0);
  });
});
