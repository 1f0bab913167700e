// The API client keeps the newest D1 bookmark it was answered with and sends it back, so a member's reads
// come from a copy of the database at least as new as their last answer (the Worker's read replicas).
// And the one place an error becomes words for a person: a network failure never reads "Failed to fetch".
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiJson, BOOKMARK_KEY, errorText, isNetworkError, NO_CONNECTION_TEXT } from "./api";
import { noteAnswer } from "./connectivity";

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

describe("errorText: a request that got no answer is said in plain words, in every browser's wording", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    noteAnswer();
  });

  it("maps Chrome's, Firefox's and Safari's network errors to one sentence", () => {
    for (const raw of ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed"]) {
      expect(isNetworkError(new TypeError(raw))).toBe(true);
      expect(errorText(new TypeError(raw), "Please try again.")).toBe(NO_CONNECTION_TEXT);
    }
    expect(NO_CONNECTION_TEXT).not.toMatch(/fetch|network ?error|load failed/i);
  });

  it("says the same for a real request that never got an answer", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockRejectedValue(new TypeError("Failed to fetch")));
    const failed = await apiJson("GET", "/api/gigs").catch((err: unknown) => err);
    expect(errorText(failed)).toBe("Gigstr could not be reached. Check your internet connection and try again.");
  });

  it("keeps the server's words for an answer, and other errors' own words", () => {
    expect(errorText(new ApiError(409, JSON.stringify({ message: "Gig already claimed" }), "409: ..."))).toBe("Gig already claimed");
    expect(errorText(new Error("The extension did not sign"))).toBe("The extension did not sign");
    expect(isNetworkError(new Error("Gig not found"))).toBe(false);
    expect(errorText(undefined, "Please try again.")).toBe("Please try again.");
  });
});
