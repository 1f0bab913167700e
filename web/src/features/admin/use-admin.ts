// Query hooks of the admin panel. Keys are the request path's parts (SPEC.md §7). A failed read of the
// stats, the gigs or the suggestions ends the admin session (SPEC.md §8 Admin fetch failures), as
// does a 401 anywhere (the token expired); other failures are told in a toast.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { DisputeResolutionInput, ReportStatus, SuggestionStatus } from "../../../../domain/admin";
import { useToast, type ToastOptions } from "../../components/ui/toast";
import { ApiError, errorText, pathFromKey, readJson } from "../../lib/api";
import { adminJson, adminRequest, useAdminSession } from "./admin-session";
import type { AdminChatMessage, AdminGig, AdminReport, AdminStats, AdminSuggestion, Dispute, MoneyHealth, UnreadChat } from "./types";

export const UNREAD_CHATS_POLL_MS = 5000;
export const ADMIN_CHAT_POLL_MS = 2000;

export interface GigFilters {
  status: string;
  type: string;
}

export const adminKeys = {
  stats: () => ["/api/admin/stats"] as const,
  money: () => ["/api/admin/money"] as const,
  gigs: (f: GigFilters) => ["/api/admin/gigs", f] as const,
  reports: () => ["/api/gig-reports"] as const,
  suggestions: () => ["/api/admin/suggestions"] as const,
  disputes: () => ["/api/admin/disputes"] as const,
  unreadChats: () => ["/api/admin/unread-chats"] as const,
  chat: (gigId: string) => ["/api/admin/chat", gigId] as const,
};

function pathOf(key: QueryKey): string {
  const base = pathFromKey(key);
  const params = key.find((part): part is Record<string, string> => typeof part === "object" && part !== null);
  if (!params) return base;
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== "" && v !== "all"));
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

type FailurePolicy = { kind: "end-session" } | { kind: "toast"; title: string };

/** An admin read: a failure ends the session or is told once (not on every poll). */
function useAdminQuery<T>(key: QueryKey, failure: FailurePolicy, options: { refetchInterval?: number; enabled?: boolean; noCache?: boolean } = {}) {
  const { token, end } = useAdminSession();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: key,
    enabled: !!token && options.enabled !== false,
    refetchInterval: options.refetchInterval ?? false,
    ...(options.noCache ? { staleTime: 0, gcTime: 0 } : {}),
    queryFn: async () => {
      try {
        return await adminJson<T>(token, "GET", pathOf(key));
      } catch (err) {
        if (failure.kind === "end-session" || (err instanceof ApiError && err.status === 401)) {
          toast({ title: "Unauthorized", description: errorText(err, "Please enter the PIN again."), variant: "destructive" });
          end();
        } else if (queryClient.getQueryState(key)?.status !== "error") {
          toast({ title: failure.title, description: errorText(err), variant: "destructive" });
        }
        throw err;
      }
    },
  });
}

const END = { kind: "end-session" } as const;

export const useAdminStats = () => useAdminQuery<AdminStats>(adminKeys.stats(), END);

/** Every gig, 100 at a time (the API pages by keyset; X-Next-Cursor asks for the next page). */
export function useAdminGigs(filters: GigFilters) {
  const { token, end } = useAdminSession();
  const { toast } = useToast();
  const key = adminKeys.gigs(filters);
  return useInfiniteQuery({
    queryKey: key,
    enabled: !!token,
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      try {
        const path = pathOf(key);
        const url = pageParam ? `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(pageParam)}` : path;
        const res = await adminRequest(token, "GET", url);
        return { gigs: await readJson<AdminGig[]>(res), next: res.headers.get("X-Next-Cursor") };
      } catch (err) {
        toast({ title: "Unauthorized", description: errorText(err, "Please enter the PIN again."), variant: "destructive" });
        end();
        throw err;
      }
    },
    getNextPageParam: (last) => last.next ?? undefined,
  });
}
export const useAdminSuggestions = () => useAdminQuery<AdminSuggestion[]>(adminKeys.suggestions(), END);
export const useAdminReports = () => useAdminQuery<AdminReport[]>(adminKeys.reports(), { kind: "toast", title: "Failed to fetch reports" });
export const useDisputes = () => useAdminQuery<Dispute[]>(adminKeys.disputes(), { kind: "toast", title: "Failed to fetch disputes" });
export const useMoneyHealth = () => useAdminQuery<MoneyHealth>(adminKeys.money(), { kind: "toast", title: "Failed to fetch money health" });

