import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import type { MilestoneView } from "../../../../domain/milestones";
import { makeGig, makeInterest, makeMilestone, makePlanGig } from "./gig-factories";
import { GigDialogsProvider } from "./gig-dialogs";
import { useGigDialogs } from "./gig-dialogs-context";
import type { Gig, InterestMessage } from "./types";
import { gigKeys } from "./use-gigs";

function OpenDetails({ gigId }: { gigId: string }) {
  const { openDetails } = useGigDialogs();
  useEffect(() => openDetails(gigId), [gigId, openDetails]);
  return null;
}

/** Opens the details modal of `gig` as `userId` (a visitor without one), with extra API routes. */
async function renderDetails(gig: Gig, userId?: string, routes: Parameters<typeof mockApi>[0] = {}, interest: InterestMessage[] = []) {
  const api = mockApi({
    "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5 }),
    [`GET /api/gigs/${gig.id}`]: () => gig,
    [`GET /api/gigs/${gig.id}/pre-claim-messages`]: () => interest,
    [`GET /api/gigs/${gig.id}/events`]: () => [],
    ...routes,
  });
  renderWithApp(
    <GigDialogsProvider>
      <OpenDetails gigId={gig.id} />
    </GigDialogsProvider>,
    { user: userId ? makeUser({ id: userId, lightningAddress: "me@wallet.test" }) : undefined },
  );
  const dialog = await screen.findByRole("dialog", { name: gig.title });
  // The actions wait for what arrives above them (the delivered files).
  await waitFor(() => expect(within(dialog).queryByTestId("actions-pending")).not.toBeInTheDocument());
  return { api, dialog, user: userEvent.setup() };
}

const job = (over: Partial<Gig> = {}) => makeGig({ id: "gig-1", title: "Bakery website", posterId: "hirer", hirerId: "hirer", ...over });

