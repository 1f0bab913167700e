// Deadline extensions (SPEC.md §2, §4, §5, §6): the worker asks for more days (presets 1, 3, 7, 14 or a
// number; one pending request at a time), the hirer approves or rejects it, or moves the deadline directly.
// Every answer refreshes the gig (its deadline) and the request list through useGigMutation.
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { EXTENSION_PRESETS, extensionRequestSchema } from "../../../../domain/collaboration-schemas";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { CheckIcon, XIcon } from "../../components/ui/icons";
import { Input, Label, Textarea } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { formatDate, timeAgo, twoDigits } from "../../lib/format";
import { gigApi, useGigMutation, type ExtensionDecision } from "./gig-api";
import { useExtensionRequests } from "./use-gigs";
import type { ExtensionRequest, Gig } from "./types";

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;
const moreDays = (n: number) => `${n} more ${n === 1 ? "day" : "days"}`;

/** "Dec 3, 2026, 14:00": a deadline with its time, in the member's time zone. */
export function formatDeadline(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return `${formatDate(date.toISOString())}, ${date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}`;
}

function addDays(from: Date, n: number): Date {
  const next = new Date(from);
  next.setDate(next.getDate() + n);
  return next;
}

/** The local calendar day of a date, as a date input reads it (yyyy-mm-dd). */
export const localDay = (d: Date) => `${d.getFullYear()}-${twoDigits(d.getMonth() + 1)}-${twoDigits(d.getDate())}`;

/** A day from the date input, at the time of day of `timeOf` (the current deadline keeps its hour). */
function atDay(day: string, timeOf: Date): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const next = new Date(timeOf);
  next.setFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return next;
}

/** Toggle buttons that pick one value; the chosen one is pressed. */
function PresetButtons({
  labelledBy,
  presets,
  chosen,
  format,
  onChoose,
}: {
  labelledBy: string;
  presets: readonly number[];
  chosen: number | null;
  format: (n: number) => string;
  onChoose: (n: number) => void;
}) {
  return (
    <div role="group" aria-labelledby={labelledBy} className="grid grid-cols-2 gap-1.5 sm:grid-cols-4">
      {presets.map((n) => (
        <Button
          key={n}
          size="sm"
          variant="outline"
          aria-pressed={chosen === n}
          onClick={() => onChoose(n)}
          className={cn(chosen === n && "border-brand-500! bg-brand-50! text-brand-800! ring-1 ring-brand-500")}
        >
          {format(n)}
        </Button>
      ))}
    </div>
  );
}

const STATUS_BADGE: Record<string, { label: string; variant: "warning" | "success" | "danger" }> = {
  pending: { label: "Pending", variant: "warning" },
  approved: { label: "Approved", variant: "success" },
  rejected: { label: "Rejected", variant: "danger" },
};

function ExtensionStatusBadge({ status }: { status: string }) {
  const s = STATUS_BADGE[status] ?? { label: status, variant: "warning" as const };
  return <Badge variant={s.variant}>{s.label}</Badge>;
}

