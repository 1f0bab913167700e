// The bell's reads and marks (SPEC.md §7 Notifications). Queries run only for a signed-in member.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiJson } from "../../lib/api";
import { authKeys, useAuth } from "../auth/auth-context";
import type { NotificationView } from "../../../../domain/notifications";
import { useInboxSocket } from "./use-inbox-socket";

export type AppNotification = NotificationView;

export const notificationKeys = {
  all: () => ["/api/notifications"] as const,
  unreadCount: () => ["/api/notifications/unread-count"] as const,
};

/** The unread count is read this often while the inbox socket is down (use-inbox-socket.ts); while it is open, the count is pushed. */
export const UNREAD_POLL_MS = 30_000;

/** The count answer: a number (SPEC.md §7), or {count} from older servers. */
export function countFromAnswer(answer: unknown): number {
  if (typeof answer === "number") return answer;
  if (answer && typeof answer === "object" && typeof (answer as { count?: unknown }).count === "number") return (answer as { count: number }).count;
  return 0;
}

/** What a new notification may have changed for this member: their gigs (lists and each gig), and their stats. */
const CHANGED_BY_OTHERS = [["/api/gigs"], authKeys.me()] as const;

/**
 * The unread count, pushed by the inbox socket (read every UNREAD_POLL_MS while it is down). When it grows, someone else did something that concerns the
 * member (approved their work, claimed their gig, ...): their gigs and stats are read again, so the Active
 * screen and the profile's counts follow without a reload.
 */
export function useUnreadCount() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // A pushed count is newer than any read of it still under way (the page's first read may answer after the
  // socket's frame, with the count from before): that read is cancelled before the pushed count is kept.
  const pushed = (count: number) =>
    void queryClient.cancelQueries({ queryKey: notificationKeys.unreadCount() }).then(() => queryClient.setQueryData(notificationKeys.unreadCount(), count));
  const listening = useInboxSocket(user?.id, (frame) => {
    if (frame.type === "unread_count") pushed(frame.count);
    else if (frame.type === "notification") pushed(frame.unreadCount);
  });
  const count = useQuery({
    queryKey: notificationKeys.unreadCount(),
    queryFn: async () => countFromAnswer(await apiJson<unknown>("GET", "/api/notifications/unread-count")),
    enabled: !!user,
    refetchInterval: listening ? false : UNREAD_POLL_MS,
  });
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (count.data === undefined) return;
    const before = seen.current;
    seen.current = count.data;
    if (before === undefined || count.data <= before) return;
    for (const queryKey of [...CHANGED_BY_OTHERS, notificationKeys.all()]) void queryClient.invalidateQueries({ queryKey });
  }, [count.data, queryClient]);
  return count;
}

export function useNotifications(enabled = true) {
  const { user } = useAuth();
  return useQuery({
    queryKey: notificationKeys.all(),
    queryFn: () => apiJson<AppNotification[]>("GET", "/api/notifications"),
    enabled: !!user && enabled,
  });
}

/** Marks one or all read; once the call succeeds the list and the count are read again (SPEC.md §4). */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const refetch = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
      queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() }),
    ]);
  const one = useMutation({
    mutationFn: (id: string) => apiJson<unknown>("PATCH", `/api/notifications/${encodeURIComponent(id)}/read`),
    onSuccess: refetch,
  });
  const all = useMutation({
    mutationFn: () => apiJson<unknown>("PATCH", "/api/notifications/mark-all-read"),
    onSuccess: refetch,
  });
  return { markRead: one, markAllRead: all };
}

/** Where a notification leads: the Active tab with its gig, and the chat for a message (SPEC.md §2 Routes). */
export function notificationHref(n: Pick<AppNotification, "gigId" | "type">): string | null {
  if (!n.gigId) return null;
  return `/?tab=active&gigId=${encodeURIComponent(n.gigId)}${n.type === "message" ? "&openChat=true" : ""}`;
}
