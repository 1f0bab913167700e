import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, LocationProbe, renderWithApp } from "../../test/render";
import { GigCard } from "./gig-card";
import { makeGig } from "./gig-factories";
import type { GigStatus } from "../../../../domain/gig";

const NOW = Date.parse("2026-11-22T12:00:00Z");

function renderCard(gig = makeGig(), userId?: string) {
  const onOpen = vi.fn();
  const result = renderWithApp(<GigCard gig={gig} onOpen={onOpen} now={NOW} />, { user: userId ? makeUser({ id: userId }) : undefined });
  return { ...result, onOpen, card: screen.getByTestId("gig-card") };
}

describe("gig card", () => {
  it("shows the short id, title, description, category, payment, age, time left, poster and reputation", () => {
    mockApi({});
    const gig = makeGig({
      id: "12345678-aaaa-4bbb-8ccc-000000000000",
      title: "Logo for a podcast",
      payment: 123_456,
      createdAt: "2026-11-20T11:00:00Z",
      deadline: "2026-11-24T18:00:00Z",
      poster: { id: "paula", username: "npub1paula", displayName: "Paula", profilePicture: null, completedGigs: 4, successRate: 75 },
    });
    const { card } = renderCard(gig);
    expect(card).toHaveTextContent("12345678");
    expect(card).not.toHaveTextContent("12345678-aaaa");
    expect(within(card).getByRole("button", { name: "Logo for a podcast" })).toBeInTheDocument();
    expect(card).toHaveTextContent("Development");
    expect(card).toHaveTextContent("123,456 sats");
    expect(card).toHaveTextContent("2 days ago");
    // 2 days 6 hours left, rounded up.
    expect(card).toHaveTextContent("3 days left");
    expect(within(card).getByRole("link", { name: /Paula/ })).toHaveAttribute("href", "/user/npub1paula");
    expect(card).toHaveTextContent("4 gigs · 75% successful");
    expect(card).toHaveTextContent("Available");
  });

  it("shows the timeframe without a deadline, hours for a young gig, and a poster with no completed gigs as such", () => {
    mockApi({});
    const gig = makeGig({
      timeframe: 5,
      deadline: null,
      createdAt: "2026-11-22T07:00:00Z",
      poster: { id: "newcomer", username: "npub1new", displayName: null, profilePicture: null, completedGigs: 0, successRate: 100 },
    });
    const { card } = renderCard(gig);
    expect(card).toHaveTextContent("5 days left");
    expect(card).toHaveTextContent("5 hours ago");
    expect(card).toHaveTextContent("No completed gigs yet");
    expect(card).not.toHaveTextContent("100%");
    expect(card).not.toHaveTextContent("N/A");
  });

  it("shows a disputed gig as Under Review and an unknown status as raw text", () => {
    mockApi({});
    const { unmount } = renderCard(makeGig({ status: "disputed" }));
    expect(screen.getByTestId("gig-card")).toHaveTextContent("Under Review");
    unmount();
    // A status this web app does not know yet (a newer Worker): shown as the server wrote it.
    renderCard(makeGig({ status: "on_hold_by_admin" as string as GigStatus }));
    expect(screen.getByTestId("gig-card")).toHaveTextContent("on_hold_by_admin");
  });

  it("marks the gig the viewer claimed: accent label and a 60% In Progress bar, then 100% Submitted", () => {
    mockApi({});
    const claimed = makeGig({ status: "claimed", workerId: "me", hirerId: "poster-1" });
    const { unmount } = renderCard(claimed, "me");
    expect(screen.getByText("You Claimed")).toBeInTheDocument();
    const bar = screen.getByRole("progressbar", { name: "In Progress" });
    expect(bar).toHaveAttribute("aria-valuenow", "60");
    expect(bar.firstElementChild).toHaveStyle({ width: "60%" });
    unmount();

    renderCard(makeGig({ status: "work_submitted", workerId: "me" }), "me");
    const submitted = screen.getByRole("progressbar", { name: "Submitted" });
    expect(submitted).toHaveAttribute("aria-valuenow", "100");
    expect(submitted.firstElementChild).toHaveStyle({ width: "100%" });
  });

  it("does not mark gigs someone else claimed, nor the owner's own service offering", () => {
    mockApi({});
    const { unmount } = renderCard(makeGig({ status: "claimed", workerId: "someone-else" }), "me");
    expect(screen.queryByText("You Claimed")).not.toBeInTheDocument();
    unmount();
    renderCard(makeGig({ gigType: "service_offering", status: "in_progress", posterId: "me", workerId: "me", hirerId: "h" }), "me");
    expect(screen.queryByText("You Claimed")).not.toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("fades a completed gig", () => {
    mockApi({});
    const { card } = renderCard(makeGig({ status: "completed" }));
    expect(card.className).toContain("opacity-60");
  });

  it("shows the amount in the reader's terms: the worker receives, the hirer pays, anyone else sees the payment", () => {
    mockApi({});
    const gig = makeGig({ payment: 10_000, status: "claimed", posterId: "hana", hirerId: "hana", workerId: "wes" });
    const { unmount } = renderCard(gig, "wes");
    expect(screen.getByTestId("gig-card")).toHaveTextContent("You receive 9,750 sats");
    unmount();
    const asHirer = renderCard(gig, "hana");
    expect(screen.getByTestId("gig-card")).toHaveTextContent("You pay 10,250 sats");
    asHirer.unmount();
    const asVisitor = renderCard(makeGig({ payment: 10_000 }));
    expect(screen.getByTestId("gig-card")).toHaveTextContent("10,000 sats");
    expect(screen.getByTestId("gig-card")).not.toHaveTextContent(/You (pay|receive)/);
    asVisitor.unmount();
    // A service offering's owner is its worker; whoever hires it pays.
    const offer = makeGig({ gigType: "service_offering", payment: 8_000, status: "in_progress", posterId: "wes", workerId: "wes", hirerId: "hugo" });
    const asOwner = renderCard(offer, "wes");
    expect(screen.getByTestId("gig-card")).toHaveTextContent("You receive 7,800 sats");
    asOwner.unmount();
    renderCard(offer, "hugo");
    expect(screen.getByTestId("gig-card")).toHaveTextContent("You pay 8,200 sats");
  });

  it("takes a visitor who wants to report a gig to the login dialog, saying why", async () => {
    mockApi({});
    renderCard(makeGig({ posterId: "someone" }));
    await userEvent.setup().click(screen.getByRole("button", { name: /Report Gig/ }));
    const login = await screen.findByRole("dialog", { name: "Login with Nostr" });
    expect(login).toHaveTextContent("Log in to report this gig.");
  });

  it("opens the gig when clicked", async () => {
    mockApi({});
    const gig = makeGig({ title: "Open me" });
    const { onOpen } = renderCard(gig);
    await userEvent.setup().click(screen.getByRole("button", { name: "Open me" }));
    expect(onOpen).toHaveBeenCalledWith(gig);
  });

  it("opens the poster's profile within the app, and leaves a click for a new tab to the browser", async () => {
    mockApi({});
    const gig = makeGig({ poster: { id: "paula", username: "npub1paula", displayName: "Paula", profilePicture: null, completedGigs: 4, successRate: 75 } });
    renderWithApp(
      <>
        <GigCard gig={gig} onOpen={vi.fn()} now={NOW} />
        <LocationProbe />
      </>,
    );
    const link = screen.getByRole("link", { name: /Paula/ });
    // What the card left to the browser, seen after React's handler (the test's document follows no link itself).
    const leftToBrowser: boolean[] = [];
    const after = (event: MouseEvent) => {
      leftToBrowser.push(!event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener("click", after);
    const user = userEvent.setup();
    await user.keyboard("{Control>}");
    await user.click(link);
    await user.keyboard("{/Control}");
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/);
    await user.click(link);
    document.removeEventListener("click", after);
    expect(leftToBrowser).toEqual([true, false]);
    expect(screen.getByTestId("location")).toHaveTextContent("/user/npub1paula");
  });

  it("hides Report Gig from the gig's owner and shows it to others", () => {
    mockApi({});
    const { unmount } = renderCard(makeGig({ posterId: "me", hirerId: "me" }), "me");
    expect(screen.queryByRole("button", { name: /Report Gig/ })).not.toBeInTheDocument();
    unmount();
    renderCard(makeGig({ posterId: "someone" }), "me");
    expect(screen.getByRole("button", { name: /Report Gig/ })).toBeInTheDocument();
  });

  it("reports a gig with a reason and optional details", async () => {
    const api = mockApi({ "POST /api/gig-reports": () => ({ id: "r1" }) });
    const gig = makeGig({ posterId: "someone" });
    renderCard(gig, "me");
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: /Report Gig/ }));
    const dialog = await screen.findByRole("dialog", { name: "Report Gig" });
    const submit = within(dialog).getByRole("button", { name: "Submit Report" });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole("radio", { name: /Spam or excessive advertising/ }));
    await user.type(within(dialog).getByLabelText("Details (optional)"), "Same ad posted ten times");
    await user.click(submit);
    expect(await findToast("Report Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gig-reports")[0]!.body).toEqual({ gigId: gig.id, reason: "spam", details: "Same ad posted ten times" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("says which milestone a gig paid in milestones is on, and how many it has before and after the work", () => {
    mockApi({});
    const { card, unmount } = renderCard(makeGig({ status: "in_progress", workerId: "w", currentMilestone: 2, milestoneCount: 3 }));
    expect(card).toHaveTextContent("Milestone 2 of 3");
    unmount();
    const open = renderCard(makeGig({ status: "open", currentMilestone: 1, milestoneCount: 3 }));
    expect(open.card).toHaveTextContent("3 milestones");
    expect(open.card).not.toHaveTextContent("Milestone 1 of 3");
    open.unmount();
    const single = renderCard(makeGig({ status: "in_progress", workerId: "w" }));
    expect(single.card).not.toHaveTextContent(/milestone/i);
  });
});

