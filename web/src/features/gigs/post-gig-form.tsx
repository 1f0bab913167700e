// Post New Gig (SPEC.md §2 Post tab, §5 Gig form): the form, checked with the shared gigFormSchema and its
// messages, then a Preview step (Edit or confirm). Preview is disabled while the form is invalid; posting
// needs a Lightning address. A job request goes on to the escrow payment; a service offering is open at once.
// "Pay in milestones" (issue 28) swaps the one payment for a plan of 2 to 10 milestones whose sum is the payment;
// a job request then pays milestone 1 and its fee when posted.
import { useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { feeBreakdown, isValidPayment, platformFee, totalCharge } from "../../../../domain/fees";
import { CATEGORIES, DEFAULT_TIMEFRAME, GIG_TYPE_LABELS, type GigType } from "../../../../domain/gig";
import { gigFormSchema, type GigForm } from "../../../../domain/gig-schemas";
import { planTotal, type MilestonePlanItem } from "../../../../domain/milestones";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { AlertIcon, ArrowLeftIcon, BoltIcon } from "../../components/ui/icons";
import { describedBy, FormField, Input, Textarea } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { formatSats } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { mainTabHref } from "../layout/main-tab";
import { useSettingsDialog } from "../profile/settings-context";
import { gigApi, useGigMutation } from "./gig-api";
import { paymentOfAnswer } from "../payments/payment-types";
import { useGigDialogs } from "./gig-dialogs-context";
import { isLightningAddressRequired, useLightningAddressRequired } from "./lightning-address-required";
import {
  draftPlanTotal,
  initialMilestoneRows,
  MilestonePlanEditor,
  MilestonePlanPreview,
  type MilestoneRowDraft,
  type MilestoneRowErrors,
  type MilestoneRowField,
} from "./milestone-plan-editor";

type Field = "gigType" | "title" | "description" | "category" | "payment" | "timeframe";

interface Draft {
  gigType: GigType;
  title: string;
  description: string;
  category: string;
  payment: string;
  timeframe: string;
  /** "Pay in milestones": the payment is then the sum of the rows. The rows stay while it is off, unsent. */
  milestonesOn: boolean;
  milestones: MilestoneRowDraft[];
}

const emptyDraft = (): Draft => ({
  gigType: "job_request",
  title: "",
  description: "",
  category: "",
  payment: "",
  timeframe: String(DEFAULT_TIMEFRAME),
  milestonesOn: false,
  milestones: initialMilestoneRows(),
});

/** A number input's text as the schema sees it: blank is absent, anything else a number (NaN if not one). */
const asNumber = (text: string) => (text.trim() === "" ? undefined : Number(text));

export interface MilestoneErrors {
  /** By row index. */
  rows: MilestoneRowErrors[];
  /** About the plan as a whole. */
  plan?: string;
}

export function validateDraft(draft: Draft): { form: GigForm | null; errors: Partial<Record<Field, string>>; milestoneErrors: MilestoneErrors } {
  const plan = draft.milestonesOn
    ? draft.milestones.map((row) => ({ title: row.title, amount: asNumber(row.amount), days: asNumber(row.days) }))
    : undefined;
  const result = gigFormSchema.safeParse({
    gigType: draft.gigType,
    title: draft.title,
    description: draft.description,
    category: draft.category,
    payment: plan ? draftPlanTotal(draft.milestones) : asNumber(draft.payment),
    timeframe: asNumber(draft.timeframe),
    milestones: plan,
  });
  const milestoneErrors: MilestoneErrors = { rows: draft.milestones.map(() => ({})) };
  if (result.success) return { form: result.data, errors: {}, milestoneErrors };
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const [field, index, rowField] = issue.path;
    if (field === "milestones") {
      if (typeof index === "number") milestoneErrors.rows[index]![rowField as MilestoneRowField] ??= issue.message;
      else milestoneErrors.plan ??= issue.message;
    } else errors[field as Field] ??= issue.message;
  }
  if (plan) {
    // The payment is the sum: while an amount is missing, that row says so and the sum says nothing of it.
    if (milestoneErrors.rows.some((row) => row.amount)) delete errors.payment;
    // A sum over the maximum is the payment's error, said once, beside the payment.
    if (milestoneErrors.plan === errors.payment) delete milestoneErrors.plan;
  }
  return { form: null, errors, milestoneErrors };
}

