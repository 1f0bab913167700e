// The app's current signer: which one signs, what is kept for the tab, and what a reload and a logout do. The
// NIP-46 code (./remote-signer) is replaced at its boundary: a reload's reconnect is checked against what it is given.
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppSigner, NostrEventTemplate } from "../../lib/nostr";
import type { RemoteSession } from "./remote-signer-url";
import { RemoteSignerError } from "./remote-signer-url";

const { restoreRemoteSigner } = vi.hoisted(() => ({ restoreRemoteSigner: vi.fn() }));
vi.mock("./remote-signer", () => ({ restoreRemoteSigner }));

const key = generateSecretKey();
const pubkey = getPublicKey(key);
const session: RemoteSession = { clientSecretKey: "11".repeat(32), remotePubkey: "33".repeat(32), relays: ["wss://relay.signer.test"], userPubkey: pubkey };
const template: NostrEventTemplate = { kind: 0, created_at: 1_700_000_000, tags: [], content: "{}" };

function remote(signWith = key): AppSigner & { session: RemoteSession } {
  return { kind: "remote", session, getPublicKey: async () => pubkey, signEvent: vi.fn(async (t) => finalizeEvent(t, signWith)), close: vi.fn() };
}

/** The module as a fresh page load sees it (its memory empty; sessionStorage as the tab kept it). */
async function load() {
  vi.resetModules();
  return import("./signer");
}

beforeEach(() => {
  restoreRemoteSigner.mockReset();
  sessionStorage.clear();
});

afterEach(() => {
  sessionStorage.clear();
});

describe("currentSigner", () => {
  it("is none without an extension or a kept signer, and the extension when the browser has one", async () => {
    const { currentSigner } = await load();
    expect(currentSigner()).toBeNull();
    const signEvent = vi.fn(async (t: NostrEventTemplate) => finalizeEvent(t, key));
    vi.stubGlobal("nostr", { getPublicKey: async () => pubkey, signEvent });
    expect(currentSigner()?.kind).toBe("extension");
    expect((await currentSigner()!.signEvent(template)).pubkey).toBe(pubkey);
    expect(signEvent).toHaveBeenCalledWith(template);
  });

  it("is the remote signer the member logged in with, ahead of an extension, kept for the tab", async () => {
    const { currentSigner, setCurrentSigner, REMOTE_SESSION_KEY } = await load();
    vi.stubGlobal("nostr", { getPublicKey: async () => "00".repeat(32), signEvent: vi.fn() });
    const signer = remote();
    setCurrentSigner(signer);
    expect(currentSigner()).toBe(signer);
    expect(JSON.parse(sessionStorage.getItem(REMOTE_SESSION_KEY)!)).toEqual(session);
  });

  it("keeps nothing for a typed key: the extension signs again, and a kept remote signer is let go", async () => {
    const { currentSigner, setCurrentSigner, REMOTE_SESSION_KEY } = await load();
    const signer = remote();
    setCurrentSigner(signer);
    setCurrentSigner(null);
    expect(signer.close).toHaveBeenCalled();
    expect(sessionStorage.getItem(REMOTE_SESSION_KEY)).toBeNull();
    expect(currentSigner()).toBeNull();
  });

  it("reconnects to the remote signer after a reload, on its first signature", async () => {
    const first = await load();
    first.setCurrentSigner(remote());
    const reconnected = remote();
    restoreRemoteSigner.mockReturnValue(reconnected);

    const { currentSigner } = await load();
    const signer = currentSigner()!;
    expect(signer.kind).toBe("remote");
    expect(await signer.getPublicKey()).toBe(pubkey);
    expect(restoreRemoteSigner).not.toHaveBeenCalled();
    const signed = await signer.signEvent(template);
    expect(signed.pubkey).toBe(pubkey);
    expect(restoreRemoteSigner).toHaveBeenCalledWith(session);
    await signer.signEvent(template);
    expect(restoreRemoteSigner).toHaveBeenCalledTimes(1);
  });

  it("forgets the kept signer and its session at logout", async () => {
    const { currentSigner, forgetCurrentSigner, setCurrentSigner, REMOTE_SESSION_KEY } = await load();
    const signer = remote();
    setCurrentSigner(signer);
    forgetCurrentSigner();
    expect(signer.close).toHaveBeenCalled();
    expect(sessionStorage.getItem(REMOTE_SESSION_KEY)).toBeNull();
    expect(currentSigner()).toBeNull();
  });

  it("ignores a kept session it cannot read", async () => {
    const { currentSigner, REMOTE_SESSION_KEY } = await load();
    sessionStorage.setItem(REMOTE_SESSION_KEY, "{not json");
    expect(currentSigner()).toBeNull();
  });
});

describe("signAsMember", () => {
  it("signs with the current signer", async () => {
    const { setCurrentSigner, signAsMember } = await load();
    setCurrentSigner(remote());
    expect((await signAsMember(template, { pubkey })).pubkey).toBe(pubkey);
  });

  it("says nothing can sign when there is no signer", async () => {
    const { signAsMember, SIGNER_TEXTS } = await load();
    await expect(signAsMember(template)).rejects.toThrow(SIGNER_TEXTS.none);
  });

  it("refuses a signature by another key than the member's", async () => {
    const { setCurrentSigner, signAsMember, SIGNER_TEXTS } = await load();
    setCurrentSigner(remote(generateSecretKey()));
    await expect(signAsMember(template, { pubkey })).rejects.toThrow(SIGNER_TEXTS.otherKey.remote);
  });

  it("passes a remote signer's own words on, and names the extension when it fails", async () => {
    const { setCurrentSigner, signAsMember } = await load();
    const refusing = remote();
    vi.mocked(refusing.signEvent).mockRejectedValue(new RemoteSignerError("refused", "Your signer refused: Sign event denied."));
    setCurrentSigner(refusing);
    await expect(signAsMember(template)).rejects.toThrow("Your signer refused: Sign event denied.");

    setCurrentSigner(null);
    vi.stubGlobal("nostr", { getPublicKey: async () => pubkey, signEvent: vi.fn().mockRejectedValue(new Error("User rejected")) });
    await expect(signAsMember(template)).rejects.toThrow("Your extension did not sign: User rejected");
  });
});