describe("gig details modal", () => {
  it("shows the gig: short id to copy, poster, status, payment, timeframe, dates, description, category, escrow, stepper", async () => {
    const gig = job({ id: "abcdef12-3456-4789-8abc-def012345678", createdAt: "2026-11-20T10:00:00Z", timeframe: 5 });
    const { dialog } = await renderDetails(gig);
    expect(dialog).toHaveTextContent("abcdef12");
    expect(dialog).not.toHaveTextContent("abcdef12-3456");
    expect(within(dialog).getByRole("button", { name: "Copy gig ID" })).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "Paula Poster" })).toHaveAttribute("href", "/user/npub1posterxyz");
    expect(dialog).toHaveTextContent("Available");
    expect(dialog).toHaveTextContent("10,000 sats");
    expect(dialog).toHaveTextContent("5 days");
    expect(dialog).toHaveTextContent("Nov 20, 2026");
    expect(dialog).toHaveTextContent("Development");
    expect(dialog).toHaveTextContent(gig.description);
    expect(dialog).toHaveTextContent("10,250 sats is held in escrow");
    expect(dialog).toHaveTextContent("Set when claimed");
    expect(dialog).toHaveTextContent("Not started");
    const steps = within(within(dialog).getByRole("list", { name: "Progress" })).getAllByRole("listitem");
    expect(steps.map((s) => s.textContent?.replace(/\d|\(.*\)/g, "").trim())).toEqual([
      "Posted",
      "Worker Claimed",
      "In Progress",
      "Work Submitted",
      "Approved & Paid",
    ]);
    expect(steps[0]).toHaveAttribute("aria-current", "step");
  });

  it("copies the gig id", async () => {
    const gig = job();
    const { dialog, user } = await renderDetails(gig);
    await user.click(within(dialog).getByRole("button", { name: "Copy gig ID" }));
    expect(await navigator.clipboard.readText()).toBe(gig.id);
    expect(await findToast("Gig ID copied to clipboard")).toBeInTheDocument();
  });

  it("takes a visitor's Claim Gig to the login dialog, saying why; the spec's Login Required toast is a plain notice", async () => {
    const { dialog, user, api } = await renderDetails(job());
    const next = within(dialog).getByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("Log in to send an interest message and claim this gig.");
    await user.click(within(next).getByRole("button", { name: "Claim Gig" }));
    const login = await screen.findByRole("dialog", { name: "Login with Nostr" });
    expect(login).toHaveTextContent("Log in to claim this gig.");
    expect(await findToast("Login Required")).toBeInTheDocument();
    expect(await findToast("Please login to claim gigs.")).toBeInTheDocument();
    expect((await findToast("Login Required")).closest("li")!.className).not.toContain("bg-red-600");
    expect(api.callsTo("POST", "/api/gigs/gig-1/claim")).toHaveLength(0);
  });

  it("lets a member send one interest message; claiming stays locked until it is approved and enabled", async () => {
    const sent = makeInterest({ senderId: "member", message: "I bake and code." });
    const { dialog, user, api } = await renderDetails(job(), "member", { "POST /api/gigs/gig-1/pre-claim-messages": () => new Response(JSON.stringify(sent), { status: 201 }) });
    expect(await within(dialog).findByLabelText("Express interest")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Claim Gig" })).toBeDisabled();
    expect(within(dialog).queryByRole("button", { name: /Manage|Cancel Gig|Start Work/ })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Send Interest" }));
    expect(await findToast("Message Required")).toBeInTheDocument();
    expect(await findToast("Please write a message to express your interest.")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/pre-claim-messages")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Express interest"), "  I bake and code.  ");
    await user.click(within(dialog).getByRole("button", { name: "Send Interest" }));
    expect(await findToast("Interest Sent!")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/pre-claim-messages")[0]!.body).toEqual({ message: "I bake and code." });
  });

  it("shows where the member's message stands and enables Claim once approved with claim enabled", async () => {
    const mine = makeInterest({ senderId: "member", status: "approved", claimEnabled: true });
    const claimed = job({ status: "claimed", workerId: "member" });
    const { dialog, user, api } = await renderDetails(job(), "member", { "POST /api/gigs/gig-1/claim": () => ({ gig: claimed, paymentRequest: null, totalCharge: 10_250 }) }, [mine]);
    expect(await within(dialog).findByText("Your interest message")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Approved");
    const claim = within(dialog).getByRole("button", { name: "Claim Gig" });
    expect(claim).toBeEnabled();
    await user.click(claim);
    expect(await findToast("Gig Claimed")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/claim")).toHaveLength(1);
  });

  it("hires a service offering into the payment modal", async () => {
    const offer = makeGig({ id: "gig-s", title: "Logo design", gigType: "service_offering", posterId: "worker", workerId: "worker", hirerId: null, escrowStatus: "pending" });
    const hired = { ...offer, status: "pending_payment", hirerId: "member" };
    const mine = makeInterest({ gigId: "gig-s", senderId: "member", status: "approved", claimEnabled: true });
    const { dialog, user } = await renderDetails(
      offer,
      "member",
      { "POST /api/gigs/gig-s/claim": () => ({ gig: hired, paymentRequest: "lnbcrt1devinvoice", totalCharge: 10_250 }) },
      [mine],
    );
    await user.click(await within(dialog).findByRole("button", { name: "Hire for 10,250 sats" }));
    expect(await screen.findByRole("dialog", { name: /Fund Escrow/ })).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Logo design" })).not.toBeInTheDocument();
  });

  it("lets the owner approve, reject and enable claiming of interest messages, and manage or cancel", async () => {
    const pending = makeInterest({ id: "m-1", senderId: "a", sender: { username: "npub1a", displayName: "Ann", profilePicture: null } });
    const approved = makeInterest({ id: "m-2", senderId: "b", status: "approved", sender: { username: "npub1b", displayName: "Ben", profilePicture: null } });
    const { dialog, user, api } = await renderDetails(
      job(),
      "hirer",
      {
        "PATCH /api/pre-claim-messages/m-1/approve": () => ({ ...pending, status: "approved" }),
        "PATCH /api/pre-claim-messages/m-2/enable-claim": () => apiError(409, "The gig changed", "stale_interest"),
      },
      [pending, approved],
    );
    expect(await within(dialog).findByText("Interest messages")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Claim Gig" })).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText("Express interest")).not.toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Manage" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Cancel Gig" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Reject Ann" })).toBeInTheDocument();

    // While one decision is on its way, no other can be sent.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const slow = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementationOnce(async (input, init) => {
      await answered;
      return slow(input, init);
    });
    await user.click(within(dialog).getByRole("button", { name: "Approve Ann" }));
    expect(within(dialog).getByRole("button", { name: "Reject Ann" })).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Enable Claim for Ben" })).toBeDisabled();
    answer();
    expect(await findToast("Interest Approved")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/pre-claim-messages/m-1/approve")).toHaveLength(1);

    await user.click(within(dialog).getByRole("button", { name: "Enable Claim for Ben" }));
    expect(await findToast("Failed to Enable Claim")).toBeInTheDocument();
    expect(await findToast("The gig changed")).toBeInTheDocument();
  });

  it("lets the claiming worker start work from the next step, chat, and withdraw", async () => {
    const claimed = job({ status: "claimed", workerId: "worker", deadline: new Date(Date.now() + 2 * 86_400_000 + 3_600_000 * 5.5).toISOString() });
    const { dialog, user, api } = await renderDetails(claimed, "worker", { "POST /api/gigs/gig-1/start-work": () => ({ success: true }) });
    expect(dialog).toHaveTextContent(/2d 5h/);
    expect(within(dialog).getByRole("button", { name: "Open Chat" })).toBeInTheDocument();
    // A worker backing out of a gig they claimed withdraws; "Cancel Gig" is the hirer's.
    expect(within(dialog).getByRole("button", { name: "Withdraw" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Cancel Gig" })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Manage" })).not.toBeInTheDocument();
    const next = within(dialog).getByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("Start work");
    expect(next).toHaveTextContent("You claimed this gig. Start when you are ready; the hirer is told.");
    expect(within(dialog).getAllByRole("button", { name: "Start Work" })).toHaveLength(1);
    await user.click(within(next).getByRole("button", { name: "Start Work" }));
    expect(await findToast("Work Started")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/start-work")).toHaveLength(1);
  });

  it("asks a worker who withdraws to confirm in those words, and says what happens to the escrow", async () => {
    const claimed = job({ status: "claimed", workerId: "worker" });
    const { dialog, user, api } = await renderDetails(claimed, "worker", { "POST /api/gigs/gig-1/cancel": () => ({ success: true, refund: { amount: 10_250 } }) });
    await user.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    const confirm = within(dialog).getByRole("group", { name: "Confirm withdrawal" });
    expect(confirm).toHaveTextContent("Withdraw from this gig? It is cancelled and the escrow (10,250 sats) is refunded to the hirer. You are not paid for it.");
    expect(confirm).not.toHaveTextContent(/Cancel this gig/);
    await user.click(within(confirm).getByRole("button", { name: "Yes, Withdraw" }));
    expect(await findToast("Gig Cancelled")).toBeInTheDocument();
    expect(await findToast(/Refunded: 10,250 sats are being sent to the hirer's Lightning address/)).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/cancel")).toHaveLength(1);
  });

  it("shows nothing to do to a member who is not a party of a gig in progress", async () => {
    const { dialog } = await renderDetails(job({ status: "in_progress", workerId: "worker" }), "stranger");
    expect(within(dialog).queryAllByRole("button").map((b) => b.textContent)).toEqual(["", ""]); // copy id, close
  });

  it("needs a text to submit work", async () => {
    const { dialog, user, api } = await renderDetails(job({ status: "in_progress", workerId: "worker" }), "worker", {
      "POST /api/gigs/gig-1/submit": () => ({ success: true }),
    });
    await user.click(within(dialog).getByRole("button", { name: "Submit Work" }));
    expect(await findToast("Work submission required")).toBeInTheDocument();
    expect(await findToast("Please provide details of your completed work.")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/submit")).toHaveLength(0);
    await user.type(within(dialog).getByLabelText("Submit your work"), "Site is live at bakery.example");
    await user.click(within(dialog).getByRole("button", { name: "Submit Work" }));
    expect(await findToast("Work Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/submit")[0]!.body).toEqual({ workSubmission: "Site is live at bakery.example", attachments: [] });
  });

  it("lets the hirer approve submitted work, ask for a revision, or raise a dispute with a reason", async () => {
    const submitted = job({ status: "work_submitted", workerId: "worker", workSubmission: "Done: bakery.example" });
    const { dialog, user, api } = await renderDetails(submitted, "hirer", {
      "POST /api/gigs/gig-1/approve": () => ({ success: true }),
      "POST /api/gigs/gig-1/dispute": () => apiError(409, "You cannot dispute a gig that is Completed", "invalid_state"),
    });
    expect(dialog).toHaveTextContent("Done: bakery.example");
    expect(within(dialog).queryByRole("button", { name: /Cancel Gig/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Request Revision" })).toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Raise Dispute" }));
    const send = within(dialog).getAllByRole("button", { name: "Raise Dispute" }).at(-1)!;
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Reason for the dispute"), "   ");
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Reason for the dispute"), "Menu page missing");
    await user.click(send);
    expect(await findToast("Failed to Raise Dispute")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/dispute")[0]!.body).toEqual({ reason: "Menu page missing" });

    const reads = api.callsTo("GET", "/api/user/me").length;
    await user.click(within(dialog).getByRole("button", { name: /Approve & Release Payment/ }));
    expect(await findToast("Work Approved")).toBeInTheDocument();
    expect(await findToast(/Payment Released: 9,750 sats/)).toBeInTheDocument();
    // The hirer's own completed and successful counts changed: their user is read again.
    await waitFor(() => expect(api.callsTo("GET", "/api/user/me").length).toBeGreaterThan(reads));
  });

  it("cancels a funded gig and says what was refunded", async () => {
    const { dialog, user } = await renderDetails(job({ status: "open" }), "hirer", { "POST /api/gigs/gig-1/cancel": () => ({ success: true, refund: { amount: 10_250 } }) });
    await user.click(within(dialog).getByRole("button", { name: "Cancel Gig" }));
    await user.click(within(dialog).getByRole("button", { name: "Yes, Cancel Gig" }));
    expect(await findToast("Gig Cancelled")).toBeInTheDocument();
    expect(await findToast(/Refunded: 10,250 sats are being sent to your Lightning address/)).toBeInTheDocument();
  });

  it("downloads the receipt of a completed gig with the session token", async () => {
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    URL.createObjectURL = vi.fn(() => "blob:receipt");
    URL.revokeObjectURL = vi.fn();
    let ok = true;
    const completed = job({ status: "completed", workerId: "worker", escrowStatus: "released" });
    const { dialog, user, api } = await renderDetails(completed, "worker", {
      "GET /api/gigs/gig-1/receipt": () => (ok ? new Response("%PDF-1.7", { headers: { "Content-Type": "application/pdf" } }) : apiError(403, "Forbidden")),
    });
    await user.click(within(dialog).getByRole("button", { name: "Download Receipt" }));
    expect(await findToast("Receipt Downloaded")).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/gigs/gig-1/receipt")[0]!.headers.Authorization).toBe("Bearer test-session-token");
    expect(HTMLAnchorElement.prototype.click).toHaveBeenCalled();

    ok = false;
    await user.click(within(dialog).getByRole("button", { name: "Download Receipt" }));
    expect(await findToast("Download Failed")).toBeInTheDocument();
    expect(await findToast("Failed to download receipt")).toBeInTheDocument();
  });

  it("lists the delivered files to the gig's parties", async () => {
    const submitted = job({ status: "work_submitted", workerId: "worker", submittedAt: new Date().toISOString() });
    const { dialog } = await renderDetails(submitted, "hirer", {
      "GET /api/gigs/gig-1/events": () => [
        { id: "e1", type: "posted", actorId: "hirer", createdAt: submitted.createdAt, attachments: [] },
        {
          id: "e2",
          type: "work_submitted",
          actorId: "worker",
          createdAt: submitted.createdAt,
          attachments: [{ id: "f1", url: "/api/attachments/f1/download", filename: "site.zip", fileSize: 12_288, mimeType: "application/zip" }],
        },
      ],
    });
    expect(await within(dialog).findByRole("button", { name: "Download site.zip" })).toBeInTheDocument();
    expect(dialog).toHaveTextContent("12.0 KB");
  });

  it("says so when the gig cannot be found", async () => {
    mockApi({ "GET /api/gigs/nope": () => apiError(404, "Gig not found", "gig_not_found") });
    renderWithApp(
      <GigDialogsProvider>
        <OpenDetails gigId="nope" />
      </GigDialogsProvider>,
    );
    expect(await screen.findByRole("dialog", { name: "Gig not found" })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("status", { name: "Loading gig" })).not.toBeInTheDocument());
    // Signed out, it may be theirs to see once signed in.
    await userEvent.click(screen.getByRole("button", { name: "Login with Nostr" }));
    expect(await screen.findByRole("dialog", { name: "Login with Nostr" })).toBeInTheDocument();
  });

  it("drops the copy it remembered when the gig is gone (removed by the admin since)", async () => {
    mockApi({ "GET /api/gigs/gone-1": () => apiError(404, "Gig not found", "gig_not_found") });
    function Remembered({ children }: { children: ReactNode }) {
      const queryClient = useQueryClient();
      useState(() => queryClient.setQueryData(gigKeys.detail("gone-1"), makeGig({ id: "gone-1", title: "Remembered gig" })));
      return children;
    }
    renderWithApp(
      <Remembered>
        <GigDialogsProvider>
          <OpenDetails gigId="gone-1" />
        </GigDialogsProvider>
      </Remembered>,
      { user: makeUser({ id: "hirer" }) },
    );
    expect(await screen.findByRole("dialog", { name: "Gig not found" })).toBeInTheDocument();
    expect(screen.queryByText("Remembered gig")).not.toBeInTheDocument();
  });
});

describe("the next step under the gig's title", () => {
  const nextStepOf = (dialog: HTMLElement) => within(dialog).getByRole("region", { name: "Next step" });

  it("tells the hirer who wants the gig, and Review takes them to the interest messages", async () => {
    const wes = makeInterest({ id: "m-1", senderId: "wes", sender: { username: "npub1wes", displayName: "Wes Worker", profilePicture: null } });
    const { dialog, user } = await renderDetails(job(), "hirer", {}, [wes]);
    const next = await within(dialog).findByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("Wes Worker wants this gig");
    await user.click(within(next).getByRole("button", { name: "Review" }));
    expect(within(dialog).getByRole("button", { name: "Approve Wes Worker" })).toHaveFocus();
  });

  it("says it is waiting for interest while nobody has written", async () => {
    const { dialog } = await renderDetails(job(), "hirer");
    expect(await within(dialog).findByText("Waiting for workers to send an interest message.")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Next step: Waiting for workers to send an interest message.");
    expect(within(dialog).queryByRole("region", { name: "Next step" })).not.toBeInTheDocument();
  });

  it("asks the hirer to fund the escrow of a gig awaiting payment, opening the invoice", async () => {
    const unpaid = job({ status: "pending_payment", escrowStatus: "pending", paymentRequest: "lnbcrt1devinvoice" });
    const { dialog, user } = await renderDetails(unpaid, "hirer");
    const next = nextStepOf(dialog);
    expect(next).toHaveTextContent("Fund the escrow");
    await user.click(within(next).getByRole("button", { name: "Pay Invoice" }));
    expect(await screen.findByRole("dialog", { name: /Fund Escrow/ })).toBeInTheDocument();
  });

  it("sends the worker of a gig in progress to the submission form", async () => {
    const { dialog, user } = await renderDetails(job({ status: "in_progress", workerId: "worker" }), "worker");
    const next = nextStepOf(dialog);
    expect(next).toHaveTextContent("Submit your work");
    await user.click(within(next).getByRole("button", { name: "Describe your work" }));
    expect(within(dialog).getByLabelText("Submit your work")).toHaveFocus();
  });

  it("says Revise and resubmit to a worker asked for changes", async () => {
    const { dialog } = await renderDetails(job({ status: "needs_revision", workerId: "worker", revisionNote: "Add the menu page." }), "worker");
    expect(nextStepOf(dialog)).toHaveTextContent("Revise and resubmit");
    expect(within(nextStepOf(dialog)).getByRole("button", { name: "Describe your work" })).toBeInTheDocument();
  });

  it("asks the hirer to review the delivery, with what the worker receives, and takes them to Approve", async () => {
    const submitted = job({ status: "work_submitted", workerId: "worker", workSubmission: "Done: bakery.example" });
    const { dialog, user } = await renderDetails(submitted, "hirer");
    const next = nextStepOf(dialog);
    expect(next).toHaveTextContent("Review the delivery");
    expect(next).toHaveTextContent("Approve it to release 9,750 sats to the worker, or ask for a revision.");
    await user.click(within(next).getByRole("button", { name: "Review" }));
    expect(within(dialog).getByRole("button", { name: /Approve & Release Payment/ })).toHaveFocus();
  });

  it("is a quiet line when the next move is the other party's", async () => {
    const { dialog } = await renderDetails(job({ status: "work_submitted", workerId: "worker" }), "worker");
    expect(dialog).toHaveTextContent("Next step: Waiting for the hirer to review your work.");
    expect(within(dialog).queryByRole("region", { name: "Next step" })).not.toBeInTheDocument();
  });

  it("tells a member whose message is still pending that the hirer has not answered (never 'the owner')", async () => {
    const mine = makeInterest({ senderId: "member" });
    const { dialog } = await renderDetails(job(), "member", {}, [mine]);
    expect(await within(dialog).findByText("The hirer has not answered yet.")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Next step: Waiting for the hirer to answer your interest message.");
    expect(dialog).toHaveTextContent("Available once the hirer approves your interest message and enables claiming.");
    expect(dialog).not.toHaveTextContent(/owner/i);
  });

  it("speaks of the worker as the one who answers on a service offering", async () => {
    const offer = makeGig({ id: "gig-s", title: "Logo design", gigType: "service_offering", posterId: "worker", workerId: "worker", hirerId: null, escrowStatus: "pending" });
    const mine = makeInterest({ gigId: "gig-s", senderId: "member" });
    const { dialog } = await renderDetails(offer, "member", {}, [mine]);
    expect(await within(dialog).findByText("The worker has not answered yet.")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Available once the worker approves your interest message and enables claiming.");
    expect(dialog).not.toHaveTextContent(/owner/i);
  });
});

describe("money in each party's terms in the gig details", () => {
  const payment = (dialog: HTMLElement) => within(dialog).getByText("Payment").closest("div")!;

  it("the worker reads what they receive, the hirer what they pay, a visitor the payment", async () => {
    const claimed = job({ status: "claimed", workerId: "worker", payment: 10_000 });
    const asWorker = await renderDetails(claimed, "worker");
    expect(payment(asWorker.dialog)).toHaveTextContent("You receive 9,750 sats");
  });

  it("the hirer reads what they pay", async () => {
    const { dialog } = await renderDetails(job({ status: "claimed", workerId: "worker", payment: 10_000 }), "hirer");
    expect(payment(dialog)).toHaveTextContent("You pay 10,250 sats");
  });

  it("a visitor reads the payment itself", async () => {
    const { dialog } = await renderDetails(job({ payment: 10_000 }));
    expect(payment(dialog)).toHaveTextContent("10,000 sats");
    expect(payment(dialog)).not.toHaveTextContent(/You (pay|receive)/);
  });
});

describe("a cancelled gig", () => {
  it("whose escrow was never funded no longer explains how it will be funded, and offers its hirer Post again", async () => {
    const expired = job({ status: "cancelled", escrowStatus: "pending" });
    const { dialog } = await renderDetails(expired, "hirer");
    expect(dialog).toHaveTextContent("This gig was cancelled.");
    expect(dialog).toHaveTextContent("Never funded, so no sats were taken.");
    expect(dialog).not.toHaveTextContent(/pays .* into escrow/);
    const next = within(dialog).getByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("This gig was cancelled before its escrow was funded.");
    expect(within(next).getByRole("button", { name: "Post again" })).toBeInTheDocument();
    // Nobody pays anything for it any more: the payment as it was.
    expect(within(dialog).getByText("Payment").closest("div")).toHaveTextContent(/^Payment10,000 sats$/);
  });

  it("offers nobody else Post again", async () => {
    const { dialog } = await renderDetails(job({ status: "cancelled", escrowStatus: "pending" }), "stranger");
    expect(within(dialog).queryByRole("button", { name: "Post again" })).not.toBeInTheDocument();
  });

  it("that was refunded says so", async () => {
    const { dialog } = await renderDetails(job({ status: "cancelled", escrowStatus: "refunded" }), "hirer");
    expect(dialog).toHaveTextContent("The escrow (10,250 sats) was refunded to the hirer.");
    expect(within(dialog).queryByRole("button", { name: "Post again" })).not.toBeInTheDocument();
  });
});

describe("gig details of a gig paid in milestones", () => {
  /** Design (3,000, paid), Build (4,000) current in `status`, Launch (5,000) not funded. */
  const planJob = (status: Gig["status"], build: Partial<MilestoneView> = {}, over: Partial<Gig> = {}) =>
    makePlanGig({ status, currentMilestone: 2, escrowStatus: build.escrow === "unfunded" ? "pending" : "funded", ...over }, [
      { escrow: "released", step: "paid", current: false },
      { escrow: "funded", step: "funded", current: true, ...build },
    ]);
  const nextStepOf = (dialog: HTMLElement) => within(dialog).getByRole("region", { name: "Next step" });

  it("shows the milestones as steps instead of the progress stepper, the current one highlighted", async () => {
    const { dialog } = await renderDetails(planJob("in_progress", { step: "in_progress" }), "hirer");
    expect(within(dialog).queryByRole("list", { name: "Progress" })).not.toBeInTheDocument();
    const steps = within(within(dialog).getByRole("list", { name: "Milestones" })).getAllByRole("listitem");
    expect(steps.map((li) => li.getAttribute("aria-current"))).toEqual([null, "step", null]);
    expect(steps[1]).toHaveTextContent("Build");
    expect(steps[1]).toHaveTextContent("You pay 4,100 sats");
    expect(steps[1]).toHaveTextContent("In progress");
    expect(dialog).toHaveTextContent("Milestone 2 of 3");
    expect(dialog).toHaveTextContent("4,100 sats is held in escrow for milestone 2.");
  });

  it("shows no milestones for a gig without a plan", async () => {
    const { dialog } = await renderDetails(job({ status: "in_progress", workerId: "worker", milestones: [makeMilestone(1, { current: true, escrow: "funded" })] }), "hirer");
    expect(within(dialog).queryByRole("list", { name: "Milestones" })).not.toBeInTheDocument();
    expect(within(dialog).getByRole("list", { name: "Progress" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Change milestones" })).not.toBeInTheDocument();
  });

  it("tells the worker of an unfunded milestone to wait for the hirer, instead of Start Work", async () => {
    const { dialog, api } = await renderDetails(planJob("claimed", { escrow: "unfunded", step: "unfunded" }), "worker");
    expect(dialog).toHaveTextContent("Waiting for the hirer to fund milestone 2.");
    expect(within(dialog).queryByRole("button", { name: /Start/ })).not.toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/start-work")).toHaveLength(0);
  });

  it("asks the hirer to fund the current milestone, and opens its invoice in the payment dialog", async () => {
    let gig = planJob("claimed", { escrow: "unfunded", step: "unfunded" });
    const { dialog, user, api } = await renderDetails(gig, "hirer", {
      "GET /api/gigs/gig-1": () => gig,
      "POST /api/gigs/gig-1/milestones/2/fund": () => {
        gig = planJob("claimed", { escrow: "unfunded", step: "awaiting_payment", paymentRequest: "lnbcrt1milestone2" });
        return { paymentRequest: "lnbcrt1milestone2", totalCharge: 4_100, milestone: 2 };
      },
    });
    const next = nextStepOf(dialog);
    expect(next).toHaveTextContent("Fund milestone 2");
    expect(next).toHaveTextContent("Milestone 2 of 3 starts once it is funded: you pay 4,100 sats into its escrow.");
    await user.click(within(next).getByRole("button", { name: "Fund milestone 2" }));
    const payment = await screen.findByRole("dialog", { name: /Fund Escrow/ });
    expect(await within(payment).findByText("Milestone 2 of 3: Build")).toBeInTheDocument();
    expect(payment).toHaveTextContent("4,100 sats");
    // The dialog waits for this milestone's payment (its own escrow, not the gig's): having read the gig it
    // still polls. Reads after funding: the refresh, the dialog's own, then its poll.
    const readsAfterFunding = () => api.calls.slice(api.calls.findIndex((c) => c.path.endsWith("/fund"))).filter((c) => c.method === "GET" && c.path === "/api/gigs/gig-1");
    await waitFor(() => expect(readsAfterFunding().length).toBeGreaterThanOrEqual(3));
    expect(within(payment).getByText("Waiting for payment...")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/fund")).toHaveLength(1);
  }, 10_000);

  it("starts the current milestone through its own route", async () => {
    const { dialog, user, api } = await renderDetails(planJob("claimed"), "worker", { "POST /api/gigs/gig-1/milestones/2/start-work": () => ({ success: true }) });
    const next = nextStepOf(dialog);
    expect(next).toHaveTextContent("Milestone 2 of 3: start work");
    await user.click(within(next).getByRole("button", { name: "Start milestone 2" }));
    expect(await findToast("Work Started")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/start-work")).toHaveLength(1);
    expect(api.callsTo("POST", "/api/gigs/gig-1/start-work")).toHaveLength(0);
  });

  it("submits the current milestone", async () => {
    const { dialog, user, api } = await renderDetails(planJob("in_progress", { step: "in_progress" }), "worker", {
      "POST /api/gigs/gig-1/milestones/2/submit": () => ({ success: true }),
    });
    await user.type(within(dialog).getByLabelText("Submit your work on milestone 2"), "Pages built");
    await user.click(within(dialog).getByRole("button", { name: "Submit milestone 2" }));
    expect(await findToast("Work Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/submit")[0]!.body).toEqual({ workSubmission: "Pages built", attachments: [] });
  });

  it("lets the hirer approve the current milestone for its own payout, ask for its revision, or dispute it", async () => {
    const { dialog, user, api } = await renderDetails(planJob("work_submitted", { step: "submitted" }, { workSubmission: "Pages built" }), "hirer", {
      "POST /api/gigs/gig-1/milestones/2/approve": () => ({ success: true }),
      "POST /api/gigs/gig-1/milestones/2/request-revision": () => ({ success: true }),
      "POST /api/gigs/gig-1/milestones/2/dispute": () => ({ success: true }),
    });
    expect(nextStepOf(dialog)).toHaveTextContent("Approve it to release 3,900 sats to the worker, or ask for a revision.");
    expect(dialog).toHaveTextContent("Happy with the work? Approving milestone 2 releases 3,900 sats to the worker.");

    await user.click(within(dialog).getByRole("button", { name: "Request Revision" }));
    await user.type(within(dialog).getByLabelText("What needs to change?"), "Bigger logo");
    await user.click(within(dialog).getByRole("button", { name: "Send Revision Request" }));
    expect(await findToast("Revision Requested")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/request-revision")[0]!.body).toEqual({ note: "Bigger logo" });

    await user.click(within(dialog).getByRole("button", { name: "Raise Dispute" }));
    expect(dialog).toHaveTextContent("The dispute is about milestone 2");
    await user.type(within(dialog).getByLabelText("Reason for the dispute"), "Missing pages");
    await user.click(within(dialog).getAllByRole("button", { name: "Raise Dispute" }).at(-1)!);
    expect(await findToast("Dispute Raised")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/dispute")[0]!.body).toEqual({ reason: "Missing pages" });

    await user.click(within(dialog).getByRole("button", { name: "Approve milestone 2" }));
    expect(await findToast(/Payment Released: 3,900 sats/)).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-1/milestones/2/approve")).toHaveLength(1);
    expect(api.callsTo("POST", "/api/gigs/gig-1/approve")).toHaveLength(0);
  });

  it("says so when the screen was behind and the milestone is no longer the current one", async () => {
    const { dialog, user } = await renderDetails(planJob("work_submitted", { step: "submitted" }), "hirer", {
      "POST /api/gigs/gig-1/milestones/2/approve": () => apiError(409, "Milestone 2 is not the current milestone (milestone 3 is)", "not_current_milestone"),
    });
    await user.click(within(dialog).getByRole("button", { name: "Approve milestone 2" }));
    expect(await findToast("Failed to Approve Work")).toBeInTheDocument();
    expect(await findToast("Milestone 2 is not the current milestone (milestone 3 is)")).toBeInTheDocument();
  });

  it("says cancelling refunds the funded milestones not yet started", async () => {
    const gig = planJob("claimed", {}, {
      milestones: [
        makeMilestone(1, { title: "Design", amount: 3_000, escrow: "released", step: "paid" }),
        makeMilestone(2, { title: "Build", amount: 4_000, escrow: "funded", step: "funded", current: true }),
        makeMilestone(3, { title: "Launch", amount: 5_000, escrow: "funded", step: "funded" }),
      ],
    });
    const { dialog, user } = await renderDetails(gig, "hirer");
    await user.click(within(dialog).getByRole("button", { name: "Cancel Gig" }));
    expect(within(dialog).getByRole("group", { name: "Confirm cancellation" })).toHaveTextContent("Cancel this gig? The escrow (9,225 sats) is refunded to the hirer.");
  });

  it("starts a change from the gig as it is now: a milestone funded since the details were read is not editable", async () => {
    const earlier = planJob("in_progress", { step: "in_progress" });
    let gig = earlier;
    const { dialog, user } = await renderDetails(earlier, "worker", { "GET /api/gigs/gig-1": () => gig });
    await within(dialog).findByRole("button", { name: "Change milestones" });
    gig = planJob("in_progress", { step: "in_progress" }, {
      milestones: [
        makeMilestone(1, { title: "Design", amount: 3_000, escrow: "released", step: "paid" }),
        makeMilestone(2, { title: "Build", amount: 4_000, escrow: "funded", step: "in_progress", current: true }),
        makeMilestone(3, { title: "Launch", amount: 5_000, escrow: "funded", step: "funded" }),
      ],
    });
    await user.click(within(dialog).getByRole("button", { name: "Change milestones" }));
    const form = await within(dialog).findByRole("form", { name: "Change milestones" });
    expect(within(form).getByRole("list", { name: "Funded milestones" })).toHaveTextContent("Launch");
    expect(within(form).queryByLabelText("Milestone 3 title")).not.toBeInTheDocument();
    expect(within(form).getByLabelText("Milestone 4 title")).toHaveValue("");
  });

  it("lets the parties change the milestones from the details", async () => {
    const { dialog, user } = await renderDetails(planJob("in_progress", { step: "in_progress" }), "worker");
    await user.click(await within(dialog).findByRole("button", { name: "Change milestones" }));
    expect(await within(dialog).findByLabelText("Milestone 3 title")).toHaveValue("Launch");
  });
});

