// Changing a gig's milestone plan (issue 28), like an extension: one party proposes, the other accepts or
// rejects. Funded milestones never change; a proposal replaces every milestone from the first unfunded one on
// (change a title, an amount or the days, add or remove later ones). One pending proposal per gig: the other
// party sees it against the current plan with Accept / Reject, the proposer waits and may withdraw it.
// Loaded only for the parties of a gig with a plan: the rules are the shared zod ones (domain/gig-schemas.ts).
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { MAX_PAYMENT } from "../../../../domain/fees";
import { amountInTermsOf } from "../../../../domain/gig-money";
import { milestoneItemSchema } from "../../../../domain/gig-schemas";
import { MAX_MILESTONES, MILESTONE_STEP_LABELS, MIN_MILESTONES, planTotal, type MilestonePlanItem, type MilestoneProposalView, type MilestoneView } from "../../../../domain/milestones";
import { Button } from "../../components/ui/button";
import { CheckIcon, PencilIcon, TrashIcon, XIcon } from "../../components/ui/icons";
import { Input, Label, describedBy } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { formatSats } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { gigApi, useGigMutation, type MilestoneProposalAnswer } from "./gig-api";
import { gigPermissions } from "./gig-roles";
import { hasEnded, hasPlan } from "./milestone-steps";
import { gigKeys } from "./use-gigs";
import type { Gig } from "./types";

/** The first milestone a proposal may replace: the first unfunded one (every later one is unfunded too). */
export function firstChangeable(milestones: readonly MilestoneView[]): number {
  return milestones.find((m) => m.escrow === "unfunded")?.number ?? milestones.length + 1;
}

/** The plan can change while both parties are on the gig and it has not ended. */
function canChangePlan(gig: Gig): boolean {
  return hasPlan(gig) && !!gig.milestones && !!gig.hirerId && !!gig.workerId && gig.status !== "pending_payment" && !hasEnded(gig);
}

export function MilestonePlanChange({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const p = gigPermissions(gig, user?.id);
  if (!p.isParty || !canChangePlan(gig)) return null;
  const proposal = gig.milestoneProposal;
  if (proposal?.status === "pending") return <PendingProposal gig={gig} proposal={proposal} mine={proposal.proposerId === user?.id} />;
  return <ProposeChange gig={gig} otherParty={p.isHirer ? "the worker" : "the hirer"} />;
}

function useFailureToast() {
  const { toast } = useToast();
  return (title: string) => (err: unknown) => toast({ title, description: errorText(err), variant: "destructive" });
}

// ---- A pending proposal ---------------------------------------------------------------------------------

const ANSWERED: Record<MilestoneProposalAnswer, { title: string; description: string; failed: string }> = {
  accept: { title: "Milestones Changed", description: "The new milestones are the plan now.", failed: "Failed to Accept the Change" },
  reject: { title: "Change Rejected", description: "The milestones stay as they were.", failed: "Failed to Reject the Change" },
  withdraw: { title: "Change Withdrawn", description: "The milestones stay as they were.", failed: "Failed to Withdraw the Change" },
};

function PendingProposal({ gig, proposal, mine }: { gig: Gig; proposal: MilestoneProposalView; mine: boolean }) {
  const { user } = useAuth();
  const { toast } = useToast();
  const fail = useFailureToast();
  const answer = useGigMutation((a: MilestoneProposalAnswer) => gigApi.answerMilestoneProposal(gig.id, proposal.id, a));
  const run = (a: MilestoneProposalAnswer) =>
    answer.mutate(a, { onSuccess: () => toast({ title: ANSWERED[a].title, description: ANSWERED[a].description }), onError: fail(ANSWERED[a].failed) });
  const proposer = proposal.proposerId === gig.hirerId ? "The hirer" : "The worker";
  const milestones = gig.milestones ?? [];
  const kept = milestones.filter((m) => m.number < proposal.fromNumber);
  const replaced = milestones.filter((m) => m.number >= proposal.fromNumber);
  const newPayment = planTotal(kept) + planTotal(proposal.milestones);
  // The new total in the reader's own terms (domain/gig-money.ts): what the hirer pays, what the worker receives.
  const inTerms = amountInTermsOf(newPayment, gigPermissions(gig, user?.id).roles, gig.status);
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sky-950">
      <div className="flex flex-col gap-0.5">
        <h3 id={headingId} className="text-sm font-semibold">
          {mine ? "You proposed new milestones" : `${proposer} proposes new milestones`}
        </h3>
        <p className="text-sm">
          {keptText(proposal.fromNumber)}
          From milestone {proposal.fromNumber} on:
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <PlanList title="Now" items={replaced.map((m) => ({ number: m.number, title: m.title, amount: m.amount, days: m.days }))} empty="No milestones" muted />
        <PlanList title="Proposed" items={proposal.milestones.map((m, i) => ({ number: proposal.fromNumber + i, ...m }))} empty="No milestones" />
      </div>
      <p className="text-sm">
        <span className="font-medium">Payment: </span>
        {formatSats(gig.payment)}
        <span aria-hidden="true"> → </span>
        <span className="sr-only"> becomes </span>
        <span className="font-semibold">{formatSats(newPayment)}</span>
        {inTerms.terms !== "payment" && <span className="block text-xs">{inTerms.text} in all.</span>}
      </p>
      {mine ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex items-center gap-2 text-sm">
            <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-sky-500" />
            Waiting for the other party to accept or reject it.
          </p>
          <Button size="sm" variant="outline" disabled={answer.isPending} onClick={() => run("withdraw")}>
            {answer.isPending ? "Withdrawing..." : "Withdraw"}
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap justify-end gap-2">
          <Button size="sm" variant="outline" disabled={answer.isPending} onClick={() => run("reject")}>
            <XIcon />
            Reject
          </Button>
          <Button size="sm" disabled={answer.isPending} onClick={() => run("accept")}>
            <CheckIcon />
            Accept
          </Button>
        </div>
      )}
    </section>
  );
}

