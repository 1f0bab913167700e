// The rows of a milestone plan as typed (issue 28): title, amount in sats and optional days each, with Add and
// Remove, each field's error under it, and a summary line of the plan's count and total. Drawn by the Post New
// Gig form's plan editor (milestone-plan-editor.tsx) and by the plan change form (milestone-plan-change.tsx),
// which starts its rows after the funded milestones that stay as they are.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { MAX_MILESTONES, MIN_MILESTONES, planTotal, type MilestonePlanItem } from "../../../../domain/milestones";
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
/** A new row: empty, or filled in from a milestone of the plan. */
export const newMilestoneRow = (from?: Pick<MilestonePlanItem, "title" | "amount" | "days">): MilestoneRowDraft => ({
  key: `milestone-${rowCounter++}`,
  title: from?.title ?? "",
  amount: from ? String(from.amount) : "",
  days: from?.days ? String(from.days) : "",
});

/** A row's amount as sats, or null while it is not a whole number of sats. */
function rowAmount(row: MilestoneRowDraft): number | null {
  if (row.amount.trim() === "") return null;
  const n = Number(row.amount);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The payment a plan makes: the sum of the amounts typed so far (a blank or invalid one counts as nothing). */
export const draftPlanTotal = (rows: readonly MilestoneRowDraft[]) => rows.reduce((sum, row) => sum + (rowAmount(row) ?? 0), 0);

/** "3 milestones · 60,000 sats" */
const planSummary = (count: number, total: number) => `${count} milestones · ${formatSats(total)}`;

export function MilestoneRows({
  label,
  rows,
  onRowsChange,
  onTouch,
  rowErrors,
  kept = [],
  heading,
  removeBlockedNote,
  compact = false,
  titleMaxLength,
  firstTitlePlaceholder,
}: {
  /** The list's accessible name. */
  label: string;
  rows: MilestoneRowDraft[];
  onRowsChange: (rows: MilestoneRowDraft[], changed?: { key: string; field: MilestoneRowField }) => void;
  /** A row's field lost focus. */
  onTouch?: (key: string, field: MilestoneRowField) => void;
  /** Errors to show, by row index. */
  rowErrors: readonly MilestoneRowErrors[];
  /** The milestones before the rows, which stay as they are: the rows are numbered after them, and the plan counts them. */
  kept?: readonly Pick<MilestonePlanItem, "amount">[];
  /** A row's heading, from its milestone number and the plan's count. */
  heading: (number: number, count: number) => string;
  /** Why Remove is off while no row can be removed, as its tooltip; without it, Remove is hidden then. */
  removeBlockedNote?: string;
  /** Tighter spacing, for a form inside the gig's details. */
  compact?: boolean;
  titleMaxLength?: number;
  /** The first row's title placeholder. */
  firstTitlePlaceholder?: string;
}) {
  const id = useId();
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

  const count = kept.length + rows.length;
  const total = planTotal(kept) + draftPlanTotal(rows);
  // At least one row, and a plan of MIN to MAX milestones in all.
  const canAdd = count < MAX_MILESTONES;
  const canRemove = rows.length > 1 && count > MIN_MILESTONES;

  const setField = (index: number, field: MilestoneRowField, value: string) => {
    const row = rows[index]!;
    onRowsChange(
      rows.map((r, i) => (i === index ? { ...r, [field]: value } : r)),
      { key: row.key, field },
    );
  };
  const add = () => {
    if (!canAdd) return;
    const row = newMilestoneRow();
    focusNext.current = row.key;
    onRowsChange([...rows, row]);
  };
  const remove = (index: number) => {
    if (!canRemove) return;
    const rest = rows.filter((_, i) => i !== index);
    focusNext.current = (rest[index] ?? rest[index - 1])!.key;
    onRowsChange(rest);
  };

  return (
    <>
      <ol className={cn("flex flex-col", compact ? "gap-2" : "gap-3")} aria-label={label}>
        {rows.map((row, index) => {
          const n = kept.length + index + 1;
          const rowId = `${id}-${row.key}`;
          const errors = rowErrors[index] ?? {};
          const removeLabel = `Remove milestone ${n}`;
          return (
            <li key={row.key} className={cn("flex flex-col gap-2 border border-stone-200", compact ? "rounded-md p-2.5" : "rounded-lg p-3")}>
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm font-semibold text-stone-800">{heading(n, count)}</span>
                {(canRemove || removeBlockedNote) && (
                  <Button variant="ghost" size="icon" onClick={() => remove(index)} disabled={!canRemove} aria-label={removeLabel} title={canRemove ? removeLabel : removeBlockedNote}>
                    <TrashIcon />
                  </Button>
                )}
              </div>
              <div
                className={cn(
                  "grid grid-cols-[minmax(0,1fr)_5.5rem] gap-y-2",
                  compact ? "gap-x-2 sm:grid-cols-[minmax(0,1fr)_8rem_5rem]" : "gap-x-3 sm:grid-cols-[minmax(0,1fr)_9rem_5.5rem]",
                )}
              >
                <RowField id={`${rowId}-title`} label="Title" error={errors.title} className="col-span-2 sm:col-span-1">
                  <Input
                    id={`${rowId}-title`}
                    ref={(el) => {
                      if (el) titleInputs.current.set(row.key, el);
                      else titleInputs.current.delete(row.key);
                    }}
                    value={row.title}
                    maxLength={titleMaxLength}
                    onChange={(e) => setField(index, "title", e.target.value)}
                    onBlur={() => onTouch?.(row.key, "title")}
                    placeholder={index === 0 ? firstTitlePlaceholder : undefined}
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
                    onBlur={() => onTouch?.(row.key, "amount")}
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
                    onBlur={() => onTouch?.(row.key, "days")}
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
      <div className={cn("flex flex-wrap items-center justify-between", compact ? "gap-2" : "gap-x-3 gap-y-2")}>
        <Button variant="outline" size="sm" onClick={add} disabled={!canAdd}>
          <span aria-hidden="true" className="text-base leading-none">
            +
          </span>
          Add milestone
        </Button>
        <p className="text-sm font-medium text-stone-800" aria-live="polite">
          {planSummary(count, total)}
        </p>
      </div>
    </>
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
