import { describe, expect, it } from "vitest";
import { DM_RELAYS_MAX, dmRelaysOfList, isRelayUrl, notificationDmContent } from "./nostr-dm";

describe("a notification's private message", () => {
  it("says the title, the message and the gig's page on the public origin", () => {
    expect(notificationDmContent({ title: "New Interest", message: 'Someone is interested in "Logo".', gigId: "g 1" }, "https://gigstr.app/")).toBe(
      'New Interest\n\nSomeone is interested in "Logo".\n\nhttps://gigstr.app/gig/g%201',
    );
  });

  it("goes without a link when the notification names no gig, or no origin is known", () => {
    expect(notificationDmContent({ title: "Lightning Address Changed", message: "Your payouts go to a@b.co.", gigId: null }, "https://gigstr.app")).toBe(
      "Lightning Address Changed\n\nYour payouts go to a@b.co.",
    );
    expect(notificationDmContent({ title: "New Review", message: "5 stars.", gigId: "g1" }, null)).toBe("New Review\n\n5 stars.");
  });
});

describe("a member's DM relays (kind 10050)", () => {
  it("are the list's relay tags, in order, relay URLs only, without repeats, at most DM_RELAYS_MAX", () => {
    const tags = [
      ["relay", "wss://inbox.nostr.wine"],
      ["r", "wss://not-a-relay-tag.example"],
      ["relay", "https://not.a.relay"],
      ["relay", "wss://inbox.nostr.wine"],
      ["relay", " ws://127.0.0.1:7777 "],
      ["relay"],
      ["relay", "wss://auth.nostr1.com"],
      ["relay", "wss://one-too-many.example"],
    ];
    expect(DM_RELAYS_MAX).toBe(3);
    expect(dmRelaysOfList(tags)).toEqual(["wss://inbox.nostr.wine", "ws://127.0.0.1:7777", "wss://auth.nostr1.com"]);
    expect(dmRelaysOfList([])).toEqual([]);
  });

  it("a relay URL is ws:// or wss:// with a host", () => {
    expect(isRelayUrl("wss://relay.damus.io")).toBe(true);
    expect(isRelayUrl("ws://127.0.0.1:4869")).toBe(true);
    for (const bad of ["http://relay.example", "relay.damus.io", "wss://", "", `wss://${"a".repeat(300)}.io`]) expect(isRelayUrl(bad)).toBe(false);
  });
});
