import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { makeGig } from "../gigs/gig-factories";
import { gigKeys } from "../gigs/use-gigs";
import { PAID_CLOSE_DELAY_MS, PAYMENT_POLL_MS, PaymentModal } from "./payment-modal";

const INVOICE = "lnbcrt102500n1pj9x7devinvoiceqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq";
const payment = { gigId: "gig-pay-1", paymentRequest: INVOICE, payment: 10_000, totalCharge: 10_250 };

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
  renderWithApp(<PaymentModal payment={payment} open onOpenChange={onOpenChange} onPaid={onPaid} />, { user: makeUser() });
  return { api, onPaid, onOpenChange };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("escrow payment modal", () => {
  it("shows the invoice as a locally drawn QR code, a wallet link, the amounts, and asks for payment", async () => {
    renderModal();
    expect(await screen.findByRole("dialog", { name: /Fund Escrow/ })).toBeInTheDocument();
    expect(await findToast("Payment Required")).toBeInTheDocument();
    const qr = await screen.findByRole("link", { name: /QR code/ }, { timeout: 5000 });
    await waitFor(() => expect(qr.querySelector("img")?.getAttribute("src")).toMatch(/^data:image\/png;base64,/));
    expect(qr).toHaveAttribute("href", `lightning:${INVOICE}`);
    expect(screen.getByRole("link", { name: "Open in Wallet" })).toHaveAttribute("href", `lightning:${INVOICE}`);
    expect(screen.getByText("10,000 sats")).toBeInTheDocument();
    expect(screen.getByText("250 sats")).toBeInTheDocument();
    expect(screen.getByText("10,250 sats")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy Invoice" })).toBeInTheDocument();
    // No dev wallet outside the dev backend.
    expect(screen.queryByRole("button", { name: "Pay with dev wallet" })).not.toBeInTheDocument();
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
        <PaymentModal payment={payment} open onOpenChange={() => {}} onPaid={() => {}} />
      </SeedStaleGig>,
      { user: makeUser() },
    );
    expect(await screen.findByText("Waiting for payment...")).toBeInTheDocument();
    expect(screen.queryByText("This invoice can no longer be paid")).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/gig-pay-1")).toHaveLength(1));
    expect(screen.getByText("Waiting for payment...")).toBeInTheDocument();
  });

  it("says when the invoice can no longer be paid, and stops asking", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({
      "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "lnbits", platformFeePercent: 2.5 }),
      "GET /api/gigs/gig-pay-1": () => makeGig({ id: "gig-pay-1", status: "cancelled", escrowStatus: "pending" }),
    });
    renderWithApp(<PaymentModal payment={payment} open onOpenChange={() => {}} onPaid={() => {}} />, { user: makeUser() });
    expect(await screen.findByText("This invoice can no longer be paid")).toBeInTheDocument();
    const polls = api.callsTo("GET", "/api/gigs/gig-pay-1").length;
    await act(() => vi.advanceTimersByTimeAsync(5 * PAYMENT_POLL_MS));
    expect(api.callsTo("GET", "/api/gigs/gig-pay-1")).toHaveLength(polls);
  });

  it("pays with the dev wallet when the dev backend runs", async () => {
    const { api } = renderModal("dev", 99);
    const pay = await screen.findByRole("button", { name: "Pay with dev wallet" });
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
});
