import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { nsecEncode } from "nostr-tools/nip19";
import { generateSecretKey, getPublicKey, verifyEvent, type Event } from "nostr-tools/pure";
import { describe, expect, it, vi } from "vitest";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { LOGIN_EVENT_KIND } from "../../lib/nostr";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { useAuth } from "./auth-context";
import { LoginDialog } from "./login-dialog";

function SessionStatus() {
  const { user } = useAuth();
  return <p data-testid="session">{user ? `signed in as ${user.username}` : "signed out"}</p>;
}

function renderLogin() {
  const onOpenChange = vi.fn();
  renderWithApp(
    <>
      <SessionStatus />
      <LoginDialog open onOpenChange={onOpenChange} />
    </>,
  );
  return { onOpenChange, user: userEvent.setup() };
}

/** A Worker that hands out one challenge and accepts whatever is signed. */
function loginApi(verify: (body: { event: Event; challengeId: string }) => unknown) {
  return mockApi({
    "POST /api/auth/nostr/challenge": () => ({ challenge: "c0ffee".repeat(8), challengeId: "challenge-1" }),
    "POST /api/auth/nostr/verify": (call) => verify(call.body as { event: Event; challengeId: string }),
  });
}

async function openKeyTab(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("tab", { name: "With Key" }));
  return screen.getByLabelText("Private Key (nsec or hex)");
}

describe("Login with Nostr: With Key", () => {
  it("asks for a key when none is entered, and contacts nobody", async () => {
    const api = mockApi({});
    const { user } = renderLogin();
    await openKeyTab(user);
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    expect(await findToast("Private Key Required")).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("rejects a malformed nsec before signing anything", async () => {
    const api = loginApi(() => ({}));
    const { user } = renderLogin();
    await user.type(await openKeyTab(user), "nsec1notarealkey");
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    expect(await findToast("Invalid nsec format")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/auth/nostr/verify")).toHaveLength(0);
  });

  it("rejects something that is neither an nsec nor 64 hex characters", async () => {
    loginApi(() => ({}));
    const { user } = renderLogin();
    await user.type(await openKeyTab(user), "hunter2");
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    expect(await findToast("Invalid private key or authentication failed")).toBeInTheDocument();
  });

  it("signs the challenge as a kind-22242 event and signs in with the server's answer", async () => {
    const secretKey = generateSecretKey();
    const pubkey = getPublicKey(secretKey);
    const nsec = nsecEncode(secretKey);
    const member = makeUser({ username: "npub1member", nostrPubkey: pubkey });
    const api = loginApi(() => ({ sessionToken: "session-abc", user: member }));
    const { user, onOpenChange } = renderLogin();

    await user.type(await openKeyTab(user), nsec);
    await user.click(screen.getByRole("button", { name: "Login with Key" }));

    expect(await findToast("Login Successful!")).toBeInTheDocument();
    const [verify] = api.callsTo("POST", "/api/auth/nostr/verify");
    const { event, challengeId } = verify!.body as { event: Event; challengeId: string };
    expect(challengeId).toBe("challenge-1");
    expect(event.kind).toBe(LOGIN_EVENT_KIND);
    expect(event.kind).toBe(22242);
    // It names this site, so the event is no use to any other site or relay it might be shown to.
    expect(event.tags).toEqual([
      ["challenge", "c0ffee".repeat(8)],
      ["relay", location.origin],
    ]);
    expect(event.content).toBe("");
    expect(event.pubkey).toBe(pubkey);
    expect(Math.abs(event.created_at - Date.now() / 1000)).toBeLessThan(60);
    expect(verifyEvent(event)).toBe(true);

    // The private key itself never travels.
    for (const call of api.calls) expect(JSON.stringify(call.body ?? "")).not.toContain(nsec);
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("session-abc");
    expect(screen.getByTestId("session")).toHaveTextContent("signed in as npub1member");
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("accepts a 64-hex key", async () => {
    const secretKey = generateSecretKey();
    const hex = Array.from(secretKey, (b) => b.toString(16).padStart(2, "0")).join("");
    const api = loginApi(() => ({ sessionToken: "t", user: makeUser() }));
    const { user } = renderLogin();
    await user.type(await openKeyTab(user), hex);
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    expect(await findToast("Login Successful!")).toBeInTheDocument();
    const { event } = api.callsTo("POST", "/api/auth/nostr/verify")[0]!.body as { event: Event };
    expect(event.pubkey).toBe(getPublicKey(secretKey));
  });

  it("shows the server's reason when verification fails, and stays signed out", async () => {
    loginApi(() => apiError(401, "Challenge expired or already used. Please try again.", "invalid_challenge"));
    const { user } = renderLogin();
    await user.type(await openKeyTab(user), nsecEncode(generateSecretKey()));
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    expect(await findToast("Login Failed")).toBeInTheDocument();
    expect(await findToast("Challenge expired or already used. Please try again.")).toBeInTheDocument();
    expect(screen.getByTestId("session")).toHaveTextContent("signed out");
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });

  it("falls back to 'Server verification failed' when the server gives no reason", async () => {
    loginApi(() => new Response("", { status: 502 }));
    const { user } = renderLogin();
    await user.type(await openKeyTab(user), nsecEncode(generateSecretKey()));
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    expect(await findToast("Server verification failed")).toBeInTheDocument();
  });
});

describe("Login with Nostr: Extension", () => {
  it("explains that an extension is needed when none is installed", async () => {
    const api = mockApi({});
    const { user } = renderLogin();
    await user.click(screen.getByRole("button", { name: "Login with Extension" }));
    expect(await findToast("No Extension Found")).toBeInTheDocument();
    expect(await findToast("Please install a Nostr extension like Alby or nos2x to use this login method.")).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("has the extension sign the challenge event", async () => {
    const secretKey = generateSecretKey();
    const { finalizeEvent } = await import("nostr-tools/pure");
    const signEvent = vi.fn(async (template: Parameters<typeof finalizeEvent>[0]) => finalizeEvent(template, secretKey));
    vi.stubGlobal("nostr", { getPublicKey: async () => getPublicKey(secretKey), signEvent });
    const api = loginApi(() => ({ sessionToken: "ext-token", user: makeUser() }));
    const { user } = renderLogin();
    await user.click(screen.getByRole("button", { name: "Login with Extension" }));
    expect(await findToast("Login Successful!")).toBeInTheDocument();
    expect(signEvent).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 22242, tags: [["challenge", "c0ffee".repeat(8)], ["relay", location.origin]], content: "" }),
    );
    expect(api.callsTo("POST", "/api/auth/nostr/verify")).toHaveLength(1);
  });
});

describe("Login with Nostr: Create New", () => {
  it("generates a key pair, shows the npub, and signs in with it", async () => {
    const api = loginApi(({ event }) => ({ sessionToken: "fresh", user: makeUser({ nostrPubkey: event.pubkey }) }));
    const { user } = renderLogin();
    await user.click(screen.getByRole("tab", { name: "Create New" }));
    await user.click(screen.getByRole("button", { name: "Generate New Keys" }));
    const npub = await screen.findByText(/^npub1[02-9ac-hj-np-z]{58}$/);
    expect(screen.getByRole("button", { name: "Download Key Backup" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Sign In With This Key" }));
    expect(await findToast("Login Successful!")).toBeInTheDocument();
    const { event } = api.callsTo("POST", "/api/auth/nostr/verify")[0]!.body as { event: Event };
    const { npubEncode } = await import("nostr-tools/nip19");
    expect(npubEncode(event.pubkey)).toBe(npub.textContent);
    await waitFor(() => expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("fresh"));
  });
});
