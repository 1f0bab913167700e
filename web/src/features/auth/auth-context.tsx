// The member session (SPEC.md §4 Session): loading at start; a stored token fetches the current user;
// success sets the user; the server refusing the session (401) removes the token and signs out. Any other
// failure (the network, the server) says nothing about the session: the member is kept (a member already
// shown stays shown) and `unreachable` offers a retry. Login stores token and user, logout clears both.
// A refresh re-fetches the user and only logs on failure. The token is read only in the browser, after hydrating
// the Worker's HTML (which is the visitor's page): the first render signs no one in (lib/hydration.tsx).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useDeferredValue, useMemo, useState, type ReactNode } from "react";
import type { OwnUser } from "../../../../domain/profile";
import { ApiError, apiJson, getSessionToken, SESSION_TOKEN_KEY } from "../../lib/api";
import { useHydrated } from "../../lib/hydration";
import { ME_PATH } from "../../lib/member-tab-paths";
import { forgetCurrentSigner } from "./signer";

export const authKeys = {
  /** GET /api/user/me (the key's parts are the path, SPEC.md §7). */
  me: () => [ME_PATH] as const,
};

export interface AuthContextValue {
  user: OwnUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  login: (sessionToken: string, user: OwnUser) => void;
  logout: () => void;
  /** Ends every session of the member on the server (this one too), then signs this tab out. */
  logoutEverywhere: () => Promise<void>;
  refreshUser: () => Promise<void>;
  /** The stored session could not be checked (not refused: the network or the server failed). */
  unreachable: boolean;
  /** Asks for the member again after `unreachable`. */
  retry: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function fetchCurrentUser(): Promise<OwnUser> {
  return apiJson<OwnUser>("GET", ME_PATH);
}

/** The session check (GET /api/user/me): the member, or null once the server has refused the session (forgotten then). */
export function meQuery() {
  return {
    queryKey: authKeys.me(),
    queryFn: async (): Promise<OwnUser | null> => {
      try {
        return await fetchCurrentUser();
      } catch (err) {
        // The server refused the session: forget it.
        if (err instanceof ApiError && err.status === 401) {
          localStorage.removeItem(SESSION_TOKEN_KEY);
          forgetCurrentSigner();
          return null;
        }
        // A request cut short (a reload, the network) or a server error says nothing about the session:
        // the query fails, keeping the member it had, and the token stays.
        throw err;
      }
    },
  };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  // Whether this browser held a token when the app started (read once hydrated); then what login and logout set.
  const heldAtStart = useMemo(() => hydrated && getSessionToken() !== null, [hydrated]);
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  const hasToken = signedIn ?? heldAtStart;

  const me = useQuery({ ...meQuery(), enabled: hasToken });

  const login = useCallback(
    (sessionToken: string, user: OwnUser) => {
      localStorage.setItem(SESSION_TOKEN_KEY, sessionToken);
      queryClient.setQueryData(authKeys.me(), user);
      setSignedIn(true);
    },
    [queryClient],
  );

  const forgetSession = useCallback(() => {
    localStorage.removeItem(SESSION_TOKEN_KEY);
    // The signer kept from sign-in (a remote signer's session too) goes with the member.
    forgetCurrentSigner();
    // Whatever was cached belonged to the member who just left.
    queryClient.removeQueries();
    queryClient.setQueryData(authKeys.me(), null);
    setSignedIn(false);
  }, [queryClient]);

  const logout = useCallback(() => {
    // The server forgets the session too; signing out here does not wait for it, nor depend on it.
    void apiJson("POST", "/api/auth/logout").catch(() => undefined);
    forgetSession();
  }, [forgetSession]);

  const logoutEverywhere = useCallback(async () => {
    // Here the server's answer matters: a failure leaves every session (this one too) as it was.
    await apiJson("POST", "/api/auth/logout-all");
    forgetSession();
  }, [forgetSession]);

  const refreshUser = useCallback(async () => {
    try {
      queryClient.setQueryData(authKeys.me(), await fetchCurrentUser());
    } catch (err) {
      console.error("Failed to refresh user", err);
    }
  }, [queryClient]);

  const user = hasToken ? (me.data ?? null) : null;
  const unreachable = hasToken && me.isError;
  const refetchMe = me.refetch;
  const retry = useCallback(() => void refetchMe(), [refetchMe]);
  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      isLoading: hasToken && me.isPending,
      isAuthenticated: user !== null,
      login,
      logout,
      logoutEverywhere,
      refreshUser,
      unreachable,
      retry,
    }),
    [user, hasToken, me.isPending, login, logout, logoutEverywhere, refreshUser, unreachable, retry],
  );

  // The session check's answer draws the member's whole first screen (their tab, the top bar's menus): TanStack
  // Query's store hands it to React as an update React renders in one go, a task as long as the screen on a phone
  // (Lighthouse's Total Blocking Time on the Active screen). That one change, from checking to checked, is given
  // as a deferred value instead: a transition React renders a few milliseconds at a time, the checking state
  // staying on screen until then. Every other change (sign-in, sign-out, a saved profile) is given at once.
  const deferred = useDeferredValue(value);
  const provided = deferred.isLoading && !value.isLoading ? deferred : value;

  return <AuthContext.Provider value={provided}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within AuthProvider");
  return value;
}
