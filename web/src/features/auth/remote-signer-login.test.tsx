// The login dialog's Remote Signer tab: its states and texts, with the NIP-46 connection (./remote-signer) replaced
// at its boundary by a signer held here. The connection itself runs against a real signer on a real relay in
// remote-signer.relay.test.ts, and the whole walk in a browser in e2e/remote-signer.e2e.test.ts.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { finalizeEvent, generateSecretKey, getPublicKey, type Event } from "nostr-tools/pure";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppSigner, NostrEventTemplate } from "../../lib/nostr";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { useAuth } from "./auth-context";
import { LoginDialog } from "./login-dialog";
import { BUNKER_URL_TEXTS, RemoteSignerError, type BunkerPointer, type RemoteSession } from "./remote-signer-url";
import { currentSigner, forgetCurrentSigner, REMOTE_SESSION_KEY } from "./signer";

const { connectBunker, inviteNostrConnect } = vi.hoisted(() => ({ connectBunker: vi.fn(), inviteNostrConnect: vi.fn() }));
vi.mock("./remote-signer", () => ({ connectBunker, inviteNostrConnect, restoreRemoteSigner: vi.fn() }));
vi.mock("qrcode", () => ({ toDataURL: async (text: string) => `data:image/png;base64,${btoa(text.slice(0, 12))}` }));

const userKey = generateSecretKey();
const member = getPublicKey(userKey);
const signerPubkey = getPublicKey(generateSecretKey());
const bunkerUrl = `bunker://${signerPubkey}?relay=wss%3A%2F%2Frelay.signer.test&secret=s3cret`;

/** A remote signer as ./remote-signer hands it back, signing with the member's key held here. */
function fakeRemote(sign: (template: NostrEventTemplate) => Promise<Event> = async (t) => finalizeEvent(t, userKey)) {
  const session: RemoteSession = {
    clientSecretKey: "11".repeat(32),
    remotePubkey: signerPubkey,
    relays: ["wss://relay.signer.test"],
    userPubkey: member,
  };
  return { kind: "remote", session, getPublicKey: async () => member, signEvent: vi.fn(sign), close: vi.fn() } satisfies AppSigner & { session: RemoteSession };
}

function SessionStatus() {
  const { user } = useAuth();
  return <p data-testid="session">{user ? `signed in as ${user.username}` : "signed out"}</p>;
}

function loginApi() {
  return mockApi({
    "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5, nostr: { platformPubkey: null, relays: ["ws://127.0.0.1:7777"] } }),
    "POST /api/auth/nostr/challenge": () => ({ challenge: "c0ffee".repeat(8), challengeId: "challenge-1" }),
    "POST /api/auth/nostr/verify": (call) => {
      const { event } = call.body as { event: Event };
      return { sessionToken: "remote-token", user: makeUser({ username: "remote-member", nostrPubkey: event.pubkey }) };
    },
  });
}

