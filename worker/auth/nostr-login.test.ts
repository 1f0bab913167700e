// Each check of a login event on its own (the route tests cover them together).
import { describe, expect, it } from "vitest";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { checkChallenge, checkKind, checkRelay, checkSignature, checkTimestamp, nostrEventSchema, siteOrigins, type LoginEvent } from "./nostr-login";

const CHALLENGE = "ab".repeat(32);
const SITE = ["https://gigstr.example"];
const now = () => Math.floor(Date.now() / 1000);

function signed(kind: number, tags: string[][], content = "", createdAt = now()): LoginEvent {
  // Through JSON, as a request brings it (nostr-tools marks the events it signs as verified).
  return JSON.parse(JSON.stringify(finalizeEvent({ kind, created_at: createdAt, tags, content }, generateSecretKey())));
}

describe("login event checks", () => {
  it("checkKind: kind 1 and 22242 only", () => {
    expect(checkKind(signed(22242, []))).toBeNull();
    expect(checkKind(signed(1, []))).toBeNull();
    expect(checkKind(signed(4, []))).toMatch(/kind 1 or 22242/);
  });

  it("checkChallenge: a `challenge` tag on 22242, the content on kind 1", () => {
    expect(checkChallenge(signed(22242, [["challenge", CHALLENGE]]), CHALLENGE)).toBeNull();
    expect(checkChallenge(signed(22242, [["challenge", "other"]]), CHALLENGE)).toMatch(/challenge/);
    expect(checkChallenge(signed(22242, [], CHALLENGE), CHALLENGE)).toMatch(/challenge/);
    expect(checkChallenge(signed(1, [], CHALLENGE), CHALLENGE)).toBeNull();
  });

  it("checkRelay: a 22242 login names one of this site's origins; kind 1 carries none", () => {
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example"]]), SITE)).toBeNull();
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example/"]]), SITE)).toBeNull();
    expect(checkRelay(signed(22242, [["relay", "wss://relay.damus.io"]]), SITE)).toBe(
      "Login event must name this site (https://gigstr.example) in its relay tag",
    );
    expect(checkRelay(signed(22242, []), SITE)).toMatch(/relay tag/);
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example.evil.test"]]), SITE)).toMatch(/relay tag/);
    expect(checkRelay(signed(22242, [["relay", "https://gigstr.example/path"]]), SITE)).toMatch(/relay tag/);
    expect(checkRelay(signed(1, [], CHALLENGE), SITE)).toBeNull();
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
});
