import { useQuery } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { apiJson } from "../../lib/api";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { OwnProfile } from "./own-profile";

function renderEditing(overrides = {}) {
  const member = makeUser({ displayName: "Satoshi", bio: "Builder", lightningAddress: null, ...overrides });
  renderWithApp(<OwnProfile user={member} />, { user: member });
  const user = userEvent.setup();
  return { member, user };
}

async function startEditing(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("button", { name: "Edit Profile" }));
}

describe("profile edit form", () => {
  it("has the spec's cards and fields, with the picture as a URL input", async () => {
    mockApi({});
    const { user } = renderEditing();
    await startEditing(user);
    expect(screen.getByRole("heading", { name: "Profile Information" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Payment Settings" })).toBeInTheDocument();
    expect(screen.getByLabelText("Display Name")).toHaveValue("Satoshi");
    expect(screen.getByLabelText("Profile Picture URL")).toHaveAttribute("type", "url");
    expect(screen.getByLabelText("Bio")).toHaveValue("Builder");
    expect(screen.getByLabelText("NIP-05 Identifier")).toBeInTheDocument();
    expect(screen.getByLabelText("Lightning Address for Payouts")).toBeInTheDocument();
  });

  it("refuses an invalid Lightning address with a toast and sends nothing", async () => {
    const api = mockApi({});
    const { user } = renderEditing();
    await startEditing(user);
    await user.type(screen.getByLabelText("Lightning Address for Payouts"), "not an address");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Invalid Lightning Address")).toBeInTheDocument();
    expect(await findToast("Please enter a valid Lightning address (not a regular email) or LNURL.")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
  });

  it("refuses a regular email address such as a gmail.com one", async () => {
    const api = mockApi({});
    const { user } = renderEditing();
    await startEditing(user);
    await user.type(screen.getByLabelText("Lightning Address for Payouts"), "satoshi@gmail.com");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Invalid Lightning Address")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
    expect(screen.getByLabelText("Lightning Address for Payouts")).toHaveAttribute("aria-invalid", "true");
  });

  it("refuses a NIP-05 identifier on the alias domain that is not the member's own alias, at the field, and sends nothing", async () => {
    const api = mockApi({ "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5 }) });
    const { user } = renderEditing({ gigstrAlias: "satoshi", gigstrAliasAddress: "satoshi@gigstr.test" });
    await startEditing(user);
    await waitFor(() => expect(api.callsTo("GET", "/api/config")).toHaveLength(1));
    await user.type(screen.getByLabelText("NIP-05 Identifier"), "hal@gigstr.test");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Your NIP-05 identifier on gigstr.test is your alias, satoshi@gigstr.test")).toBeInTheDocument();
    expect(screen.getByLabelText("NIP-05 Identifier")).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
  });

  it("saves a valid Lightning address, sending empty fields as empty strings, then refreshes the user", async () => {
    const saved = makeUser({ displayName: "Satoshi", bio: null, lightningAddress: "satoshi@getalby.com" });
    const api = mockApi({ "PATCH /api/user/me": () => saved, "GET /api/user/me": () => saved });
    const { user } = renderEditing();
    await startEditing(user);
    await user.clear(screen.getByLabelText("Bio"));
    await user.type(screen.getByLabelText("Lightning Address for Payouts"), "satoshi@getalby.com");
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(await findToast("Settings Updated")).toBeInTheDocument();
    const [patch] = api.callsTo("PATCH", "/api/user/me");
    expect(patch!.body).toEqual({
      displayName: "Satoshi",
      profilePicture: "",
      bio: "",
      nip05: "",
      lightningAddress: "satoshi@getalby.com",
    });
    await waitFor(() => expect(api.callsTo("GET", "/api/user/me")).toHaveLength(1));
    expect(screen.getByRole("button", { name: "Edit Profile" })).toBeInTheDocument();
  });

  it("after a save, reads again what shows the member's name elsewhere: their gigs and public profile", async () => {
    const member = makeUser({ id: "me-1", displayName: "Satoshi", lightningAddress: "satoshi@getalby.com" });
    const api = mockApi({
      "PATCH /api/user/me": () => member,
      "GET /api/user/me": () => member,
      "GET /api/gigs/g-1": () => ({ id: "g-1" }),
      "GET /api/users/me-1": () => member,
    });
    function ShownElsewhere() {
      useQuery({ queryKey: ["/api/gigs", "g-1"], queryFn: () => apiJson("GET", "/api/gigs/g-1") });
      useQuery({ queryKey: ["/api/users", "me-1"], queryFn: () => apiJson("GET", "/api/users/me-1") });
      return null;
    }
    renderWithApp(
      <>
        <OwnProfile user={member} />
        <ShownElsewhere />
      </>,
      { user: member },
    );
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/g-1")).toHaveLength(1));
    const user = userEvent.setup();
    await startEditing(user);
    await user.clear(screen.getByLabelText("Display Name"));
    await user.type(screen.getByLabelText("Display Name"), "Nakamoto");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Settings Updated")).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs/g-1")).toHaveLength(2));
    expect(api.callsTo("GET", "/api/users/me-1")).toHaveLength(2);
  });

  it("accepts an LNURL", async () => {
    const api = mockApi({ "PATCH /api/user/me": () => makeUser(), "GET /api/user/me": () => makeUser() });
    const { user } = renderEditing();
    await startEditing(user);
    await user.type(screen.getByLabelText("Lightning Address for Payouts"), "LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Settings Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(1);
  });

  it("shows the server's reason when saving fails", async () => {
    mockApi({ "PATCH /api/user/me": () => apiError(400, "NIP-05 identifier must look like name@domain", "invalid_input") });
    const { user } = renderEditing({ nip05: "alice@example.com" });
    await startEditing(user);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Failed to Update Profile")).toBeInTheDocument();
    expect(await findToast("NIP-05 identifier must look like name@domain")).toBeInTheDocument();
  });

  it("Cancel leaves edit mode and restores the fields from the user", async () => {
    const api = mockApi({});
    const { user } = renderEditing();
    await startEditing(user);
    await user.clear(screen.getByLabelText("Display Name"));
    await user.type(screen.getByLabelText("Display Name"), "Someone else");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("heading", { level: 1, name: "Satoshi" })).toBeInTheDocument();
    await startEditing(user);
    expect(screen.getByLabelText("Display Name")).toHaveValue("Satoshi");
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
  });

  it("checks the other fields with the shared schema before sending", async () => {
    const api = mockApi({});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { user } = renderEditing();
    await startEditing(user);
    await user.type(screen.getByLabelText("Profile Picture URL"), "javascript:alert(1)");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast("Failed to Update Profile")).toBeInTheDocument();
    expect(screen.getByText("Profile picture must be an http(s) URL", { selector: "p[id$='-error']" })).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
  });
});
