// Reading a pasted bunker:// link: what is accepted, and what each wrong paste is told.
import { describe, expect, it } from "vitest";
import { BUNKER_URL_TEXTS, isCancelled, parseBunkerUrl, readRemoteSession, RemoteSignerError } from "./remote-signer-url";

const KEY = "a1".repeat(32);

function problemOf(input: string): string {
  try {
    parseBunkerUrl(input);
  } catch (err) {
    expect(err).toBeInstanceOf(RemoteSignerError);
    expect((err as RemoteSignerError).problem).toBe("bad-url");
    return (err as Error).message;
  }
  throw new Error(`accepted ${input}`);
}

describe("parseBunkerUrl", () => {
  it("reads the signer's key, its relays and the secret, encoded or not", () => {
    expect(parseBunkerUrl(`bunker://${KEY}?relay=wss%3A%2F%2Frelay.nsec.app&relay=wss://nos.lol&secret=abc123`)).toEqual({
      pubkey: KEY,
      relays: ["wss://relay.nsec.app", "wss://nos.lol"],
      secret: "abc123",
    });
  });

  it("takes surrounding spaces, an upper-case key, a repeated relay and no secret", () => {
    expect(parseBunkerUrl(`  bunker://${KEY.toUpperCase()}?relay=ws://127.0.0.1:7777&relay=ws://127.0.0.1:7777 \n`)).toEqual({
      pubkey: KEY,
      relays: ["ws://127.0.0.1:7777"],
      secret: null,
    });
  });

  it.each([
    ["", BUNKER_URL_TEXTS.empty],
    ["   ", BUNKER_URL_TEXTS.empty],
    ["nsec1abc", BUNKER_URL_TEXTS.notBunker],
    ["alice@nsec.app", BUNKER_URL_TEXTS.notBunker],
    [`https://${KEY}`, BUNKER_URL_TEXTS.notBunker],
    [`nostrconnect://${KEY}?relay=wss://r.test&secret=s`, BUNKER_URL_TEXTS.nostrconnect],
    [`bunker://${KEY.slice(2)}?relay=wss://r.test`, BUNKER_URL_TEXTS.badKey],
    [`bunker://npub1xyz?relay=wss://r.test`, BUNKER_URL_TEXTS.badKey],
    [`bunker://${KEY}`, BUNKER_URL_TEXTS.noRelay],
    [`bunker://${KEY}?secret=s`, BUNKER_URL_TEXTS.noRelay],
    [`bunker://${KEY}?relay=https://relay.test`, BUNKER_URL_TEXTS.badRelay("https://relay.test")],
    [`bunker://${KEY}?relay=relay.test`, BUNKER_URL_TEXTS.badRelay("relay.test")],
  ])("refuses %j", (input, message) => {
    expect(problemOf(input)).toBe(message);
  });
});

describe("isCancelled", () => {
  it("finds a Cancel however deeply it is wrapped, and nothing else", () => {
    const cancel = new RemoteSignerError("cancelled", "Cancelled.");
    expect(isCancelled(cancel)).toBe(true);
    expect(isCancelled(new Error("Login failed", { cause: cancel }))).toBe(true);
    expect(isCancelled(new RemoteSignerError("timeout", "late"))).toBe(false);
    expect(isCancelled("Cancelled.")).toBe(false);
  });
});

describe("readRemoteSession", () => {
  const session = { clientSecretKey: "11".repeat(32), remotePubkey: KEY, relays: ["wss://r.test"], userPubkey: "22".repeat(32) };

  it("reads back a kept session", () => {
    expect(readRemoteSession(JSON.parse(JSON.stringify(session)))).toEqual(session);
  });

  it.each([null, "text", { ...session, clientSecretKey: "xyz" }, { ...session, relays: [] }, { ...session, relays: ["https://r.test"] }, { ...session, userPubkey: undefined }])(
    "refuses %j",
    (value) => {
      expect(readRemoteSession(value)).toBeNull();
    },
  );
});
