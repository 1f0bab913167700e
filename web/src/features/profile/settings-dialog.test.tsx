// The settings dialog's switch "Send my notifications as Nostr DMs" (docs/decisions/026): off by default, saved
// with the dialog's Save through PATCH /api/user/me, and shown as the member last saved it.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { OwnUser } from "../../../../domain/profile";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { NOSTR_DMS_HINT, NOSTR_DMS_LABEL, SettingsDialog } from "./settings-dialog";

function renderSettings(user: OwnUser) {
  renderWithApp(<SettingsDialog user={user} open onOpenChange={() => {}} />, { user });
  return within(screen.getByRole("dialog", { name: "Profile and Settings" }));
}

describe("Send my notifications as Nostr DMs", () => {
  it("is a labelled checkbox, off by default, that says what it does", () => {
    mockApi({});
    const dialog = renderSettings(makeUser());
    const toggle = dialog.getByRole("checkbox", { name: NOSTR_DMS_LABEL });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(NOSTR_DMS_HINT);
    expect(NOSTR_DMS_HINT).toBe("Each notification also arrives as a private Nostr message from Gigstr, readable only by you.");
  });

  it("turned on and saved, is sent with the other settings", async () => {
    const user = makeUser({ displayName: "Ada", lightningAddress: "ada@getalby.com" });
    const api = mockApi({ "PATCH /api/user/me": () => ({ ...user, nostrDmNotifications: true }), "GET /api/user/me": () => ({ ...user, nostrDmNotifications: true }) });
    const dialog = renderSettings(user);

    await userEvent.click(dialog.getByLabelText(NOSTR_DMS_LABEL));
    expect(dialog.getByRole("checkbox", { name: NOSTR_DMS_LABEL })).toBeChecked();
    expect(api.callsTo("PATCH", "/api/user/me")).toEqual([]); // nothing before Save

    await userEvent.click(dialog.getByRole("button", { name: "Save" }));
    expect(await findToast("Settings Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me").map((c) => c.body)).toEqual([
      { displayName: "Ada", lightningAddress: "ada@getalby.com", nostrDmNotifications: true },
    ]);
  });

  it("shows a member who turned it on that it is on, and turning it off is saved as off", async () => {
    const user = makeUser({ lightningAddress: "ada@getalby.com", nostrDmNotifications: true });
    const api = mockApi({ "PATCH /api/user/me": () => ({ ...user, nostrDmNotifications: false }), "GET /api/user/me": () => ({ ...user, nostrDmNotifications: false }) });
    const dialog = renderSettings(user);
    const toggle = dialog.getByRole("checkbox", { name: NOSTR_DMS_LABEL });
    expect(toggle).toBeChecked();

    toggle.focus();
    await userEvent.keyboard(" ");
    expect(toggle).not.toBeChecked();
    await userEvent.click(dialog.getByRole("button", { name: "Save" }));
    expect(await findToast("Settings Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me").at(-1)!.body).toMatchObject({ nostrDmNotifications: false });
  });

  it("a failed save says so", async () => {
    mockApi({ "PATCH /api/user/me": () => apiError(500, "Internal error") });
    const dialog = renderSettings(makeUser());
    await userEvent.click(dialog.getByLabelText(NOSTR_DMS_LABEL));
    await userEvent.click(dialog.getByRole("button", { name: "Save" }));
    expect(await findToast("Failed to Update Settings")).toBeInTheDocument();
  });
});