const GIG_TYPE_HINTS: Record<GigType, string> = {
  job_request: "You need work done. You pay into escrow when you post.",
  service_offering: "You offer a service. A hirer pays into escrow when they hire you.",
};

/**
 * The fee line (SPEC.md §1): the hirer pays payment + 2.5%; the worker receives payment − 2.5%. With a plan the
 * fee is per milestone (rounded up on each), and a job request pays milestone 1 and its fee now.
 */
export function FeeSummary({ gigType, payment, plan }: { gigType: GigType; payment: number; plan?: readonly MilestonePlanItem[] }) {
  if (plan?.length) return <PlanFeeSummary gigType={gigType} plan={plan} />;
  if (!isValidPayment(payment)) return null;
  const f = feeBreakdown(payment);
  return gigType === "job_request" ? (
    <p data-testid="fee-summary" className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
      You pay {formatSats(f.payment)} + 2.5% fee ({formatSats(f.fee)}) = <strong>{formatSats(f.totalCharge)}</strong>
    </p>
  ) : (
    <p data-testid="fee-summary" className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
      You receive {formatSats(f.payment)} − 2.5% fee ({formatSats(f.fee)}) = <strong>{formatSats(f.workerPayout)}</strong>
    </p>
  );
}

function PlanFeeSummary({ gigType, plan }: { gigType: GigType; plan: readonly MilestonePlanItem[] }) {
  const total = planTotal(plan);
  const fees = plan.reduce((sum, m) => sum + platformFee(m.amount), 0);
  const first = plan[0]!;
  return gigType === "job_request" ? (
    <div data-testid="fee-summary" className="flex flex-col gap-1 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
      <p>
        You pay now, for milestone 1: {formatSats(first.amount)} + 2.5% fee ({formatSats(platformFee(first.amount))}) ={" "}
        <strong>{formatSats(totalCharge(first.amount))}</strong>
      </p>
      <p>
        The whole plan: {formatSats(total)} + fees ({formatSats(fees)}) = {formatSats(total + fees)}
      </p>
    </div>
  ) : (
    <p data-testid="fee-summary" className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
      You receive {formatSats(total)} − 2.5% fees ({formatSats(fees)}) = <strong>{formatSats(total - fees)}</strong>, as each milestone is approved
    </p>
  );
}

