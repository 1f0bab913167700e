import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp, toastRegion } from "../../test/render";
import { makeGig } from "../gigs/gig-factories";
import { GigDialogsProvider } from "../gigs/gig-dialogs";
import { gigKeys } from "../gigs/use-gigs";
import { PHONE_QUERY } from "../../lib/phone";
import { formatTimeLeft, invoiceExpiresAt, PAID_CLOSE_DELAY_MS, PAYMENT_POLL_MS, PaymentModal } from "./payment-modal";

const INVOICE = "lnbcrt102500n1pj9x7devinvoiceqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq";
const payment = { gigId: "gig-pay-1", paymentRequest: INVOICE, payment: 10_000, totalCharge: 10_250 };

/** BOLT11's own example invoice (a cup of coffee): issued at 1496314658 s, expiring 60 s later. */
const REAL_INVOICE =
  "lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh";
const REAL_INVOICE_ISSUED_MS = 1_496_314_658_000;

/** The screen this test runs on: a phone (the wallet is likely here) or a desktop, as the media queries say. */
function onScreen(kind: "phone" | "desktop") {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: kind === "phone" && query === PHONE_QUERY,
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

function renderModal(backend = "lnbits", fundedAfterPolls = 2, devWallet = backend === "dev") {
  let polls = 0;
  const api = mockApi({
    "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: backend, devWallet, platformFeePercent: 2.5 }),
    "GET /api/gigs/gig-pay-1": () => {
      polls += 1;
      const funded = polls >= fundedAfterPolls;
      return makeGig({ id: "gig-pay-1", status: funded ? "open" : "pending_payment", escrowStatus: funded ? "funded" : "pending" });
    },
    "POST /api/dev/invoices/pay": () => {
      fundedAfterPolls = polls + 1;
      return { paid: true };
    },
  });
  const onPaid = vi.fn();
  const onOpenChange = vi.fn();
  renderWithApp(
    <GigDialogsProvider>
      <PaymentModal payment={payment} open onOpenChange={onOpenChange} onPaid={onPaid} />
    </GigDialogsProvider>,
    { user: makeUser() },
  );
  return { api, onPaid, onOpenChange };
}

/** True when `a` comes before `b` in the document (the order a screen reader and the Tab key follow). */
const before = (a: Element, b: Element) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

afterEach(() => {
  vi.useRealTimers();
});

describe("escrow payment modal", () => {
  it("on a desktop shows the amount, then the locally drawn QR code, then the wallet link and Copy", async () => {
    onScreen("desktop");
    renderModal();
    const dialog = await screen.findByRole("dialog", { name: /Fund Escrow/ });
    const qr = await screen.findByRole("link", { name: /QR code/ });
    await waitFor(() => expect(qr.querySelector("img")?.getAttribute("src")).toMatch(/^data:image\/png;base64,/));
    expect(qr).toHaveAttribute("href", `lightning:${INVOICE}`);
    const wallet = screen.getByRole("link", { name: "Open in Wallet" });
    expect(wallet).toHaveAttribute("href", `lightning:${INVOICE}`);
    expect(within(dialog).getByText("You pay")).toBeInTheDocument();
    expect(screen.getByText("10,000 sats")).toBeInTheDocument();
    expect(screen.getByText("250 sats")).toBeInTheDocument();
    const total = screen.getByText("10,250 sats");
    expect(before(total, qr) && before(qr, wallet)).toBe(true);
    expect(screen.getByRole("heading", { name: "Scan with the Lightning wallet on your phone" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy Invoice" })).toBeInTheDocument();
    // No dev wallet outside the dev backend.
    expect(screen.queryByRole("button", { name: "Pay with dev wallet" })).not.toBeInTheDocument();
  });

  it("on a phone puts the amount, then Open in Wallet and Copy, then the QR code under Pay from another device", async () => {
    onScreen("phone");
    renderModal();
    const dialog = await screen.findByRole("dialog", { name: /Fund Escrow/ });
    const total = within(dialog).getByText("10,250 sats");
    const wallet = within(dialog).getByRole("link", { name: "Open in Wallet" });
    const copy = within(dialog).getByRole("button", { name: "Copy Invoice" });
    const other = within(dialog).getByText("Pay from another device");
    const disclosure = other.closest("details")!;
    expect(disclosure).not.toBeNull();
    expect(disclosure.open).toBe(false);
    const qr = within(disclosure).getByRole("link", { name: /QR code/, hidden: true });
    expect(before(total, wallet) && before(wallet, copy) && before(copy, other) && before(other, qr)).toBe(true);
    // Nothing but the amount comes before the wallet: the QR code is not in the dialog twice.
    expect(within(dialog).getAllByRole("link", { name: /QR code/, hidden: true })).toHaveLength(1);
    expect(wallet).toHaveAttribute("href", `lightning:${INVOICE}`);

    await userEvent.setup().click(other);
    expect(disclosure.open).toBe(true);
  });

  it("does not show its own Payment Required toast while open; closing it while the invoice waits does", async () => {
    const { onOpenChange } = renderModal("lnbits", 99);
    const dialog = await screen.findByRole("dialog", { name: /Fund Escrow/ });
    expect(await within(dialog).findByText("Waiting for payment...")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("link", { name: /QR code/ }).querySelector("img")).not.toBeNull());
    expect(toastRegion().queryByText("Payment Required")).not.toBeInTheDocument();

    await userEvent.setup().click(within(dialog).getByRole("button", { name: "Close" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(await findToast("Payment Required")).toBeInTheDocument();
    expect(await findToast(/Pay 10,250 sats to fund the escrow/)).toBeInTheDocument();
  });

  it("counts the invoice's own time down, and shows it expired at zero", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: REAL_INVOICE_ISSUED_MS + 200 });
    const poster = makeUser({ lightningAddress: "me@wallet.test" });
    mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", devWallet: true, platformFeePercent: 2.5 }),
      "GET /api/gigs/gig-pay-1": () => makeGig({ id: "gig-pay-1", status: "pending_payment", escrowStatus: "pending", posterId: poster.id }),
    });
    renderWithApp(
      <GigDialogsProvider>
        <PaymentModal payment={{ ...payment, paymentRequest: REAL_INVOICE }} open onOpenChange={() => {}} onPaid={() => {}} />
      </GigDialogsProvider>,
      { user: poster },
    );
    const timer = await screen.findByRole("timer");
    expect(timer).toHaveTextContent("Expires in 1:00");
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole("timer")).toHaveTextContent("Expires in 0:59");
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(screen.getByRole("timer")).toHaveTextContent("Expires in 0:29");

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await screen.findByText("This invoice can no longer be paid")).toBeInTheDocument();
    expect(screen.getByText("Its time ran out. Nothing was charged.")).toBeInTheDocument();
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Open in Wallet" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Pay with dev wallet" })).not.toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Post again" })).toBeEnabled();
  });

  it("says the time ran out when the server cancelled the gig after the invoice's expiry", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: REAL_INVOICE_ISSUED_MS + 61_000 });
    mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
      "GET /api/gigs/gig-pay-1": () => makeGig({ id: "gig-pay-1", status: "cancelled", escrowStatus: "pending" }),
    });
    renderWithApp(
      <GigDialogsProvider>
        <PaymentModal payment={{ ...payment, paymentRequest: REAL_INVOICE }} open onOpenChange={() => {}} onPaid={() => {}} />
      </GigDialogsProvider>,
      { user: makeUser() },
    );
    expect(await screen.findByText("This invoice can no longer be paid")).toBeInTheDocument();
    expect(screen.getByText("Its time ran out. Nothing was charged.")).toBeInTheDocument();
  });

  it("polls the gig every 2 s, shows it paid, then hands over to the details 2 s later", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, onPaid } = renderModal("lnbits", 3);
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/gig-pay-1")).toHaveLength(1));
    expect(screen.getByText("Waiting for payment...")).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS));
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/gig-pay-1")).toHaveLength(2));
    expect(screen.queryByText("Payment Received!", { selector: "p" })).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS));
    expect(await screen.findByText("Payment Received!", { selector: "p" })).toBeInTheDocument();
    expect(await findToast("Payment Received!")).toBeInTheDocument();
    expect(onPaid).not.toHaveBeenCalled();

    await act(() => vi.advanceTimersByTimeAsync(PAID_CLOSE_DELAY_MS));
    expect(onPaid).toHaveBeenCalledOnce();
  });

  it("does not judge the invoice by the gig as the cache remembered it (a service offering just hired)", async () => {
    const api = mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
      "GET /api/gigs/gig-pay-1": () => makeGig({ id: "gig-pay-1", status: "pending_payment", escrowStatus: "pending" }),
    });
    function SeedStaleGig({ children }: { children: ReactNode }) {
      const queryClient = useQueryClient();
      useState(() => queryClient.setQueryData(gigKeys.detail("gig-pay-1"), makeGig({ id: "gig-pay-1", status: "open", escrowStatus: "pending" })));
      return children;
    }
    renderWithApp(
      <SeedStaleGig>
        <GigDialogsProvider>
          <PaymentModal payment={payment} open onOpenChange={() => {}} onPaid={() => {}} />
        </GigDialogsProvider>
      </SeedStaleGig>,
      { user: makeUser() },
    );
    expect(await screen.findByText("Waiting for payment...")).toBeInTheDocument();
    expect(screen.queryByText("This invoice can no longer be paid")).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/gig-pay-1")).toHaveLength(1));
    expect(screen.getByText("Waiting for payment...")).toBeInTheDocument();
  });

  it("says when the invoice can no longer be paid, stops asking, and offers its hirer Post again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const hirer = makeUser({ lightningAddress: "me@wallet.test" });
    const api = mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
      "GET /api/gigs/gig-pay-1": () => makeGig({ id: "gig-pay-1", status: "cancelled", escrowStatus: "pending", posterId: hirer.id }),
    });
    const onOpenChange = vi.fn();
    renderWithApp(
      <GigDialogsProvider>
        <PaymentModal payment={payment} open onOpenChange={onOpenChange} onPaid={() => {}} />
      </GigDialogsProvider>,
      { user: hirer },
    );
    expect(await screen.findByText("This invoice can no longer be paid")).toBeInTheDocument();
    expect(screen.getByText("It expired or the gig changed. Nothing was charged.")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Post again" })).toBeInTheDocument();
    const polls = api.callsTo("GET", "/api/gigs/gig-pay-1").length;
    await act(() => vi.advanceTimersByTimeAsync(5 * PAYMENT_POLL_MS));
    expect(api.callsTo("GET", "/api/gigs/gig-pay-1")).toHaveLength(polls);

    // Closed now, the dialog does not ask for a payment that can no longer be made.
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole("button", { name: "Close" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(toastRegion().queryByText("Payment Required")).not.toBeInTheDocument();
  });

  it("offers the dev wallet, quietly and last, when the dev backend runs, and pays with it", async () => {
    const { api } = renderModal("dev", 99);
    const pay = await screen.findByRole("button", { name: "Pay with dev wallet" });
    expect(before(screen.getByRole("button", { name: "Copy Invoice" }), pay)).toBe(true);
    expect(pay.className).not.toMatch(/bg-brand-500|bg-stone-900/);
    expect(screen.getByText(/Test only: this local run's simulated wallet pays/)).toBeInTheDocument();
    await userEvent.setup().click(pay);
    expect(api.callsTo("POST", "/api/dev/invoices/pay")[0]!.body).toEqual({ paymentRequest: INVOICE });
    expect(await screen.findByText("Payment Received!", { selector: "p" })).toBeInTheDocument();
  });

  it("offers the dev wallet on a local nwc run too (its local wallet pays)", async () => {
    const { api } = renderModal("nwc", 99, true);
    await userEvent.setup().click(await screen.findByRole("button", { name: "Pay with dev wallet" }));
    expect(api.callsTo("POST", "/api/dev/invoices/pay")).toHaveLength(1);
    expect(await screen.findByText("Payment Received!", { selector: "p" })).toBeInTheDocument();
  });

  it("has no dev wallet when the config says there is none, even on the dev backend's name", async () => {
    renderModal("dev", 99, false);
    expect(await screen.findByText("Waiting for payment...")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("link", { name: "Open in Wallet" })).toBeInTheDocument());
    expect(screen.queryByRole("button", { name: "Pay with dev wallet" })).not.toBeInTheDocument();
  });
});

describe("invoice expiry", () => {
  it("reads the expiry from the BOLT11 invoice, and nothing from what is not one", () => {
    expect(invoiceExpiresAt(REAL_INVOICE)).toBe(REAL_INVOICE_ISSUED_MS + 60_000);
    expect(invoiceExpiresAt(`lightning:${REAL_INVOICE}`)).toBe(REAL_INVOICE_ISSUED_MS + 60_000);
    expect(invoiceExpiresAt(INVOICE)).toBeNull();
  });

  it("shows the time left as a clock", () => {
    expect(formatTimeLeft(581_000)).toBe("9:41");
    expect(formatTimeLeft(3_600_000)).toBe("1:00:00");
    expect(formatTimeLeft(59_001)).toBe("1:00");
    expect(formatTimeLeft(-5_000)).toBe("0:00");
  });
});
