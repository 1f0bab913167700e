// A gig paid in milestones (issue 28) in its details: the milestones as steps, in order, each with its title,
// its amount in the reader's terms, its days and its step (Funded, In progress, Submitted, Paid…), the current
// one highlighted. The hirer funds the next unfunded milestone from here (or reopens its invoice). A gig without
// a plan (milestoneCount 1, one implicit milestone) shows none of this.
import { MILESTONE_STEP_LABELS, milestoneLabel, type MilestoneStep, type MilestoneView } from "../../../../domain/milestones";
import { amountInTermsOf } from "../../../../domain/gig-money";
import type { MilestoneFacts } from "../../../../domain/gig-next-step";
import { Badge, type BadgeVariant } from "../../components/ui/badge";
import { Button, type ButtonSize } from "../../components/ui/button";
import { BoltIcon, CheckIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useAuth } from "../auth/auth-context";
import { gigApi, useGigMutation } from "./gig-api";
import { useGigDialogs } from "./gig-dialogs-context";
import { gigPermissions } from "./gig-roles";
import type { Gig } from "./types";

/** A gig posted with a plan of 2 to 10 milestones (a gig without one has a single implicit milestone). */
export const hasPlan = (gig: Pick<Gig, "milestoneCount">) => gig.milestoneCount > 1;

const ENDED = ["completed", "cancelled"];

/** The gig has ended: nothing more is funded, worked on or changed. */
export const hasEnded = (gig: Pick<Gig, "status">) => ENDED.includes(gig.status);

/** The milestone the work is on, as the details answer carries it (a list answer has no milestones). */
export function currentMilestone(gig: Gig): MilestoneView | undefined {
  return gig.milestones?.find((m) => m.current) ?? gig.milestones?.find((m) => m.number === gig.currentMilestone);
}

/**
 * The `{n}` of `/milestones/{n}/...` for a work action: the current milestone of a gig with a plan, so a screen
 * that is behind gets 409 instead of acting on another milestone; none for a gig without a plan (its old routes).
 */
export const actionMilestone = (gig: Gig): number | undefined => (hasPlan(gig) ? gig.currentMilestone : undefined);

/** The amount the current work is about: the current milestone's for a plan, the gig's payment otherwise. */
export function currentAmount(gig: Gig): number {
  return hasPlan(gig) ? (currentMilestone(gig)?.amount ?? gig.payment) : gig.payment;
}

/**
 * What the next step reads of the plan. The current milestone's escrow is its row's when the details are in,
 * otherwise the gig's escrow status (which is the current milestone's: "pending" while it is unfunded).
 */
export function milestoneFacts(gig: Gig): MilestoneFacts | undefined {
  if (!hasPlan(gig)) return undefined;
  const current = currentMilestone(gig);
  return {
    current: gig.currentMilestone,
    count: gig.milestoneCount,
    escrow: current?.escrow ?? (gig.escrowStatus === "pending" ? "unfunded" : gig.escrowStatus),
    amount: current?.amount,
  };
}

/**
 * The milestone the hirer funds next: the one after the last funded, at any time while the gig has not ended and
 * its first milestone is paid for (before that, the gig's own invoice funds milestone 1).
 */
export function nextToFund(gig: Gig): MilestoneView | undefined {
  if (!hasPlan(gig) || hasEnded(gig) || gig.status === "pending_payment" || !gig.milestones) return undefined;
  const next = gig.milestones.find((m) => m.escrow === "unfunded");
  return next && next.number > 1 ? next : undefined;
}

/**
 * What cancelling a gig with a plan refunds to the hirer: every funded milestone from the current one on, in
 * full. Undefined for a gig without a plan, or before the details (with the milestones) are in.
 */
export function fundedFromCurrent(gig: Gig): number | undefined {
  if (!hasPlan(gig) || !gig.milestones) return undefined;
  return gig.milestones.filter((m) => m.number >= gig.currentMilestone && m.escrow === "funded").reduce((sum, m) => sum + m.totalCharge, 0);
}

const STEP_BADGE: Record<MilestoneStep, BadgeVariant> = {
  unfunded: "default",
  awaiting_payment: "warning",
  funded: "info",
  in_progress: "info",
  needs_revision: "warning",
  submitted: "brand",
  disputed: "danger",
  approved: "success",
  paid: "success",
  split: "default",
  refunded: "default",
};

/** Settled milestones show a tick; the others their number. */
const SETTLED: readonly MilestoneStep[] = ["approved", "paid", "split", "refunded"];

