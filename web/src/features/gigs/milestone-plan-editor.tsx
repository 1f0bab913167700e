// The milestone plan of the Post New Gig form (issue 28): a "Pay in milestones" switch and, when it is on,
// 2 to 10 rows (title, amount in sats, optional days) whose sum is the gig's payment; and the plan as the
// Preview lists it. The rules and their messages are the shared ones (domain/gig-schemas.ts); this file only
// draws the rows and the errors the form hands it.
import { useEffect, useId, useRef, type ReactNode } from "react";
import type { GigType } from "../../../../domain/gig";
import { MAX_MILESTONES, MIN_MILESTONES, milestoneLabel, planTotal, type MilestonePlanItem } from "../../../../domain/milestones";
import { Button } from "../../components/ui/button";
import { TrashIcon } from "../../components/ui/icons";
import { describedBy, Input, Label } from "../../components/ui/input";
import { cn } from "../../lib/cn";
import { formatSats } from "../../lib/format";

export type MilestoneRowField = "title" | "amount" | "days";

/** One row as typed: the inputs' text, and a key that stays with the row when others are removed. */
export interface MilestoneRowDraft {
  key: string;
  title: string;
  amount: string;
  days: string;
}

export type MilestoneRowErrors = Partial<Record<MilestoneRowField, string>>;

let rowCounter = 0;
export const newMilestoneRow = (): MilestoneRowDraft => ({ key: `milestone-${rowCounter++}`, title: "", amount: "", days: "" });
export const initialMilestoneRows = (): MilestoneRowDraft[] => Array.from({ length: MIN_MILESTONES }, newMilestoneRow);

