// Publish to Nostr and Refresh from Nostr, with the relays replaced by a stand-in (relays.test.ts talks to
// real relays) and the NIP-07 extension faked with a key held here.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OwnUser } from "../../../../domain/profile";
import type { AppSigner, NostrEventTemplate, SignedNostrEvent } from "../../lib/nostr";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { forgetCurrentSigner, setCurrentSigner } from "../auth/signer";
import { NostrProfileCard } from "./nostr-profile-card";
import { fetchLatestProfileEvent, publishEvent } from "./relays";

vi.mock("./relays", () => ({
  PROFILE_METADATA_KIND: 0,
  RELAYS_UNREACHABLE: "Could not reach any Nostr relay. Please try again.",
  DEFAULT_NOSTR_RELAYS: [],
  fetchLatestProfileEvent: vi.fn(),
  publishEvent: vi.fn(),
}));

const fetchLatest = vi.mocked(fetchLatestProfileEvent);
const publish = vi.mocked(publishEvent);

const secretKey = generateSecretKey();
const pubkey = getPublicKey(secretKey);

function member(overrides: Partial<OwnUser> = {}) {
  return makeUser({
    nostrPubkey: pubkey,
    displayName: "Ada",
    bio: "Builds things",
    profilePicture: "https://example.com/ada.png",
    nip05: "ada@example.com",
    lightningAddress: "ada@getalby.com",
    ...overrides,
  });
}

/** A NIP-07 extension holding `key`; remembers what it was asked to sign. */
function fakeExtension(key = secretKey) {
  const signEvent = vi.fn(async (template: NostrEventTemplate): Promise<SignedNostrEvent> => finalizeEvent(template, key));
  vi.stubGlobal("nostr", { getPublicKey: async () => getPublicKey(key), signEvent });
  return signEvent;
}

function kind0(content: Record<string, unknown>, createdAt = Math.floor(Date.now() / 1000)): SignedNostrEvent {
  return finalizeEvent({ kind: 0, created_at: createdAt, tags: [], content: JSON.stringify(content) }, secretKey);
}

function renderCard(user: OwnUser) {
  return renderWithApp(<NostrProfileCard user={user} />, { user });
}

/** The remote signer (NIP-46) the member logged in with, holding `key`; the app's signer for the tab. */
function remoteSigner(key = secretKey) {
  const signEvent = vi.fn(async (template: NostrEventTemplate): Promise<SignedNostrEvent> => finalizeEvent(template, key));
  const signer: AppSigner = { kind: "remote", getPublicKey: async () => getPublicKey(key), signEvent };
  setCurrentSigner(signer);
  return signEvent;
}

beforeEach(() => {
  fetchLatest.mockReset();
  publish.mockReset();
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => forgetCurrentSigner());

describe("Publish to Nostr", () => {
  it("asks for a Nostr extension when there is none, and touches no relay", async () => {
    mockApi({});
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Nostr Extension Required")).toBeInTheDocument();
    expect(fetchLatest).not.toHaveBeenCalled();
    expect(publish).not.toHaveBeenCalled();
  });

  it("signs a kind 0 of the profile through the extension, publishes it and says Published to Nostr!", async () => {
    mockApi({});
    const signEvent = fakeExtension();
    fetchLatest.mockResolvedValue(kind0({ name: "old", banner: "https://example.com/banner.png" }, 1_700_000_000));
    publish.mockResolvedValue({
      accepted: ["wss://a", "wss://b", "wss://c"],
      failed: [{ url: "wss://d", reason: "timeout" }, { url: "wss://e", reason: "blocked" }],
      reached: 5,
    });
    renderCard(member({ gigstrAlias: "ada", gigstrAliasAddress: "ada@gigstr.test" }));

    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));

    expect(await findToast("Published to Nostr!")).toBeInTheDocument();
    expect(await findToast("Your profile is on 3 of 5 relays.")).toBeInTheDocument();
    expect(fetchLatest).toHaveBeenCalledWith(pubkey);
    const template = signEvent.mock.calls[0]![0];
    expect(template.kind).toBe(0);
    expect(JSON.parse(template.content)).toEqual({
      name: "Ada",
      display_name: "Ada",
      about: "Builds things",
      picture: "https://example.com/ada.png",
      nip05: "ada@example.com",
      lud16: "ada@gigstr.test",
      banner: "https://example.com/banner.png",
    });
    const sent = publish.mock.calls[0]![0];
    expect(sent.pubkey).toBe(pubkey);
    expect(verifyEvent(sent)).toBe(true);
  });

  it("publishes even when the current Nostr profile cannot be read", async () => {
    mockApi({});
    fakeExtension();
    fetchLatest.mockRejectedValue(new Error("relays down"));
    publish.mockResolvedValue({ accepted: ["wss://a"], failed: [], reached: 1 });
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Published to Nostr!")).toBeInTheDocument();
  });

  it("says Failed to Publish when no relay accepts the profile", async () => {
    mockApi({});
    fakeExtension();
    fetchLatest.mockResolvedValue(null);
    publish.mockResolvedValueOnce({ accepted: [], failed: [{ url: "wss://a", reason: "blocked" }], reached: 1 });
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Failed to Publish")).toBeInTheDocument();
    expect(await findToast("No relay accepted your profile. Please try again.")).toBeInTheDocument();

    publish.mockResolvedValueOnce({ accepted: [], failed: [{ url: "wss://a", reason: "connection failure" }], reached: 0 });
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Could not reach any Nostr relay. Please try again.")).toBeInTheDocument();
  });

  it("refuses to publish when the extension holds another key than the account's", async () => {
    mockApi({});
    fakeExtension(generateSecretKey());
    fetchLatest.mockResolvedValue(null);
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Failed to Publish")).toBeInTheDocument();
    expect(publish).not.toHaveBeenCalled();
  });

  it("signs with the remote signer the member logged in with, on a phone without an extension", async () => {
    mockApi({});
    const signEvent = remoteSigner();
    fetchLatest.mockResolvedValue(null);
    publish.mockResolvedValue({ accepted: ["wss://a"], failed: [], reached: 1 });
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Published to Nostr!")).toBeInTheDocument();
    expect(signEvent.mock.calls[0]![0].kind).toBe(0);
    expect(publish.mock.calls[0]![0].pubkey).toBe(pubkey);
  });

  it("refuses to publish when the remote signer holds another key than the account's", async () => {
    mockApi({});
    remoteSigner(generateSecretKey());
    fetchLatest.mockResolvedValue(null);
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Your remote signer holds a different key than the one you logged in with.")).toBeInTheDocument();
    expect(publish).not.toHaveBeenCalled();
  });

  it("says Failed to Publish when the member declines to sign", async () => {
    mockApi({});
    const signEvent = fakeExtension();
    signEvent.mockRejectedValue(new Error("User rejected"));
    fetchLatest.mockResolvedValue(null);
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Publish to Nostr" }));
    expect(await findToast("Failed to Publish")).toBeInTheDocument();
    expect(publish).not.toHaveBeenCalled();
  });
});

