import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/factories";
import { parseProfileMetadata, profileEditFromMetadata, profileMetadataFromUser } from "./profile-metadata";

describe("profileMetadataFromUser", () => {
  it("writes name, display_name, about, picture, nip05 and the Lightning address as lud16", () => {
    const user = makeUser({
      displayName: "Ada",
      bio: "Builds things",
      profilePicture: "https://example.com/ada.png",
      nip05: "ada@example.com",
      lightningAddress: "ada@getalby.com",
    });
    expect(profileMetadataFromUser(user)).toEqual({
      name: "Ada",
      display_name: "Ada",
      about: "Builds things",
      picture: "https://example.com/ada.png",
      nip05: "ada@example.com",
      lud16: "ada@getalby.com",
    });
  });

  it("prefers the claimed alias address for lud16", () => {
    const user = makeUser({ lightningAddress: "ada@getalby.com", gigstrAlias: "ada", gigstrAliasAddress: "ada@gigstr.test" });
    expect(profileMetadataFromUser(user).lud16).toBe("ada@gigstr.test");
  });

  it("names the member by their alias for NIP-05 when they have set no identifier of their own", () => {
    const withAlias = makeUser({ nip05: null, gigstrAlias: "ada", gigstrAliasAddress: "ada@gigstr.test" });
    expect(profileMetadataFromUser(withAlias).nip05).toBe("ada@gigstr.test");
    const ownToo = makeUser({ nip05: "ada@example.com", gigstrAlias: "ada", gigstrAliasAddress: "ada@gigstr.test" });
    expect(profileMetadataFromUser(ownToo).nip05).toBe("ada@example.com");
  });

  it("puts an LNURL in lud06, not lud16", () => {
    const lnurl = "lnurl1dp68gurn8ghj7um9wfmxjcm99e3k7mf0v9cxj0m385ekvcenxc6r2c35xvukxefcv5mkvv34x5ekzd3ev56nyd3hxqurzepexejxxepnxscrvwfnv9nxzcn9xq6xyefhvgcxxcmyxymnserxfq5fns";
    const metadata = profileMetadataFromUser(makeUser({ lightningAddress: lnurl }));
    expect(metadata.lud06).toBe(lnurl);
    expect(metadata).not.toHaveProperty("lud16");
  });

  it("keeps the current Nostr profile's other fields, and its values where Gigstr has none", () => {
    const user = makeUser({ displayName: "Ada", bio: null, profilePicture: null, nip05: null, lightningAddress: null });
    const current = { name: "ada_old", about: "My Nostr bio", banner: "https://example.com/b.png", website: "https://ada.dev" };
    expect(profileMetadataFromUser(user, current)).toEqual({
      name: "Ada",
      display_name: "Ada",
      about: "My Nostr bio",
      banner: "https://example.com/b.png",
      website: "https://ada.dev",
    });
  });
});

describe("parseProfileMetadata", () => {
  it("reads a JSON object and refuses anything else", () => {
    expect(parseProfileMetadata('{"name":"Ada"}')).toEqual({ name: "Ada" });
    expect(parseProfileMetadata("not json")).toBeNull();
    expect(parseProfileMetadata("[1,2]")).toBeNull();
    expect(parseProfileMetadata("null")).toBeNull();
    expect(parseProfileMetadata('"Ada"')).toBeNull();
  });
});

describe("profileEditFromMetadata", () => {
  const blank = () => makeUser({ displayName: null, bio: null, profilePicture: null, nip05: null, lightningAddress: null });

  it("copies display name, about, picture, nip05 and lud16 when they are valid", () => {
    const edit = profileEditFromMetadata(
      { display_name: "Ada L.", name: "ada", about: "Builds things", picture: "https://example.com/a.png", nip05: "ada@example.com", lud16: "ada@getalby.com" },
      blank(),
    );
    expect(edit).toEqual({
      displayName: "Ada L.",
      bio: "Builds things",
      profilePicture: "https://example.com/a.png",
      nip05: "ada@example.com",
      lightningAddress: "ada@getalby.com",
    });
  });

  it("falls back to name when there is no display_name", () => {
    expect(profileEditFromMetadata({ name: "ada", display_name: "  " }, blank())).toEqual({ displayName: "ada" });
  });

  it("leaves out values Gigstr would refuse", () => {
    const edit = profileEditFromMetadata(
      {
        display_name: 42,
        about: "x".repeat(1001),
        picture: "javascript:alert(1)",
        nip05: "not an identifier",
        lud16: "someone@gmail.com",
      },
      blank(),
    );
    expect(edit).toEqual({});
  });

  it("leaves out a Lightning address that is not one", () => {
    expect(profileEditFromMetadata({ lud16: "lnurl-nope" }, blank())).toEqual({});
  });

  it("leaves out what already matches, and never makes the member's own alias their payout address", () => {
    const user = makeUser({ displayName: "Ada", lightningAddress: "ada@getalby.com", gigstrAlias: "ada", gigstrAliasAddress: "ada@gigstr.test" });
    expect(profileEditFromMetadata({ display_name: "Ada", lud16: "ADA@gigstr.test" }, user)).toEqual({});
  });
});
