import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { AliasCard } from "./alias-card";

const config = () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5 });

function renderAlias(overrides = {}) {
  const member = makeUser({ lightningAddress: "satoshi@getalby.com", ...overrides });
  renderWithApp(<AliasCard user={member} />, { user: member });
  return userEvent.setup();
}

describe("alias claim form", () => {
  it("lower-cases what is typed and drops characters outside a-z 0-9 . _ -", async () => {
    mockApi({ "GET /api/config": config, "GET /api/check-gigstr-alias": (c) => ({ alias: c.query.get("alias"), available: true }) });
    const user = renderAlias();
    const input = screen.getByLabelText("Choose your alias");
    await user.type(input, "Sat Oshi!_x.y-z#");
    expect(input).toHaveValue("satoshi_x.y-z");
  });

  it("does not check availability under 3 characters, and keeps the claim button disabled", async () => {
    const api = mockApi({ "GET /api/config": config, "GET /api/check-gigstr-alias": () => ({ alias: "ab", available: true }) });
    const user = renderAlias();
    await user.type(screen.getByLabelText("Choose your alias"), "ab");
    await new Promise((r) => setTimeout(r, 450));
    expect(api.callsTo("GET", "/api/check-gigstr-alias")).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Claim Alias" })).toBeDisabled();
  });

  it("says when an alias is available, and claiming sends it once", async () => {
    const api = mockApi({
      "GET /api/config": config,
      "GET /api/check-gigstr-alias": (c) => ({ alias: c.query.get("alias"), available: true }),
      "PATCH /api/user/me": () => makeUser(),
      "GET /api/user/me": () => makeUser({ gigstrAlias: "satoshi", lightningAddress: "satoshi@getalby.com" }),
    });
    const user = renderAlias();
    await user.type(screen.getByLabelText("Choose your alias"), "satoshi");
    expect(await screen.findByText(/satoshi@gigstr\.test is available/)).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/check-gigstr-alias").at(-1)!.query.get("alias")).toBe("satoshi");
    expect(screen.getByText(/can be set only once/)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Claim Alias" }));
    expect(await findToast("Settings Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me").map((c) => c.body)).toEqual([{ gigstrAlias: "satoshi" }]);
  });

  it("puts the forwarding address of the one-time warning on a line of its own, breaking after the @ first", () => {
    mockApi({ "GET /api/config": config });
    const long = "a-very-long-lightning-address-name-of-someone@walletofsatoshi.example.com";
    renderAlias({ lightningAddress: long });
    const warning = screen.getByRole("note");
    expect(warning).toHaveTextContent(/can be set only once and cannot be changed later\. It will forward to:/);
    // The address is its own block below the words (not a flex column beside the icon), and may wrap anywhere.
    const address = within(warning).getByText(long);
    expect(address.tagName).toBe("P");
    expect(address.parentElement).toBe(warning);
    expect(address.className).toContain("[overflow-wrap:anywhere]");
    expect(address.querySelector("wbr")).not.toBeNull();
    expect(screen.getByLabelText("Choose your alias")).toHaveAccessibleDescription(expect.stringContaining(long));
  });

  it("says when an alias is taken and does not let it be claimed", async () => {
    mockApi({ "GET /api/config": config, "GET /api/check-gigstr-alias": (c) => ({ alias: c.query.get("alias"), available: false }) });
    const user = renderAlias();
    await user.type(screen.getByLabelText("Choose your alias"), "bitcoin");
    expect(await screen.findByText(/bitcoin@gigstr\.test is already taken/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Claim Alias" })).toBeDisabled();
  });

  it("logs a failed check and treats availability as unknown", async () => {
    mockApi({ "GET /api/config": config, "GET /api/check-gigstr-alias": () => apiError(500, "boom") });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const user = renderAlias();
    await user.type(screen.getByLabelText("Choose your alias"), "satoshi");
    await waitFor(() => expect(errors).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByText(/Checking availability/)).not.toBeInTheDocument());
    expect(screen.queryByText(/is available/)).not.toBeInTheDocument();
    expect(screen.queryByText(/already taken/)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Claim Alias" })).toBeDisabled();
  });

  it("shows a claimed alias as permanently configured, with what it forwards to", () => {
    mockApi({ "GET /api/config": config });
    renderAlias({ gigstrAlias: "satoshi", gigstrAliasAddress: "satoshi@gigstr.app" });
    expect(screen.getByText("satoshi@gigstr.app")).toBeInTheDocument();
    expect(screen.getByText("satoshi@getalby.com")).toBeInTheDocument();
    expect(screen.getByText("Permanently configured")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy alias address" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Choose your alias")).not.toBeInTheDocument();
  });
});