/** Polled every 5 s, never cached (SPEC.md §7). */
export const useUnreadChats = () =>
  useAdminQuery<UnreadChat[]>(adminKeys.unreadChats(), { kind: "toast", title: "Failed to fetch unread chats" }, { refetchInterval: UNREAD_CHATS_POLL_MS, noCache: true });

/** Polled every 2 s while the chat dialog is open. */
export const useAdminChat = (gigId: string | null) =>
  useAdminQuery<AdminChatMessage[]>(adminKeys.chat(gigId ?? ""), { kind: "toast", title: "Failed to fetch messages" }, {
    enabled: !!gigId,
    refetchInterval: ADMIN_CHAT_POLL_MS,
    noCache: true,
  });

/** A write as the admin: a 401 ends the session; success refreshes the lists it touches. */
function useAdminMutation<Input, Output>(
  request: (token: string | null, input: Input) => Promise<Output>,
  opts: {
    refresh: readonly QueryKey[];
    success?: (output: Output, input: Input) => ToastOptions | null;
    failureTitle: string;
    /** The caller shows the failure itself (in its dialog): no toast, except for a 401, which ends the session. */
    showsFailure?: boolean;
    /** Refresh the lists on a refusal too (the server's state moved on from what the admin saw). */
    refreshOnFailure?: boolean;
  },
) {
  const { token, end } = useAdminSession();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => request(token, input),
    onSuccess: (output, input) => {
      for (const key of opts.refresh) void queryClient.invalidateQueries({ queryKey: key });
      const told = opts.success?.(output, input);
      if (told) toast(told);
    },
    onError: (err) => {
      const unauthorized = err instanceof ApiError && err.status === 401;
      if (!opts.showsFailure || unauthorized) toast({ title: opts.failureTitle, description: errorText(err, "Please try again."), variant: "destructive" });
      if (unauthorized) return end();
      if (opts.refreshOnFailure) for (const key of opts.refresh) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

const GIG_LISTS = [["/api/admin/gigs"], adminKeys.stats(), adminKeys.reports(), adminKeys.disputes(), adminKeys.money()] as const;

export function useDeleteGig() {
  return useAdminMutation((token, gigId: string) => adminJson<{ refund?: { amount: number } }>(token, "DELETE", `/api/admin/gigs/${gigId}`), {
    refresh: GIG_LISTS,
    failureTitle: "Failed to Delete Gig",
    success: (out) => ({
      title: "Gig Deleted",
      description: out?.refund ? `${out.refund.amount.toLocaleString()} sats are being refunded to the hirer.` : "The gig was removed.",
    }),
  });
}

export function useBulkDeleteGigs() {
  return useAdminMutation(
    (token, ids: string[]) =>
      adminJson<{ deleted: { id: string }[]; failed: { id: string; message: string }[] }>(token, "DELETE", "/api/admin/gigs", { ids }),
    {
      refresh: GIG_LISTS,
      failureTitle: "Failed to Delete Gigs",
      success: (out) => ({
        title: "Gig Deleted",
        description:
          `${out.deleted.length} ${out.deleted.length === 1 ? "gig" : "gigs"} deleted.` +
          (out.failed.length ? ` ${out.failed.length} could not be deleted: ${out.failed[0]!.message}` : ""),
      }),
    },
  );
}

export function useUpdateReport() {
  return useAdminMutation(
    (token, { id, ...update }: { id: string; status?: ReportStatus; adminNotes?: string }) => adminJson<AdminReport>(token, "PATCH", `/api/gig-reports/${id}`, update),
    { refresh: [adminKeys.reports()], failureTitle: "Failed to update report", success: () => ({ title: "Updated", description: "The report was updated." }) },
  );
}

export function useUpdateSuggestion() {
  return useAdminMutation(
    (token, { id, status }: { id: string; status: SuggestionStatus }) => adminJson<AdminSuggestion>(token, "PATCH", `/api/admin/suggestions/${id}`, { status }),
    { refresh: [adminKeys.suggestions()], failureTitle: "Failed to update suggestion", success: () => ({ title: "Updated", description: "The suggestion was updated." }) },
  );
}

export function useResolveDispute() {
  return useAdminMutation(
    (token, { gigId, ...input }: { gigId: string } & DisputeResolutionInput) =>
      adminJson<{ payouts: { worker: number; hirer: number }; status?: "completed" | "cancelled" | "claimed" }>(
        token,
        "POST",
        `/api/admin/disputes/${gigId}/resolve`,
        input,
      ),
    {
      refresh: [adminKeys.disputes(), adminKeys.stats(), ["/api/admin/gigs"], adminKeys.unreadChats(), adminKeys.money()],
      failureTitle: "Failed to Resolve Dispute",
      // The confirmation dialog shows a refusal in its own words; the list is read again, as the gig may have moved on.
      showsFailure: true,
      refreshOnFailure: true,
      success: (out) => ({
        title: "Dispute Resolved",
        description: `Worker: ${out.payouts.worker.toLocaleString()} sats, hirer: ${out.payouts.hirer.toLocaleString()} sats.`,
      }),
    },
  );
}

export function useSendAdminMessage(gigId: string) {
  return useAdminMutation((token, message: string) => adminJson<unknown>(token, "POST", `/api/admin/chat/${gigId}`, { message }), {
    refresh: [adminKeys.chat(gigId), adminKeys.unreadChats()],
    failureTitle: "Failed to Send Message",
    success: () => ({ title: "Message Sent" }),
  });
}

export function useRetryPayout() {
  return useAdminMutation(
    (token, payoutId: string) => adminJson<{ status: string; lastError: string | null }>(token, "POST", `/api/admin/payouts/${payoutId}/retry`),
    {
      refresh: [adminKeys.money(), adminKeys.stats()],
      failureTitle: "Retry Failed",
      success: (out) => {
        switch (out.status) {
          case "succeeded":
            return { title: "Payout Sent", description: "The payout was paid." };
          case "failed":
            return { title: "Payout Failed Again", description: out.lastError ?? "The wallet refused the payment.", variant: "destructive" as const };
          case "busy":
            return { title: "Payout Busy", description: "Another attempt is running, or the payout is not due yet." };
          default:
            return { title: "Payout In Flight", description: "The wallet has not confirmed it yet; it is looked up again shortly." };
        }
      },
    },
  );
}

/**
 * Marks a payout held in doubt failed, after the admin checked on the Lightning node that none of its
 * payments was sent. `paymentHashes` must be exactly the payout's `doubtfulHashes` (else 400
 * hashes_mismatch); 409 when it is no longer in doubt or an attempt is in flight. The dialog shows failures.
 */
export function useMarkPayoutFailed() {
  return useAdminMutation(
    (token, { id, paymentHashes }: { id: string; paymentHashes: string[] }) =>
      adminJson<{ id: string; status: string; lastError: string | null }>(token, "POST", `/api/admin/payouts/${id}/mark-failed`, { paymentHashes }),
    {
      refresh: [adminKeys.money(), adminKeys.stats()],
      failureTitle: "Mark Failed Refused",
      showsFailure: true,
      refreshOnFailure: true,
      success: () => ({ title: "Payout Marked Failed", description: "A new invoice will be paid to the recipient." }),
    },
  );
}
