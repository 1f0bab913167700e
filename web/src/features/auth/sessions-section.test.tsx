// The sessions list in the settings dialog: which devices are logged in, ending one, ending all.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { SessionView } from "../../../../domain/session";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { SettingsDialog } from "../profile/settings-dialog";
import { useAuth } from "./auth-context";

const HOUR = 3_600_000;
const sessions = (): SessionView[] => [
  { id: "s-this", client: "Chrome on Linux", createdAt: new Date(Date.now() - 48 * HOUR).toISOString(), lastUsedAt: new Date().toISOString(), current: true },
  { id: "s-phone", client: "Firefox on Android", createdAt: new Date(Date.now() - 72 * HOUR).toISOString(), lastUsedAt: new Date(Date.now() - 3 * HOUR).toISOString(), current: false },
];

function SignedInProbe() {
  const { isAuthenticated } = useAuth();
  return <p>{isAuthenticated ? "signed in" : "signed out"}</p>;
}

function renderSettings() {
  const user = makeUser();
  return renderWithApp(
    <>
      <SettingsDialog user={user} open onOpenChange={() => {}} />
      <SignedInProbe />
    </>,
    { user },
  );
}

describe("Where you're logged in", () => {
  it("lists each session with its device and last use, marking this one", async () => {
    mockApi({ "GET /api/auth/sessions": sessions });
    renderSettings();
    const list = await screen.findByRole("list", { name: "Your sessions" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText("This device")).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole("button", { name: /Log out/ })).toBeNull();
    expect(within(rows[1]!).getByText("Firefox on Android")).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/last used 3 hours ago/)).toBeInTheDocument();
  });

  it("logs out another device and shows the list without it", async () => {
    let list = sessions();
    const api = mockApi({
      "GET /api/auth/sessions": () => list,
      "DELETE /api/auth/sessions/s-phone": () => {
        list = list.filter((s) => s.id !== "s-phone");
        return { success: true };
      },
    });
    renderSettings();
    await userEvent.click(await screen.findByRole("button", { name: /^Log out Firefox on Android/ }));
    await waitFor(() => expect(screen.queryByText("Firefox on Android")).toBeNull());
    expect(api.callsTo("DELETE", "/api/auth/sessions/s-phone")).toHaveLength(1);
    expect(screen.getByText("signed in")).toBeInTheDocument();
  });

  it("offers Log out everywhere as a quiet outline button after the list, not the page's loudest control", async () => {
    mockApi({ "GET /api/auth/sessions": sessions });
    renderSettings();
    const list = await screen.findByRole("list", { name: "Your sessions" });
    const everywhere = screen.getByRole("button", { name: "Log out everywhere" });
    expect(everywhere.className).toContain("border-stone-300");
    expect(everywhere.className).not.toMatch(/bg-red-|bg-stone-900|bg-brand-500/);
    expect(list.compareDocumentPosition(everywhere) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole("region", { name: "Where you're logged in" })).not.toHaveTextContent(/sign(ed|ing)? (in|out)/i);
  });

  it("logs out everywhere: the server ends all sessions, then this tab is logged out", async () => {
    const api = mockApi({ "GET /api/auth/sessions": sessions, "POST /api/auth/logout-all": () => ({ success: true, ended: 2 }) });
    renderSettings();
    await userEvent.click(await screen.findByRole("button", { name: "Log out everywhere" }));
    expect(await findToast("Logged out everywhere")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/auth/logout-all")).toHaveLength(1);
    expect(screen.getByText("signed out")).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });

  it("stays logged in and says so when logging out everywhere fails", async () => {
    mockApi({ "GET /api/auth/sessions": sessions, "POST /api/auth/logout-all": () => apiError(503, "Service unavailable") });
    renderSettings();
    await userEvent.click(await screen.findByRole("button", { name: "Log out everywhere" }));
    expect(await findToast("Could not log out")).toBeInTheDocument();
    expect(screen.getByText("signed in")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Log out everywhere" })).toBeEnabled();
  });
});