describe("Refresh from Nostr", () => {
  it("copies the valid fields of the latest Nostr profile into the profile and says Profile Refreshed!", async () => {
    const user = member({ displayName: null, bio: null, profilePicture: null, nip05: null, lightningAddress: null });
    const refreshed = { ...user, displayName: "Ada L.", bio: "Nostr bio", lightningAddress: "ada@getalby.com" };
    const api = mockApi({ "PATCH /api/user/me": () => refreshed, "GET /api/user/me": () => refreshed });
    fetchLatest.mockResolvedValue(kind0({ display_name: "Ada L.", about: "Nostr bio", picture: "ftp://nope", lud16: "ada@getalby.com" }));
    renderCard(user);

    await userEvent.click(screen.getByRole("button", { name: "Refresh from Nostr" }));

    expect(await findToast("Profile Refreshed!")).toBeInTheDocument();
    expect(fetchLatest).toHaveBeenCalledWith(pubkey);
    expect(api.callsTo("PATCH", "/api/user/me").map((c) => c.body)).toEqual([{ displayName: "Ada L.", bio: "Nostr bio", lightningAddress: "ada@getalby.com" }]);
    expect(api.callsTo("GET", "/api/user/me")).toHaveLength(1);
  });

  it("works without an extension, from the npub when the account has no hex key stored", async () => {
    const { npubEncode } = await import("nostr-tools/nip19");
    const user = member({ nostrPubkey: null, username: npubEncode(pubkey), displayName: null });
    const api = mockApi({ "PATCH /api/user/me": () => user, "GET /api/user/me": () => user });
    fetchLatest.mockResolvedValue(kind0({ name: "ada" }));
    renderCard(user);
    await userEvent.click(screen.getByRole("button", { name: "Refresh from Nostr" }));
    expect(await findToast("Profile Refreshed!")).toBeInTheDocument();
    expect(fetchLatest).toHaveBeenCalledWith(pubkey);
    expect(api.callsTo("PATCH", "/api/user/me")[0]!.body).toEqual({ displayName: "ada" });
  });

  it("sends nothing when the Nostr profile brings nothing new", async () => {
    const api = mockApi({});
    fetchLatest.mockResolvedValue(kind0({ display_name: "Ada", about: "Builds things" }));
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Refresh from Nostr" }));
    expect(await findToast("Profile Refreshed!")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
  });

  it("says No Profile Found when no relay has a profile for the key", async () => {
    const api = mockApi({});
    fetchLatest.mockResolvedValue(null);
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Refresh from Nostr" }));
    expect(await findToast("No Profile Found")).toBeInTheDocument();
    expect(await findToast("No Nostr profile found for your account.")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/user/me")).toHaveLength(0);
  });

  it("says Refresh Failed when the relays or the save fail", async () => {
    mockApi({ "PATCH /api/user/me": () => new Response(JSON.stringify({ message: "Display name must be at most 100 characters" }), { status: 400 }) });
    fetchLatest.mockResolvedValueOnce(kind0({ display_name: "Ada L." }));
    renderCard(member());
    await userEvent.click(screen.getByRole("button", { name: "Refresh from Nostr" }));
    expect(await findToast("Refresh Failed")).toBeInTheDocument();
    expect(await findToast("Display name must be at most 100 characters")).toBeInTheDocument();

    fetchLatest.mockRejectedValueOnce(new Error("Could not reach the relays"));
    await userEvent.click(screen.getByRole("button", { name: "Refresh from Nostr" }));
    expect(await findToast("Could not reach the relays")).toBeInTheDocument();
  });
});
