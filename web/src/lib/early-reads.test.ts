// A read started while the app starts (a member's Active tab) answers the screen's own first request for the
// same path, once, and only with the session it was made with: a sign-out or another member asks afresh.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiJson, apiRequest, SESSION_TOKEN_KEY } from "./api";
import { startEarlyRead, takeEarlyRead } from "./early-reads";

describe("early reads", () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.setItem(SESSION_TOKEN_KEY, "token-a");
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    localStorage.removeItem(SESSION_TOKEN_KEY);
    takeEarlyRead("GET", "/api/user/me", "token-a");
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it("answers the screen's first GET of the path without asking again, and the next one asks", async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"id":"early"}')).mockResolvedValueOnce(new Response('{"id":"again"}'));
    startEarlyRead("/api/user/me", "token-a", () => apiRequest("GET", "/api/user/me"));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(new Headers(fetchMock.mock.calls[0]![1]!.headers).get("authorization")).toBe("Bearer token-a");
    expect(await apiJson("GET", "/api/user/me")).toEqual({ id: "early" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await apiJson("GET", "/api/user/me")).toEqual({ id: "again" });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("is not used with another session, nor for another path or method", async () => {
    fetchMock.mockImplementation(async () => new Response('{"id":"x"}'));
    startEarlyRead("/api/user/me", "token-a", () => apiRequest("GET", "/api/user/me"));
    await apiJson("GET", "/api/user/payouts");
    await apiJson("PATCH", "/api/user/me", { displayName: "x" });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    localStorage.setItem(SESSION_TOKEN_KEY, "token-b");
    await apiJson("GET", "/api/user/me");
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(new Headers(fetchMock.mock.calls[3]![1]!.headers).get("authorization")).toBe("Bearer token-b");
  });

  it("hands the screen the server's refusal as its own request would (a stale session is forgotten by the caller)", async () => {
    fetchMock.mockResolvedValueOnce(new Response("no session", { status: 401 }));
    startEarlyRead("/api/user/me", "token-a", () => apiRequest("GET", "/api/user/me"));
    await expect(apiJson("GET", "/api/user/me")).rejects.toMatchObject({ status: 401 });
  });
});