/** "Milestone 1 stays as it is. ", "Milestones 1 and 2 stay…", "Milestones 1 to 3 stay…", or nothing. */
function keptText(fromNumber: number): string {
  const last = fromNumber - 1;
  if (last < 1) return "";
  if (last === 1) return "Milestone 1 stays as it is. ";
  return `Milestones 1 ${last === 2 ? "and" : "to"} ${last} stay as they are. `;
}

interface PlanLine extends MilestonePlanItem {
  number: number;
}

function PlanList({ title, items, empty, muted }: { title: string; items: PlanLine[]; empty: string; muted?: boolean }) {
  return (
    <div className="flex flex-col gap-1">
      <h4 className="text-xs font-semibold tracking-wide text-sky-900 uppercase">{title}</h4>
      {items.length === 0 ? (
        <p className="text-sm text-stone-600">{empty}</p>
      ) : (
        <ol aria-label={`${title}: milestones`} className={cn("flex flex-col divide-y rounded-md border bg-white text-sm", muted ? "divide-stone-100 border-stone-200 text-stone-700" : "divide-sky-100 border-sky-300")}>
          {items.map((m) => (
            <li key={m.number} className="flex items-start justify-between gap-3 px-2.5 py-1.5">
              <span className="min-w-0 break-words">
                <span className="text-stone-600">{m.number}. </span>
                <span>{m.title}</span>
              </span>
              <span className="shrink-0 text-right">
                <span className="font-medium">{formatSats(m.amount)}</span>
                {m.days ? <span className="block text-xs text-stone-600">{m.days} {m.days === 1 ? "day" : "days"}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

// ---- Proposing a change ---------------------------------------------------------------------------------

interface Row {
  key: string;
  title: string;
  amount: string;
  days: string;
}

type RowErrors = Partial<Record<"title" | "amount" | "days", string>>;

let rowKeys = 0;
const rowOf = (m?: Pick<MilestoneView, "title" | "amount" | "days">): Row => ({
  key: `row-${rowKeys++}`,
  title: m?.title ?? "",
  amount: m ? String(m.amount) : "",
  days: m?.days ? String(m.days) : "",
});

/** A row as the API takes it, or its errors (the shared rules and messages of milestoneItemSchema). */
function parseRow(row: Row): { item: MilestonePlanItem } | { errors: RowErrors } {
  const amount = row.amount.trim() === "" ? undefined : Number(row.amount);
  const days = row.days.trim() === "" ? null : Number(row.days);
  const parsed = milestoneItemSchema.safeParse({ title: row.title, amount, days });
  if (parsed.success) return { item: { title: parsed.data.title, amount: parsed.data.amount, days: parsed.data.days ?? null } };
  const errors: RowErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof RowErrors;
    errors[field] ??= issue.message;
  }
  return { errors };
}

function ProposeChange({ gig, otherParty }: { gig: Gig; otherParty: string }) {
  const queryClient = useQueryClient();
  // The gig the form starts from, once opened.
  const [base, setBase] = useState<Gig | null>(null);
  const [reading, setReading] = useState(false);
  // A proposal replaces the milestones from the first unfunded one on, as the Worker counts them then: the form
  // starts from the gig as it is now (a milestone may have been funded since these details were read).
  const start = async () => {
    setReading(true);
    await queryClient.refetchQueries({ queryKey: gigKeys.detail(gig.id), exact: true }).catch(() => undefined);
    setReading(false);
    setBase(queryClient.getQueryData<Gig>(gigKeys.detail(gig.id)) ?? gig);
  };
  if (!base) {
    return (
      <Button variant="outline" className="sm:self-start" disabled={reading} onClick={() => void start()}>
        <PencilIcon />
        Change milestones
      </Button>
    );
  }
  return <ChangeForm gig={base} otherParty={otherParty} onClose={() => setBase(null)} />;
}

function ChangeForm({ gig, otherParty, onClose }: { gig: Gig; otherParty: string; onClose: () => void }) {
  const id = useId();
  const { toast } = useToast();
  const fail = useFailureToast();
  const milestones = gig.milestones ?? [];
  const fromNumber = firstChangeable(milestones);
  const kept = milestones.filter((m) => m.number < fromNumber);
  // With every milestone funded, the only change left is a later one: the form starts with an empty row for it.
  const [rows, setRows] = useState<Row[]>(() => {
    const changeable = milestones.filter((m) => m.number >= fromNumber).map(rowOf);
    return changeable.length > 0 ? changeable : [rowOf()];
  });
  const [errors, setErrors] = useState<Record<string, RowErrors>>({});
  const [planError, setPlanError] = useState<string | null>(null);
  // The screen's numbering goes with the proposal: a milestone funded since it was read makes the server refuse it.
  const propose = useGigMutation((items: MilestonePlanItem[]) => gigApi.proposeMilestones(gig.id, items, fromNumber));

  const count = kept.length + rows.length;
  const total = planTotal(kept) + rows.reduce((sum, r) => sum + (Number.isSafeInteger(Number(r.amount)) ? Number(r.amount) : 0), 0);
  // At least one proposed milestone, and a plan of MIN to MAX milestones in all.
  const canRemove = rows.length > 1 && count > MIN_MILESTONES;

  const setField = (key: string, field: keyof RowErrors, value: string) => {
    setRows((all) => all.map((r) => (r.key === key ? { ...r, [field]: value } : r)));
    setErrors((all) => (all[key]?.[field] ? { ...all, [key]: { ...all[key], [field]: undefined } } : all));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = rows.map((row) => ({ row, result: parseRow(row) }));
    const rowErrors = Object.fromEntries(parsed.flatMap(({ row, result }) => ("errors" in result ? [[row.key, result.errors]] : [])));
    setErrors(rowErrors);
    const items = parsed.flatMap(({ result }) => ("item" in result ? [result.item] : []));
    const tooMuch = planTotal(kept) + planTotal(items) > MAX_PAYMENT;
    setPlanError(tooMuch ? "Maximum payment is 1,000,000 sats" : null);
    if (Object.keys(rowErrors).length > 0 || tooMuch || items.length === 0) return;
    propose.mutate(items, {
      onSuccess: () => {
        toast({ title: "Change Proposed", description: `The new milestones apply once ${otherParty} accepts them.` });
        onClose();
      },
      onError: fail("Failed to Propose the Change"),
    });
  };

  return (
    <form onSubmit={onSubmit} aria-labelledby={`${id}-heading`} className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3" noValidate>
      <div className="flex flex-col gap-0.5">
        <h3 id={`${id}-heading`} className="text-sm font-semibold">
          Change milestones
        </h3>
        <p className="text-xs text-stone-600">
          Funded milestones never change. Change the others, or add or remove later ones; {otherParty} accepts or rejects the change.
        </p>
      </div>

      {kept.length > 0 && (
        <ol aria-label="Funded milestones" className="flex flex-col divide-y divide-stone-100 rounded-md border border-stone-200 bg-stone-50 text-sm">
          {kept.map((m) => (
            <li key={m.number} className="flex items-start justify-between gap-3 px-2.5 py-1.5 text-stone-700">
              <span className="min-w-0 break-words">
                <span className="text-stone-600">{m.number}. </span>
                <span>{m.title}</span>
              </span>
              <span className="shrink-0 text-right">
                <span className="font-medium">{formatSats(m.amount)}</span>
                <span className="block text-xs text-stone-600">{MILESTONE_STEP_LABELS[m.step]}</span>
              </span>
            </li>
          ))}
        </ol>
      )}

      <ol aria-label="Milestones to change" className="flex flex-col gap-2">
        {rows.map((row, index) => {
          const n = fromNumber + index;
          const rowId = `${id}-${row.key}`;
          const e = errors[row.key] ?? {};
          return (
            <li key={row.key} className="flex flex-col gap-2 rounded-md border border-stone-200 p-2.5">
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm font-semibold text-stone-800">Milestone {n}</span>
                {canRemove && (
                  <Button variant="ghost" size="icon" aria-label={`Remove milestone ${n}`} onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}>
                    <TrashIcon />
                  </Button>
                )}
              </div>
              <div className="grid grid-cols-[minmax(0,1fr)_5.5rem] gap-x-2 gap-y-2 sm:grid-cols-[minmax(0,1fr)_8rem_5rem]">
                <Field id={`${rowId}-title`} label="Title" error={e.title} className="col-span-2 sm:col-span-1">
                  <Input
                    id={`${rowId}-title`}
                    aria-label={`Milestone ${n} title`}
                    value={row.title}
                    maxLength={100}
                    onChange={(ev) => setField(row.key, "title", ev.target.value)}
                    aria-invalid={!!e.title}
                    aria-describedby={describedBy(`${rowId}-title`, undefined, e.title)}
                  />
                </Field>
                <Field id={`${rowId}-amount`} label="Amount (sats)" error={e.amount}>
                  <Input
                    id={`${rowId}-amount`}
                    aria-label={`Milestone ${n} amount (sats)`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    step={1}
                    value={row.amount}
                    onChange={(ev) => setField(row.key, "amount", ev.target.value)}
                    aria-invalid={!!e.amount}
                    aria-describedby={describedBy(`${rowId}-amount`, undefined, e.amount)}
                  />
                </Field>
                <Field id={`${rowId}-days`} label="Days" error={e.days}>
                  <Input
                    id={`${rowId}-days`}
                    aria-label={`Milestone ${n} days`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={30}
                    step={1}
                    placeholder="Optional"
                    value={row.days}
                    onChange={(ev) => setField(row.key, "days", ev.target.value)}
                    aria-invalid={!!e.days}
                    aria-describedby={describedBy(`${rowId}-days`, undefined, e.days)}
                  />
                </Field>
              </div>
            </li>
          );
        })}
      </ol>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="outline" size="sm" disabled={count >= MAX_MILESTONES} onClick={() => setRows((all) => [...all, rowOf()])}>
          <span aria-hidden="true" className="text-base leading-none">
            +
          </span>
          Add milestone
        </Button>
        <p className="text-sm font-medium text-stone-800" aria-live="polite">
          {count} milestones · {formatSats(total)}
        </p>
      </div>
      {planError && <p className="text-xs font-medium text-red-600">{planError}</p>}

      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={propose.isPending}>
          {propose.isPending ? "Sending..." : "Send proposal"}
        </Button>
      </div>
    </form>
  );
}

function Field({ id, label, error, className, children }: { id: string; label: string; error?: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)}>
      <Label htmlFor={id} className="text-xs text-stone-600">
        {label}
      </Label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
