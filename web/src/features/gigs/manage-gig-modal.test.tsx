import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { makeGig } from "./gig-factories";
import { GigDialogsProvider } from "./gig-dialogs";
import { ManageGigModal } from "./manage-gig-modal";
import type { Gig } from "./types";

function renderManage(gig: Gig, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ [`GET /api/gigs/${gig.id}`]: () => gig, ...routes });
  renderWithApp(
    <GigDialogsProvider>
      <ManageGigModal gigId={gig.id} open onOpenChange={() => {}} />
    </GigDialogsProvider>,
    { user: makeUser({ id: "me" }) },
  );
  return { api, user: userEvent.setup() };
}

describe("gig management modal", () => {
  it("edits the title and description, sending only what changed", async () => {
    const gig = makeGig({ id: "g-1", title: "Old title", posterId: "me", hirerId: "me" });
    const { api, user } = renderManage(gig, { "PATCH /api/gigs/g-1": () => ({ ...gig, title: "New title" }) });
    const title = await screen.findByLabelText("Title");
    await user.clear(title);
    expect(screen.getByText("Title is required")).toBeInTheDocument();
    await user.type(title, "New title");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await findToast("Gig Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/gigs/g-1")[0]!.body).toEqual({ title: "New title" });
  });

  it("offers the budget to the owner of an open service offering, and reports failures", async () => {
    const offer = makeGig({ id: "g-2", gigType: "service_offering", posterId: "me", workerId: "me", hirerId: null, payment: 20_000 });
    const { api, user } = renderManage(offer, { "PATCH /api/gigs/g-2": () => apiError(409, "This gig was just changed by someone else.", "stale_gig") });
    const budget = await screen.findByLabelText("Budget (sats)");
    expect(budget).toHaveValue(20_000);
    await user.clear(budget);
    await user.type(budget, "25000");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await findToast("Failed to Update Gig")).toBeInTheDocument();
    expect(await findToast("This gig was just changed by someone else.")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/gigs/g-2")[0]!.body).toEqual({ budget: 25_000 });
    const dialog = screen.getByRole("dialog", { name: "Manage Gig" });
    expect(within(dialog).getByRole("button", { name: "Cancel Gig" })).toBeInTheDocument();
  });

  it("gives a hirer who has not paid for a service offering no edit form, only withdrawing the hire", async () => {
    const offer = makeGig({ id: "g-3", gigType: "service_offering", status: "pending_payment", escrowStatus: "pending", posterId: "w-1", workerId: "w-1", hirerId: "me" });
    const { api, user } = renderManage(offer, { "POST /api/gigs/g-3/cancel": () => ({ success: true }) });
    const dialog = await screen.findByRole("dialog", { name: "Manage Gig" });
    expect(within(dialog).queryByLabelText("Title")).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole("button", { name: "Cancel Gig" }));
    expect(within(dialog).getByText("Withdraw your hire? Nothing has been charged, and the offer opens to others again.")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Keep my hire" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Yes, Cancel Gig" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Withdraw hire" }));
    expect(await findToast("Hire Withdrawn")).toBeInTheDocument();
    expect(await findToast("Nothing was charged. The offer is open to others again.")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/g-3/cancel")).toHaveLength(1);
  });

  it("lets the worker of a claimed gig withdraw, in those words", async () => {
    const claimed = makeGig({ id: "g-4", status: "claimed", posterId: "h-1", hirerId: "h-1", workerId: "me" });
    const { user } = renderManage(claimed);
    const dialog = await screen.findByRole("dialog", { name: "Manage Gig" });
    expect(await within(dialog).findByRole("heading", { name: "Withdraw from the gig" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Cancel Gig" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(within(dialog).getByRole("group", { name: "Confirm withdrawal" })).toHaveTextContent(/^Withdraw from this gig\?/);
  });
});