/** A row's amount as sats, or null while it is not a whole number of sats. */
function rowAmount(row: MilestoneRowDraft): number | null {
  if (row.amount.trim() === "") return null;
  const n = Number(row.amount);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The payment a plan makes: the sum of the amounts typed so far (a blank or invalid one counts as nothing). */
export const draftPlanTotal = (rows: readonly MilestoneRowDraft[]) => rows.reduce((sum, row) => sum + (rowAmount(row) ?? 0), 0);

/** "3 milestones · 60,000 sats" */
export const planSummary = (count: number, total: number) => `${count} milestones · ${formatSats(total)}`;

/** What milestones mean, for the side that posts. */
export const MILESTONE_HINTS: Record<GigType, string> = {
  job_request: "Each milestone is funded, delivered and paid on its own. You fund the first one now.",
  service_offering: "The hirer funds milestone 1 when they hire you, and each next one as the work goes on.",
};

export function MilestonePlanEditor({
  gigType,
  on,
  onToggle,
  rows,
  onRowsChange,
  onTouch,
  rowErrors,
  planError,
}: {
  gigType: GigType;
  on: boolean;
  onToggle: (on: boolean) => void;
  rows: MilestoneRowDraft[];
  onRowsChange: (rows: MilestoneRowDraft[], changed?: { key: string; field: MilestoneRowField }) => void;
  /** A row's field lost focus: its error may show from now on. */
  onTouch: (key: string, field: MilestoneRowField) => void;
  /** Errors to show, by row index (the form decides which fields have been touched). */
  rowErrors: MilestoneRowErrors[];
  planError?: string;
}) {
  const id = useId();
  const switchId = `${id}-switch`;
  const titleInputs = useRef(new Map<string, HTMLInputElement>());
  // After Add or Remove, the title of the new row (or of the row that took the removed one's place) takes focus,
  // so a keyboard user is not dropped at the top of the page.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const key = focusNext.current;
    if (!key) return;
    focusNext.current = null;
    titleInputs.current.get(key)?.focus();
  }, [rows]);

  const setField = (index: number, field: MilestoneRowField, value: string) => {
    const row = rows[index]!;
    onRowsChange(
      rows.map((r, i) => (i === index ? { ...r, [field]: value } : r)),
      { key: row.key, field },
    );
  };
  const add = () => {
    if (rows.length >= MAX_MILESTONES) return;
    const row = newMilestoneRow();
    focusNext.current = row.key;
    onRowsChange([...rows, row]);
  };
  const remove = (index: number) => {
    if (rows.length <= MIN_MILESTONES) return;
    const rest = rows.filter((_, i) => i !== index);
    focusNext.current = (rest[index] ?? rest[index - 1])!.key;
    onRowsChange(rest);
  };
  const total = draftPlanTotal(rows);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-start gap-3 rounded-lg border border-stone-200 bg-stone-50 p-3">
        <span className="relative mt-0.5 inline-flex shrink-0">
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            checked={on}
            onChange={(e) => onToggle(e.target.checked)}
            aria-describedby={`${switchId}-hint`}
            className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer opacity-0"
          />
          <span
            aria-hidden="true"
            className="pointer-events-none h-6 w-11 rounded-full bg-stone-500 transition-colors peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500"
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow-sm transition-transform peer-checked:translate-x-5"
          />
        </span>
        <div className="flex min-w-0 flex-col gap-0.5">
          <Label htmlFor={switchId} className="cursor-pointer">
            Pay in milestones
          </Label>
          <p id={`${switchId}-hint`} className="text-xs text-stone-600">
            {MILESTONE_HINTS[gigType]}
          </p>
        </div>
      </div>

      {on && (
        <>
          <ol className="flex flex-col gap-3" aria-label="Milestones">
            {rows.map((row, index) => {
              const n = index + 1;
              const rowId = `${id}-${row.key}`;
              const errors = rowErrors[index] ?? {};
              return (
                <li key={row.key} className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3">
                  <div className="flex items-center justify-between gap-2">
                    <span className="text-sm font-semibold text-stone-800">{milestoneLabel(n, rows.length)}</span>
                    <Button
                      variant="ghost"
                      size="icon"
                      onClick={() => remove(index)}
                      disabled={rows.length <= MIN_MILESTONES}
                      aria-label={`Remove milestone ${n}`}
                      title={rows.length <= MIN_MILESTONES ? `A plan has at least ${MIN_MILESTONES} milestones` : `Remove milestone ${n}`}
                    >
                      <TrashIcon />
                    </Button>
                  </div>
                  <div className="grid grid-cols-[minmax(0,1fr)_5.5rem] gap-x-3 gap-y-2 sm:grid-cols-[minmax(0,1fr)_9rem_5.5rem]">
                    <RowField id={`${rowId}-title`} label="Title" error={errors.title} className="col-span-2 sm:col-span-1">
                      <Input
                        id={`${rowId}-title`}
                        ref={(el) => {
                          if (el) titleInputs.current.set(row.key, el);
                          else titleInputs.current.delete(row.key);
                        }}
                        value={row.title}
                        onChange={(e) => setField(index, "title", e.target.value)}
                        onBlur={() => onTouch(row.key, "title")}
                        placeholder={n === 1 ? "e.g. Design" : undefined}
                        aria-label={`Milestone ${n} title`}
                        aria-invalid={!!errors.title}
                        aria-describedby={describedBy(`${rowId}-title`, undefined, errors.title)}
                      />
                    </RowField>
                    <RowField id={`${rowId}-amount`} label="Amount (sats)" error={errors.amount}>
                      <Input
                        id={`${rowId}-amount`}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        step={1}
                        value={row.amount}
                        onChange={(e) => setField(index, "amount", e.target.value)}
                        onBlur={() => onTouch(row.key, "amount")}
                        aria-label={`Milestone ${n} amount (sats)`}
                        aria-invalid={!!errors.amount}
                        aria-describedby={describedBy(`${rowId}-amount`, undefined, errors.amount)}
                      />
                    </RowField>
                    <RowField id={`${rowId}-days`} label="Days" error={errors.days}>
                      <Input
                        id={`${rowId}-days`}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={30}
                        step={1}
                        value={row.days}
                        onChange={(e) => setField(index, "days", e.target.value)}
                        onBlur={() => onTouch(row.key, "days")}
                        placeholder="Optional"
                        aria-label={`Milestone ${n} days`}
                        aria-invalid={!!errors.days}
                        aria-describedby={describedBy(`${rowId}-days`, undefined, errors.days)}
                      />
                    </RowField>
                  </div>
                </li>
              );
            })}
          </ol>
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
            <Button variant="outline" size="sm" onClick={add} disabled={rows.length >= MAX_MILESTONES}>
              <span aria-hidden="true" className="text-base leading-none">
                +
              </span>
              Add milestone
            </Button>
            <p className="text-sm font-medium text-stone-800" aria-live="polite">
              {planSummary(rows.length, total)}
            </p>
          </div>
          {rows.length >= MAX_MILESTONES && <p className="text-xs text-stone-600">A plan has at most {MAX_MILESTONES} milestones.</p>}
          {planError && <p className="text-xs font-medium text-red-600">{planError}</p>}
        </>
      )}
    </div>
  );
}

/** A row's field: its visible label, its control, and its error under it. */
function RowField({ id, label, error, className, children }: { id: string; label: string; error?: string; className?: string; children: ReactNode }) {
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

/** The plan as the Preview shows it: each milestone with its amount and days, and the total. */
export function MilestonePlanPreview({ plan }: { plan: readonly MilestonePlanItem[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h4 id={headingId} className="text-xs text-stone-500">
        Milestones
      </h4>
      <div className="rounded-lg border border-stone-200 text-sm">
        <ol className="flex flex-col divide-y divide-stone-200">
          {plan.map((m, index) => (
            <li key={index} className="flex items-start justify-between gap-3 px-3 py-2">
              <span className="flex min-w-0 flex-col">
                <span className="text-xs text-stone-500">{milestoneLabel(index + 1, plan.length)}</span>
                <span className="font-medium break-words text-stone-900">{m.title}</span>
              </span>
              <span className="flex shrink-0 flex-col items-end text-right">
                <span className="font-medium text-stone-900">{formatSats(m.amount)}</span>
                {m.days != null && (
                  <span className="text-xs text-stone-500">
                    {m.days} {m.days === 1 ? "day" : "days"}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ol>
        <p className="flex items-center justify-between gap-3 rounded-b-lg border-t border-stone-200 bg-stone-50 px-3 py-2 font-semibold text-stone-900">
          <span>Total</span>
          <span>{formatSats(planTotal(plan))}</span>
        </p>
      </div>
    </section>
  );
}
