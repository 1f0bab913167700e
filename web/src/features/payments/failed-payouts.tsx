// The payee's failed payouts on the Active screen: what went wrong and what to do ("Update your Lightning
// address and retry"). Changing the address retries them at once (the Worker does it); Retry now asks again.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MyPayoutView } from "../../../../domain/payout-views";
import { Button } from "../../components/ui/button";
import { AlertIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { apiJson, errorText } from "../../lib/api";
import { MY_FAILED_PAYOUTS_PATH } from "../../lib/member-tab-paths";
import { useSettingsDialog } from "../profile/settings-context";

export const myPayoutKeys = { failed: () => [MY_FAILED_PAYOUTS_PATH] as const };

/** The member's failed payouts (GET /api/user/payouts). */
export function myFailedPayoutsQuery() {
  return { queryKey: myPayoutKeys.failed(), queryFn: () => apiJson<MyPayoutView[]>("GET", MY_FAILED_PAYOUTS_PATH) };
}

export function useMyFailedPayouts(enabled = true) {
  return useQuery({
    ...myFailedPayoutsQuery(),
    enabled,
    // While something failed, look again now and then: a changed address is retried by the Worker after its answer.
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? 15_000 : false),
  });
}

function useRetryMyPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson<{ id: string; status: string; lastError: string | null }>("POST", `/api/user/payouts/${encodeURIComponent(id)}/retry`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: myPayoutKeys.failed() }),
  });
}

export function FailedPayouts() {
  const payouts = useMyFailedPayouts();
  const retry = useRetryMyPayout();
  const { openSettings } = useSettingsDialog();
  const { toast } = useToast();
  const list = payouts.data ?? [];
  if (list.length === 0) return null;

  const retryOne = (id: string) =>
    retry.mutate(id, {
      onSuccess: (result) =>
        toast(
          result.status === "succeeded"
            ? { title: "Payout Sent", description: "The sats are on their way to your Lightning address." }
            : { title: "Payout Still Failing", description: result.lastError ?? "The wallet could not pay it yet.", variant: "destructive" },
        ),
      onError: (err) => toast({ title: "Could Not Retry", description: errorText(err, "Please try again."), variant: "destructive" }),
    });

  return (
    <section aria-labelledby="failed-payouts-heading" className="flex flex-col gap-2 rounded-xl border border-red-200 bg-red-50 p-4">
      <h2 id="failed-payouts-heading" className="flex items-center gap-2 text-base font-semibold text-red-900">
        <AlertIcon size={16} /> {list.length === 1 ? "A payout to you failed" : `${list.length} payouts to you failed`}
      </h2>
      <ul className="flex flex-col gap-3">
        {list.map((p) => (
          <li key={p.id} className="flex flex-col gap-2 text-sm text-red-900 sm:flex-row sm:items-center">
            <p className="min-w-0 flex-1 break-words">
              {p.message}
              {p.gigTitle ? <span className="text-red-800"> ({p.gigTitle})</span> : null}
            </p>
            <div className="flex shrink-0 gap-2">
              <Button size="sm" variant="outline" onClick={openSettings}>
                Update address
              </Button>
              <Button size="sm" onClick={() => retryOne(p.id)} disabled={retry.isPending && retry.variables === p.id}>
                {retry.isPending && retry.variables === p.id ? "Retrying..." : "Retry now"}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
