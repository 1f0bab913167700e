import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { nsecEncode } from "nostr-tools/nip19";
import { generateSecretKey, getPublicKey, verifyEvent, type Event } from "nostr-tools/pure";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { LOGIN_EVENT_KIND } from "../../lib/nostr";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { LocationProbe, findToast, renderWithApp } from "../../test/render";
import { useAuth } from "./auth-context";
import { PHONE_QUERY } from "../../lib/phone";
import { LoginDialog } from "./login-dialog";
import { LoginRequiredCard } from "./login-required-card";

// Building the PDF and handing it to the browser is key-backup-pdf's own business (and its own test's).
const { downloadKeyBackup } = vi.hoisted(() => ({ downloadKeyBackup: vi.fn() }));
vi.mock("./key-backup-pdf", () => ({ downloadKeyBackup }));
beforeEach(() => {
  downloadKeyBackup.mockReset();
  downloadKeyBackup.mockResolvedValue(undefined);
});

function SessionStatus() {
  const { user } = useAuth();
  return <p data-testid="session">{user ? `signed in as ${user.username}` : "signed out"}</p>;
}

function renderLogin({ reason }: { reason?: string } = {}) {
  const onOpenChange = vi.fn();
  renderWithApp(
    <>
      <SessionStatus />
      <LocationProbe />
      <LoginDialog open onOpenChange={onOpenChange} reason={reason} />
    </>,
  );
  return { onOpenChange, user: userEvent.setup() };
}

/** The screen this test runs on: a phone (narrow or touch) or a desktop, as the browser's media queries report it. */
function onScreen(kind: "phone" | "desktop") {
  const queries: string[] = [];
  vi.stubGlobal("matchMedia", (query: string) => {
    queries.push(query);
    return { matches: kind === "phone" && query === PHONE_QUERY, media: query, addEventListener() {}, removeEventListener() {} };
  });
  return queries;
}

function withExtension() {
  vi.stubGlobal("nostr", { getPublicKey: async () => "00".repeat(32), signEvent: vi.fn() });
}

