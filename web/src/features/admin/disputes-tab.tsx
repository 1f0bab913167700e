// Disputes (SPEC.md §2 /admin, §4 Admin dispute resolution; split beyond the spec): each disputed gig
// with the reason and the parties, then how to settle it. The two full outcomes (Pay Worker, Refund Hirer)
// come first, side by side, each naming who gets how many sats; Split, the in-between, is the quieter
// outline button under them with its share. Each asks for confirmation in a dialog that lists where every
// sat of the escrow goes. A settled dispute does not vanish: its card shows the outcome (who got what)
// until the admin dismisses it or the tab is opened again. A gig with a plan (issue 28) is disputed on one
// milestone: the card names it and what its escrow holds, every outcome settles that milestone only, and
// before the last milestone the admin may end the gig there, later funded milestones going back to the hirer.
import { useEffect, useId, useRef, useState, type RefObject } from "react";
import { Link } from "react-router";
import { platformRevenue, refundAmount, splitPayouts, workerPayout } from "../../../../domain/fees";
import type { DisputeResolutionInput } from "../../../../domain/admin";
import { milestoneLabel } from "../../../../domain/milestones";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { CheckIcon, MessageIcon } from "../../components/ui/icons";
import { Input } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { errorText } from "../../lib/api";
import { formatDate, formatSats, shortId } from "../../lib/format";
import { useDisputes, useResolveDispute } from "./use-admin";
import type { Dispute, Party } from "./types";
import type { GigEditChange, GigEditRecord } from "../../../../domain/admin-views";

/** Where a dispute's escrow goes under one outcome, in sats. */
interface Shares {
  worker: number;
  hirer: number;
  platform: number;
}

/** A dispute the admin settled in this visit of the tab, kept on screen with its outcome. */
interface Settled {
  dispute: Dispute;
  /** Where it stood in the list, so it stays in place when the refreshed list no longer has it. */
  index: number;
  resolution: DisputeResolutionInput["resolution"];
  shares: Shares;
  /** What became of the gig: ended (completed, cancelled) or on to its next milestone (claimed). */
  status: ResolvedStatus;
  /** Sats of later funded milestones refunded in full because the admin ended the gig here. */
  laterRefund: number;
}

type ResolvedStatus = "completed" | "cancelled" | "claimed";

/** The disputed milestone is not the gig's last: the admin may end the gig there, or it goes on. */
const beforeLast = (d: Dispute) => !!d.milestone && d.milestone.number < d.milestone.count;

/** What the chosen outcome does to the gig. */
function effectOf(d: Dispute, resolution: DisputeResolutionInput["resolution"], endGig: boolean): string {
  const m = d.milestone;
  if (m && m.number < m.count && !endGig) return `The gig moves on to milestone ${m.number + 1} of ${m.count}.`;
  if (resolution !== "refund_hirer") return "The gig will be completed.";
  // Refunded after earlier milestones: completed or cancelled depends on what they paid the worker.
  return m && m.number > 1 ? "The gig ends here." : "The gig will be cancelled.";
}

/** The milestone a dispute concerns, as a line: "Milestone 2 of 3: Shop pages". */
function MilestoneLine({ dispute: d }: { dispute: Dispute }) {
  if (!d.milestone) return null;
  return (
    <p className="text-sm font-semibold break-words text-stone-900">
      {milestoneLabel(d.milestone.number, d.milestone.count)}: {d.milestone.title}
    </p>
  );
}

