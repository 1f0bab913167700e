import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AdminRoute } from "../../routes/admin";
import { apiError, mockApi, type ApiCall } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { ADMIN_TOKEN_KEY } from "./admin-session";
import type { AdminGig, AdminReport, Dispute, MoneyHealth, PayoutProblem, UnreadChat } from "./types";

const stats = { totalEscrow: 30_750, totalRevenue: 500, activeGigs: 2, openGigs: 1, completedGigs: 4, disputedGigs: 1, totalUsers: 9 };

const gig = (over: Partial<AdminGig> = {}): AdminGig => ({
  id: "0a1b2c3d-gig",
  title: "Design a logo",
  description: "A logo",
  category: "Design",
  gigType: "job_request",
  status: "open",
  payment: 10_000,
  escrowStatus: "funded",
  createdAt: "2026-11-01T00:00:00.000Z",
  posterId: "u1",
  hirerId: "u1",
  workerId: null,
  disputeReason: null,
  disputedBy: null,
  resolution: null,
  poster: { id: "u1", username: "npub1poster", displayName: "Poster Pat" },
  ...over,
});

const dispute: Dispute = {
  gigId: "disputed-gig-1",
  title: "Translate a page",
  description: "Into Spanish",
  gigType: "job_request",
  milestone: null,
  payment: 10_000,
  totalCharge: 10_250,
  workerPayout: 9_750,
  platformFee: 250,
  disputeReason: "Half of it is machine translated.",
  disputedBy: { id: "h1", username: "npub1hirer", displayName: "Hana" },
  workSubmission: "Done",
  submittedAt: "2026-11-02T00:00:00.000Z",
  hirer: { id: "h1", username: "npub1hirer", displayName: "Hana" },
  worker: { id: "w1", username: "npub1worker", displayName: "Wes" },
  createdAt: "2026-11-01T00:00:00.000Z",
  edits: [],
};

const payoutBase = {
  gigId: "g1",
  gigTitle: "Design a logo",
  purpose: "worker_payout",
  amount: 9_750,
  attempts: 1,
  nextAttemptAt: null,
  destination: "wes@wallet.test",
  recipient: { id: "w1", username: "npub1worker", displayName: "Wes", lightningAddress: "wes@wallet.test" },
  createdAt: "2026-11-01T00:00:00.000Z",
  updatedAt: null,
  routingFee: null,
  feeCap: 98,
  doubtfulHashes: [],
  history: [],
} satisfies Partial<PayoutProblem>;

const [h0, h1, h2] = ["ef".repeat(32), "ab".repeat(32), "cd".repeat(32)];

/** A payout held in doubt: its second and third attempts may have sent money (the first was marked failed). */
const inDoubt: PayoutProblem = {
  ...payoutBase,
  id: "p1",
  status: "in_flight",
  problem: "needs_look",
  hold: "in_doubt",
  paymentHash: h2,
  doubtfulHashes: [h1, h2],
  attempts: 3,
  lastError: "The connection dropped after the request left",
  history: [
    { attempt: 1, destination: "wes@wallet.test", outcome: "marked_failed", paymentHash: h0, detail: "checked on the node", at: "2026-11-01T00:01:00.000Z" },
    { attempt: 2, destination: "wes@wallet.test", outcome: "unknown", paymentHash: h1, detail: "the connection dropped", at: "2026-11-01T00:05:00.000Z" },
    { attempt: 3, destination: "wes@wallet.test", outcome: "sending", paymentHash: h2, detail: null, at: "2026-11-01T00:09:00.000Z" },
  ],
};

const moneyWith = (payouts: PayoutProblem[]): MoneyHealth => ({
  ledger: { ok: true, problems: [], wallet: 31_250, escrow: 30_750, fees: 500, payables: 0 },
  backends: [],
  wallet: null,
  payouts,
  checkedAt: "",
});

function panelApi(overrides: Record<string, (call: ApiCall) => unknown> = {}) {
  return mockApi({
    "GET /api/admin/stats": () => stats,
    "GET /api/admin/money": () => ({ ledger: { ok: true, problems: [], wallet: 31_250, escrow: 30_750, fees: 500, payables: 0 }, payouts: [], checkedAt: "" }),
    "GET /api/admin/disputes": () => [dispute],
    "GET /api/admin/unread-chats": () => [] as UnreadChat[],
    "GET /api/admin/gigs": () => [gig()],
    "GET /api/gig-reports": () => [] as AdminReport[],
    "GET /api/admin/suggestions": () => [],
    "POST /api/admin/logout": () => ({ success: true }),
    ...overrides,
  });
}

function renderPanel() {
  sessionStorage.setItem(ADMIN_TOKEN_KEY, "tok-admin");
  renderWithApp(<AdminRoute />, { route: "/admin" });
  return userEvent.setup();
}

beforeEach(() => sessionStorage.clear());
afterEach(() => sessionStorage.clear());