async function openRemoteTab() {
  const user = userEvent.setup();
  const onOpenChange = vi.fn();
  renderWithApp(
    <>
      <SessionStatus />
      <LoginDialog open onOpenChange={onOpenChange} />
    </>,
  );
  await user.click(screen.getByRole("tab", { name: "Remote Signer" }));
  return { user, onOpenChange };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeEach(() => {
  connectBunker.mockReset();
  inviteNostrConnect.mockReset();
});

afterEach(() => {
  forgetCurrentSigner();
  sessionStorage.clear();
});

describe("Login with Nostr: Remote Signer", () => {
  it("is a fourth tab, after the spec's three in their order", () => {
    mockApi({});
    renderWithApp(<LoginDialog open onOpenChange={() => {}} />);
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Extension", "With Key", "Create New", "Remote Signer"]);
  });

  it("is one tap away from the Extension tab of a browser without one", async () => {
    mockApi({});
    const user = userEvent.setup();
    renderWithApp(<LoginDialog open onOpenChange={() => {}} />);
    await user.click(screen.getByRole("tab", { name: "Extension" }));
    await user.click(screen.getByRole("button", { name: "Use a remote signer" }));
    expect(screen.getByRole("tab", { selected: true })).toHaveAccessibleName("Remote Signer");
    expect(screen.getByLabelText("Bunker URL")).toBeInTheDocument();
  });

  it.each([
    ["", BUNKER_URL_TEXTS.empty],
    ["npub1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq", BUNKER_URL_TEXTS.notBunker],
    [`nostrconnect://${signerPubkey}?relay=wss://r.test&secret=x`, BUNKER_URL_TEXTS.nostrconnect],
    ["bunker://not-a-key?relay=wss://r.test", BUNKER_URL_TEXTS.badKey],
    [`bunker://${signerPubkey}`, BUNKER_URL_TEXTS.noRelay],
  ])("says what is wrong with %j before contacting anyone", async (typed, message) => {
    const api = loginApi();
    const { user } = await openRemoteTab();
    if (typed) await user.type(screen.getByLabelText("Bunker URL"), typed);
    await user.click(screen.getByRole("button", { name: "Connect to Signer" }));
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText("Bunker URL")).toHaveAttribute("aria-invalid", "true");
    expect(connectBunker).not.toHaveBeenCalled();
    expect(api.callsTo("POST", "/api/auth/nostr/challenge")).toHaveLength(0);
  });

  it("connects with the pasted link, has the signer sign the challenge, logs in and keeps the signer for this tab", async () => {
    const api = loginApi();
    const remote = fakeRemote();
    connectBunker.mockResolvedValue(remote);
    const { user, onOpenChange } = await openRemoteTab();

    await user.type(screen.getByLabelText("Bunker URL"), bunkerUrl);
    await user.click(screen.getByRole("button", { name: "Connect to Signer" }));

    expect(await findToast("Login Successful!")).toBeInTheDocument();
    expect(screen.getByTestId("session")).toHaveTextContent("signed in as remote-member");
    expect(onOpenChange).toHaveBeenCalledWith(false);
    const pointer: BunkerPointer = connectBunker.mock.calls[0]![0];
    expect(pointer).toEqual({ pubkey: signerPubkey, relays: ["wss://relay.signer.test"], secret: "s3cret" });
    expect(remote.signEvent).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 22242, tags: [["challenge", "c0ffee".repeat(8)], ["relay", location.origin]] }),
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect((api.callsTo("POST", "/api/auth/nostr/verify")[0]!.body as { event: Event }).event.pubkey).toBe(member);
    // The app's signer from now on, and what a reload reconnects to.
    expect(currentSigner()).toBe(remote);
    expect(JSON.parse(sessionStorage.getItem(REMOTE_SESSION_KEY)!)).toEqual(remote.session);
  });

  it("shows that it waits for the signer, with a Cancel that goes back quietly", async () => {
    const api = loginApi();
    const pending = deferred<AppSigner>();
    connectBunker.mockImplementation((_pointer, { signal }: { signal: AbortSignal }) => {
      signal.addEventListener("abort", () => pending.reject(new RemoteSignerError("cancelled", "Cancelled.")));
      return pending.promise;
    });
    const { user } = await openRemoteTab();
    await user.type(screen.getByLabelText("Bunker URL"), bunkerUrl);
    await user.click(screen.getByRole("button", { name: "Connect to Signer" }));

    expect(await screen.findByRole("status")).toHaveTextContent("Connecting to your signer…");
    await user.click(screen.getByRole("button", { name: "Cancel" }));

    expect(await screen.findByLabelText("Bunker URL")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByTestId("session")).toHaveTextContent("signed out");
    expect(api.callsTo("POST", "/api/auth/nostr/challenge")).toHaveLength(0);
  });

  it("links to the signer's approval page when it asks for one", async () => {
    loginApi();
    connectBunker.mockImplementation((_pointer, { onAuthUrl }: { onAuthUrl: (url: string) => void }) => {
      onAuthUrl("https://signer.test/approve/1");
      return new Promise(() => {});
    });
    const { user } = await openRemoteTab();
    await user.type(screen.getByLabelText("Bunker URL"), bunkerUrl);
    await user.click(screen.getByRole("button", { name: "Connect to Signer" }));
    const link = await screen.findByRole("link", { name: "Open the approval page" });
    expect(link).toHaveAttribute("href", "https://signer.test/approve/1");
    expect(link).toHaveAttribute("target", "_blank");
  });

  it("says the signer did not answer in time, and stays signed out", async () => {
    loginApi();
    const text = "Your signer did not answer within 90 seconds. Check that it is running and online, then try again.";
    connectBunker.mockRejectedValue(new RemoteSignerError("timeout", text));
    const { user } = await openRemoteTab();
    await user.type(screen.getByLabelText("Bunker URL"), bunkerUrl);
    await user.click(screen.getByRole("button", { name: "Connect to Signer" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(text);
    expect(await findToast("Login Failed")).toBeInTheDocument();
    expect(screen.getByTestId("session")).toHaveTextContent("signed out");
    expect(currentSigner()).toBeNull();
  });

  it("says the signer refused the login, lets go of it, and sends nothing to verify", async () => {
    const api = loginApi();
    const remote = fakeRemote(async () => {
      throw new RemoteSignerError("refused", "Your signer refused: Sign event denied.");
    });
    connectBunker.mockResolvedValue(remote);
    const { user } = await openRemoteTab();
    await user.type(screen.getByLabelText("Bunker URL"), bunkerUrl);
    await user.click(screen.getByRole("button", { name: "Connect to Signer" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your signer refused: Sign event denied.");
    expect(api.callsTo("POST", "/api/auth/nostr/verify")).toHaveLength(0);
    expect(remote.close).toHaveBeenCalled();
    expect(sessionStorage.getItem(REMOTE_SESSION_KEY)).toBeNull();
  });

  it("shows a nostrconnect:// QR code and link on the configured relays, and logs in once the signer app connects", async () => {
    loginApi();
    const uri = `nostrconnect://${"22".repeat(32)}?relay=ws%3A%2F%2F127.0.0.1%3A7777&secret=abc`;
    const connected = deferred<AppSigner>();
    inviteNostrConnect.mockResolvedValue({ uri, connected: connected.promise });
    const { user } = await openRemoteTab();
    await user.click(screen.getByRole("button", { name: "Connect with a QR Code" }));

    expect(await screen.findByRole("img", { name: "QR code to connect your signer app" })).toHaveAttribute("src", expect.stringMatching(/^data:image\/png/));
    expect(screen.getByRole("link", { name: "Open Signer App" })).toHaveAttribute("href", uri);
    expect(screen.getByRole("button", { name: "Copy connection link" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Waiting for your signer app to connect…");
    expect(inviteNostrConnect.mock.calls[0]![0]).toEqual(["ws://127.0.0.1:7777"]);

    connected.resolve(fakeRemote());
    expect(await findToast("Login Successful!")).toBeInTheDocument();
    expect(currentSigner()?.kind).toBe("remote");
  });
});