export function DisputesTab({ onOpenChat }: { onOpenChat: (gigId: string, title: string) => void }) {
  const disputes = useDisputes();
  const [settled, setSettled] = useState<Settled[]>([]);
  const listRef = useRef<HTMLDivElement | null>(null);
  if (disputes.isPending) return <Skeleton className="h-48" />;
  if (disputes.isError) return <p className="py-10 text-center text-sm text-red-700">Could not load the disputes.</p>;

  // The open disputes, with the ones settled here kept where they were.
  const open = disputes.data ?? [];
  const items: Array<{ dispute: Dispute; settled: Settled | null }> = open.map((d) => ({ dispute: d, settled: settled.find((x) => x.dispute.gigId === d.gigId) ?? null }));
  for (const s of [...settled].sort((a, b) => a.index - b.index)) {
    if (!open.some((d) => d.gigId === s.dispute.gigId)) items.splice(Math.min(s.index, items.length), 0, { dispute: s.dispute, settled: s });
  }

  const dismiss = (gigId: string) => {
    setSettled((list) => list.filter((s) => s.dispute.gigId !== gigId));
    // The dismissed card took the focus with it: the list (or its empty state) gets it.
    requestAnimationFrame(() => listRef.current?.focus());
  };

  return (
    <div ref={listRef} tabIndex={-1} className="focus:outline-none">
      {items.length === 0 ? (
        <p className="py-10 text-center text-sm text-stone-500">No open disputes.</p>
      ) : (
        <ul className="flex flex-col gap-4" aria-label="Disputes">
          {items.map(({ dispute, settled: done }, index) => (
            <li key={dispute.gigId}>
              {done ? (
                <SettledDisputeCard settled={done} onDismiss={() => dismiss(dispute.gigId)} />
              ) : (
                <DisputeCard dispute={dispute} onOpenChat={onOpenChat} onSettled={(outcome) => setSettled((list) => [...list, { dispute, index, ...outcome }])} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function partyName(party: Party | null, role: "hirer" | "worker"): string {
  return party?.displayName || (party ? party.username.slice(0, 16) : `the ${role}`);
}

function PartyLink({ party }: { party: Party | null }) {
  if (!party) return <span>Unknown</span>;
  return (
    <Link to={`/user/${party.username}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
      {party.displayName || party.username.slice(0, 16)}
    </Link>
  );
}

/** A resolution the admin is about to confirm. */
interface Pending {
  input: DisputeResolutionInput;
  title: string;
  action: string;
  shares: Shares;
}

function DisputeCard({
  dispute: d,
  onOpenChat,
  onSettled,
}: {
  dispute: Dispute;
  onOpenChat: (gigId: string, title: string) => void;
  onSettled: (outcome: Omit<Settled, "dispute" | "index">) => void;
}) {
  const id = useId();
  const [share, setShare] = useState("50");
  const [pending, setPending] = useState<Pending | null>(null);
  const shareNumber = Number(share);
  const shareValid = share.trim() !== "" && Number.isInteger(shareNumber) && shareNumber >= 0 && shareNumber <= 100;
  const split = shareValid ? splitPayouts(d.payment, shareNumber) : null;
  const hirerName = partyName(d.hirer, "hirer");
  const workerName = partyName(d.worker, "worker");
  const pay: Shares = { worker: workerPayout(d.payment), hirer: 0, platform: platformRevenue(d.payment) };
  const refund: Shares = { worker: 0, hirer: refundAmount(d.payment), platform: 0 };
  const m = d.milestone;

  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 text-base font-semibold break-words text-stone-900">{d.title}</h3>
        <span className="font-mono text-xs text-stone-500">#{shortId(d.gigId)}</span>
      </div>
      <MilestoneLine dispute={d} />
      <p className="text-sm text-stone-700">
        Hirer <PartyLink party={d.hirer} /> · Worker <PartyLink party={d.worker} />
      </p>
      <p className="text-sm text-stone-600">
        {formatSats(d.payment)} · {formatSats(m ? m.escrow : d.totalCharge)} in {m ? "this milestone's " : ""}escrow
        {d.submittedAt ? ` · submitted ${formatDate(d.submittedAt)}` : ""}
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
      <Button variant="outline" size="sm" className="self-start" onClick={() => onOpenChat(d.gigId, d.title)}>
        <MessageIcon size={15} /> Open Chat
      </Button>

      <section aria-labelledby={`${id}-settle`} className="flex flex-col gap-3 border-t border-stone-200 pt-3">
        <div>
          <h4 id={`${id}-settle`} className="text-sm font-semibold text-stone-900">
            Settle this dispute
          </h4>
          {m && (
            <p className="text-xs font-medium text-stone-800">
              Refund, pay and split apply to milestone {m.number} only.
              {m.laterFunded > 0 ? ` Later funded milestones hold ${formatSats(m.laterFunded)} more.` : ""}
            </p>
          )}
          <p className="text-xs text-stone-600">You will see where every sat goes and confirm before anything is paid.</p>
        </div>
        <div className="grid grid-cols-2 gap-2 sm:max-w-lg">
          <Outcome
            id={`${id}-pay`}
            label="Pay Worker"
            note={`${workerName} gets ${formatSats(pay.worker)}`}
            onChoose={() =>
              setPending({
                input: { resolution: "pay_worker" },
                title: `Pay ${workerName}?`,
                action: "Pay Worker",
                shares: pay,
              })
            }
          />
          <Outcome
            id={`${id}-refund`}
            label="Refund Hirer"
            note={`${hirerName} gets ${formatSats(refund.hirer)} back`}
            onChoose={() =>
              setPending({
                input: { resolution: "refund_hirer" },
                title: `Refund ${hirerName}?`,
                action: "Refund Hirer",
                shares: refund,
              })
            }
          />
        </div>
        <div className="flex flex-wrap items-end gap-2">
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
              aria-describedby={`${id}-split`}
              onChange={(e) => setShare(e.target.value)}
            />
          </label>
          <Button
            variant="outline"
            disabled={!split}
            onClick={() =>
              split &&
              setPending({
                input: { resolution: "split", workerSharePercent: shareNumber },
                title: `Split ${shareNumber}% to ${workerName}?`,
                action: "Split",
                shares: { worker: split.worker, hirer: split.hirer, platform: split.platform },
              })
            }
          >
            Split
          </Button>
          <p id={`${id}-split`} className="basis-full text-xs text-stone-600" aria-live="polite">
            {split
              ? `Worker gets ${formatSats(split.worker)}, hirer gets ${formatSats(split.hirer)}, platform keeps ${formatSats(split.platform)}.`
              : "Enter a whole number from 0 to 100."}
          </p>
        </div>
      </section>
      <ConfirmResolution
        dispute={d}
        pending={pending}
        onClose={() => setPending(null)}
        onDone={(p, endGig, status) => {
          setPending(null);
          onSettled({ resolution: p.input.resolution, shares: p.shares, status, laterRefund: endGig && m ? m.laterFunded : 0 });
        }}
      />
    </Card>
  );
}

/** One of the two full outcomes: a strong button, with who gets how much right under it. */
function Outcome({ id, label, note, onChoose }: { id: string; label: string; note: string; onChoose: () => void }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Button variant="secondary" className="w-full" aria-describedby={`${id}-note`} onClick={onChoose}>
        {label}
      </Button>
      <p id={`${id}-note`} className="text-xs break-words text-stone-600">
        {note}
      </p>
    </div>
  );
}

/** The rows of where a dispute's escrow goes. */
function SharesList({ dispute: d, shares, className }: { dispute: Dispute; shares: Shares; className?: string }) {
  const rows: Array<[string, number]> = [
    [`${partyName(d.worker, "worker")} (worker)`, shares.worker],
    [`${partyName(d.hirer, "hirer")} (hirer)`, shares.hirer],
    ["Platform fees", shares.platform],
  ];
  return (
    <dl className={className ?? "flex flex-col divide-y divide-stone-200 rounded-lg border border-stone-200 text-sm"}>
      {rows.map(([who, sats]) => (
        <div key={who} className="flex items-baseline justify-between gap-3 px-3 py-2">
          <dt className="min-w-0 break-words text-stone-700">{who}</dt>
          <dd className={sats > 0 ? "font-semibold whitespace-nowrap text-stone-900 tabular-nums" : "whitespace-nowrap text-stone-500 tabular-nums"}>
            {formatSats(sats)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The confirmation of one outcome: where every sat of the escrow goes, what happens to the gig. */
function ConfirmResolution({
  dispute: d,
  pending,
  onClose,
  onDone,
}: {
  dispute: Dispute;
  pending: Pending | null;
  onClose: () => void;
  onDone: (pending: Pending, endGig: boolean, status: ResolvedStatus) => void;
}) {
  const id = useId();
  const resolve = useResolveDispute();
  const settled = useRef(false);
  const [shown, setShown] = useState<Pending | null>(pending);
  const [endGig, setEndGig] = useState(false);
  // Keep the last pending outcome while the dialog closes, so its text does not blank out; each opening starts
  // with the gig going on.
  useEffect(() => {
    if (pending) {
      setShown(pending);
      setEndGig(false);
    }
  }, [pending]);
  const p = pending ?? shown;
  const m = d.milestone;
  const ending = endGig && beforeLast(d);
  const close = () => {
    if (resolve.isPending) return;
    resolve.reset();
    onClose();
  };
  const confirm = () => {
    if (!p) return;
    resolve.mutate(
      { gigId: d.gigId, ...p.input, ...(ending ? { endGig: true } : {}) },
      {
        onSuccess: (out) => {
          settled.current = true;
          onDone(p, ending, out.status ?? (p.input.resolution === "refund_hirer" ? "cancelled" : "completed"));
        },
      },
    );
  };
  return (
    <Dialog open={!!pending} onOpenChange={(open) => !open && close()}>
      {p && (
        <DialogContent
          role="alertdialog"
          hideClose
          // Settled, the card shows its outcome and takes the focus itself (the button that opened this is gone).
          onCloseAutoFocus={(event) => settled.current && event.preventDefault()}
        >
          <DialogHeader className="pr-0">
            <DialogTitle>{p.title}</DialogTitle>
            <DialogDescription>
              {m ? (
                <>
                  {milestoneLabel(m.number, m.count)}, &ldquo;{m.title}&rdquo;, holds {formatSats(m.escrow)} in escrow. This settles milestone {m.number} only.
                </>
              ) : (
                <>
                  &ldquo;{d.title}&rdquo; holds {formatSats(d.totalCharge)} in escrow.
                </>
              )}{" "}
              {effectOf(d, p.input.resolution, ending)} This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <SharesList dispute={d} shares={p.shares} />
          {m && beforeLast(d) && (
            <div className="mt-3 flex flex-col">
              <div className="flex flex-col gap-1 rounded-lg border border-stone-200 p-3">
                <label htmlFor={`${id}-end`} className="flex cursor-pointer items-center gap-3 text-sm font-medium text-stone-800">
                  <input
                    id={`${id}-end`}
                    type="checkbox"
                    className="h-5 w-5 shrink-0 cursor-pointer accent-brand-600"
                    checked={endGig}
                    disabled={resolve.isPending}
                    aria-describedby={`${id}-end-note`}
                    onChange={(e) => setEndGig(e.target.checked)}
                  />
                  End the gig here
                </label>
                <p id={`${id}-end-note`} className="pl-8 text-xs text-stone-600">
                  No work on {m.number + 1 === m.count ? `milestone ${m.count}` : `milestones ${m.number + 1} to ${m.count}`}; funded ones are refunded to the hirer
                  in full.
                </p>
              </div>
              <div aria-live="polite">
                {ending && (
                  <p className="mt-2 text-sm break-words text-stone-800">
                    {m.laterFunded > 0
                      ? `Also back to ${partyName(d.hirer, "hirer")} in full: ${formatSats(m.laterFunded)} of later funded milestones.`
                      : "No later milestone is funded: nothing more goes back to the hirer."}
                  </p>
                )}
              </div>
            </div>
          )}
          {resolve.isError && (
            <p role="alert" className="mt-3 text-sm break-words text-red-700">
              {errorText(resolve.error, "Could not settle the dispute. Please try again.")}
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={resolve.isPending}>
              Cancel
            </Button>
            <Button onClick={confirm} disabled={resolve.isPending}>
              {resolve.isPending ? "Settling..." : p.action}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}

const OUTCOME_LABEL: Record<Settled["resolution"], string> = {
  pay_worker: "Worker paid",
  refund_hirer: "Hirer refunded",
  split: "Split",
};

const STATUS_TEXT: Record<ResolvedStatus, (d: Dispute) => string> = {
  completed: () => "The gig is completed.",
  cancelled: () => "The gig is cancelled.",
  claimed: (d) => (d.milestone ? `The gig moves on to milestone ${d.milestone.number + 1} of ${d.milestone.count}.` : "The gig goes on."),
};

/** A dispute settled just now: its outcome stays in place, with who got what, until dismissed. */
function SettledDisputeCard({ settled: s, onDismiss }: { settled: Settled; onDismiss: () => void }) {
  const id = useId();
  const ref = useRef<HTMLDivElement | null>(null);
  useFocusOnMount(ref);
  const d = s.dispute;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 rounded-xl border border-green-200 bg-green-50 p-4 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`${id}-title`} className="min-w-0 text-base font-semibold break-words text-stone-900">
          {d.title}
        </h3>
        <span className="font-mono text-xs text-stone-600">#{shortId(d.gigId)}</span>
        <Badge variant="success">
          <CheckIcon size={12} strokeWidth={3} />
          Resolved: {OUTCOME_LABEL[s.resolution]}
        </Badge>
      </div>
      <MilestoneLine dispute={d} />
      <p role="status" className="text-sm text-stone-800">
        {STATUS_TEXT[s.status](d)} The payouts are on their way to each party's Lightning address.
      </p>
      <SharesList dispute={d} shares={s.shares} className="flex flex-col divide-y divide-green-200 rounded-lg border border-green-200 bg-white text-sm sm:max-w-lg" />
      {s.laterRefund > 0 && (
        <p className="text-sm text-stone-800">
          Also back to {partyName(d.hirer, "hirer")} in full: {formatSats(s.laterRefund)} of later funded milestones.
        </p>
      )}
      <Button variant="outline" size="sm" className="self-start" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

function useFocusOnMount(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [ref]);
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
