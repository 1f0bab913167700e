// The Nostr profile actions inside the profile and settings dialog: a refresh shows up in the dialog's fields,
// so a following Save does not write the old values back.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { SettingsDialog } from "../profile/settings-dialog";
import { fetchLatestProfileEvent } from "./relays";

vi.mock("./relays", () => ({
  PROFILE_METADATA_KIND: 0,
  RELAYS_UNREACHABLE: "Could not reach any Nostr relay. Please try again.",
  fetchLatestProfileEvent: vi.fn(),
  publishEvent: vi.fn(),
}));

describe("Nostr profile in the settings dialog", () => {
  it("fills the dialog's fields with what Refresh from Nostr brought in", async () => {
    const key = generateSecretKey();
    const user = makeUser({ nostrPubkey: getPublicKey(key), displayName: "Old name", lightningAddress: null });
    const refreshed = { ...user, displayName: "Ada L.", lightningAddress: "ada@getalby.com" };
    const api = mockApi({ "PATCH /api/user/me": () => refreshed, "GET /api/user/me": () => refreshed });
    vi.mocked(fetchLatestProfileEvent).mockResolvedValue(
      finalizeEvent(
        { kind: 0, created_at: Math.floor(Date.now() / 1000), tags: [], content: JSON.stringify({ display_name: "Ada L.", lud16: "ada@getalby.com" }) },
        key,
      ),
    );
    renderWithApp(<SettingsDialog user={user} open onOpenChange={() => {}} />, { user });
    const dialog = screen.getByRole("dialog", { name: "Profile and Settings" });

    await userEvent.click(within(dialog).getByRole("button", { name: "Refresh from Nostr" }));

    expect(await findToast("Profile Refreshed!")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")[0]!.body).toEqual({ displayName: "Ada L.", lightningAddress: "ada@getalby.com" });
    expect(within(dialog).getByLabelText("Display Name")).toHaveValue("Ada L.");
    expect(within(dialog).getByLabelText("Lightning Address")).toHaveValue("ada@getalby.com");
  });
});
