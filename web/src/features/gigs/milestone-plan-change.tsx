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
import { MILESTONE_STEP_LABELS, planTotal, type MilestonePlanItem, type MilestoneProposalView, type MilestoneView } from "../../../../domain/milestones";
import { Button } from "../../components/ui/button";
import { CheckIcon, PencilIcon, XIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { formatSats } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { gigApi, useGigMutation, type MilestoneProposalAnswer } from "./gig-api";
import { gigPermissions } from "./gig-roles";
import { MilestoneRows, newMilestoneRow, type MilestoneRowDraft, type MilestoneRowErrors, type MilestoneRowField } from "./milestone-rows";
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
            <PlanLineItem key={m.number} line={m} note={m.days ? `${m.days} ${m.days === 1 ? "day" : "days"}` : null} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** One milestone of a plan list: "2. Build", its amount, and a note under the amount (its days or its step). */
function PlanLineItem({ line, note }: { line: PlanLine; note: string | null }) {
  return (
    <li className="flex items-start justify-between gap-3 px-2.5 py-1.5">
      <span className="min-w-0 break-words">
        <span className="text-stone-600">{line.number}. </span>
        <span>{line.title}</span>
      </span>
      <span className="shrink-0 text-right">
        <span className="font-medium">{formatSats(line.amount)}</span>
        {note ? <span className="block text-xs text-stone-600">{note}</span> : null}
      </span>
    </li>
  );
}

// ---- Proposing a change ---------------------------------------------------------------------------------

/** A row as the API takes it, or its errors (the shared rules and messages of milestoneItemSchema). */
function parseRow(row: MilestoneRowDraft): { item: MilestonePlanItem } | { errors: MilestoneRowErrors } {
  const amount = row.amount.trim() === "" ? undefined : Number(row.amount);
  const days = row.days.trim() === "" ? null : Number(row.days);
  const parsed = milestoneItemSchema.safeParse({ title: row.title, amount, days });
  if (parsed.success) return { item: { title: parsed.data.title, amount: parsed.data.amount, days: parsed.data.days ?? null } };
  const errors: MilestoneRowErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as MilestoneRowField;
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
  const [rows, setRows] = useState<MilestoneRowDraft[]>(() => {
    const changeable = milestones.filter((m) => m.number >= fromNumber).map((m) => newMilestoneRow(m));
    return changeable.length > 0 ? changeable : [newMilestoneRow()];
  });
  const [errors, setErrors] = useState<Record<string, MilestoneRowErrors>>({});
  const [planError, setPlanError] = useState<string | null>(null);
  // The screen's numbering goes with the proposal: a milestone funded since it was read makes the server refuse it.
  const propose = useGigMutation((items: MilestonePlanItem[]) => gigApi.proposeMilestones(gig.id, items, fromNumber));

  // A field's error goes once the field is changed.
  const changeRows = (next: MilestoneRowDraft[], changed?: { key: string; field: MilestoneRowField }) => {
    setRows(next);
    if (changed) setErrors((all) => (all[changed.key]?.[changed.field] ? { ...all, [changed.key]: { ...all[changed.key], [changed.field]: undefined } } : all));
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
        <ol aria-label="Funded milestones" className="flex flex-col divide-y divide-stone-100 rounded-md border border-stone-200 bg-stone-50 text-sm text-stone-700">
          {kept.map((m) => (
            <PlanLineItem key={m.number} line={m} note={MILESTONE_STEP_LABELS[m.step]} />
          ))}
        </ol>
      )}

      <MilestoneRows
        label="Milestones to change"
        rows={rows}
        onRowsChange={changeRows}
        rowErrors={rows.map((row) => errors[row.key] ?? {})}
        kept={kept}
        heading={(n) => `Milestone ${n}`}
        compact
        titleMaxLength={100}
      />
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
