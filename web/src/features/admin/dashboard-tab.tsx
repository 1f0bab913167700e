// Dashboard: the stats of SPEC.md §3 Admin stats, and (beyond the spec) the money health view: the
// ledger invariant check and the payouts that failed or are stuck, each with a retry button; a payout held
// in doubt (an attempt may have sent money) shows its hashes and can be marked failed after a confirmation.
// The Nostr outbox (issue 27, docs/decisions/025): what waits for the relays, what is stuck, the last error,
// or why nothing is published.
import { useId, useState, type ReactNode } from "react";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { CopyButton } from "../../components/ui/copy-button";
import { AlertIcon, CheckIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";
import { formatDate, formatSats, timeAgo } from "../../lib/format";
import { MarkFailedDialog, recipientName, type MarkFailedTarget } from "./mark-failed-dialog";
import { useAdminStats, useMoneyHealth, useRetryPayout } from "./use-admin";
import type { NostrOutboxHealth, PayoutProblem } from "./types";

function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Card className="flex flex-col gap-1 p-4">
      <span className="text-xs font-medium tracking-wide text-stone-500 uppercase">{label}</span>
      <span className="text-xl font-bold break-words text-stone-900 tabular-nums sm:text-2xl">{value}</span>
      {hint && <span className="text-xs text-stone-500">{hint}</span>}
    </Card>
  );
}

export function DashboardTab() {
  const stats = useAdminStats();
  const s = stats.data;
  return (
    <div className="flex flex-col gap-6">
      <section aria-label="Platform stats" className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        {!s ? (
          Array.from({ length: 6 }, (_, i) => <Skeleton key={i} className="h-24" />)
        ) : (
          <>
            <Stat label="Total Escrow" value={formatSats(s.totalEscrow)} hint="Held for gigs in progress" />
            <Stat label="Platform Revenue" value={formatSats(s.totalRevenue)} hint="Fees, 2.5% per side" />
            <Stat label="Active Gigs" value={s.activeGigs} hint={`Being worked on; ${s.openGigs} open`} />
            <Stat label="Completed Gigs" value={s.completedGigs} />
            <Stat label="Disputed Gigs" value={s.disputedGigs} />
            <Stat label="Total Users" value={s.totalUsers} />
          </>
        )}
      </section>
      {s?.nostrOutbox && <NostrOutboxCard outbox={s.nostrOutbox} />}
      <MoneyHealthCard />
    </div>
  );
}

/** The Worker's reason without its "Nostr publishing is off:" lead, which the card says itself. */
const offReason = (off: string) => {
  const reason = off.replace(/^Nostr publishing is off[:.]?\s*/i, "").trim();
  return reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : "No reason given.";
};

/** The Nostr outbox: events (gig listings, DMs) no relay has taken yet; stuck ones need the admin's look. */
function NostrOutboxCard({ outbox }: { outbox: NostrOutboxHealth }) {
  const off = outbox.off ?? null;
  const attention = !off && outbox.stuck > 0;
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} className={cn(attention && "border-red-300! bg-red-50/60!")}>
      <CardHeader className="pb-2">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id={titleId}>Nostr outbox</CardTitle>
          {off ? (
            <Badge variant="warning">
              <AlertIcon size={12} /> Off
            </Badge>
          ) : attention ? (
            <Badge variant="danger">
              <AlertIcon size={12} /> Needs attention
            </Badge>
          ) : (
            <Badge variant="success">
              <CheckIcon size={12} /> {outbox.pending === 0 ? "All sent" : "Sending"}
            </Badge>
          )}
        </div>
        <CardDescription>Gig listings and DMs on their way to the Nostr relays.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        {off ? (
          <p className="break-words text-stone-700">
            <span className="font-semibold text-stone-900">Publishing is off:</span> {offReason(off)}
          </p>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-2">
              <div className="rounded-lg bg-stone-50 px-3 py-2">
                <dt className="text-xs text-stone-500">Waiting</dt>
                <dd className="font-semibold text-stone-900 tabular-nums">{outbox.pending}</dd>
              </div>
              <div className={cn("rounded-lg px-3 py-2", attention ? "bg-red-100" : "bg-stone-50")}>
                <dt className={cn("text-xs", attention ? "text-red-800" : "text-stone-500")}>Stuck</dt>
                <dd className={cn("font-semibold tabular-nums", attention ? "text-red-800" : "text-stone-900")}>{outbox.stuck}</dd>
              </div>
            </dl>
            {attention && (
              <p className="text-red-800">
                {outbox.stuck === 1 ? "1 event" : `${outbox.stuck} events`} no relay has taken after many tries or for over half an hour: check
                NOSTR_RELAYS and the last error. They are still retried, at most an hour apart.
              </p>
            )}
            {outbox.lastError && <p className="text-xs break-words text-red-700">Last error: {outbox.lastError}</p>}
          </>
        )}
      </CardContent>
    </Card>
  );
}

