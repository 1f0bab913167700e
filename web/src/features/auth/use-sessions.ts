// The member's login sessions (GET /api/auth/sessions) and ending one of them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SessionView } from "../../../../domain/session";
import { apiJson } from "../../lib/api";

export const sessionKeys = {
  list: () => ["/api/auth/sessions"] as const,
};

export function useSessions(enabled = true) {
  return useQuery({ queryKey: sessionKeys.list(), queryFn: () => apiJson<SessionView[]>("GET", "/api/auth/sessions"), enabled });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<{ success: true }>("DELETE", `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.list() }),
  });
}
