import { waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiError } from "../../test/mock-api";
import { findToast } from "../../test/render";
import { makeGig } from "./gig-factories";
import { openGigModal } from "./gig-test-harness";
import type { ExtensionRequest, Gig } from "./types";

const DEADLINE = "2031-03-10T15:30:00.000Z";

const running = (over: Partial<Gig> = {}) =>
  makeGig({ id: "gig-x", title: "Podcast edit", status: "in_progress", posterId: "hirer", hirerId: "hirer", workerId: "worker", deadline: DEADLINE, ...over });

function makeRequest(over: Partial<ExtensionRequest> = {}): ExtensionRequest {
  return { id: "ext-1", gigId: "gig-x", status: "pending", daysToAdd: 3, reason: "The client sent the audio late", createdAt: new Date().toISOString(), decidedAt: null, ...over };
}

function plusDays(iso: string, n: number): string {
  const d = new Date(iso);
  d.setDate(d.getDate() + n);
  return d.toISOString();
}

describe("the worker's extension request", () => {
  it.each([1, 3, 7, 14])("the %i-day preset asks for that many days", async (n) => {
    const gig = running();
    const { dialog, user, api } = await openGigModal(gig, "worker", {
      "POST /api/gigs/gig-x/request-extension": ({ body }) => new Response(JSON.stringify(makeRequest(body as Partial<ExtensionRequest>)), { status: 201 }),
    });
    await user.click(await within(dialog).findByRole("button", { name: "Request Extension" }));
    const preset = within(dialog).getByRole("button", { name: n === 1 ? "1 day" : `${n} days` });
    await user.click(preset);
    expect(preset).toHaveAttribute("aria-pressed", "true");
    expect(within(dialog).getByLabelText("Or another number of days")).toHaveValue(n);
    await user.click(within(dialog).getByRole("button", { name: "Request Extension" }));
    expect(await findToast("Extension Request Sent")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-x/request-extension")[0]!.body).toEqual({ daysToAdd: n });
  });

  it("takes another number of days (at least 1) and an optional reason, then shows Request Pending", async () => {
    const gig = running({ status: "claimed" });
    const requests: ExtensionRequest[] = [makeRequest({ id: "old", status: "rejected", daysToAdd: 14 })];
    const { dialog, user, api } = await openGigModal(gig, "worker", {
      "GET /api/gigs/gig-x/extension-requests": () => requests,
      "POST /api/gigs/gig-x/request-extension": ({ body }) => {
        const created = makeRequest({ id: "new", ...(body as object) });
        requests.push(created);
        return new Response(JSON.stringify(created), { status: 201 });
      },
    });
    expect(await within(dialog).findByText("Your last request (14 days) was not approved.")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Request Extension" }));
    const send = within(dialog).getByRole("button", { name: "Request Extension" });
    expect(send).toBeDisabled();

    const custom = within(dialog).getByLabelText("Or another number of days");
    await user.type(custom, "0");
    expect(within(dialog).getByText("Days to add must be at least 1")).toBeInTheDocument();
    expect(send).toBeDisabled();
    await user.clear(custom);
    await user.type(custom, "5");
    expect(within(dialog).queryAllByRole("button", { pressed: true })).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/Reason/), "  Waiting for the logo files  ");
    await user.click(send);

    expect(await findToast("Extension Request Sent")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-x/request-extension")[0]!.body).toEqual({ daysToAdd: 5, reason: "Waiting for the logo files" });
    const pending = await within(dialog).findByRole("button", { name: "Request Pending" });
    expect(pending).toBeDisabled();
    expect(within(dialog).queryByRole("button", { name: "Request Extension" })).not.toBeInTheDocument();
  });

  it("shows Request Pending while a request waits for the hirer", async () => {
    const { dialog } = await openGigModal(running(), "worker", { "GET /api/gigs/gig-x/extension-requests": () => [makeRequest()] });
    expect(await within(dialog).findByRole("button", { name: "Request Pending" })).toBeDisabled();
    expect(dialog).toHaveTextContent("You asked for 3 more days");
    expect(dialog).toHaveTextContent("The client sent the audio late");
    expect(within(dialog).queryByRole("button", { name: "Request Extension" })).not.toBeInTheDocument();
  });

  it("reports a refused request with the server's words", async () => {
    const { dialog, user } = await openGigModal(running(), "worker", {
      "POST /api/gigs/gig-x/request-extension": () => apiError(409, "An extension request is already pending for this gig", "extension_pending"),
    });
    await user.click(await within(dialog).findByRole("button", { name: "Request Extension" }));
    await user.click(within(dialog).getByRole("button", { name: "7 days" }));
    await user.click(within(dialog).getByRole("button", { name: "Request Extension" }));
    expect(await findToast("Failed to Request Extension")).toBeInTheDocument();
    expect(await findToast("An extension request is already pending for this gig")).toBeInTheDocument();
  });

  it("is offered only to the worker, while claimed or in progress", async () => {
    const { dialog } = await openGigModal(running({ status: "work_submitted" }), "worker");
    await waitFor(() => expect(within(dialog).queryByText("Need more time?")).not.toBeInTheDocument());
    expect(within(dialog).queryByRole("button", { name: /Request Extension|Request Pending/ })).not.toBeInTheDocument();
  });
});

describe("the hirer's answer", () => {
  it("approves a pending request, then reads the gig and the list again", async () => {
    let requests = [makeRequest()];
    let gig = running();
    const { dialog, user, api } = await openGigModal(gig, "hirer", {
      "GET /api/gigs/gig-x": () => gig,
      "GET /api/gigs/gig-x/extension-requests": () => requests,
      "POST /api/gigs/gig-x/extension-request/ext-1/approve": () => {
        requests = [{ ...requests[0]!, status: "approved" }];
        gig = { ...gig, deadline: plusDays(DEADLINE, 3) };
        return requests[0];
      },
    });
    const request = await within(dialog).findByRole("group", { name: "Extension request" });
    expect(request).toHaveTextContent("The worker asks for 3 more days");
    expect(request).toHaveTextContent("The client sent the audio late");
    const gigReads = api.callsTo("GET", "/api/gigs/gig-x").length;
    const listReads = api.callsTo("GET", "/api/gigs/gig-x/extension-requests").length;

    await user.click(within(request).getByRole("button", { name: "Approve Extension" }));
    expect(await findToast("Extension Approved")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-x/extension-request/ext-1/approve")).toHaveLength(1);
    await waitFor(() => expect(within(dialog).queryByRole("group", { name: "Extension request" })).not.toBeInTheDocument());
    expect(api.callsTo("GET", "/api/gigs/gig-x").length).toBeGreaterThan(gigReads);
    expect(api.callsTo("GET", "/api/gigs/gig-x/extension-requests").length).toBeGreaterThan(listReads);
  });

  it("rejects a pending request, and says so when rejecting fails", async () => {
    let fail = true;
    const { dialog, user, api } = await openGigModal(running(), "hirer", {
      "GET /api/gigs/gig-x/extension-requests": () => [makeRequest()],
      "POST /api/gigs/gig-x/extension-request/ext-1/reject": () => (fail ? apiError(409, "This extension request was already answered", "invalid_state") : makeRequest({ status: "rejected" })),
    });
    const reject = await within(dialog).findByRole("button", { name: "Reject Extension" });
    await user.click(reject);
    expect(await findToast("Failed to Reject Extension")).toBeInTheDocument();
    expect(await findToast("This extension request was already answered")).toBeInTheDocument();

    fail = false;
    await user.click(reject);
    expect(await findToast("Extension Rejected")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-x/extension-request/ext-1/reject")).toHaveLength(2);
  });

  it("says so when approving fails", async () => {
    const { dialog, user } = await openGigModal(running(), "hirer", {
      "GET /api/gigs/gig-x/extension-requests": () => [makeRequest()],
      "POST /api/gigs/gig-x/extension-request/ext-1/approve": () => apiError(409, "This gig is no longer in progress", "invalid_state"),
    });
    await user.click(await within(dialog).findByRole("button", { name: "Approve Extension" }));
    expect(await findToast("Failed to Approve Extension")).toBeInTheDocument();
  });

  it("extends the deadline directly by a preset, sending a later ISO instant", async () => {
    const { dialog, user, api } = await openGigModal(running(), "hirer", { "PATCH /api/gigs/gig-x/extend-deadline": ({ body }) => ({ deadline: (body as { newDeadline: string }).newDeadline }) });
    await user.click(await within(dialog).findByRole("button", { name: "Extend Deadline" }));
    await user.click(within(dialog).getByRole("button", { name: "+7 days" }));
    expect(within(dialog).getByRole("button", { name: "+7 days" })).toHaveAttribute("aria-pressed", "true");
    await user.click(within(dialog).getByRole("button", { name: "Extend Deadline" }));
    expect(await findToast("Deadline Extended")).toBeInTheDocument();
    const { newDeadline } = api.callsTo("PATCH", "/api/gigs/gig-x/extend-deadline")[0]!.body as { newDeadline: string };
    expect(newDeadline).toBe(plusDays(DEADLINE, 7));
    expect(Date.parse(newDeadline)).toBeGreaterThan(Date.parse(DEADLINE));
  });

  it("extends the deadline to a picked day, never to one that is not later", async () => {
    const { dialog, user, api } = await openGigModal(running(), "hirer", {
      "PATCH /api/gigs/gig-x/extend-deadline": () => apiError(400, "The new deadline must be later than the current one", "deadline_not_later"),
    });
    await user.click(await within(dialog).findByRole("button", { name: "Extend Deadline" }));
    const picker = within(dialog).getByLabelText("Or pick a new deadline");
    const send = within(dialog).getByRole("button", { name: "Extend Deadline" });
    expect(send).toBeDisabled();

    const sameDay = new Date(DEADLINE);
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    await user.type(picker, day(sameDay));
    expect(within(dialog).getByText("The new deadline must be later than the current one")).toBeInTheDocument();
    expect(send).toBeDisabled();

    const later = new Date(DEADLINE);
    later.setDate(later.getDate() + 20);
    await user.clear(picker);
    await user.type(picker, day(later));
    expect(send).toBeEnabled();
    await user.click(send);
    expect(await findToast("Failed to Extend Deadline")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/gigs/gig-x/extend-deadline")[0]!.body).toEqual({ newDeadline: later.toISOString() });
  });

  it("is in the management modal too, with the answered requests", async () => {
    const { dialog } = await openGigModal(
      running(),
      "hirer",
      { "GET /api/gigs/gig-x/extension-requests": () => [makeRequest({ id: "a", status: "approved", daysToAdd: 7, reason: "Holidays" }), makeRequest({ id: "b" })] },
      { manage: true },
    );
    expect(await within(dialog).findByRole("button", { name: "Approve Extension" })).toBeInTheDocument();
    expect(within(dialog).getByRole("heading", { name: "Earlier requests" })).toBeInTheDocument();
    expect(dialog).toHaveTextContent("+7 days");
    expect(dialog).toHaveTextContent("Holidays");
    expect(within(dialog).getByLabelText("Or pick a new deadline")).toBeInTheDocument();
  });

  it("is not offered to the worker", async () => {
    const { dialog } = await openGigModal(running(), "worker", { "GET /api/gigs/gig-x/extension-requests": () => [makeRequest()] });
    await within(dialog).findByRole("button", { name: "Request Pending" });
    expect(within(dialog).queryByRole("button", { name: /Approve Extension|Reject Extension|Extend Deadline/ })).not.toBeInTheDocument();
  });
});
