// Each check of a login event on its own (the route tests cover them together).
import { describe, expect, it } from "vitest";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { checkChallenge, checkHttpAuth, checkKind, checkRelay, checkSignature, checkTimestamp, nostrEventSchema, plainLoginEvent, siteOrigins, type LoginEvent } from "./nostr-login";

const CHALLENGE = "ab".repeat(32);
const SITE = ["https://gigstr.example"];
const now = () => Math.floor(Date.now() / 1000);

function signed(kind: number, tags: string[][], content = "", createdAt = now()): LoginEvent {
  // Through JSON, as a request brings it (nostr-tools marks the events it signs as verified).
  return JSON.parse(JSON.stringify(finalizeEvent({ kind, created_at: createdAt, tags, content }, generateSecretKey())));
}

describe("login event checks", () => {
  it("checkKind: kind 22242 and NIP-98's 27235 only; kind 1 is told to sign 22242", () => {
    expect(checkKind(signed(22242, []))).toBeNull();
    expect(checkKind(signed(27235, []))).toBeNull();
    expect(checkKind(signed(1, [], CHALLENGE))).toBe(
      "Sign-in needs a kind 22242 event naming this site (or NIP-98 kind 27235); kind 1 notes are not accepted",
    );
    expect(checkKind(signed(4, []))).toMatch(/kind 22242 .*; kind 4 events are not accepted/);
  });

  it("checkChallenge: a `challenge` tag on either kind; the content does not count", () => {
    expect(checkChallenge(signed(22242, [["challenge", CHALLENGE]]), CHALLENGE)).toBeNull();
    expect(checkChallenge(signed(27235, [["challenge", CHALLENGE]]), CHALLENGE)).toBeNull();
    expect(checkChallenge(signed(22242, [["challenge", "other"]]), CHALLENGE)).toMatch(/challenge/);
    expect(checkChallenge(signed(22242, [], CHALLENGE), CHALLENGE)).toMatch(/challenge/);
    expect(checkChallenge(signed(27235, [], CHALLENGE), CHALLENGE)).toMatch(/challenge/);
  });

  it("checkHttpAuth: a 27235 login names this site's verify URL exactly, and POST", () => {
    const url = "https://gigstr.example/api/auth/nostr/verify";
    expect(checkHttpAuth(signed(27235, [["u", url], ["method", "POST"]]), SITE)).toBeNull();
    expect(checkHttpAuth(signed(27235, [["u", "https://other.example/api/auth/nostr/verify"], ["method", "POST"]]), ["https://other.example", ...SITE])).toBeNull();
    for (const u of ["https://evil.example/api/auth/nostr/verify", `${url}/`, `${url}?a=1`, "https://gigstr.example", "https://gigstr.example.evil.test/api/auth/nostr/verify"]) {
      expect(checkHttpAuth(signed(27235, [["u", u], ["method", "POST"]]), SITE)).toBe(
        "Login event must name this site's verify URL (https://gigstr.example/api/auth/nostr/verify) in its u tag",
      );
    }
    expect(checkHttpAuth(signed(27235, [["method", "POST"]]), SITE)).toMatch(/u tag/);
    expect(checkHttpAuth(signed(27235, [["u", url], ["method", "GET"]]), SITE)).toMatch(/POST method/);
    expect(checkHttpAuth(signed(27235, [["u", url]]), SITE)).toMatch(/POST method/);
    // Only 27235 is asked for a URL; 22242 answers to its relay tag.
    expect(checkHttpAuth(signed(22242, [["relay", "https://gigstr.example"]]), SITE)).toBeNull();
  });

  it("checkRelay: a 22242 login names one of this site's origins; 27235 names a URL instead", () => {
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example"]]), SITE)).toBeNull();
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example/"]]), SITE)).toBeNull();
    expect(checkRelay(signed(22242, [["relay", "wss://relay.damus.io"]]), SITE)).toBe(
      "Login event must name this site (https://gigstr.example) in its relay tag",
    );
    expect(checkRelay(signed(22242, []), SITE)).toMatch(/relay tag/);
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example.evil.test"]]), SITE)).toMatch(/relay tag/);
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example/path"]]), SITE)).toMatch(/relay tag/);
    expect(checkRelay(signed(27235, [["u", "https://gigstr.example/api/auth/nostr/verify"]]), SITE)).toBeNull();
  });

  it("siteOrigins: the request's origin, and https://ALIAS_DOMAIN when set", () => {
    expect(siteOrigins("http://127.0.0.1:8787/api/auth/nostr/verify")).toEqual(["http://127.0.0.1:8787"]);
    expect(siteOrigins("https://gigstr-prod.workers.dev/api/auth/nostr/verify", "gigstr.example")).toEqual([
      "https://gigstr-prod.workers.dev",
      "https://gigstr.example",
    ]);
    expect(siteOrigins("https://gigstr.example/api/auth/nostr/verify", "gigstr.example")).toEqual(["https://gigstr.example"]);
  });

  it("checkTimestamp: within ten minutes of now", () => {
    expect(checkTimestamp(signed(22242, [], "", now() - 500), now())).toBeNull();
    expect(checkTimestamp(signed(22242, [], "", now() - 700), now())).toMatch(/too old/);
    expect(checkTimestamp(signed(22242, [], "", now() + 700), now())).toMatch(/in the future/);
  });

  it("checkSignature: a changed field breaks it", () => {
    const event = signed(22242, [["challenge", CHALLENGE]]);
    expect(checkSignature(event)).toBeNull();
    expect(checkSignature({ ...event, tags: [...event.tags, ["relay", "https://gigstr.example"]] })).toBe("Invalid signature");
  });

  it("the schema bounds tags and content", () => {
    const ok = signed(22242, [["challenge", CHALLENGE]]);
    expect(nostrEventSchema.safeParse(ok).success).toBe(true);
    expect(nostrEventSchema.safeParse({ ...ok, tags: Array.from({ length: 11 }, () => ["t", "x"]) }).success).toBe(false);
    expect(nostrEventSchema.safeParse({ ...ok, tags: [["a", "b", "c", "d", "e"]] }).success).toBe(false);
    expect(nostrEventSchema.safeParse({ ...ok, tags: [["a", "b".repeat(257)]] }).success).toBe(false);
    expect(nostrEventSchema.safeParse({ ...ok, content: "c".repeat(1001) }).success).toBe(false);
  });

  it("plainLoginEvent (the sign-in's check by hand) accepts only what the schema accepts, and gives what it gives", () => {
    const ok = signed(22242, [["challenge", CHALLENGE], ["relay", "https://gigstr.example"]]);
    const variants: unknown[] = [
      ok,
      { ...ok, extra: "dropped" },
      signed(27235, [["u", "https://gigstr.example/api/auth/nostr/verify"], ["method", "POST"], ["challenge", CHALLENGE]]),
      { ...ok, tags: Array.from({ length: 10 }, () => ["t", "x", "y", "z"]) },
      { ...ok, tags: [["a", "b".repeat(256)]], content: "c".repeat(1000) },
      { ...ok, tags: [] },
      { ...ok, tags: [[]] },
      { ...ok, created_at: 0, kind: 0 },
      // What the schema refuses, each in its own way.
      null,
      [],
      "event",
      { ...ok, id: ok.id.toUpperCase() },
      { ...ok, id: ok.id.slice(1) },
      { ...ok, pubkey: 7 },
      { ...ok, sig: `${ok.sig}0` },
      { ...ok, created_at: -1 },
      { ...ok, created_at: 1.5 },
      { ...ok, created_at: String(ok.created_at) },
      { ...ok, created_at: 2 ** 60 },
      { ...ok, kind: null },
      { ...ok, tags: "challenge" },
      { ...ok, tags: [["a", 1]] },
      { ...ok, tags: [{ 0: "a" }] },
      { ...ok, tags: Array.from({ length: 11 }, () => ["t", "x"]) },
      { ...ok, tags: [["a", "b", "c", "d", "e"]] },
      { ...ok, tags: [["a", "b".repeat(257)]] },
      { ...ok, content: "c".repeat(1001) },
      { ...ok, content: null },
      Object.fromEntries(Object.entries(ok).filter(([key]) => key !== "sig")),
    ];
    for (const value of variants) {
      const parsed = nostrEventSchema.safeParse(value);
      const plain = plainLoginEvent(value);
      if (plain !== null) expect(parsed).toEqual({ success: true, data: plain });
      else if (value === ok) throw new Error("a well-formed event must pass the check by hand");
    }
    expect(plainLoginEvent(ok)).toEqual(ok);
    expect(plainLoginEvent({ ...ok, extra: "dropped" })).toEqual(ok);
    expect(variants.filter((v) => plainLoginEvent(v) !== null)).toHaveLength(8);
  });
});
