// The milestone plan of the Post New Gig form (issue 28): a "Pay in milestones" switch and, when it is on,
// 2 to 10 rows (title, amount in sats, optional days) whose sum is the gig's payment; and the plan as the
// Preview lists it. The rules and their messages are the shared ones (domain/gig-schemas.ts); this file only
// draws the rows and the errors the form hands it.
import { useId } from "react";
import type { GigType } from "../../../../domain/gig";
import { MAX_MILESTONES, MIN_MILESTONES, milestoneLabel, planTotal, type MilestonePlanItem } from "../../../../domain/milestones";
import { Label } from "../../components/ui/input";
import { formatSats } from "../../lib/format";
import { MilestoneRows, newMilestoneRow, type MilestoneRowDraft, type MilestoneRowErrors, type MilestoneRowField } from "./milestone-rows";

export { draftPlanTotal, type MilestoneRowDraft, type MilestoneRowErrors, type MilestoneRowField } from "./milestone-rows";

export const initialMilestoneRows = (): MilestoneRowDraft[] => Array.from({ length: MIN_MILESTONES }, () => newMilestoneRow());

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
          <MilestoneRows
            label="Milestones"
            rows={rows}
            onRowsChange={onRowsChange}
            onTouch={onTouch}
            rowErrors={rowErrors}
            heading={milestoneLabel}
            removeBlockedNote={`A plan has at least ${MIN_MILESTONES} milestones`}
            firstTitlePlaceholder="e.g. Design"
          />
          {rows.length >= MAX_MILESTONES && <p className="text-xs text-stone-600">A plan has at most {MAX_MILESTONES} milestones.</p>}
          {planError && <p className="text-xs font-medium text-red-600">{planError}</p>}
        </>
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
