import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { createQueryClient } from "../../lib/query-client";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { AuthProvider, useAuth } from "./auth-context";
import { currentSigner, REMOTE_SESSION_KEY, setCurrentSigner } from "./signer";

function SessionView() {
  const { user, isLoading, login, logout, unreachable, retry } = useAuth();
  return (
    <div>
      <p>{isLoading ? "loading" : user ? `signed in as ${user.displayName}` : unreachable ? "unreachable, retry offered" : "signed out"}</p>
      <button onClick={() => login("new-token", makeUser({ displayName: "Hal" }))}>login</button>
      <button onClick={logout}>logout</button>
      <button onClick={retry}>retry</button>
    </div>
  );
}

function renderSession() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider>
        <SessionView />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

describe("useAuth", () => {
  it("throws outside AuthProvider", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => renderHook(() => useAuth())).toThrow("useAuth must be used within AuthProvider");
  });
});

describe("AuthProvider session", () => {
  it("is signed out without a stored token and asks the server nothing", () => {
    const api = mockApi({});
    renderSession();
    expect(screen.getByText("signed out")).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it("loads the user of a stored token, sending it as a bearer token", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "stored-token");
    const api = mockApi({ "GET /api/user/me": () => makeUser({ displayName: "Ada" }) });
    renderSession();
    expect(screen.getByText("loading")).toBeInTheDocument();
    expect(await screen.findByText("signed in as Ada")).toBeInTheDocument();
    expect(api.calls[0]!.headers.Authorization).toBe("Bearer stored-token");
  });

  it("drops a token the server rejects and ends loading signed out", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "expired-token");
    mockApi({ "GET /api/user/me": () => apiError(401, "Authentication required", "unauthorized") });
    renderSession();
    expect(await screen.findByText("signed out")).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });

  it("keeps the token when the request fails without the server refusing it, says so, and signs in on a retry", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "good-token");
    let down = true;
    mockApi({
      "GET /api/user/me": () => {
        if (down) throw new TypeError("Failed to fetch");
        return makeUser({ displayName: "Ada" });
      },
    });
    renderSession();
    expect(await screen.findByText("unreachable, retry offered")).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("good-token");
    down = false;
    act(() => screen.getByText("retry").click());
    expect(await screen.findByText("signed in as Ada")).toBeInTheDocument();
  });

  it.each([500, 503])("keeps a member already shown when a later read of them fails with %i, and offers a retry", async (status) => {
    localStorage.setItem(SESSION_TOKEN_KEY, "stored-token");
    let fail = false;
    mockApi({ "GET /api/user/me": () => (fail ? apiError(status, "Something went wrong") : makeUser({ displayName: "Ada" })) });
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <AuthProvider>
          <SessionView />
        </AuthProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText("signed in as Ada")).toBeInTheDocument();
    fail = true;
    await act(() => client.refetchQueries({ queryKey: ["/api/user/me"] }));
    expect(screen.getByText("signed in as Ada")).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("stored-token");
  });

  it("login stores the token and the user; logout clears both and asks the server to end that session", async () => {
    const api = mockApi({ "POST /api/auth/logout": () => ({ success: true }) });
    renderSession();
    act(() => screen.getByText("login").click());
    expect(screen.getByText("signed in as Hal")).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("new-token");

    act(() => screen.getByText("logout").click());
    expect(screen.getByText("signed out")).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    await waitFor(() => expect(api.callsTo("POST", "/api/auth/logout")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/auth/logout")[0]!.headers.Authorization).toBe("Bearer new-token");
    expect(api.calls).toHaveLength(1);
  });

  it("logout also forgets the remote signer kept for this tab, and its stored session", async () => {
    mockApi({ "POST /api/auth/logout": () => ({ success: true }) });
    renderSession();
    act(() => screen.getByText("login").click());
    const close = vi.fn();
    const session = { clientSecretKey: "11".repeat(32), remotePubkey: "22".repeat(32), relays: ["wss://r.test"], userPubkey: "33".repeat(32) };
    setCurrentSigner({ kind: "remote", session, getPublicKey: async () => session.userPubkey, signEvent: vi.fn(), close });
    expect(sessionStorage.getItem(REMOTE_SESSION_KEY)).not.toBeNull();

    act(() => screen.getByText("logout").click());
    expect(close).toHaveBeenCalled();
    expect(currentSigner()).toBeNull();
    expect(sessionStorage.getItem(REMOTE_SESSION_KEY)).toBeNull();
  });

  it("refreshUser keeps the session and only logs when the refresh fails", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "stored-token");
    let fail = false;
    mockApi({ "GET /api/user/me": () => (fail ? apiError(500, "boom") : makeUser({ displayName: "Ada" })) });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { result } = renderHook(() => useAuth(), {
      wrapper: ({ children }) => (
        <QueryClientProvider client={createQueryClient()}>
          <AuthProvider>{children}</AuthProvider>
        </QueryClientProvider>
      ),
    });
    await waitFor(() => expect(result.current.user?.displayName).toBe("Ada"));
    fail = true;
    await act(() => result.current.refreshUser());
    expect(result.current.user?.displayName).toBe("Ada");
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("stored-token");
    expect(errors).toHaveBeenCalled();
  });
});