const selectedTab = () => screen.getByRole("tab", { selected: true });

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

  it("says plainly that Gigstr could not be reached when the network is down, never 'Failed to fetch'", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const { user } = renderLogin();
    await user.type(await openKeyTab(user), nsecEncode(generateSecretKey()));
    await user.click(screen.getByRole("button", { name: "Login with Key" }));
    await findToast("Login Failed");
    expect(await findToast("Gigstr could not be reached. Check your internet connection and try again.")).toBeInTheDocument();
    expect(screen.queryByText(/Failed to fetch/)).not.toBeInTheDocument();
    expect(screen.getByTestId("session")).toHaveTextContent("signed out");
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
  it("explains that this browser has none, and leads to the tabs that work", async () => {
    mockApi({});
    const { user } = renderLogin();
    await user.click(screen.getByRole("tab", { name: "Extension" }));
    expect(screen.getByRole("note")).toHaveTextContent("This browser has no Nostr extension");

    await user.click(screen.getByRole("button", { name: "Create a New Key" }));
    expect(selectedTab()).toHaveAccessibleName("Create New");
    expect(screen.getByRole("button", { name: "Generate New Keys" })).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Extension" }));
    await user.click(screen.getByRole("button", { name: "I Have a Key" }));
    expect(selectedTab()).toHaveAccessibleName("With Key");
    expect(screen.getByLabelText("Private Key (nsec or hex)")).toBeInTheDocument();
  });

  it("still says an extension is needed when its button is pressed without one", async () => {
    const api = mockApi({});
    const { user } = renderLogin();
    await user.click(screen.getByRole("tab", { name: "Extension" }));
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

describe("Login with Nostr: the dialog itself", () => {
  it("opens on Extension when the browser has one, phone or not", () => {
    onScreen("phone");
    withExtension();
    renderLogin();
    expect(selectedTab()).toHaveAccessibleName("Extension");
    expect(screen.getByRole("button", { name: "Login with Extension" })).toBeInTheDocument();
    expect(screen.queryByText(/This browser has no Nostr extension/)).not.toBeInTheDocument();
  });

  it("opens on Create New on a phone without an extension", () => {
    const queries = onScreen("phone");
    renderLogin();
    expect(queries).toContain("(max-width: 639px), (pointer: coarse)");
    expect(selectedTab()).toHaveAccessibleName("Create New");
    expect(screen.getByRole("button", { name: "Generate New Keys" })).toBeInTheDocument();
  });

  it("opens on With Key on a desktop without an extension", () => {
    onScreen("desktop");
    renderLogin();
    expect(selectedTab()).toHaveAccessibleName("With Key");
    expect(screen.getByLabelText("Private Key (nsec or hex)")).toBeInTheDocument();
  });

  it("leads a desktop newcomer from With Key to Create New", async () => {
    onScreen("desktop");
    const { user } = renderLogin();
    await user.click(screen.getByRole("button", { name: "Create a new key" }));
    expect(selectedTab()).toHaveAccessibleName("Create New");
    expect(screen.getByRole("button", { name: "Generate New Keys" })).toBeInTheDocument();
  });

  it("opens on With Key where the browser cannot answer media queries", () => {
    renderLogin();
    expect(selectedTab()).toHaveAccessibleName("With Key");
  });

  it("says what a Nostr key is, and why it opened when it was asked to", () => {
    renderLogin({ reason: "Log in to claim this gig." });
    const dialog = screen.getByRole("dialog", { name: "Login with Nostr" });
    expect(dialog).toHaveAccessibleDescription(/^Log in to claim this gig\./);
    expect(dialog).toHaveAccessibleDescription(/A Nostr key is like a username and password in one, that you keep yourself/);
  });

  it("says what the login is for when a Login Required card opened it", async () => {
    renderWithApp(<LoginRequiredCard action="post gigs" />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Login with Nostr" }));
    expect(await screen.findByRole("dialog", { name: "Login with Nostr" })).toHaveAccessibleDescription(/^Log in to post gigs\./);
  });

  it("shows no reason when none was given", () => {
    renderLogin();
    expect(screen.getByRole("dialog")).toHaveAccessibleDescription(/^A Nostr key is like a username and password in one/);
  });

  it("links to the FAQ's answer on Nostr keys, and gets out of the way when followed", async () => {
    const { user, onOpenChange } = renderLogin();
    const link = screen.getByRole("link", { name: "What is a Nostr key?" });
    expect(link).toHaveAttribute("href", "/faq#nostr-keys");
    await user.click(link);
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(screen.getByTestId("location")).toHaveTextContent("/faq");
  });
});

describe("Login with Nostr: Create New", () => {
  async function createKeys() {
    onScreen("phone");
    const api = loginApi(({ event }) => ({ sessionToken: "fresh", user: makeUser({ nostrPubkey: event.pubkey }) }));
    const rendered = renderLogin();
    await rendered.user.click(screen.getByRole("button", { name: "Generate New Keys" }));
    const npub = await screen.findByText(/^npub1[02-9ac-hj-np-z]{58}$/);
    return { ...rendered, api, npub };
  }

  it("does not log in with the new key until it is saved, and says why", async () => {
    const { user, api } = await createKeys();
    const logIn = screen.getByRole("button", { name: "Log In With This Key" });
    expect(logIn).toBeDisabled();
    expect(logIn).toHaveAccessibleDescription("Download the backup or tick “I saved my key” first.");
    expect(screen.getByRole("checkbox", { name: "I saved my key" })).not.toBeChecked();
    // The warning stays.
    expect(screen.getByText(/Save your private key now/)).toBeInTheDocument();

    await user.click(logIn);
    expect(api.calls).toHaveLength(0);
    expect(screen.getByTestId("session")).toHaveTextContent("signed out");
  });

  it("logs in with the new key once 'I saved my key' is ticked", async () => {
    const { user, api, npub, onOpenChange } = await createKeys();
    await user.click(screen.getByRole("checkbox", { name: "I saved my key" }));
    const logIn = screen.getByRole("button", { name: "Log In With This Key" });
    expect(logIn).toBeEnabled();
    expect(logIn).not.toHaveAccessibleDescription();

    await user.click(logIn);
    expect(await findToast("Login Successful!")).toBeInTheDocument();
    const { event } = api.callsTo("POST", "/api/auth/nostr/verify")[0]!.body as { event: Event };
    const { npubEncode } = await import("nostr-tools/nip19");
    expect(npubEncode(event.pubkey)).toBe(npub.textContent);
    await waitFor(() => expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("fresh"));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("unlocks the log-in once the backup is downloaded", async () => {
    const { user, npub } = await createKeys();
    await user.click(screen.getByRole("button", { name: "Download Key Backup" }));
    expect(await findToast("Keys Downloaded")).toBeInTheDocument();
    expect(downloadKeyBackup).toHaveBeenCalledWith(expect.objectContaining({ npub: npub.textContent }));
    expect(screen.getByRole("checkbox", { name: "I saved my key" })).toBeChecked();
    expect(screen.getByRole("button", { name: "Log In With This Key" })).toBeEnabled();
  });

  it("keeps the log-in locked when the download fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    downloadKeyBackup.mockRejectedValue(new Error("no PDF today"));
    const { user } = await createKeys();
    await user.click(screen.getByRole("button", { name: "Download Key Backup" }));
    expect(await findToast("Download Failed")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Log In With This Key" })).toBeDisabled();
  });

  it("locks it again when the box is unticked", async () => {
    const { user } = await createKeys();
    const saved = screen.getByRole("checkbox", { name: "I saved my key" });
    await user.click(saved);
    await user.click(saved);
    expect(screen.getByRole("button", { name: "Log In With This Key" })).toBeDisabled();
  });
});
