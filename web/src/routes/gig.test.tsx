// A gig's own page (/gig/:id, issue 29): what the details dialog shows, as a page, with the same actions for a
// signed-in member, opening the same dialogs. Its render by the Worker and hydration: ssr/gig-page.test.tsx.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AppRoutes } from "../app";
import { makeGig, makeInterest, makePlanGig } from "../features/gigs/gig-factories";
import type { Gig } from "../features/gigs/types";
import { makeUser } from "../test/factories";
import { mockApi } from "../test/mock-api";
import { findToast, LocationProbe, renderWithApp } from "../test/render";

const job = (over: Partial<Gig> = {}) =>
  makeGig({ id: "gig-1", title: "Bakery website", posterId: "hirer", hirerId: "hirer", createdAt: "2026-11-20T10:00:00Z", timeframe: 5, ...over });

/** The page of `gig` at /gig/{id}, as `userId` (a visitor without one), with extra API routes. */
async function openPage(gig: Gig, userId?: string, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5 }),
    [`GET /api/gigs/${gig.id}`]: () => gig,
    [`GET /api/gigs/${gig.id}/pre-claim-messages`]: () => [],
    [`GET /api/gigs/${gig.id}/extension-requests`]: () => [],
    [`GET /api/gigs/${gig.id}/events`]: () => [],
    ...routes,
  });
  renderWithApp(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route: `/gig/${gig.id}`, user: userId ? makeUser({ id: userId, lightningAddress: "me@wallet.test" }) : undefined },
  );
  await screen.findByRole("heading", { level: 1, name: gig.title });
  // The actions wait for what arrives above them (the delivered files).
  await waitFor(() => expect(screen.queryByTestId("actions-pending")).not.toBeInTheDocument());
  return { api, user: userEvent.setup() };
}