export function PostGigForm() {
  const id = useId();
  const { user } = useAuth();
  const { toast } = useToast();
  const { openSettings } = useSettingsDialog();
  const { openPayment } = useGigDialogs();
  const navigate = useNavigate();
  const lightningAddressRequired = useLightningAddressRequired("posting");
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  // Fields by name, milestone fields as "<row key>.<field>"; "all" once Preview was asked for.
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [step, setStep] = useState<"edit" | "preview">("edit");
  const { form, errors, milestoneErrors } = useMemo(() => validateDraft(draft), [draft]);
  const post = useGigMutation(gigApi.post);

  const set = (field: Field) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };
  const touch = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));
  const rowTouched = (key: string, field: MilestoneRowField) => touched.all || touched[`${key}.${field}`];
  const touchRow = (key: string, field: MilestoneRowField) => setTouched((t) => ({ ...t, [`${key}.${field}`]: true }));
  const errorOf = (field: Field) => {
    // The payment of a plan is its sum: its error (over the maximum) shows once an amount has been typed.
    const shown = touched.all || touched[field] || (field === "payment" && draft.milestonesOn && draft.milestones.some((m) => rowTouched(m.key, "amount")));
    return shown ? errors[field] : undefined;
  };
  const rowErrors = draft.milestones.map((row, i) => {
    const all = milestoneErrors.rows[i] ?? {};
    const shown: MilestoneRowErrors = {};
    for (const field of ["title", "amount", "days"] as const) if (rowTouched(row.key, field) && all[field]) shown[field] = all[field];
    return shown;
  });
  const planTotalNow = draftPlanTotal(draft.milestones);

  const preview = (event: FormEvent) => {
    event.preventDefault();
    if (!form) {
      setTouched({ all: true });
      return;
    }
    setStep("preview");
  };

  const confirm = () => {
    if (!form) return;
    if (!user?.lightningAddress) {
      lightningAddressRequired();
      return;
    }
    post.mutate(form, {
      onSuccess: (answer) => {
        setDraft(emptyDraft());
        setTouched({});
        setStep("edit");
        if (answer.gig.gigType === "job_request" && answer.paymentRequest) {
          // With a plan, the invoice is milestone 1's: the dialog names it and shows its amount and fee, not the whole plan's.
          openPayment(paymentOfAnswer({ ...answer, paymentRequest: answer.paymentRequest }));
        } else {
          toast({ title: "Gig Posted", description: "Your service offering is live. Hirers can now find it on Browse." });
        }
        navigate(mainTabHref("active"));
      },
      onError: (err) => {
        if (isLightningAddressRequired(err)) lightningAddressRequired();
        else toast({ title: "Failed to Post Gig", description: errorText(err, "Please check your input and try again."), variant: "destructive" });
      },
    });
  };

  if (step === "preview" && form) {
    return (
      <Card>
        <CardContent className="flex flex-col gap-5 p-5! sm:p-6!">
          <div className="flex flex-col gap-1">
            <h2 className="text-lg font-semibold">Preview</h2>
            <p className="text-sm text-stone-600">This is how your gig will look. Edit it, or post it.</p>
          </div>
          <div className="flex flex-col gap-3 rounded-xl border border-stone-200 p-4">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={form.gigType === "service_offering" ? "info" : "brand"}>{GIG_TYPE_LABELS[form.gigType]}</Badge>
              <Badge>{form.category}</Badge>
            </div>
            <h3 className="text-lg font-semibold break-words">{form.title}</h3>
            <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{form.description}</p>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <PreviewItem label="Payment">{formatSats(form.payment)}</PreviewItem>
              <PreviewItem label="Timeframe">
                {form.timeframe} {form.timeframe === 1 ? "day" : "days"}
              </PreviewItem>
            </dl>
            {form.milestones && <MilestonePlanPreview plan={form.milestones} />}
          </div>
          <FeeSummary gigType={form.gigType} payment={form.payment} plan={form.milestones} />
          {!user?.lightningAddress && <LightningAddressNotice onOpenSettings={openSettings} />}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setStep("edit")} disabled={post.isPending}>
              <ArrowLeftIcon />
              Edit
            </Button>
            <Button onClick={confirm} disabled={post.isPending}>
              {post.isPending ? "Posting..." : form.gigType === "job_request" ? "Post & Pay" : "Post Gig"}
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card>
      <CardContent className="p-5! sm:p-6!">
        <form onSubmit={preview} noValidate className="flex flex-col gap-5">
          {!user?.lightningAddress && <LightningAddressNotice onOpenSettings={openSettings} />}

          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1.5 text-sm font-medium text-stone-800">Gig type</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {(["job_request", "service_offering"] as const).map((type) => (
                <label
                  key={type}
                  className={cn(
                    "flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500",
                    draft.gigType === type ? "border-brand-400 bg-brand-50" : "border-stone-200 hover:bg-stone-50",
                  )}
                >
                  <input
                    type="radio"
                    name={`${id}-gigType`}
                    value={type}
                    checked={draft.gigType === type}
                    onChange={() => set("gigType")(type)}
                    className="mt-0.5 accent-brand-600"
                  />
                  <span className="flex flex-col gap-0.5">
                    <span className="font-semibold text-stone-900">{GIG_TYPE_LABELS[type]}</span>
                    <span className="text-stone-600">{GIG_TYPE_HINTS[type]}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          <FormField id={`${id}-title`} label="Title" error={errorOf("title")} hint={`${draft.title.length}/100`}>
            <Input
              id={`${id}-title`}
              value={draft.title}
              onChange={(e) => set("title")(e.target.value)}
              onBlur={touch("title")}
              placeholder="e.g. Build a landing page for my podcast"
              aria-invalid={!!errorOf("title")}
              aria-describedby={describedBy(`${id}-title`, true, errorOf("title"))}
            />
          </FormField>

          <FormField id={`${id}-description`} label="Description" error={errorOf("description")} hint={`${draft.description.trim().length}/1000`}>
            <Textarea
              id={`${id}-description`}
              value={draft.description}
              onChange={(e) => set("description")(e.target.value)}
              onBlur={touch("description")}
              rows={5}
              placeholder="What needs doing, what you expect to receive, anything the other side should know."
              aria-invalid={!!errorOf("description")}
              aria-describedby={describedBy(`${id}-description`, true, errorOf("description"))}
            />
          </FormField>

          <FormField id={`${id}-category`} label="Category" error={errorOf("category")}>
            <select
              id={`${id}-category`}
              value={draft.category}
              onChange={(e) => set("category")(e.target.value)}
              onBlur={touch("category")}
              aria-invalid={!!errorOf("category")}
              aria-describedby={describedBy(`${id}-category`, undefined, errorOf("category"))}
              className="h-10 w-full cursor-pointer rounded-lg border border-stone-300 bg-white px-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none aria-invalid:border-red-500"
            >
              <option value="">Select a category</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </FormField>

          <div className="grid gap-5 sm:grid-cols-2">
            <FormField
              id={`${id}-payment`}
              label="Payment (sats)"
              error={errorOf("payment")}
              hint={draft.milestonesOn ? "The sum of the milestones" : "1 to 1,000,000 sats"}
            >
              {draft.milestonesOn ? (
                <Input
                  id={`${id}-payment`}
                  type="number"
                  value={String(planTotalNow)}
                  readOnly
                  className="cursor-default border-dashed bg-stone-100! text-stone-700"
                  aria-invalid={!!errorOf("payment")}
                  aria-describedby={describedBy(`${id}-payment`, true, errorOf("payment"))}
                />
              ) : (
                <Input
                  id={`${id}-payment`}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={1_000_000}
                  step={1}
                  value={draft.payment}
                  onChange={(e) => set("payment")(e.target.value)}
                  onBlur={touch("payment")}
                  placeholder="10000"
                  aria-invalid={!!errorOf("payment")}
                  aria-describedby={describedBy(`${id}-payment`, true, errorOf("payment"))}
                />
              )}
            </FormField>
            <FormField id={`${id}-timeframe`} label="Timeframe (days)" error={errorOf("timeframe")} hint="1 to 30 days">
              <Input
                id={`${id}-timeframe`}
                type="number"
                inputMode="numeric"
                min={1}
                max={30}
                step={1}
                value={draft.timeframe}
                onChange={(e) => set("timeframe")(e.target.value)}
                onBlur={touch("timeframe")}
                aria-invalid={!!errorOf("timeframe")}
                aria-describedby={describedBy(`${id}-timeframe`, true, errorOf("timeframe"))}
              />
            </FormField>
          </div>

          <MilestonePlanEditor
            gigType={draft.gigType}
            on={draft.milestonesOn}
            onToggle={(on) => setDraft((d) => ({ ...d, milestonesOn: on }))}
            rows={draft.milestones}
            onRowsChange={(rows, changed) => {
              setDraft((d) => ({ ...d, milestones: rows }));
              if (changed) touchRow(changed.key, changed.field);
            }}
            onTouch={touchRow}
            rowErrors={rowErrors}
            planError={touched.all || draft.milestones.some((m) => rowTouched(m.key, "amount")) ? milestoneErrors.plan : undefined}
          />

          {form && <FeeSummary gigType={form.gigType} payment={form.payment} plan={form.milestones} />}

          <Button type="submit" size="lg" disabled={!form} className="sm:self-end">
            Preview
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function PreviewItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-stone-500">{label}</dt>
      <dd className="font-medium text-stone-900">{children}</dd>
    </div>
  );
}

function LightningAddressNotice({ onOpenSettings }: { onOpenSettings: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="flex items-start gap-2">
        <AlertIcon className="mt-0.5 shrink-0" />A Lightning address is required before posting, so you can be paid or refunded. Set one in Settings.
      </p>
      <Button variant="outline" size="sm" onClick={onOpenSettings}>
        <BoltIcon />
        Open Settings
      </Button>
    </div>
  );
}
