import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect } from "react";
import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { renderWithApp } from "../../test/render";
import { ActiveGigs } from "./active-gigs";
import { gigPageResponse, makeGig } from "./gig-factories";
import { GigDialogsProvider } from "./gig-dialogs";
import { useGigIntent } from "./gig-intent";
import type { Gig } from "./types";

const ME = "me";

function IntentProbe() {
  const { intent } = useGigIntent();
  return <output data-testid="intent">{intent ? `${intent.gigId} chat=${intent.openChat}` : "none"}</output>;
}

function DeepLink({ gigId }: { gigId: string }) {
  const { openGig } = useGigIntent();
  useEffect(() => openGig({ gigId, openChat: false }), [gigId, openGig]);
  return null;
}

function renderActive(gigs: Gig[], extra?: React.ReactNode, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ "GET /api/gigs": () => gigPageResponse(gigs), ...routes });
  renderWithApp(
    <GigDialogsProvider>
      <ActiveGigs />
      <IntentProbe />
      {extra}
    </GigDialogsProvider>,
    { user: makeUser({ id: ME }) },
  );
  return { api, user: userEvent.setup() };
}

describe("Active tab", () => {
  const claimedByMe = makeGig({ id: "g-claimed", title: "Logo I claimed", status: "in_progress", posterId: "h", hirerId: "h", workerId: ME, totalCharge: 5_125, payment: 5_000 });
  const myFundedOpen = makeGig({ id: "g-open", title: "My open job", status: "open", posterId: ME, hirerId: ME, escrowStatus: "funded", totalCharge: 10_250 });
  const myDone = makeGig({ id: "g-done", title: "My finished job", status: "completed", posterId: ME, hirerId: ME, workerId: "w", escrowStatus: "released" });

  it("shows three skeletons, then reads only the member's gigs (participant=me)", async () => {
    const { api } = renderActive([claimedByMe, myFundedOpen, myDone]);
    expect(screen.getAllByTestId("gig-card-skeleton")).toHaveLength(3);
    await screen.findByText("Logo I claimed");
    expect(Object.fromEntries(api.callsTo("GET", "/api/gigs")[0]!.query)).toEqual({ participant: "me", limit: "100" });
  });

  it("shows each gig's amount in the member's terms: what they receive as its worker, what they pay as its hirer", async () => {
    const hiredMe = makeGig({ id: "g-hired", title: "Job I work on", status: "claimed", posterId: "h", hirerId: "h", workerId: ME, payment: 10_000 });
    const iHired = makeGig({ id: "g-mine", title: "Job I pay for", status: "in_progress", posterId: ME, hirerId: ME, workerId: "w", payment: 10_000 });
    renderActive([hiredMe, iHired]);
    const card = (title: string) => screen.getAllByTestId("gig-card").find((c) => within(c).queryByRole("button", { name: title }))!;
    expect(await screen.findByText("Job I work on")).toBeInTheDocument();
    expect(card("Job I work on")).toHaveTextContent("You receive 9,750 sats");
    expect(card("Job I pay for")).toHaveTextContent("You pay 10,250 sats");
    const myGigs = screen.getByRole("region", { name: "My Gigs" });
    expect(within(myGigs).getByText(/You pay 10,250 sats · Development/)).toBeInTheDocument();
  });

  it("counts active gigs, sats in escrow and completed gigs", async () => {
    renderActive([claimedByMe, myFundedOpen, myDone]);
    await screen.findByText("Logo I claimed");
    const stat = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;
    expect(stat("Active Gigs")).toHaveTextContent("1");
    // Both funded gigs: 10,250 + 5,125.
    expect(stat("In Escrow")).toHaveTextContent("15,375 sats");
    expect(stat("Completed")).toHaveTextContent("1");
  });

  it("lists gigs in progress with Open Chat and View Details, and My Gigs with Manage", async () => {
    const { user } = renderActive([claimedByMe, myFundedOpen, myDone]);
    const card = (await screen.findByText("Logo I claimed")).closest("article")!;
    expect(within(card).getByText("You Claimed")).toBeInTheDocument();
    await user.click(within(card).getByRole("button", { name: "Open Chat: Logo I claimed" }));
    expect(screen.getByTestId("intent")).toHaveTextContent("g-claimed chat=true");

    const myGigs = screen.getByRole("heading", { name: "My Gigs" }).parentElement!;
    expect(within(myGigs).getByText("My open job")).toBeInTheDocument();
    expect(within(myGigs).getByText("My finished job")).toBeInTheDocument();
    expect(within(myGigs).queryByText("Logo I claimed")).not.toBeInTheDocument();
    expect(within(myGigs).getByRole("button", { name: "Manage: My open job" })).toBeInTheDocument();
    // Nothing left to manage on a completed gig.
    expect(within(myGigs).queryByRole("button", { name: "Manage: My finished job" })).not.toBeInTheDocument();
  });

  it("opens the gig management modal", async () => {
    const { user } = renderActive([myFundedOpen], null, { "GET /api/gigs/g-open": () => myFundedOpen });
    await user.click(await screen.findByRole("button", { name: "Manage: My open job" }));
    const dialog = await screen.findByRole("dialog", { name: "Manage Gig" });
    expect(await within(dialog).findByLabelText("Title")).toHaveValue("My open job");
    expect(within(dialog).getByRole("button", { name: "Save Changes" })).toBeDisabled();
    expect(within(dialog).queryByLabelText("Budget (sats)")).not.toBeInTheDocument();
  });

  it("opens the gig a deep link asks for (tab=active&gigId=…)", async () => {
    renderActive([claimedByMe], <DeepLink gigId="g-claimed" />, { "GET /api/gigs/g-claimed": () => claimedByMe });
    expect(await screen.findByRole("dialog", { name: "Logo I claimed" })).toBeInTheDocument();
  });

  it("says so when there is nothing yet", async () => {
    renderActive([]);
    expect(await screen.findByRole("heading", { name: "No active gigs yet" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "You have not posted any gigs yet" })).toBeInTheDocument();
  });

  it("says which milestone each gig paid in milestones is on, on its card and in My Gigs", async () => {
    const plan = makeGig({ id: "g-plan", title: "Shop in steps", status: "claimed", posterId: ME, hirerId: ME, workerId: "w", payment: 12_000, currentMilestone: 2, milestoneCount: 3 });
    renderActive([plan, claimedByMe]);
    await screen.findByText("Logo I claimed");
    const card = (title: string) => screen.getAllByTestId("gig-card").find((c) => within(c).queryByRole("button", { name: title }))!;
    expect(card("Shop in steps")).toHaveTextContent("Milestone 2 of 3");
    expect(card("Logo I claimed")).not.toHaveTextContent(/milestone/i);
    const myGigs = screen.getByRole("region", { name: "My Gigs" });
    expect(within(myGigs).getByText(/You pay 12,300 sats · Development/)).toHaveTextContent("Milestone 2 of 3");
  });
});

