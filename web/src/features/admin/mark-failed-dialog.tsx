// The confirmation before marking a payout held in doubt failed (Money Health, dashboard-tab.tsx): it names
// every payment hash in doubt, which the admin must have checked on the Lightning node, and sends exactly
// those (POST /api/admin/payouts/{id}/mark-failed). A refusal (the hashes changed, the payout is no longer
// in doubt, an attempt is in flight) is shown in the dialog with the server's words.
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { errorText } from "../../lib/api";
import { formatSats } from "../../lib/format";
import type { PayoutProblem } from "./types";
import { useMarkPayoutFailed } from "./use-admin";

/** The payout to mark failed and its hashes in doubt as the admin saw them when opening the dialog. */
export interface MarkFailedTarget {
  payout: PayoutProblem;
  hashes: string[];
}

export const recipientName = (p: PayoutProblem) => p.recipient.displayName || p.recipient.username || p.recipient.id;

export function MarkFailedDialog({ target, onClose }: { target: MarkFailedTarget | null; onClose: () => void }) {
  const mark = useMarkPayoutFailed();
  const close = () => {
    mark.reset();
    onClose();
  };
  const confirm = () => {
    if (!target) return;
    mark.mutate({ id: target.payout.id, paymentHashes: target.hashes }, { onSuccess: close });
  };
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && !mark.isPending && close()}>
      {target && (
        <DialogContent role="alertdialog" hideClose>
          <DialogHeader className="pr-0">
            <DialogTitle>Mark this payout failed?</DialogTitle>
            <DialogDescription>
              Payout of {formatSats(target.payout.amount)} to {recipientName(target.payout)}. Only do this after checking on your Lightning node
              that none of these payments was sent: a new invoice will then be paid to the recipient.
            </DialogDescription>
          </DialogHeader>
          <p className="text-xs font-medium text-stone-700" id="mark-failed-hashes">
            {target.hashes.length === 1 ? "Payment hash" : `Payment hashes (${target.hashes.length})`}
          </p>
          <ul aria-labelledby="mark-failed-hashes" className="mt-1 flex flex-col gap-1">
            {target.hashes.map((hash) => (
              <li key={hash}>
                <code className="block rounded-md bg-stone-50 px-2 py-1 font-mono text-xs break-all text-stone-800 select-all">{hash}</code>
              </li>
            ))}
          </ul>
          {mark.isError && (
            <p role="alert" className="mt-3 text-sm break-words text-red-700">
              {errorText(mark.error, "Could not mark the payout failed. Please try again.")}
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={mark.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={confirm} disabled={mark.isPending}>
              {mark.isPending ? "Marking failed..." : "Mark failed"}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