describe("a gig's page", () => {
  it("shows a visitor the gig (title, poster with reputation, payment, timeframe, category, description, escrow, steps) and no member actions", async () => {
    const { api } = await openPage(job());
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
    const main = screen.getByRole("main");
    expect(within(main).getByRole("link", { name: "Paula Poster" })).toHaveAttribute("href", "/user/npub1posterxyz");
    expect(main).toHaveTextContent("4 gigs · 75% successful");
    expect(main).toHaveTextContent("10,000 sats");
    expect(main).toHaveTextContent("5 days");
    expect(main).toHaveTextContent("Development");
    expect(main).toHaveTextContent("Nov 20, 2026");
    expect(main).toHaveTextContent("Build a small website for a local bakery");
    expect(main).toHaveTextContent("10,250 sats is held in escrow");
    expect(within(main).getByRole("list", { name: "Progress" })).toBeInTheDocument();
    // Sections one level under the page's h1.
    expect(screen.getByRole("heading", { level: 2, name: "Description" })).toBeInTheDocument();
    // The visitor's one step is to log in to claim; nothing a member does is offered.
    expect(within(main).getByRole("region", { name: "Next step" })).toHaveTextContent("Claim Gig");
    expect(within(main).queryByRole("button", { name: /Approve|Open Chat|Cancel Gig|Manage|Start Work|Submit Work|Send Interest|Withdraw|Dispute|Revision/ })).toBeNull();
    expect(within(main).queryByLabelText("Express interest")).toBeNull();
    expect(within(main).getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(api.callsTo("GET", "/api/gigs/gig-1/pre-claim-messages")).toEqual([]);
    // A visitor's page asks for nothing beyond the gig (the Worker's page holds it all, decision 030).
    expect(api.calls.map((c) => c.path).filter((path) => path !== "/api/gigs/gig-1")).toEqual([]);
  });

  it("gives the hirer of a funded gig whose work is in their actions: approve, revision, dispute, chat; what they pay", async () => {
    const submitted = job({ status: "work_submitted", workerId: "worker", workSubmission: "Done: bakery.example" });
    const { api, user } = await openPage(submitted, "hirer", { "POST /api/gigs/gig-1/approve": () => ({ success: true }) });
    const main = screen.getByRole("main");
    expect(main).toHaveTextContent("You pay 10,250 sats");
    expect(main).toHaveTextContent("Done: bakery.example");
    expect(within(main).getByRole("button", { name: "Request Revision" })).toBeInTheDocument();
    expect(within(main).getByRole("button", { name: "Raise Dispute" })).toBeInTheDocument();
    expect(within(main).getByRole("button", { name: "Open Chat" })).toBeInTheDocument();
    await user.click(within(main).getByRole("button", { name: /Approve & Release Payment/ }));
    expect(await findToast("Work Approved")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/approve")).toHaveLength(1);
    // The page reads its gig again after the action, as the dialog does.
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/gig-1").length).toBeGreaterThan(1));
  });

  it("gives the worker of a claimed gig theirs: start work, chat, withdraw; what they receive", async () => {
    const claimed = job({ status: "claimed", workerId: "worker", deadline: new Date(Date.now() + 2 * 86_400_000 + 3_600_000 * 5.5).toISOString() });
    const { api, user } = await openPage(claimed, "worker", { "POST /api/gigs/gig-1/start-work": () => ({ success: true }) });
    const main = screen.getByRole("main");
    expect(main).toHaveTextContent("You receive 9,750 sats");
    expect(main).toHaveTextContent(/2d 5h/);
    expect(within(main).getByRole("button", { name: "Withdraw" })).toBeInTheDocument();
    expect(within(main).queryByRole("button", { name: "Cancel Gig" })).toBeNull();
    expect(within(main).getByRole("button", { name: "Open Chat" })).toBeInTheDocument();
    await user.click(within(within(main).getByRole("region", { name: "Next step" })).getByRole("button", { name: "Start Work" }));
    expect(await findToast("Work Started")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/start-work")).toHaveLength(1);
  });

  it("shows a milestone gig's steps", async () => {
    await openPage(makePlanGig());
    const steps = within(screen.getByRole("list", { name: "Milestones" })).getAllByRole("listitem");
    expect(steps.map((s) => s.textContent)).toEqual([expect.stringContaining("Design"), expect.stringContaining("Build"), expect.stringContaining("Launch")]);
    expect(screen.queryByRole("list", { name: "Progress" })).toBeNull();
  });

  it("opens the same payment dialog as the details dialog when hiring, and stays on the page", async () => {
    const offer = makeGig({ id: "gig-s", title: "Logo design", gigType: "service_offering", posterId: "worker", workerId: "worker", hirerId: null, escrowStatus: "pending" });
    const hired = { ...offer, status: "pending_payment", hirerId: "member" };
    const mine = makeInterest({ gigId: "gig-s", senderId: "member", status: "approved", claimEnabled: true });
    const { user } = await openPage(offer, "member", {
      "GET /api/gigs/gig-s/pre-claim-messages": () => [mine],
      "POST /api/gigs/gig-s/claim": () => ({ gig: hired, paymentRequest: "lnbcrt1devinvoice", totalCharge: 10_250 }),
    });
    await user.click(await screen.findByRole("button", { name: "Hire for 10,250 sats" }));
    expect(await screen.findByRole("dialog", { name: /Fund Escrow/ })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/gig\/gig-s$/);
  });

  it("claiming a job from the page keeps the page (its details are the page, not a dialog over it)", async () => {
    const claimed = job({ status: "claimed", workerId: "member" });
    const mine = makeInterest({ gigId: "gig-1", senderId: "member", status: "approved", claimEnabled: true });
    const { api, user } = await openPage(job(), "member", {
      "GET /api/gigs/gig-1/pre-claim-messages": () => [mine],
      "POST /api/gigs/gig-1/claim": () => ({ gig: claimed, paymentRequest: null, totalCharge: 10_250 }),
    });
    await user.click(await screen.findByRole("button", { name: "Claim Gig" }));
    expect(await findToast("Gig Claimed")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/claim")).toHaveLength(1);
    expect(screen.queryByRole("dialog", { name: "Bakery website" })).toBeNull();
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/gig\/gig-1$/);
  });
});