describe("the admin panel", () => {
  it("shows the stats and the ledger check, with the token in x-admin-token", async () => {
    const api = panelApi();
    renderPanel();
    expect(await screen.findByText("30,750 sats")).toBeInTheDocument();
    expect(screen.getByText("Total Escrow")).toBeInTheDocument();
    expect(screen.getByText("Platform Revenue")).toBeInTheDocument();
    expect(await screen.findByText("Balanced")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Disputes (1)" })).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/admin/stats")[0]!.headers["x-admin-token"]).toBe("tok-admin");
  });

  it("the Nostr outbox card: what is waiting, stuck events highlighted with the last error, or why publishing is off", async () => {
    const outboxCard = () => screen.findByRole("region", { name: "Nostr outbox" });
    const term = (card: HTMLElement, label: string) => within(card).getByText(label, { selector: "dt" }).nextElementSibling;

    // Sending: nothing stuck, nothing flagged.
    panelApi({ "GET /api/admin/stats": () => ({ ...stats, nostrOutbox: { pending: 3, stuck: 0, lastError: null, off: null } }) });
    renderPanel();
    let card = await outboxCard();
    expect(term(card, "Waiting")).toHaveTextContent("3");
    expect(term(card, "Stuck")).toHaveTextContent("0");
    expect(within(card).getByText("Sending")).toBeInTheDocument();
    expect(card).not.toHaveTextContent("Needs attention");
    expect(card).not.toHaveTextContent("Last error");
    cleanup();

    // Stuck: flagged as needing attention, with the last error.
    panelApi({
      "GET /api/admin/stats": () => ({ ...stats, nostrOutbox: { pending: 5, stuck: 2, lastError: "wss://relay.test: connection refused", off: null } }),
    });
    renderPanel();
    card = await outboxCard();
    expect(term(card, "Waiting")).toHaveTextContent("5");
    expect(term(card, "Stuck")).toHaveTextContent("2");
    expect(within(card).getByText("Needs attention")).toBeInTheDocument();
    expect(card).toHaveTextContent("2 events no relay has taken");
    expect(card).toHaveTextContent("Last error: wss://relay.test: connection refused");
    expect(card.className).toMatch(/border-red/);
    cleanup();

    // Off: the reason, and no counts.
    panelApi({
      "GET /api/admin/stats": () => ({ ...stats, nostrOutbox: { pending: 0, stuck: 0, lastError: null, off: "Nostr publishing is off: NOSTR_SECRET_KEY is not set." } }),
    });
    renderPanel();
    card = await outboxCard();
    expect(card).toHaveTextContent("Publishing is off: NOSTR_SECRET_KEY is not set.");
    expect(within(card).getByText("Off")).toBeInTheDocument();
    expect(within(card).queryByText("Waiting")).toBeNull();
    expect(card).not.toHaveTextContent("Needs attention");
  });

  it("money health: a payout held in doubt needs a look (with its hash), a held one is paid anyway, the wallet's problem shows", async () => {
    const hash = "ab".repeat(32);
    const api = panelApi({
      "GET /api/admin/money": () => ({
        ledger: { ok: true, problems: [], wallet: 31_250, escrow: 30_750, fees: 500, payables: 0 },
        wallet: { ok: false, checkedAt: "", problem: "LNbits answered 401: use the wallet's admin key" },
        backends: [{ backend: "lnbits", lastOkAt: new Date(Date.now() - 120_000).toISOString(), lastOkCall: "createInvoice", lastErrorAt: new Date(Date.now() - 60_000).toISOString(), lastErrorCall: "payInvoice", lastError: "LNbits did not answer" }],
        payouts: [
          { ...payoutBase, id: "p1", status: "in_flight", problem: "needs_look", hold: "in_doubt", paymentHash: hash, doubtfulHashes: [hash], lastError: "The wallet has no payment with this hash" },
          {
            ...payoutBase,
            id: "p2",
            status: "failed",
            problem: "fee_over_cap",
            hold: "fee_over_cap",
            paymentHash: null,
            lastError: "no route within 3 sats of fees",
            amount: 2,
            history: [
              { attempt: 1, destination: "old@wallet.test", outcome: "failed", paymentHash: null, detail: "The provider did not answer", at: "2026-11-01T00:01:00.000Z" },
              { attempt: 2, destination: "wes@wallet.test", outcome: "held", paymentHash: null, detail: "no route within 3 sats of fees", at: "2026-11-01T00:05:00.000Z" },
            ],
          },
          { ...payoutBase, id: "p3", status: "succeeded", problem: "paid_over_cap", hold: null, paymentHash: null, lastError: null, routingFee: 120, amount: 5_000 },
        ],
        checkedAt: "",
      }),
      "POST /api/admin/payouts/p2/retry": () => ({ id: "p2", status: "succeeded", lastError: null }),
    });
    const user = renderPanel();
    expect(await screen.findByText("Needs a look")).toBeInTheDocument();
    expect(screen.getByText(hash)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Look up payout of 9,750 sats to Wes" })).toBeInTheDocument();
    expect(screen.getByText("Held: fees over cap")).toBeInTheDocument();
    expect(screen.getByText("Paid over fee cap")).toBeInTheDocument();
    expect(screen.getByText("Routing cost 120 sats, above the cap of 98 sats.")).toBeInTheDocument();
    expect(screen.getByText("Cannot pay")).toBeInTheDocument();
    expect(screen.getByText("History of attempts (2)")).toBeInTheDocument();
    expect(screen.getByText(/last error .* \(payInvoice\): LNbits did not answer/)).toBeInTheDocument();
    expect(screen.getByText(/last answer .* \(createInvoice\)/)).toBeInTheDocument();
    expect(screen.getByText(/#1 .* · old@wallet\.test · failed: The provider did not answer/)).toBeInTheDocument();
    expect(screen.getByText("LNbits answered 401: use the wallet's admin key")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Pay anyway payout of 2 sats to Wes" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/admin/payouts/p2/retry")).toHaveLength(1));
    expect(screen.queryByRole("button", { name: "Mark failed payout of 2 sats to Wes" })).not.toBeInTheDocument();
  });

  it("a payout held in doubt shows every hash and its history; Mark failed names them, Cancel posts nothing, confirming posts exactly those hashes", async () => {
    const api = panelApi({
      "GET /api/admin/money": () => moneyWith([inDoubt]),
      "POST /api/admin/payouts/p1/mark-failed": () => ({ id: "p1", status: "failed", lastError: "Marked failed by the admin after checking the node" }),
    });
    const user = renderPanel();
    const hashList = await screen.findByRole("list", { name: "Payment hashes in doubt, payout of 9,750 sats to Wes" });
    expect(within(hashList).getAllByRole("listitem").map((li) => li.querySelector("code")!.textContent)).toEqual([h1, h2]);
    expect(screen.getByText(/not paid again until the wallet answers .* or you mark it failed after checking your Lightning node/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy payment hash 2 of payout of 9,750 sats to Wes" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Look up payout of 9,750 sats to Wes" })).toBeInTheDocument();
    expect(screen.getByText("History of attempts (3)")).toBeInTheDocument();
    expect(screen.getByText(/#1 .* · Marked failed by the admin: checked on the node/)).toHaveTextContent(`hash ${h0}`);
    expect(screen.getByText(/#2 .* · outcome unknown: the connection dropped/)).toHaveTextContent(`hash ${h1}`);
    expect(screen.getByText(/#3 .* · Sent to the wallet, no answer yet/)).toHaveTextContent(`hash ${h2}`);

    await user.click(screen.getByRole("button", { name: "Mark failed payout of 9,750 sats to Wes" }));
    let dialog = await screen.findByRole("alertdialog", { name: "Mark this payout failed?" });
    expect(dialog).toHaveAccessibleDescription(/only do this after checking on your Lightning node that none of these payments was sent: a new invoice will then be paid to the recipient/i);
    expect(within(dialog).getByText(h1)).toBeInTheDocument();
    expect(within(dialog).getByText(h2)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(api.callsTo("POST", "/api/admin/payouts/p1/mark-failed")).toHaveLength(0);

    const reads = api.callsTo("GET", "/api/admin/money").length;
    await user.click(screen.getByRole("button", { name: "Mark failed payout of 9,750 sats to Wes" }));
    dialog = await screen.findByRole("alertdialog", { name: "Mark this payout failed?" });
    await user.click(within(dialog).getByRole("button", { name: "Mark failed" }));
    expect(await findToast("Payout Marked Failed")).toBeInTheDocument();
    const posts = api.callsTo("POST", "/api/admin/payouts/p1/mark-failed");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ paymentHashes: [h1, h2] });
    expect(posts[0]!.headers["x-admin-token"]).toBe("tok-admin");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await waitFor(() => expect(api.callsTo("GET", "/api/admin/money").length).toBeGreaterThan(reads));
  });

  it("a refused Mark failed shows the server's message in the dialog and reads Money Health again", async () => {
    const api = panelApi({
      "GET /api/admin/money": () => moneyWith([inDoubt]),
      "POST /api/admin/payouts/p1/mark-failed": () =>
        new Response(JSON.stringify({ error: "The hashes in doubt are not these; look at the payout again.", code: "hashes_mismatch" }), { status: 400, headers: { "Content-Type": "application/json" } }),
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("button", { name: "Mark failed payout of 9,750 sats to Wes" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Mark this payout failed?" });
    const reads = api.callsTo("GET", "/api/admin/money").length;
    await user.click(within(dialog).getByRole("button", { name: "Mark failed" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("The hashes in doubt are not these; look at the payout again.");
    expect(api.callsTo("POST", "/api/admin/payouts/p1/mark-failed")[0]!.body).toEqual({ paymentHashes: [h1, h2] });
    await waitFor(() => expect(api.callsTo("GET", "/api/admin/money").length).toBeGreaterThan(reads));
    expect(screen.getByRole("alertdialog", { name: "Mark this payout failed?" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await user.click(screen.getByRole("button", { name: "Mark failed payout of 9,750 sats to Wes" }));
    expect(within(await screen.findByRole("alertdialog")).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("a dispute shows the gig's edits with each field's old and new value, and which came after funding", async () => {
    panelApi({
      "GET /api/admin/disputes": () => [
        {
          ...dispute,
          edits: [
            { at: "2026-11-01T10:00:00.000Z", by: dispute.hirer, afterFunding: false, changes: [{ field: "title", from: "Translate", to: "Translate a page" }] },
            { at: "2026-11-02T10:00:00.000Z", by: dispute.hirer, afterFunding: true, changes: [{ field: "description", from: "Into Spanish", to: "Into Spanish and Catalan" }] },
          ],
        },
      ],
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Disputes (1)" }));
    expect(await screen.findByText("Edited 2 times (1 after funding)")).toBeInTheDocument();
    expect(screen.getByText('"Into Spanish"').tagName).toBe("DEL");
    expect(screen.getByText('"Into Spanish and Catalan"').tagName).toBe("INS");
    expect(screen.getByText(/after funding$/)).toBeInTheDocument();
  });

  it("a failed stats fetch drops the token and returns to the PIN screen", async () => {
    panelApi({ "GET /api/admin/stats": () => apiError(500, "Database unavailable") });
    renderPanel();
    expect(await screen.findByRole("button", { name: "OK" })).toBeDisabled();
    expect(screen.getByTestId("pin-dots")).toBeInTheDocument();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(await findToast("Unauthorized")).toBeInTheDocument();
  });

  it.each([
    ["Gigs", "GET /api/admin/gigs"],
    ["Suggestions", "GET /api/admin/suggestions"],
  ])("a failed fetch on the %s tab does the same", async (tab, path) => {
    panelApi({ [path]: () => apiError(403, "Forbidden") });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: tab }));
    expect(await screen.findByRole("button", { name: "OK" })).toBeInTheDocument();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
  });

  it("Logout ends the session", async () => {
    const api = panelApi();
    const user = renderPanel();
    await user.click(await screen.findByRole("button", { name: /logout/i }));
    expect(await screen.findByRole("button", { name: "OK" })).toBeInTheDocument();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(api.callsTo("POST", "/api/admin/logout")[0]!.headers["x-admin-token"]).toBe("tok-admin");
  });

  it("filters gigs, deletes one after a confirmation and not without, truncates a dispute at 150 characters", async () => {
    const long = "x".repeat(200);
    const api = panelApi({
      "GET /api/admin/gigs": (call) => (call.query.get("status") === "disputed" ? [gig({ id: "d1", status: "disputed", disputeReason: long })] : [gig()]),
      "DELETE /api/admin/gigs/0a1b2c3d-gig": () => ({ success: true, id: "0a1b2c3d-gig", refund: { amount: 10_250 } }),
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Gigs" }));
    expect(await screen.findByRole("heading", { name: "Design a logo" })).toBeInTheDocument();

    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(screen.getByRole("button", { name: "Delete Design a logo" }));
    expect(api.callsTo("DELETE", "/api/admin/gigs/0a1b2c3d-gig")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Delete Design a logo" }));
    expect(confirm).toHaveBeenLastCalledWith(expect.stringContaining("refunded to the hirer in full"));
    expect(await findToast("Gig Deleted")).toBeInTheDocument();
    expect(api.callsTo("DELETE", "/api/admin/gigs/0a1b2c3d-gig")).toHaveLength(1);

    await user.selectOptions(screen.getByLabelText("Status"), "disputed");
    const reason = await screen.findByTestId("dispute-reason");
    expect(reason).toHaveTextContent(`Dispute: ${"x".repeat(150)}...`);
    expect(api.calls.some((c) => c.path === "/api/admin/gigs" && c.query.get("status") === "disputed")).toBe(true);
    await user.selectOptions(screen.getByLabelText("Type"), "service_offering");
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/admin/gigs" && c.query.get("type") === "service_offering")).toBe(true));
  });

  it("loads more gigs with the cursor the API gives", async () => {
    const api = panelApi({
      "GET /api/admin/gigs": (call) =>
        call.query.get("cursor") === "page-2"
          ? [gig({ id: "g2", title: "Older gig" })]
          : new Response(JSON.stringify([gig({ id: "g1", title: "Newer gig" })]), { headers: { "Content-Type": "application/json", "X-Next-Cursor": "page-2" } }),
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Gigs" }));
    expect(await screen.findByRole("heading", { name: "Newer gig" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("heading", { name: "Older gig" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Newer gig" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    expect(api.callsTo("GET", "/api/admin/gigs")).toHaveLength(2);
  });

  it("deletes the selected gigs in bulk after a confirmation", async () => {
    const api = panelApi({
      "GET /api/admin/gigs": () => [gig({ id: "g1", title: "First" }), gig({ id: "g2", title: "Second", escrowStatus: "pending" })],
      "DELETE /api/admin/gigs": () => ({ success: true, deleted: [{ id: "g1" }, { id: "g2" }], failed: [] }),
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Gigs" }));
    await user.click(await screen.findByRole("checkbox", { name: "Select First" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Second" }));
    vi.spyOn(window, "confirm").mockReturnValue(true);
    await user.click(screen.getByRole("button", { name: /Delete Selected \(2\)/ }));
    expect(await findToast("Gig Deleted")).toBeInTheDocument();
    expect(api.callsTo("DELETE", "/api/admin/gigs")[0]!.body).toEqual({ ids: ["g1", "g2"] });
  });

  it("reports: status select, notes from a prompt (cancelled sends nothing), links to the gig and the reporter", async () => {
    const report: AdminReport = {
      id: "r1",
      gigId: "g9",
      gig: { title: "Sketchy gig", status: "open", deleted: false },
      reporterId: "u7",
      reporter: { displayName: "Ria", username: "npub1ria" },
      reason: "scam",
      details: "Asks for seed words",
      status: "pending",
      adminNotes: null,
      createdAt: "2026-11-03T00:00:00.000Z",
    };
    const api = panelApi({
      "GET /api/gig-reports": () => [report],
      "PATCH /api/gig-reports/r1": (call) => ({ ...report, ...(call.body as object) }),
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Reports" }));
    expect(await screen.findByRole("link", { name: "Sketchy gig" })).toHaveAttribute("href", "/gig/g9");
    expect(screen.getByRole("link", { name: "Ria" })).toHaveAttribute("href", "/profile/u7");

    const prompt = vi.spyOn(window, "prompt").mockReturnValueOnce(null).mockReturnValueOnce("Warned the poster");
    await user.click(screen.getByRole("button", { name: "Add Notes" }));
    expect(api.callsTo("PATCH", "/api/gig-reports/r1")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Add Notes" }));
    expect(await findToast("Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/gig-reports/r1")[0]!.body).toEqual({ adminNotes: "Warned the poster" });
    expect(prompt).toHaveBeenCalledTimes(2);

    await user.selectOptions(screen.getByLabelText("Report status"), "under_review");
    await waitFor(() => expect(api.callsTo("PATCH", "/api/gig-reports/r1")[1]!.body).toEqual({ status: "under_review" }));
  });

  it("a failed report update says so", async () => {
    panelApi({
      "GET /api/gig-reports": () => [
        { id: "r2", gigId: "g", gig: null, reporterId: "u", reporter: { displayName: null, username: "npub1x" }, reason: "spam", details: null, status: "pending", adminNotes: null, createdAt: "2026-11-03T00:00:00.000Z" },
      ],
      "PATCH /api/gig-reports/r2": () => apiError(500, "Boom"),
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Reports" }));
    await user.selectOptions(await screen.findByLabelText("Report status"), "dismissed");
    expect(await findToast("Failed to update report")).toBeInTheDocument();
  });

  it("settles a dispute after a confirmation dialog that says where every sat goes; Cancel posts nothing", async () => {
    let open = [dispute];
    const api = panelApi({
      "GET /api/admin/disputes": () => open,
      "POST /api/admin/disputes/disputed-gig-1/resolve": (call) => {
        const body = call.body as { resolution: string };
        open = [];
        return { success: true, payouts: body.resolution === "split" ? { worker: 2_925, hirer: 6_825 } : { worker: 9_750, hirer: 0 } };
      },
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Disputes (1)" }));
    expect(await screen.findByText("Half of it is machine translated.")).toBeInTheDocument();

    // The two full outcomes first, each naming who gets what; Split the quieter outline button under them.
    const settle = screen.getByRole("region", { name: "Settle this dispute" });
    const payButton = within(settle).getByRole("button", { name: "Pay Worker" });
    const refundButton = within(settle).getByRole("button", { name: "Refund Hirer" });
    expect(payButton).toHaveAccessibleDescription("Wes gets 9,750 sats");
    expect(refundButton).toHaveAccessibleDescription("Hana gets 10,250 sats back");
    const splitButton = within(settle).getByRole("button", { name: "Split" });
    expect(splitButton.className).toContain("border-stone-300");
    expect(payButton.className).not.toContain("border-stone-300");
    expect(payButton.compareDocumentPosition(splitButton) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // Refund: the dialog lists the sats per party; Cancel closes it and posts nothing.
    await user.click(refundButton);
    let confirm = await screen.findByRole("alertdialog", { name: "Refund Hana?" });
    expect(confirm).toHaveTextContent("10,250 sats in escrow");
    expect(within(confirm).getByText("Hana (hirer)").nextSibling).toHaveTextContent("10,250 sats");
    expect(within(confirm).getByText("Wes (worker)").nextSibling).toHaveTextContent("0 sats");
    expect(within(confirm).getByText("Platform fees").nextSibling).toHaveTextContent("0 sats");
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());

    await user.click(screen.getByRole("button", { name: "Pay Worker" }));
    confirm = await screen.findByRole("alertdialog", { name: "Pay Wes?" });
    expect(within(confirm).getByText("Wes (worker)").nextSibling).toHaveTextContent("9,750 sats");
    expect(within(confirm).getByText("Platform fees").nextSibling).toHaveTextContent("500 sats");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(api.callsTo("POST", "/api/admin/disputes/disputed-gig-1/resolve")).toHaveLength(0);

    // Split 30 %: the preview, then the dialog with the same sats, then the post.
    const share = screen.getByLabelText("Worker's share (%)");
    await user.clear(share);
    await user.type(share, "101");
    expect(screen.getByRole("button", { name: "Split" })).toBeDisabled();
    await user.clear(share);
    await user.type(share, "30");
    expect(screen.getByText("Worker gets 2,925 sats, hirer gets 6,825 sats, platform keeps 500 sats.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Split" }));
    confirm = await screen.findByRole("alertdialog", { name: "Split 30% to Wes?" });
    expect(within(confirm).getByText("Wes (worker)").nextSibling).toHaveTextContent("2,925 sats");
    expect(within(confirm).getByText("Hana (hirer)").nextSibling).toHaveTextContent("6,825 sats");
    await user.click(within(confirm).getByRole("button", { name: "Split" }));
    expect(await findToast("Dispute Resolved")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/disputes/disputed-gig-1/resolve").map((c) => c.body)).toEqual([{ resolution: "split", workerSharePercent: 30 }]);

    // The list is read again (no open disputes now), but the settled one stays with its outcome, focused.
    await waitFor(() => expect(screen.getByRole("tab", { name: "Disputes (0)" })).toBeInTheDocument());
    const done = screen.getByRole("group", { name: "Translate a page" });
    expect(within(done).getByText(/Resolved: Split/)).toBeInTheDocument();
    expect(within(done).getByText("Wes (worker)").nextSibling).toHaveTextContent("2,925 sats");
    expect(within(done).getByText("Hana (hirer)").nextSibling).toHaveTextContent("6,825 sats");
    expect(within(done).getByText("Platform fees").nextSibling).toHaveTextContent("500 sats");
    await waitFor(() => expect(done).toHaveFocus());
    expect(screen.queryByRole("alertdialog")).toBeNull();

    // Until the admin dismisses it.
    await user.click(within(done).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("group", { name: "Translate a page" })).toBeNull();
    expect(screen.getByText("No open disputes.")).toBeInTheDocument();
  });

  it("shows a refused resolution in the confirmation dialog and keeps the dispute open", async () => {
    panelApi({ "POST /api/admin/disputes/disputed-gig-1/resolve": () => apiError(409, "This gig is no longer disputed") });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Disputes (1)" }));
    await user.click(await screen.findByRole("button", { name: "Refund Hirer" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Refund Hana?" });
    await user.click(within(confirm).getByRole("button", { name: "Refund Hirer" }));
    expect(await within(confirm).findByRole("alert")).toHaveTextContent("This gig is no longer disputed");
    expect(screen.queryByRole("group", { name: "Translate a page" })).toBeNull();
  });

  it("a tab row wider than the screen shows a fade and chevron at each edge with more tabs beyond it, and brings the chosen tab into view", async () => {
    // jsdom lays nothing out: give the row the sizes it has at 360 px.
    const sizes = { scrollWidth: 520, clientWidth: 328 } as const;
    const restore: Array<() => void> = [];
    for (const [prop, value] of Object.entries(sizes)) {
      // jsdom defines these on Element.prototype; a getter on HTMLElement.prototype shadows it until deleted.
      expect(Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop)).toBeUndefined();
      Object.defineProperty(HTMLElement.prototype, prop, {
        configurable: true,
        get(this: HTMLElement) {
          return this.getAttribute("role") === "tablist" ? value : 0;
        },
      });
      restore.push(() => delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop]);
    }
    try {
      panelApi();
      const user = renderPanel();
      const list = await screen.findByRole("tablist", { name: "Admin sections" });
      await waitFor(() => expect(screen.getByTestId("tabs-more-after")).toHaveAttribute("data-shown", "true"));
      expect(screen.getByTestId("tabs-more-before")).toHaveAttribute("data-shown", "false");
      expect(screen.getByTestId("tabs-more-after")).toHaveAttribute("aria-hidden", "true");

      // Scrolled to the end, the hint moves to the start.
      list.scrollLeft = 192;
      fireEvent.scroll(list);
      expect(screen.getByTestId("tabs-more-after")).toHaveAttribute("data-shown", "false");
      expect(screen.getByTestId("tabs-more-before")).toHaveAttribute("data-shown", "true");

      // Choosing a tab scrolls the row so that tab is fully in view, clear of the fade (32 px of room).
      const scrollTo = vi.fn();
      list.scrollTo = scrollTo as unknown as typeof list.scrollTo;
      const tabs = within(list).getAllByRole("tab");
      tabs.forEach((tab, i) => {
        Object.defineProperty(tab, "offsetLeft", { configurable: true, value: 4 + i * 104 });
        Object.defineProperty(tab, "offsetWidth", { configurable: true, value: 100 });
      });
      await user.click(screen.getByRole("tab", { name: "Gigs" }));
      expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ left: 108 - 32 }));
      list.scrollLeft = 0;
      await user.click(screen.getByRole("tab", { name: "Disputes (1)" }));
      expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ left: 420 + 100 + 32 - 328 }));
    } finally {
      for (const undo of restore) undo();
    }
  });

  it("opens a chat from the unread chats, shows the messages and sends with Enter (not Shift+Enter, not blank)", async () => {
    const messages = [
      { id: "m1", gigId: "disputed-gig-1", message: "@admin help please", senderType: "user", senderId: "h1", sender: { displayName: "Hana", username: "npub1hirer" }, createdAt: "2026-11-04T10:00:00.000Z" },
    ];
    const api = panelApi({
      "GET /api/admin/unread-chats": () => [{ gigId: "disputed-gig-1", gigTitle: "Translate a page", reason: "disputed", messageCount: 1, lastMessageTime: "2026-11-04T10:00:00.000Z" }],
      "GET /api/admin/chat/disputed-gig-1": () => messages,
      "POST /api/admin/chat/disputed-gig-1": (call) => {
        const m = { id: `m${messages.length + 1}`, gigId: "disputed-gig-1", message: (call.body as { message: string }).message, senderType: "admin", senderId: "ADMIN", sender: { displayName: "Platform Admin", username: "admin" }, createdAt: "2026-11-04T10:01:00.000Z" };
        messages.push(m);
        return m;
      },
    });
    const user = renderPanel();
    const bell = await screen.findByRole("button", { name: "Unread chats: 1" });
    expect(within(bell).getByTestId("unread-chats-badge")).toHaveTextContent("1");
    await user.click(bell);
    await user.click(await screen.findByRole("button", { name: /Translate a page/ }));

    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("@admin help please")).toBeInTheDocument();
    const box = within(dialog).getByLabelText("Message as admin");
    await user.type(box, "   {Enter}");
    expect(api.callsTo("POST", "/api/admin/chat/disputed-gig-1")).toHaveLength(0);
    await user.clear(box);
    await user.type(box, "Looking into it{Shift>}{Enter}{/Shift}now");
    expect(api.callsTo("POST", "/api/admin/chat/disputed-gig-1")).toHaveLength(0);
    await user.type(box, "{Enter}");
    expect(await findToast("Message Sent")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/chat/disputed-gig-1")[0]!.body).toEqual({ message: "Looking into it\nnow" });
    expect(box).toHaveValue("");
    expect(await within(dialog).findByText("Looking into it now", { normalizer: (t) => t.replace(/\s+/g, " ") })).toBeInTheDocument();
  });

  it("polls the open chat every 2 seconds and the unread chats every 5, without caching", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const api = panelApi({ "GET /api/admin/chat/disputed-gig-1": () => [] });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      sessionStorage.setItem(ADMIN_TOKEN_KEY, "tok-admin");
      renderWithApp(<AdminRoute />, { route: "/admin" });
      await user.click(await screen.findByRole("tab", { name: "Disputes (1)" }));
      await user.click(await screen.findByRole("button", { name: "Open Chat" }));
      await screen.findByText("No messages yet.");
      const chatCalls = () => api.callsTo("GET", "/api/admin/chat/disputed-gig-1").length;
      const unreadCalls = () => api.callsTo("GET", "/api/admin/unread-chats").length;
      const [chat0, unread0] = [chatCalls(), unreadCalls()];
      await vi.advanceTimersByTimeAsync(10_100);
      expect(chatCalls() - chat0).toBeGreaterThanOrEqual(4);
      expect(chatCalls() - chat0).toBeLessThanOrEqual(6);
      expect(unreadCalls() - unread0).toBeGreaterThanOrEqual(2);
      expect(unreadCalls() - unread0).toBeLessThanOrEqual(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a dispute on one milestone of a plan", () => {
  /** "Build a shop", milestone 2 of 3 (3,000 sats) disputed; milestone 3 (5,000 sats) already funded: 5,125 in its escrow. */
  const onMilestone = (over: Partial<NonNullable<Dispute["milestone"]>> = {}): Dispute => ({
    ...dispute,
    gigId: "plan-gig-1",
    title: "Build a shop",
    milestone: { number: 2, count: 3, title: "Shop pages", amount: 3_000, escrow: 3_075, laterFunded: 5_125, ...over },
    payment: 3_000,
    totalCharge: 3_075,
    workerPayout: 2_925,
    platformFee: 75,
  });

  it("names the milestone and its escrow, settles that milestone only, and the gig goes on to the next", async () => {
    let open = [onMilestone()];
    const api = panelApi({
      "GET /api/admin/disputes": () => open,
      "POST /api/admin/disputes/plan-gig-1/resolve": () => {
        open = [];
        return { success: true, status: "claimed", milestone: 2, payouts: { worker: 1_462, hirer: 1_463 }, platformFee: 150 };
      },
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Disputes (1)" }));
    expect(await screen.findByText("Milestone 2 of 3: Shop pages")).toBeInTheDocument();
    expect(screen.getByText(/3,000 sats · 3,075 sats in this milestone's escrow/)).toBeInTheDocument();
    expect(screen.getByText("Refund, pay and split apply to milestone 2 only. Later funded milestones hold 5,125 sats more.")).toBeInTheDocument();
    const settle = screen.getByRole("region", { name: "Settle this dispute" });
    expect(within(settle).getByRole("button", { name: "Pay Worker" })).toHaveAccessibleDescription("Wes gets 2,925 sats");
    expect(within(settle).getByRole("button", { name: "Refund Hirer" })).toHaveAccessibleDescription("Hana gets 3,075 sats back");

    // Split 50 %: the milestone's 3,000 − 75 = 2,925 divided; the gig goes on unless the admin ends it.
    await user.click(within(settle).getByRole("button", { name: "Split" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Split 50% to Wes?" });
    expect(confirm).toHaveAccessibleDescription(
      "Milestone 2 of 3, “Shop pages”, holds 3,075 sats in escrow. This settles milestone 2 only. The gig moves on to milestone 3 of 3. This cannot be undone.",
    );
    expect(within(confirm).getByText("Wes (worker)").nextSibling).toHaveTextContent("1,462 sats");
    expect(within(confirm).getByText("Hana (hirer)").nextSibling).toHaveTextContent("1,463 sats");
    expect(within(confirm).getByText("Platform fees").nextSibling).toHaveTextContent("150 sats");
    const end = within(confirm).getByRole("checkbox", { name: "End the gig here" });
    expect(end).not.toBeChecked();
    expect(end).toHaveAccessibleDescription("No work on milestone 3; funded ones are refunded to the hirer in full.");
    expect(within(confirm).queryByText(/later funded milestones/)).toBeNull();
    await user.click(within(confirm).getByRole("button", { name: "Split" }));

    expect(await findToast("Dispute Resolved")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/disputes/plan-gig-1/resolve").map((c) => c.body)).toEqual([{ resolution: "split", workerSharePercent: 50 }]);
    const done = await screen.findByRole("group", { name: "Build a shop" });
    expect(within(done).getByText("Milestone 2 of 3: Shop pages")).toBeInTheDocument();
    expect(within(done).getByRole("status")).toHaveTextContent("The gig moves on to milestone 3 of 3.");
    expect(within(done).getByText("Wes (worker)").nextSibling).toHaveTextContent("1,462 sats");
    expect(within(done).queryByText(/later funded milestones/)).toBeNull();
  });

  it("End the gig here sends endGig and says how many sats of later funded milestones go back to the hirer", async () => {
    let open = [onMilestone()];
    const api = panelApi({
      "GET /api/admin/disputes": () => open,
      "POST /api/admin/disputes/plan-gig-1/resolve": () => {
        open = [];
        return { success: true, status: "completed", milestone: 2, payouts: { worker: 0, hirer: 8_200 }, platformFee: 0 };
      },
    });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Disputes (1)" }));
    await user.click(await screen.findByRole("button", { name: "Refund Hirer" }));
    let confirm = await screen.findByRole("alertdialog", { name: "Refund Hana?" });
    await user.click(within(confirm).getByRole("checkbox", { name: "End the gig here" }));
    expect(confirm).toHaveAccessibleDescription(
      "Milestone 2 of 3, “Shop pages”, holds 3,075 sats in escrow. This settles milestone 2 only. The gig ends here. This cannot be undone.",
    );
    expect(within(confirm).getByText("Also back to Hana in full: 5,125 sats of later funded milestones.")).toBeInTheDocument();
    // Unticked, the gig goes on again; a dialog opened anew starts unticked.
    await user.click(within(confirm).getByRole("checkbox", { name: "End the gig here" }));
    expect(within(confirm).queryByText(/later funded milestones/)).toBeNull();
    expect(confirm).toHaveAccessibleDescription(expect.stringContaining("The gig moves on to milestone 3 of 3."));
    await user.click(within(confirm).getByRole("checkbox", { name: "End the gig here" }));
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Refund Hirer" }));
    confirm = await screen.findByRole("alertdialog", { name: "Refund Hana?" });
    expect(within(confirm).getByRole("checkbox", { name: "End the gig here" })).not.toBeChecked();

    await user.click(within(confirm).getByRole("checkbox", { name: "End the gig here" }));
    await user.click(within(confirm).getByRole("button", { name: "Refund Hirer" }));
    expect(await findToast("Dispute Resolved")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/disputes/plan-gig-1/resolve").map((c) => c.body)).toEqual([{ resolution: "refund_hirer", endGig: true }]);
    const done = await screen.findByRole("group", { name: "Build a shop" });
    expect(within(done).getByRole("status")).toHaveTextContent("The gig is completed.");
    expect(within(done).getByText("Hana (hirer)").nextSibling).toHaveTextContent("3,075 sats");
    expect(within(done).getByText("Also back to Hana in full: 5,125 sats of later funded milestones.")).toBeInTheDocument();
  });

  it("offers no End the gig here on the last milestone, nor on a gig without a plan, and names no milestone without one", async () => {
    const last = { ...onMilestone({ number: 3, title: "Checkout", amount: 5_000, escrow: 5_125, laterFunded: 0 }), payment: 5_000, totalCharge: 5_125 };
    panelApi({ "GET /api/admin/disputes": () => [last, dispute] });
    const user = renderPanel();
    await user.click(await screen.findByRole("tab", { name: "Disputes (2)" }));
    const [planCard, plainCard] = await screen.findAllByRole("listitem");
    expect(within(planCard!).getByText("Milestone 3 of 3: Checkout")).toBeInTheDocument();
    await user.click(within(planCard!).getByRole("button", { name: "Pay Worker" }));
    let confirm = await screen.findByRole("alertdialog", { name: "Pay Wes?" });
    expect(confirm).toHaveAccessibleDescription(expect.stringContaining("This settles milestone 3 only. The gig will be completed."));
    expect(within(confirm).queryByRole("checkbox")).toBeNull();
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());

    expect(within(plainCard!).queryByText(/Milestone/)).toBeNull();
    expect(within(plainCard!).getByText(/10,000 sats · 10,250 sats in escrow/)).toBeInTheDocument();
    await user.click(within(plainCard!).getByRole("button", { name: "Refund Hirer" }));
    confirm = await screen.findByRole("alertdialog", { name: "Refund Hana?" });
    expect(confirm).toHaveAccessibleDescription("“Translate a page” holds 10,250 sats in escrow. The gig will be cancelled. This cannot be undone.");
    expect(within(confirm).queryByRole("checkbox")).toBeNull();
  });
});