const PURPOSE_LABELS: Record<string, string> = { worker_payout: "Worker payout", hirer_refund: "Hirer refund" };
const purposeLabel = (purpose: string) => PURPOSE_LABELS[purpose] ?? (purpose.startsWith("late_payment") ? "Late payment refund" : purpose);

function MoneyHealthCard() {
  const health = useMoneyHealth();
  const retry = useRetryPayout();
  const [markFailed, setMarkFailed] = useState<MarkFailedTarget | null>(null);
  const data = health.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Money Health</CardTitle>
        <CardDescription>The ledger's invariants and the payouts that need attention.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {!data ? (
          health.isError ? (
            <p className="text-sm text-red-700">Could not load the money health view.</p>
          ) : (
            <Skeleton className="h-24" />
          )
        ) : (
          <>
            <section aria-label="Ledger check" className="flex flex-col gap-3">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="text-sm font-semibold text-stone-900">Ledger check</h3>
                {data.ledger.ok ? (
                  <Badge variant="success">
                    <CheckIcon size={12} /> Balanced
                  </Badge>
                ) : (
                  <Badge variant="danger">
                    <AlertIcon size={12} /> {data.ledger.problems.length} {data.ledger.problems.length === 1 ? "problem" : "problems"}
                  </Badge>
                )}
                <Button variant="ghost" size="sm" className="ml-auto" onClick={() => void health.refetch()} disabled={health.isFetching}>
                  {health.isFetching ? "Checking..." : "Check again"}
                </Button>
              </div>
              <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
                {(
                  [
                    ["Wallet", data.ledger.wallet],
                    ["Escrow", data.ledger.escrow],
                    ["Fees", data.ledger.fees],
                    ["Owed (payables)", data.ledger.payables],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="rounded-lg bg-stone-50 px-3 py-2">
                    <dt className="text-xs text-stone-500">{label}</dt>
                    <dd className="font-semibold text-stone-900 tabular-nums">{formatSats(value)}</dd>
                  </div>
                ))}
              </dl>
              {data.ledger.problems.length > 0 && (
                <ul className="list-disc pl-5 text-sm break-words text-red-700">
                  {data.ledger.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )}
            </section>

            {(data.wallet || (data.backends?.length ?? 0) > 0) && (
              <section aria-label="Wallet check" className="flex flex-col gap-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-semibold text-stone-900">Wallet</h3>
                  {data.wallet &&
                    (data.wallet.ok ? (
                      <Badge variant="success">
                        <CheckIcon size={12} /> Can pay
                      </Badge>
                    ) : (
                      <Badge variant="danger">
                        <AlertIcon size={12} /> Cannot pay
                      </Badge>
                    ))}
                  {data.wallet?.balanceSats !== undefined && <span className="text-stone-600">Balance {formatSats(data.wallet.balanceSats)}</span>}
                </div>
                {data.wallet && !data.wallet.ok && data.wallet.problem && <p className="break-words text-red-700">{data.wallet.problem}</p>}
                {(data.backends ?? []).map((b) => (
                  <p key={b.backend} className="break-words text-stone-600">
                    <span className="font-medium text-stone-900">{b.backend}</span>: last answer{" "}
                    {b.lastOkAt ? `${timeAgo(b.lastOkAt)} (${b.lastOkCall})` : "never"}
                    {b.lastErrorAt && (
                      <span className="text-red-700">
                        {" "}
                        · last error {timeAgo(b.lastErrorAt)} ({b.lastErrorCall}): {b.lastError}
                      </span>
                    )}
                  </p>
                ))}
              </section>
            )}

            <section aria-label="Payouts needing attention" className="flex flex-col gap-2">
              <h3 className="text-sm font-semibold text-stone-900">Payouts needing attention</h3>
              {data.payouts.length === 0 ? (
                <p className="text-sm text-stone-500">No failed, stuck or held payouts.</p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {data.payouts.map((p) => (
                    <PayoutRow
                      key={p.id}
                      payout={p}
                      retrying={retry.isPending && retry.variables === p.id}
                      onRetry={() => retry.mutate(p.id)}
                      onMarkFailed={() => setMarkFailed({ payout: p, hashes: [...doubtfulHashes(p)] })}
                    />
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
        <MarkFailedDialog target={markFailed} onClose={() => setMarkFailed(null)} />
      </CardContent>
    </Card>
  );
}

const PROBLEM_BADGE: Record<PayoutProblem["problem"], { label: string; variant: "danger" | "warning" }> = {
  failed: { label: "Failed", variant: "danger" },
  stuck: { label: "Stuck", variant: "warning" },
  needs_look: { label: "Needs a look", variant: "danger" },
  fee_over_cap: { label: "Held: fees over cap", variant: "warning" },
  paid_over_cap: { label: "Paid over fee cap", variant: "warning" },
};

const ATTEMPT_OUTCOME: Record<PayoutProblem["history"][number]["outcome"], string> = {
  sending: "Sent to the wallet, no answer yet",
  succeeded: "paid",
  failed: "failed",
  held: "held",
  unknown: "outcome unknown",
  marked_failed: "Marked failed by the admin",
};

/** The hashes of a payout held in doubt: what the admin checks on the node, and names to mark it failed. */
const doubtfulHashes = (p: PayoutProblem): string[] => (p.hold === "in_doubt" ? (p.doubtfulHashes ?? []) : []);

/** What the row's button does: look an in-flight payment up, pay a held one anyway, or retry. */
function actionLabel(p: PayoutProblem): string {
  if (p.status === "in_flight") return "Look up";
  if (p.problem === "fee_over_cap") return "Pay anyway";
  return "Retry";
}

function PayoutRow({
  payout: p,
  retrying,
  onRetry,
  onMarkFailed,
}: {
  payout: PayoutProblem;
  retrying: boolean;
  onRetry: () => void;
  onMarkFailed: () => void;
}) {
  const who = recipientName(p);
  const naming = `payout of ${formatSats(p.amount)} to ${who}`;
  const hashes = doubtfulHashes(p);
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3 sm:flex-row sm:items-start">
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-stone-900 tabular-nums">{formatSats(p.amount)}</span>
          <Badge variant={PROBLEM_BADGE[p.problem].variant}>{p.problem === "stuck" ? `Stuck (${p.status.replace("_", " ")})` : PROBLEM_BADGE[p.problem].label}</Badge>
          <span className="text-stone-600">{purposeLabel(p.purpose)}</span>
        </div>
        <span className="break-words text-stone-600">
          To {who}
          {p.recipient.lightningAddress ? ` (${p.recipient.lightningAddress})` : " (no Lightning address)"} · {p.gigTitle ?? p.gigId.slice(0, 8)}
        </span>
        <span className="text-xs text-stone-500">
          {p.attempts} {p.attempts === 1 ? "attempt" : "attempts"} · since {formatDate(p.createdAt)}
          {p.nextAttemptAt && p.status === "failed" ? ` · next automatic try ${new Date(p.nextAttemptAt).toLocaleTimeString()}` : ""}
        </span>
        {hashes.length > 0 && (
          <div className="flex flex-col gap-1 text-xs text-stone-600">
            <span className="break-words">
              Held in doubt: an earlier attempt may have sent money. It is not paid again until the wallet answers for{" "}
              {hashes.length === 1 ? "this payment hash" : "these payment hashes"}, or you mark it failed after checking your Lightning node that
              none of them was sent.
            </span>
            <ul aria-label={`Payment hashes in doubt, ${naming}`} className="flex flex-col gap-1">
              {hashes.map((hash, i) => (
                <li key={hash} className="flex items-start gap-1 rounded-md bg-stone-50 py-0.5 pl-2">
                  <code className="min-w-0 flex-1 self-center font-mono break-all text-stone-800 select-all">{hash}</code>
                  <CopyButton
                    value={hash}
                    label={hashes.length === 1 ? `Copy payment hash of ${naming}` : `Copy payment hash ${i + 1} of ${naming}`}
                    copiedDescription="Payment hash copied to clipboard"
                    className="h-7 w-7"
                  />
                </li>
              ))}
            </ul>
          </div>
        )}
        {p.problem === "paid_over_cap" && p.routingFee !== null && (
          <span className="text-xs text-stone-600">
            Routing cost {formatSats(p.routingFee)}, above the cap of {formatSats(p.feeCap ?? 0)}.
          </span>
        )}
        {p.lastError && p.problem !== "paid_over_cap" && <span className="text-xs break-words text-red-700">Last error: {p.lastError}</span>}
        {(p.history?.length ?? 0) > 0 && (
          <details className="text-xs text-stone-600">
            <summary className="cursor-pointer">History of attempts ({p.history.length})</summary>
            <ol className="mt-1 flex flex-col gap-1">
              {p.history.map((a) => (
                <li key={`${a.attempt}-${a.at}`} className="break-words">
                  #{a.attempt} {formatDate(a.at)} · {a.destination ?? "no address"} · {ATTEMPT_OUTCOME[a.outcome] ?? a.outcome}
                  {a.detail ? `: ${a.detail}` : ""}
                  {a.paymentHash && (
                    <>
                      {" "}
                      · hash <code className="font-mono break-all">{a.paymentHash}</code>
                    </>
                  )}
                </li>
              ))}
            </ol>
          </details>
        )}
      </div>
      {(p.problem !== "paid_over_cap" || hashes.length > 0) && (
        <div className="flex flex-wrap gap-2 sm:flex-col sm:items-stretch">
          {p.problem !== "paid_over_cap" && (
            <Button size="sm" variant="outline" onClick={onRetry} disabled={retrying} aria-label={`${actionLabel(p)} ${naming}`}>
              {retrying ? "Retrying..." : actionLabel(p)}
            </Button>
          )}
          {hashes.length > 0 && (
            <Button size="sm" variant="outline" className="text-red-700" onClick={onMarkFailed} aria-label={`Mark failed ${naming}`}>
              Mark failed
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