/**
 * One milestone's amount in the reader's terms (domain/gig-money.ts): the hirer what it costs them ("You paid"
 * once released), the worker what they receive; a refunded or split milestone, like a cancelled gig, its amount.
 */
function milestoneAmount(gig: Gig, m: MilestoneView, userId: string | undefined) {
  const status = m.escrow === "released" ? "completed" : m.escrow === "refunded" || m.escrow === "split" ? "cancelled" : gig.status;
  return amountInTermsOf(m.amount, gigPermissions(gig, userId).roles, status);
}

export function MilestoneSteps({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const { isHirer } = gigPermissions(gig, user?.id);
  if (!hasPlan(gig) || !gig.milestones?.length) return null;
  const fundable = isHirer ? nextToFund(gig) : undefined;
  return (
    <section aria-labelledby="milestones-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h3 id="milestones-heading" className="text-sm font-semibold">
          Milestones
        </h3>
        {!hasEnded(gig) && <p className="text-xs font-medium text-brand-800">{milestoneLabel(gig.currentMilestone, gig.milestoneCount)}</p>}
      </div>
      <ol aria-label="Milestones" className="flex flex-col gap-2">
        {gig.milestones.map((m) => {
          const amount = milestoneAmount(gig, m, user?.id);
          const current = m.current && !hasEnded(gig);
          const settled = SETTLED.includes(m.step);
          return (
            <li
              key={m.number}
              aria-current={current ? "step" : undefined}
              className={cn(
                "flex gap-3 rounded-lg border p-3",
                current ? "border-brand-400 bg-brand-50 ring-1 ring-brand-300" : "border-stone-200 bg-white",
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                  settled ? "bg-brand-500 text-stone-950" : current ? "bg-white text-brand-800 ring-2 ring-brand-500" : "bg-stone-100 text-stone-600",
                )}
              >
                {settled ? <CheckIcon size={14} strokeWidth={3} /> : m.number}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <div className="flex flex-wrap items-start justify-between gap-x-2 gap-y-1">
                  <p className="min-w-0 font-medium break-words text-stone-900">
                    <span className="sr-only">Milestone {m.number}: </span>
                    {m.title}
                    {current && <span className="sr-only"> (current)</span>}
                  </p>
                  <Badge variant={STEP_BADGE[m.step]}>{MILESTONE_STEP_LABELS[m.step]}</Badge>
                </div>
                <p className="text-sm text-stone-600">
                  <span className={cn(amount.terms !== "payment" && "font-medium text-brand-800")}>{amount.text}</span>
                  {m.days ? (
                    <>
                      <span aria-hidden="true"> · </span>
                      <span className="sr-only">, </span>
                      {m.days} {m.days === 1 ? "day" : "days"}
                    </>
                  ) : null}
                </p>
                {fundable?.number === m.number && <FundMilestoneButton gig={gig} milestone={m} size="sm" className="mt-1 self-start" />}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * "Fund milestone N": asks for the milestone's invoice (POST /milestones/{n}/fund; the same invoice again while
 * it can be paid) and opens the payment dialog with it. With the invoice already in the details it reopens it.
 */
export function FundMilestoneButton({
  gig,
  milestone,
  size = "md",
  className,
}: {
  gig: Gig;
  milestone: Pick<MilestoneView, "number" | "title" | "amount" | "paymentRequest" | "totalCharge">;
  size?: ButtonSize;
  className?: string;
}) {
  const { openPayment } = useGigDialogs();
  const { toast } = useToast();
  const fund = useGigMutation(() => gigApi.fundMilestone(gig.id, milestone.number));
  // The dialog watches this milestone's own escrow (the gig's escrow status is its current milestone's).
  const pay = (paymentRequest: string, totalCharge: number) =>
    openPayment({
      gigId: gig.id,
      paymentRequest,
      payment: milestone.amount,
      totalCharge,
      milestone: milestone.number,
      milestoneLabel: `${milestoneLabel(milestone.number, gig.milestoneCount)}: ${milestone.title}`,
    });
  const onClick = () => {
    if (milestone.paymentRequest) return pay(milestone.paymentRequest, milestone.totalCharge);
    fund.mutate(undefined, {
      onSuccess: (answer) => pay(answer.paymentRequest, answer.totalCharge),
      onError: (err) => toast({ title: "Failed to Fund Milestone", description: errorText(err), variant: "destructive" }),
    });
  };
  return (
    <Button size={size} className={className} disabled={fund.isPending} onClick={onClick}>
      <BoltIcon />
      {fund.isPending ? "Opening invoice..." : milestone.paymentRequest ? `Pay milestone ${milestone.number}` : `Fund milestone ${milestone.number}`}
    </Button>
  );
}
