// Read replicas (D1 Sessions API): each answer carries its bookmark; a member who sends it back reads their own
// writes; requests that change something start at the primary; a bookmark that is not one is ignored.
import { describe, expect, it } from "vitest";
import { BOOKMARK_HEADER, sessionStart } from "./d1-sessions";
import { api, signUp } from "./test/factories";

const A_BOOKMARK = "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683";

describe("where a request's D1 session starts", () => {
  it("at the primary for anything that changes state, whatever bookmark it sends", () => {
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      expect(sessionStart(method, A_BOOKMARK)).toBe("first-primary");
      expect(sessionStart(method, undefined)).toBe("first-primary");
    }
  });

  it("at the member's bookmark for a read, at the nearest copy without one or with one that is not a bookmark", () => {
    expect(sessionStart("GET", A_BOOKMARK)).toBe(A_BOOKMARK);
    expect(sessionStart("GET", undefined)).toBe("first-unconstrained");
    for (const forged of ["first-primary", "garbage", `${A_BOOKMARK}0`, "' OR 1=1 --"]) expect(sessionStart("GET", forged)).toBe("first-unconstrained");
  });
});

describe("bookmarks over HTTP", () => {
  it("a write's answer carries a bookmark; a read sent with it sees the write and answers a bookmark no older", async () => {
    const member = await signUp();
    const write = await api("/api/user/me", { method: "PATCH", token: member.token, json: { displayName: "Read my own write" } });
    expect(write.status).toBe(200);
    const written = write.headers.get(BOOKMARK_HEADER);
    expect(written).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);

    const read = await api("/api/user/me", { token: member.token, headers: { [BOOKMARK_HEADER]: written! } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { displayName: string }).displayName).toBe("Read my own write");
    expect(read.headers.get(BOOKMARK_HEADER)! >= written!).toBe(true);
  });

  it("answers a visitor's read with a bookmark, and ignores a bookmark header that is not one", async () => {
    const res = await api("/api/gigs?limit=1", { headers: { [BOOKMARK_HEADER]: "not-a-bookmark" } });
    expect(res.status).toBe(200);
    expect(res.headers.get(BOOKMARK_HEADER)).toMatch(/^[0-9a-f]{8}-/);
  });
});
