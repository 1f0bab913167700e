import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AdminRoute } from "../../routes/admin";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { ADMIN_TOKEN_KEY } from "./admin-session";

const emptyPanel = {
  "GET /api/admin/stats": () => ({ totalEscrow: 0, totalRevenue: 0, activeGigs: 0, openGigs: 0, completedGigs: 0, disputedGigs: 0, totalUsers: 0 }),
  "GET /api/admin/money": () => ({ ledger: { ok: true, problems: [], wallet: 0, escrow: 0, fees: 0, payables: 0 }, payouts: [], checkedAt: "" }),
  "GET /api/admin/disputes": () => [],
  "GET /api/admin/unread-chats": () => [],
};

function renderPin() {
  renderWithApp(<AdminRoute />, { route: "/admin" });
  return userEvent.setup();
}

const ok = () => screen.getByRole("button", { name: "OK" });
const digit = (d: string) => screen.getByRole("button", { name: d });
const dots = () => screen.getByTestId("pin-dots");

async function enter(user: ReturnType<typeof userEvent.setup>, pin: string) {
  for (const d of pin) await user.click(digit(d));
}

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  sessionStorage.clear();
  localStorage.removeItem(SESSION_TOKEN_KEY);
});

describe("the admin PIN keypad", () => {
  it("has digits 0-9, Clear and OK with six dots; OK waits for six digits and no seventh is taken", async () => {
    mockApi({});
    const user = renderPin();
    for (const d of "0123456789") expect(digit(d)).toBeEnabled();
    expect(screen.getByRole("button", { name: "Clear" })).toBeDisabled();
    expect(dots().children).toHaveLength(6);
    expect(ok()).toBeDisabled();

    await enter(user, "12345");
    expect(dots()).toHaveAccessibleName("5 of 6 digits entered");
    expect(ok()).toBeDisabled();
    await user.click(digit("6"));
    expect(dots()).toHaveAccessibleName("6 of 6 digits entered");
    expect(ok()).toBeEnabled();
    for (const d of "0123456789") expect(digit(d)).toBeDisabled();
    await user.keyboard("7");
    expect(dots()).toHaveAccessibleName("6 of 6 digits entered");

    await user.click(screen.getByRole("button", { name: "Clear" }));
    expect(dots()).toHaveAccessibleName("0 of 6 digits entered");
    expect(ok()).toBeDisabled();
  });

  it("signs in: OK is disabled while sending, then the token is kept in sessionStorage and the panel opens", async () => {
    let answer: (value: Response) => void = () => {};
    const api = mockApi({
      ...emptyPanel,
      "POST /api/admin/auth": () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const user = renderPin();
    await enter(user, "135790");
    await user.click(ok());
    expect(screen.getByRole("button", { name: "Checking PIN" })).toBeDisabled();
    expect(api.callsTo("POST", "/api/admin/auth")[0]!.body).toEqual({ pin: "135790" });

    answer(new Response(JSON.stringify({ success: true, adminToken: "tok-1" }), { status: 200 }));
    expect(await findToast("Access Granted")).toBeInTheDocument();
    expect(await findToast("Welcome to the admin panel.")).toBeInTheDocument();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBe("tok-1");
    expect(await screen.findByRole("button", { name: /logout/i })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Disputes (0)" })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", "/api/admin/stats")).toHaveLength(1));
    expect(api.callsTo("GET", "/api/admin/stats")[0]!.headers["x-admin-token"]).toBe("tok-1");
  });

  it("a wrong PIN: Access Denied with the server's message, the PIN cleared, still on the keypad", async () => {
    mockApi({ "POST /api/admin/auth": () => apiError(401, "Incorrect PIN", "incorrect_pin") });
    const user = renderPin();
    await enter(user, "000000");
    await user.click(ok());
    expect(await findToast("Access Denied")).toBeInTheDocument();
    expect(await findToast("Incorrect PIN")).toBeInTheDocument();
    expect(dots()).toHaveAccessibleName("0 of 6 digits entered");
    expect(ok()).toBeDisabled();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
  });

  it("falls back to 'Incorrect PIN' when the server says nothing", async () => {
    mockApi({ "POST /api/admin/auth": () => new Response("", { status: 401 }) });
    const user = renderPin();
    await enter(user, "000000");
    await user.click(ok());
    expect(await findToast("Incorrect PIN")).toBeInTheDocument();
  });

  it("'blocked' in the answer ends the admin session: the token is dropped", async () => {
    mockApi({ "POST /api/admin/auth": () => apiError(429, "Too many incorrect PINs: admin sign-in is blocked for 15 minutes.", "admin_blocked") });
    const user = renderPin();
    sessionStorage.setItem(ADMIN_TOKEN_KEY, "left-over");
    await enter(user, "111111");
    await user.click(ok());
    expect(await findToast("Too many incorrect PINs: admin sign-in is blocked for 15 minutes.")).toBeInTheDocument();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(dots()).toHaveAccessibleName("0 of 6 digits entered");
  });

  it("carries the member session of the signed-in Nostr key: a deployed Gigstr asks for an admin key's session with the PIN", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "member-session-1");
    const api = mockApi({ ...emptyPanel, "POST /api/admin/auth": () => ({ success: true, adminToken: "tok-2" }) });
    const user = renderPin();
    await enter(user, "135790");
    await user.click(ok());
    expect(await findToast("Access Granted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/admin/auth")[0]!.headers.Authorization).toBe("Bearer member-session-1");
  });

  it("shows the server's reason when admin sign-in needs an admin key or is switched off, and keeps the keypad", async () => {
    const reasons = [
      apiError(403, "Admin sign-in also needs you to be signed in with an administrator's Nostr key.", "admin_key_required"),
      apiError(503, "Admin sign-in is switched off: ADMIN_PUBKEYS must be set on a deployed Gigstr (the administrators' Nostr keys, npub or hex; the PIN alone is not enough).", "admin_keys_required"),
    ];
    mockApi({ "POST /api/admin/auth": () => reasons.shift()! });
    const user = renderPin();
    await enter(user, "135790");
    await user.click(ok());
    expect(await findToast("Admin sign-in also needs you to be signed in with an administrator's Nostr key.")).toBeInTheDocument();
    await enter(user, "135790");
    await user.click(ok());
    expect(await findToast(/ADMIN_PUBKEYS must be set on a deployed Gigstr/)).toBeInTheDocument();
    expect(dots()).toHaveAccessibleName("0 of 6 digits entered");
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
  });

  it("takes the PIN from the keyboard too", async () => {
    const api = mockApi({ "POST /api/admin/auth": () => apiError(401, "Incorrect PIN") });
    const user = renderPin();
    await user.keyboard("1234567");
    expect(dots()).toHaveAccessibleName("6 of 6 digits entered");
    await user.keyboard("{Backspace}");
    expect(dots()).toHaveAccessibleName("5 of 6 digits entered");
    await user.keyboard("9{Enter}");
    await findToast("Access Denied");
    expect(api.callsTo("POST", "/api/admin/auth")[0]!.body).toEqual({ pin: "123459" });
  });
});
