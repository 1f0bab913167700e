// The admin session (SPEC.md §4 Admin session, §6 Administrator): the admin token lives in
// sessionStorage and travels in x-admin-token. The session ends on logout, on a failed admin data
// fetch and on a blocked sign-in; ending it drops the token and every cached admin answer.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { ADMIN_TOKEN_HEADER } from "../../../../domain/admin";
import { apiRequest, readJson } from "../../lib/api";

export const ADMIN_TOKEN_KEY = "adminToken";

export function storedAdminToken(): string | null {
  try {
    return sessionStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** A request as the admin: the app's API client plus the admin token header. */
export async function adminRequest(token: string | null, method: string, path: string, body?: unknown): Promise<Response> {
  return apiRequest(method, path, body, token ? { [ADMIN_TOKEN_HEADER]: token } : {});
}

export async function adminJson<T>(token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  return readJson<T>(await adminRequest(token, method, path, body));
}

/** Query keys of the admin's reads; they all start with an admin path (SPEC.md §7: key parts make the path). */
export const isAdminQueryKey = (key: readonly unknown[]) => {
  const head = String(key[0] ?? "");
  return head.startsWith("/api/admin") || head.startsWith("/api/gig-reports");
};

interface AdminSession {
  token: string | null;
  /** Keeps the token of a successful sign-in. */
  start: (token: string) => void;
  /** Drops the token and every cached admin answer: back to the PIN screen. */
  end: () => void;
}

const AdminSessionContext = createContext<AdminSession | null>(null);

export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(storedAdminToken);

  const start = useCallback((next: string) => {
    sessionStorage.setItem(ADMIN_TOKEN_KEY, next);
    setToken(next);
  }, []);

  const end = useCallback(() => {
    sessionStorage.removeItem(ADMIN_TOKEN_KEY);
    setToken(null);
    queryClient.removeQueries({ predicate: (q) => isAdminQueryKey(q.queryKey) });
  }, [queryClient]);

  const value = useMemo(() => ({ token, start, end }), [token, start, end]);
  return <AdminSessionContext.Provider value={value}>{children}</AdminSessionContext.Provider>;
}

export function useAdminSession(): AdminSession {
  const session = useContext(AdminSessionContext);
  if (!session) throw new Error("useAdminSession must be used within AdminSessionProvider");
  return session;
}
