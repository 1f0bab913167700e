// Disputes (SPEC.md §2 /admin, §4 Admin dispute resolution; split beyond the spec): each disputed gig
// with the reason and the parties; Refund Hirer, Pay Worker or Split, each after a browser
// confirmation that names the sats each party gets.
import { useId, useState } from "react";
import { Link } from "react-router";
import { refundAmount, splitPayouts, workerPayout } from "../../../../domain/fees";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { MessageIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { formatDate, formatSats, shortId } from "../../lib/format";
import { useDisputes, useResolveDispute } from "./use-admin";
import type { Dispute, Party } from "./types";
import type { GigEditChange, GigEditRecord } from "../../../../domain/admin-views";

export function DisputesTab({ onOpenChat }: { onOpenChat: (gigId: string, title: string) => void }) {
  const disputes = useDisputes();
  const list = disputes.data ?? [];
  if (disputes.isPending) return <Skeleton className="h-48" />;
  if (disputes.isError) return <p className="py-10 text-center text-sm text-red-700">Could not load the disputes.</p>;
  if (list.length === 0) return <p className="py-10 text-center text-sm text-stone-500">No open disputes.</p>;
  return (
    <ul className="flex flex-col gap-4" aria-label="Disputes">
      {list.map((d) => (
        <li key={d.gigId}>
          <DisputeCard dispute={d} onOpenChat={onOpenChat} />
        </li>
      ))}
    </ul>
  );
}

function PartyLink({ party }: { party: Party | null }) {
  if (!party) return <span>Unknown</span>;
  return (
    <Link to={`/user/${party.username}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
      {party.displayName || party.username.slice(0, 16)}
    </Link>
  );
}

function DisputeCard({ dispute: d, onOpenChat }: { dispute: Dispute; onOpenChat: (gigId: string, title: string) => void }) {
  const id = useId();
  const resolve = useResolveDispute();
  const [share, setShare] = useState("50");
  const shareNumber = Number(share);
  const shareValid = share.trim() !== "" && Number.isInteger(shareNumber) && shareNumber >= 0 && shareNumber <= 100;
  const split = shareValid ? splitPayouts(d.payment, shareNumber) : null;
  const hirerName = d.hirer?.displayName || "the hirer";
  const workerName = d.worker?.displayName || "the worker";
  const busy = resolve.isPending;

  const refund = () => {
    if (!window.confirm(`Refund ${formatSats(refundAmount(d.payment))} to ${hirerName} and cancel "${d.title}"?`)) return;
    resolve.mutate({ gigId: d.gigId, resolution: "refund_hirer" });
  };
  const pay = () => {
    if (!window.confirm(`Pay ${formatSats(workerPayout(d.payment))} to ${workerName} and complete "${d.title}"?`)) return;
    resolve.mutate({ gigId: d.gigId, resolution: "pay_worker" });
  };
  const splitIt = () => {
    if (!split) return;
    if (!window.confirm(`Split "${d.title}": ${formatSats(split.worker)} to ${workerName}, ${formatSats(split.hirer)} back to ${hirerName}?`)) return;
    resolve.mutate({ gigId: d.gigId, resolution: "split", workerSharePercent: shareNumber });
  };

  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 text-base font-semibold break-words text-stone-900">{d.title}</h3>
        <span className="font-mono text-xs text-stone-500">#{shortId(d.gigId)}</span>
      </div>
      <p className="text-sm text-stone-700">
        Hirer <PartyLink party={d.hirer} /> · Worker <PartyLink party={d.worker} />
      </p>
      <p className="text-sm text-stone-600">
        {formatSats(d.payment)} · {formatSats(d.totalCharge)} in escrow{d.submittedAt ? ` · submitted ${formatDate(d.submittedAt)}` : ""}
      </p>
      <div className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900">
        <p className="font-medium">Dispute{d.disputedBy ? ` raised by ${d.disputedBy.displayName || d.disputedBy.username.slice(0, 16)}` : ""}</p>
        <p className="break-words whitespace-pre-wrap">{d.disputeReason || "No reason given."}</p>
      </div>
      {d.edits.length > 0 && <EditHistory edits={d.edits} />}
      {d.workSubmission && (
        <details className="text-sm text-stone-700">
          <summary className="cursor-pointer font-medium">Work submitted</summary>
          <p className="mt-1 break-words whitespace-pre-wrap">{d.workSubmission}</p>
        </details>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => onOpenChat(d.gigId, d.title)}>
          <MessageIcon size={15} /> Open Chat
        </Button>
        <Button variant="outline" size="sm" onClick={refund} disabled={busy}>
          Refund Hirer
        </Button>
        <Button size="sm" onClick={pay} disabled={busy}>
          Pay Worker
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-2 border-t border-stone-100 pt-3">
        <label htmlFor={`${id}-share`} className="flex flex-col gap-1 text-sm font-medium text-stone-800">
          Worker's share (%)
          <Input
            id={`${id}-share`}
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={1}
            className="w-24"
            value={share}
            aria-invalid={!shareValid}
            onChange={(e) => setShare(e.target.value)}
          />
        </label>
        <Button variant="secondary" onClick={splitIt} disabled={busy || !split}>
          Split
        </Button>
        <p className="basis-full text-xs text-stone-500" aria-live="polite">
          {split
            ? `Worker gets ${formatSats(split.worker)}, hirer gets ${formatSats(split.hirer)}, platform keeps ${formatSats(split.platform)}.`
            : "Enter a whole number from 0 to 100."}
        </p>
      </div>
    </Card>
  );
}

const FIELD_LABEL: Record<GigEditChange["field"], string> = { title: "Title", description: "Description", payment: "Budget" };

const shown = (change: GigEditChange, value: string | number) => (change.field === "payment" ? formatSats(Number(value)) : `"${value}"`);

/** The gig's edits, with each changed field's old and new value: what the parties agreed to may have moved. */
function EditHistory({ edits }: { edits: GigEditRecord[] }) {
  const afterFunding = edits.filter((e) => e.afterFunding).length;
  return (
    <details className="text-sm text-stone-700" open={afterFunding > 0}>
      <summary className="cursor-pointer font-medium">
        Edited {edits.length} {edits.length === 1 ? "time" : "times"}
        {afterFunding > 0 ? ` (${afterFunding} after funding)` : ""}
      </summary>
      <ol className="mt-1 flex flex-col gap-2">
        {edits.map((edit) => (
          <li key={edit.at} className="rounded-lg bg-stone-50 px-3 py-2">
            <p className="text-xs text-stone-500">
              {formatDate(edit.at)}
              {edit.by ? ` by ${edit.by.displayName || edit.by.username.slice(0, 16)}` : ""}
              {edit.afterFunding ? " · after funding" : ""}
            </p>
            <ul className="flex flex-col gap-1">
              {edit.changes.map((change) => (
                <li key={change.field} className="break-words">
                  <span className="font-medium">{FIELD_LABEL[change.field]}:</span> <del className="text-stone-500">{shown(change, change.from)}</del> → <ins className="no-underline">{shown(change, change.to)}</ins>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </details>
  );
}
