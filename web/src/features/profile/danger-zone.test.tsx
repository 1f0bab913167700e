import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { DangerZone } from "./danger-zone";

function renderDangerZone() {
  const onDeleted = vi.fn();
  renderWithApp(<DangerZone onDeleted={onDeleted} />, { user: makeUser() });
  return { onDeleted, user: userEvent.setup() };
}

describe("Terminate Account", () => {
  it("needs two confirmations, then deletes the account, drops the token and leaves", async () => {
    const api = mockApi({ "DELETE /api/user/me": () => ({ success: true }) });
    const { user, onDeleted } = renderDangerZone();

    await user.click(screen.getByRole("button", { name: "Terminate Account" }));
    expect(screen.getByRole("alertdialog", { name: "Are you absolutely sure?" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByRole("alertdialog", { name: "Final Confirmation" })).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Yes, Delete Forever" }));
    expect(await findToast("Account Terminated")).toBeInTheDocument();
    expect(await findToast("Your account has been permanently deleted.")).toBeInTheDocument();
    expect(api.callsTo("DELETE", "/api/user/me")).toHaveLength(1);
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(onDeleted).toHaveBeenCalledOnce();
  });

  it("can be called off at either step", async () => {
    const api = mockApi({});
    const { user } = renderDangerZone();
    await user.click(screen.getByRole("button", { name: "Terminate Account" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Terminate Account" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await user.click(screen.getByRole("button", { name: "No, Keep My Account" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("explains that gigs with active escrow block deletion", async () => {
    mockApi({ "DELETE /api/user/me": () => apiError(409, "Cannot delete an account with active escrow", "active_escrow") });
    const { user, onDeleted } = renderDangerZone();
    await user.click(screen.getByRole("button", { name: "Terminate Account" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await user.click(screen.getByRole("button", { name: "Yes, Delete Forever" }));
    expect(await findToast("Cannot Delete Account")).toBeInTheDocument();
    expect(
      await findToast("You have active gigs with escrow in progress. Please complete or cancel all active gigs before deleting your account."),
    ).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("test-session-token");
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
