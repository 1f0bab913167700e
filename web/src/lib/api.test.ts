// The API client keeps the newest D1 bookmark it was answered with and sends it back, so a member's reads
// come from a copy of the database at least as new as their last answer (the Worker's read replicas).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiJson, BOOKMARK_KEY } from "./api";

const OLDER = "00000001-00000002-00000003-00000000000000000000000000000000";
const NEWER = "00000001-00000009-00000003-00000000000000000000000000000000";

function answerWith(bookmark: string | null) {
  return new Response("{}", { status: 200, headers: bookmark ? { "x-d1-bookmark": bookmark } : {} });
}

describe("D1 bookmarks in the API client", () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.removeItem(BOOKMARK_KEY);
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });
  const sentBookmark = (call: number) => new Headers(fetchMock.mock.calls[call]![1]!.headers).get("x-d1-bookmark");

  it("sends none at first, then the newest it was answered with, never going back to an older one", async () => {
    fetchMock.mockResolvedValueOnce(answerWith(NEWER)).mockResolvedValueOnce(answerWith(OLDER)).mockResolvedValueOnce(answerWith(null));
    await apiJson("PATCH", "/api/user/me", { displayName: "x" });
    await apiJson("GET", "/api/user/me");
    await apiJson("GET", "/api/gigs");
    expect(sentBookmark(0)).toBeNull();
    expect(sentBookmark(1)).toBe(NEWER);
    expect(sentBookmark(2)).toBe(NEWER);
    expect(localStorage.getItem(BOOKMARK_KEY)).toBe(NEWER);
  });
});