function Panel({ title, children, className, id }: { title: ReactNode; children: ReactNode; className?: string; id: string }) {
  return (
    <section aria-labelledby={id} className={cn("flex flex-col gap-3 rounded-lg border border-stone-200 p-3", className)}>
      <h3 id={id} className="text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

// ---- The worker --------------------------------------------------------------------------

/** The worker's request for more days, while the gig is claimed or in progress. */
export function WorkerExtensionPanel({ gig }: { gig: Gig }) {
  const id = useId();
  const requests = useExtensionRequests(gig.id, true);
  const [open, setOpen] = useState(false);
  const pending = requests.data?.find((r) => r.status === "pending");
  const lastAnswered = requests.data?.filter((r) => r.status !== "pending").at(-1);

  return (
    <Panel id={`${id}-title`} title="Need more time?">
      {requests.isPending ? (
        <Skeleton className="h-9 w-40 rounded-md" />
      ) : pending ? (
        <>
          <p className="text-sm text-stone-700">
            You asked for <span className="font-medium">{moreDays(pending.daysToAdd)}</span> {timeAgo(pending.createdAt)}. The hirer has not answered yet.
          </p>
          {pending.reason && <p className="border-l-2 border-stone-200 pl-2 text-sm break-words whitespace-pre-wrap text-stone-600">{pending.reason}</p>}
          <Button size="sm" variant="outline" disabled className="self-start">
            Request Pending
          </Button>
        </>
      ) : open ? (
        <ExtensionRequestForm gig={gig} onDone={() => setOpen(false)} />
      ) : (
        <>
          <p className="text-sm text-stone-600">
            {gig.deadline ? <>The deadline is {formatDeadline(gig.deadline)}. </> : null}
            Ask the hirer to extend it.
          </p>
          {lastAnswered && (
            <p className="text-xs text-stone-500">
              Your last request ({days(lastAnswered.daysToAdd)}) was {lastAnswered.status === "approved" ? "approved" : "not approved"}.
            </p>
          )}
          <Button size="sm" variant="outline" className="self-start" onClick={() => setOpen(true)}>
            Request Extension
          </Button>
        </>
      )}
    </Panel>
  );
}

function ExtensionRequestForm({ gig, onDone }: { gig: Gig; onDone: () => void }) {
  const id = useId();
  const { toast } = useToast();
  const [daysText, setDaysText] = useState("");
  const [reason, setReason] = useState("");
  const send = useGigMutation(({ daysToAdd, reason }: { daysToAdd: number; reason?: string }) => gigApi.requestExtension(gig.id, daysToAdd, reason));

  const check = extensionRequestSchema.safeParse({ daysToAdd: daysText.trim() === "" ? Number.NaN : Number(daysText), reason });
  const error = daysText.trim() !== "" && !check.success ? check.error.issues[0]?.message : undefined;
  const chosen = check.success ? check.data.daysToAdd : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check.success) return;
    const { daysToAdd } = check.data;
    send.mutate(
      { daysToAdd, reason: check.data.reason ?? undefined },
      {
        onSuccess: () => {
          toast({ title: "Extension Request Sent", description: `You asked for ${moreDays(daysToAdd)}. The hirer will answer.` });
          onDone();
        },
        onError: (err) => toast({ title: "Failed to Request Extension", description: errorText(err), variant: "destructive" }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <span id={`${id}-presets`} className="text-sm font-medium text-stone-800">
          Days to add
        </span>
        <PresetButtons labelledBy={`${id}-presets`} presets={EXTENSION_PRESETS} chosen={chosen} format={days} onChoose={(n) => setDaysText(String(n))} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-days`}>Or another number of days</Label>
        <Input
          id={`${id}-days`}
          type="number"
          inputMode="numeric"
          min={1}
          max={30}
          step={1}
          value={daysText}
          onChange={(e) => setDaysText(e.target.value)}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-days-error` : undefined}
          className="max-w-32"
        />
        {error && (
          <p id={`${id}-days-error`} className="text-xs font-medium text-red-600">
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-reason`}>
          Reason <span className="font-normal text-stone-500">(optional)</span>
        </Label>
        <Textarea id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={1000} className="min-h-16" />
      </div>
      {chosen !== null && gig.deadline && (
        <p className="text-xs text-stone-600">If the hirer approves, the new deadline is {formatDeadline(addDays(new Date(gig.deadline), chosen))}.</p>
      )}
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!check.success || send.isPending}>
          {send.isPending ? "Sending..." : "Request Extension"}
        </Button>
      </div>
    </form>
  );
}

// ---- The hirer ---------------------------------------------------------------------------

const DECISION_TOASTS: Record<ExtensionDecision, { ok: string; fail: string }> = {
  approve: { ok: "Extension Approved", fail: "Failed to Approve Extension" },
  reject: { ok: "Extension Rejected", fail: "Failed to Reject Extension" },
};

/**
 * The hirer's side: pending requests to answer, and a direct extension. `history` also lists the
 * answered requests (the management modal); the details modal keeps to what needs an answer.
 */
export function HirerExtensionPanel({ gig, history = false }: { gig: Gig; history?: boolean }) {
  const id = useId();
  const requests = useExtensionRequests(gig.id, true);
  const pending = requests.data?.filter((r) => r.status === "pending") ?? [];
  const answered = history ? (requests.data?.filter((r) => r.status !== "pending").reverse() ?? []) : [];

  return (
    <Panel id={`${id}-title`} title="Deadline">
      <p className="text-sm text-stone-600">{gig.deadline ? <>The deadline is {formatDeadline(gig.deadline)}.</> : "No deadline is set yet."}</p>
      {requests.isPending ? (
        <Skeleton className="h-16 rounded-lg" />
      ) : requests.isError ? (
        <p className="text-sm text-red-700">{errorText(requests.error, "Could not load the extension requests.")}</p>
      ) : (
        pending.map((r) => <PendingRequest key={r.id} gig={gig} request={r} />)
      )}
      {history && requests.isSuccess && requests.data.length === 0 && <p className="text-sm text-stone-500">No extension requests yet</p>}
      {answered.length > 0 && (
        <section aria-labelledby={`${id}-history`} className="flex flex-col gap-1">
          <h4 id={`${id}-history`} className="text-xs font-semibold tracking-wide text-stone-500 uppercase">
            Earlier requests
          </h4>
          <ul className="flex flex-col divide-y divide-stone-100">
            {answered.map((r) => (
              <li key={r.id} className="flex flex-col gap-0.5 py-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">+{days(r.daysToAdd)}</span>
                  <ExtensionStatusBadge status={r.status} />
                  <span className="text-xs text-stone-500">asked {timeAgo(r.createdAt)}</span>
                </div>
                {r.reason && <p className="break-words whitespace-pre-wrap text-stone-600">{r.reason}</p>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <ExtendDeadline gig={gig} startOpen={history} />
    </Panel>
  );
}

function PendingRequest({ gig, request }: { gig: Gig; request: ExtensionRequest }) {
  const { toast } = useToast();
  const decide = useGigMutation((decision: ExtensionDecision) => gigApi.decideExtension(gig.id, request.id, decision));
  const moved = gig.deadline ? addDays(new Date(gig.deadline), request.daysToAdd) : null;
  const run = (decision: ExtensionDecision) =>
    decide.mutate(decision, {
      onSuccess: () =>
        toast({
          title: DECISION_TOASTS[decision].ok,
          description: decision === "approve" ? `The deadline moved by ${days(request.daysToAdd)}.` : "The worker has been told.",
        }),
      onError: (err) => toast({ title: DECISION_TOASTS[decision].fail, description: errorText(err), variant: "destructive" }),
    });
  return (
    <div role="group" aria-label="Extension request" className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">The worker asks for {moreDays(request.daysToAdd)}</span>
        <span className="text-xs text-amber-800">{timeAgo(request.createdAt)}</span>
      </div>
      {request.reason && <p className="break-words whitespace-pre-wrap">{request.reason}</p>}
      {moved && <p className="text-xs text-amber-900">Approving moves the deadline to {formatDeadline(moved)}.</p>}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => run("approve")} disabled={decide.isPending} aria-label="Approve Extension">
          <CheckIcon />
          {decide.isPending && decide.variables === "approve" ? "Approving..." : "Approve"}
        </Button>
        <Button size="sm" variant="outline" onClick={() => run("reject")} disabled={decide.isPending} aria-label="Reject Extension">
          <XIcon />
          {decide.isPending && decide.variables === "reject" ? "Rejecting..." : "Reject"}
        </Button>
      </div>
    </div>
  );
}

const DEADLINE_PRESETS = [1, 3, 7, 14] as const;

/** The hirer moves the deadline: +N days or a day from the date picker, always later than the current deadline. */
function ExtendDeadline({ gig, startOpen }: { gig: Gig; startOpen: boolean }) {
  const id = useId();
  const { toast } = useToast();
  const [open, setOpen] = useState(startOpen);
  const [day, setDay] = useState("");
  const extend = useGigMutation((newDeadline: string) => gigApi.extendDeadline(gig.id, newDeadline));

  // Presets count from the current deadline, or from now when it has already passed.
  const current = gig.deadline ? new Date(gig.deadline) : null;
  const now = new Date();
  const base = current && current > now ? current : now;
  const next = day ? atDay(day, base) : null;
  const notLater = !!next && next.getTime() <= base.getTime();
  const chosenPreset = DEADLINE_PRESETS.find((n) => day === localDay(addDays(base, n))) ?? null;

  if (!open) {
    return (
      <Button size="sm" variant="outline" className="self-start" onClick={() => setOpen(true)}>
        Extend Deadline
      </Button>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!next || notLater) return;
    extend.mutate(next.toISOString(), {
      onSuccess: () => {
        toast({ title: "Deadline Extended", description: `The new deadline is ${formatDeadline(next)}. The worker has been told.` });
        setDay("");
        setOpen(startOpen);
      },
      onError: (err) => toast({ title: "Failed to Extend Deadline", description: errorText(err), variant: "destructive" }),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 border-t border-stone-100 pt-3">
      <div className="flex flex-col gap-1.5">
        <span id={`${id}-presets`} className="text-sm font-medium text-stone-800">
          Extend the deadline by
        </span>
        <PresetButtons
          labelledBy={`${id}-presets`}
          presets={DEADLINE_PRESETS}
          chosen={chosenPreset}
          format={(n) => `+${days(n)}`}
          onChoose={(n) => setDay(localDay(addDays(base, n)))}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-date`}>Or pick a new deadline</Label>
        <Input
          id={`${id}-date`}
          type="date"
          min={localDay(addDays(base, 1))}
          value={day}
          onChange={(e) => setDay(e.target.value)}
          aria-invalid={notLater}
          aria-describedby={`${id}-date-note`}
          className="max-w-56"
        />
        <p id={`${id}-date-note`} className={cn("text-xs", notLater ? "font-medium text-red-600" : "text-stone-600")}>
          {notLater
            ? "The new deadline must be later than the current one"
            : next
              ? `New deadline: ${formatDeadline(next)}`
              : "The time of day stays the same."}
        </p>
      </div>
      <div className="flex justify-end gap-2">
        {!startOpen && (
          <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="sm" disabled={!next || notLater || extend.isPending}>
          {extend.isPending ? "Extending..." : "Extend Deadline"}
        </Button>
      </div>
    </form>
  );
}
