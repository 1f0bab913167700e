// A payee's failed payouts on the Active screen: the reason and what to do, Update address, Retry now.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { MyPayoutView } from "../../../../domain/payout-views";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { FailedPayouts } from "./failed-payouts";

const failed = (over: Partial<MyPayoutView> = {}): MyPayoutView => ({
  id: "p1",
  gigId: "g1",
  gigTitle: "Design a logo",
  amount: 9_750,
  status: "failed",
  message: "Your payout of 9,750 sats failed: The provider did not answer. Update your Lightning address and retry.",
  lastError: "The provider did not answer",
  destination: "old@wallet.test",
  nextAttemptAt: null,
  updatedAt: null,
  ...over,
});

describe("failed payouts on the Active screen", () => {
  it("says what failed and what to do, and retries on Retry now", async () => {
    let list = [failed()];
    const api = mockApi({
      "GET /api/user/payouts": () => list,
      "POST /api/user/payouts/p1/retry": () => {
        list = [];
        return { id: "p1", status: "succeeded", lastError: null };
      },
    });
    const user = userEvent.setup();
    renderWithApp(<FailedPayouts />, { user: makeUser() });
    expect(await screen.findByText("A payout to you failed")).toBeInTheDocument();
    expect(screen.getByText(/Your payout of 9,750 sats failed: The provider did not answer\. Update your Lightning address and retry\./)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Update address" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Retry now" }));
    expect(await findToast("Payout Sent")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/user/payouts/p1/retry")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText("A payout to you failed")).not.toBeInTheDocument());
  });

  it("shows nothing when no payout failed", async () => {
    const api = mockApi({ "GET /api/user/payouts": () => [] });
    renderWithApp(<FailedPayouts />, { user: makeUser() });
    await waitFor(() => expect(api.callsTo("GET", "/api/user/payouts")).toHaveLength(1));
    expect(screen.queryByRole("heading", { name: /failed/ })).not.toBeInTheDocument();
  });

  it("Update address opens the settings dialog", async () => {
    mockApi({ "GET /api/user/payouts": () => [failed()], "GET /api/auth/sessions": () => [] });
    const user = userEvent.setup();
    renderWithApp(<FailedPayouts />, { user: makeUser() });
    await user.click(await screen.findByRole("button", { name: "Update address" }));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
  });
});
