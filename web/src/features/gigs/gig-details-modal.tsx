// The gig details modal (SPEC.md §2): title, copyable gig ID, poster, status, payment, timeframe, posted
// date, description, category, escrow notice, deadline, time remaining, the progress stepper, a listed gig's
// Nostr listing (also-on-nostr.tsx), and the actions of the member's role (gig-actions.tsx). Right under the
// title, the reader's next step (issue 26); on a phone the dialog fills the screen and each fact takes one line.
// A gig paid in milestones (issue 28) shows its milestones as steps instead of the progress stepper, and its
// parties can change the unfunded ones (milestone-plan-change.tsx).
import { lazy, Suspense, type ReactNode } from "react";
import { Link } from "react-router";
import { UserAvatar } from "../../components/ui/avatar";
import { CopyButton } from "../../components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { CheckIcon, LockIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { ApiError, errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { formatDate, formatSats, shortId, shorten } from "../../lib/format";
import { timeRemaining } from "../../../../domain/format";
import { useAuth } from "../auth/auth-context";
import { LoginButton } from "../auth/login-required-card";
import { AttachmentList } from "../files/attachment-list";
import { useGigAttachments } from "../files/use-gig-attachments";
import { AlsoOnNostr } from "./also-on-nostr";
import { GigActions, NextStepBanner } from "./gig-actions";
import { hasPlan, MilestoneSteps } from "./milestone-steps";
import { amountFor, gigPermissions } from "./gig-roles";
import { posterReputation } from "./gig-card";
import { GigStatusBadge, GigTypeBadge } from "./gig-status";
import { useGig } from "./use-gigs";
import type { Gig } from "./types";

// The plan change checks its rows with the shared zod rules: loaded only for the parties who see it.
const MilestonePlanChange = lazy(() => import("./milestone-plan-change").then((m) => ({ default: m.MilestonePlanChange })));

export function GigDetailsModal({ gigId, open, onOpenChange }: { gigId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const gig = useGig(gigId);
  const { user } = useAuth();
  // A copy from the cache gives way when the gig turns out to be gone (removed, or no longer visible).
  const gone = gig.isError && gig.error instanceof ApiError && gig.error.status === 404;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent phoneFullScreen className="sm:max-w-2xl" aria-describedby={undefined}>
        {gig.data && !gone ? (
          <GigDetails gig={gig.data} />
        ) : gig.isError ? (
          <>
            <DialogHeader>
              <DialogTitle>{gone ? "Gig not found" : "Could not load the gig"}</DialogTitle>
              <DialogDescription>
                {gone
                  ? "It may have been removed, or it is not visible to you."
                  : errorText(gig.error, "Please try again.")}
              </DialogDescription>
            </DialogHeader>
            {gone && !user && (
              // A link to someone's own gig, opened while signed out: it may be theirs to see once signed in.
              <LoginButton className="self-start" leaving={() => onOpenChange(false)} />
            )}
          </>
        ) : (
          <div className="flex flex-col gap-4" role="status" aria-label="Loading gig">
            <DialogTitle className="sr-only">Loading gig</DialogTitle>
            <Skeleton className="h-7 w-2/3" />
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-32 w-full" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Posted, Worker Claimed, In Progress, Work Submitted, Approved & Paid (SPEC.md §2). */
export const STEPS = ["Posted", "Worker Claimed", "In Progress", "Work Submitted", "Approved & Paid"] as const;

const STEP_OF_STATUS: Record<string, number> = {
  pending: 0,
  pending_payment: 0,
  open: 0,
  claimed: 1,
  in_progress: 2,
  needs_revision: 2,
  work_submitted: 3,
  submitted: 3,
  disputed: 3,
  completed: 4,
};

export function currentStep(gig: Pick<Gig, "status" | "claimedAt">): number {
  return STEP_OF_STATUS[gig.status] ?? (gig.claimedAt ? 1 : 0);
}

function Stepper({ gig }: { gig: Gig }) {
  const current = currentStep(gig);
  const done = gig.status === "completed";
  return (
    <ol aria-label="Progress" className="grid grid-cols-5 gap-1">
      {STEPS.map((label, i) => {
        const state = done || i < current ? "done" : i === current ? "current" : "todo";
        return (
          <li key={label} aria-current={state === "current" ? "step" : undefined} className="flex flex-col items-center gap-1.5 text-center">
            <span
              className={cn(
                "flex h-7 w-7 items-center justify-center rounded-full text-xs font-semibold",
                state === "done" && "bg-brand-500 text-stone-950",
                state === "current" && "bg-brand-100 text-brand-800 ring-2 ring-brand-500",
                state === "todo" && "bg-stone-100 text-stone-500",
              )}
            >
              {state === "done" ? <CheckIcon size={14} strokeWidth={3} /> : i + 1}
            </span>
            <span className={cn("text-[11px] leading-tight sm:text-xs", state === "todo" ? "text-stone-500" : "font-medium text-stone-800")}>
              {label}
              <span className="sr-only">{state === "done" ? " (done)" : state === "current" ? " (current)" : ""}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** "milestone 2", "milestones 2 and 3", "milestones 2, 3 and 4". */
function milestoneNames(numbers: number[]): string {
  if (numbers.length === 1) return `milestone ${numbers[0]}`;
  return `milestones ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
}

/** The escrow of a gig paid in milestones: what is held for which milestones, each paid in before its work. */
function planEscrowNotice(gig: Gig): string {
  const milestones = gig.milestones;
  const each = "Each milestone is released to the worker when the hirer approves it, or refunded in full if the gig is cancelled before it starts.";
  if (!milestones) return `Each milestone is paid into escrow before work on it starts. ${each}`;
  if (gig.status === "completed") return "Every milestone's escrow has been settled: the worker was paid for the approved milestones.";
  if (gig.status === "cancelled") {
    return milestones.some((m) => m.escrow !== "unfunded")
      ? "The funded milestones not yet started were refunded to the hirer in full."
      : "Never funded, so no sats were taken.";
  }
  const held = milestones.filter((m) => m.escrow === "funded");
  if (held.length > 0) {
    const sum = held.reduce((s, m) => s + m.totalCharge, 0);
    return `${formatSats(sum)} is held in escrow for ${milestoneNames(held.map((m) => m.number))}. ${each}`;
  }
  const first = milestones[0]!;
  if (first.escrow === "unfunded") {
    return gig.gigType === "service_offering"
      ? `A hirer pays milestone 1 (${formatSats(first.totalCharge)}) into escrow when hiring, and each later milestone before work on it starts.`
      : `The hirer pays milestone 1 (${formatSats(first.totalCharge)}) into escrow before the gig opens, and each later milestone before work on it starts.`;
  }
  return `Milestone ${gig.currentMilestone} is not funded yet: the hirer pays it into escrow before work on it starts.`;
}

function escrowNotice(gig: Gig): string {
  if (hasPlan(gig)) return planEscrowNotice(gig);
  const total = formatSats(gig.totalCharge ?? gig.payment);
  switch (gig.escrowStatus) {
    case "funded":
      return `${total} is held in escrow. It is released to the worker when the hirer approves the work, or refunded in full if the gig is cancelled.`;
    case "released":
      return "The escrow has been released: the worker was paid.";
    case "refunded":
      return `The escrow (${total}) was refunded to the hirer.`;
    default:
      // Funding is behind a cancelled gig, not ahead of it: it never happened.
      if (gig.status === "cancelled") return "Never funded, so no sats were taken.";
      return gig.gigType === "service_offering"
        ? `A hirer pays ${total} into escrow when hiring. The worker is paid from it once the work is approved.`
        : `The hirer pays ${total} into escrow before the gig opens. The worker is paid from it once the work is approved.`;
  }
}

/** SPEC.md §2: Not started if unclaimed, Overdue if past, else days and hours; a finished gig has no clock. */
function remainingText(gig: Gig): string {
  if (gig.status === "completed") return "Completed";
  if (gig.status === "cancelled") return "Cancelled";
  return timeRemaining(gig.status, gig.deadline);
}

/** One fact of the gig: a line of its own on a phone (label left, value right), a small box from `sm` up. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 rounded-lg bg-stone-50 px-3 py-1.5 sm:flex-col sm:items-stretch sm:justify-start sm:gap-0.5 sm:py-2">
      <dt className="shrink-0 text-xs text-stone-600">{label}</dt>
      <dd className="min-w-0 text-right text-sm font-medium break-words text-stone-900 sm:text-left">{children}</dd>
    </div>
  );
}

/** The payment in the reader's terms, with how it comes from the gig's payment (from `sm` up). */
function PaymentFact({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const amount = amountFor(gig, user?.id);
  return (
    <Fact label="Payment">
      <span className="text-brand-800">{amount.text}</span>
      {amount.terms !== "payment" && (
        <span className="hidden text-xs font-normal text-stone-600 sm:block">
          {formatSats(gig.payment)} {amount.terms === "pay" ? "+" : "−"} 2.5% fee
        </span>
      )}
    </Fact>
  );
}

/** Files delivered with the work (SPEC.md §2 Attachments): the parties only, once work was submitted. */
function DeliveredFiles({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const party = gigPermissions(gig, user?.id).isParty;
  const delivered = !!gig.submittedAt || ["work_submitted", "needs_revision", "completed", "disputed"].includes(gig.status);
  const files = useGigAttachments(gig.id, party && delivered);
  return <AttachmentList attachments={files.data ?? []} />;
}

function GigDetails({ gig }: { gig: Gig }) {
  const poster = gig.poster;
  const posterName = poster ? poster.displayName || shorten(poster.username, true) : null;
  const deadline = gig.deadline ? new Date(gig.deadline) : null;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1.5 pr-8">
        <div className="flex flex-wrap items-center gap-2">
          <GigTypeBadge gigType={gig.gigType} />
          <GigStatusBadge status={gig.status} />
          <span className="inline-flex items-center font-mono text-xs text-stone-500">
            ID {shortId(gig.id)}
            <CopyButton value={gig.id} label="Copy gig ID" copiedDescription="Gig ID copied to clipboard" className="h-7 w-7" />
          </span>
        </div>
        <DialogTitle className="text-xl break-words">{gig.title}</DialogTitle>
        {poster && (
          <div className="flex items-center gap-2 text-sm text-stone-600">
            <UserAvatar user={poster} size="xs" />
            {/* The poster's track record under their name, as on the gig cards. */}
            <div className="flex min-w-0 flex-col">
              <span className="break-words">
                Posted by{" "}
                <Link to={`/user/${encodeURIComponent(poster.username)}`} className="font-medium text-stone-900 hover:text-brand-700 hover:underline">
                  {posterName}
                </Link>
              </span>
              <span className="text-xs text-stone-500">{posterReputation(poster)}</span>
            </div>
          </div>
        )}
      </div>

      <NextStepBanner gig={gig} />

      <dl className="grid grid-cols-1 gap-1.5 sm:grid-cols-3 sm:gap-2">
        <PaymentFact gig={gig} />
        <Fact label="Timeframe">
          {gig.timeframe} {gig.timeframe === 1 ? "day" : "days"}
        </Fact>
        <Fact label="Category">{gig.category}</Fact>
        <Fact label="Posted">{formatDate(gig.createdAt)}</Fact>
        <Fact label="Deadline">{deadline ? `${formatDate(gig.deadline!)} ${deadline.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}` : "Set when claimed"}</Fact>
        <Fact label="Time remaining">{remainingText(gig)}</Fact>
      </dl>

      <section aria-label="Description" className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold">Description</h3>
        <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{gig.description}</p>
      </section>

      <p className="flex items-start gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-brand-900">
        <LockIcon className="mt-0.5 shrink-0" />
        <span>
          <span className="font-semibold">Escrow: </span>
          {escrowNotice(gig)}
        </span>
      </p>

      {gig.status === "cancelled" && <p className="rounded-lg bg-stone-100 p-3 text-center text-sm text-stone-600">This gig was cancelled.</p>}
      {hasPlan(gig) ? (
        <>
          <MilestoneSteps gig={gig} />
          <Suspense fallback={null}>
            <MilestonePlanChange gig={gig} />
          </Suspense>
        </>
      ) : (
        gig.status !== "cancelled" && <Stepper gig={gig} />
      )}

      {gig.revisionNote && gig.status === "needs_revision" && (
        <section className="flex flex-col gap-1 rounded-lg border border-amber-200 bg-amber-50 p-3">
          <h3 className="text-sm font-semibold text-amber-900">Revision requested</h3>
          <p className="text-sm break-words whitespace-pre-wrap text-amber-900">{gig.revisionNote}</p>
        </section>
      )}
      {gig.workSubmission && (
        <section className="flex flex-col gap-1 rounded-lg border border-stone-200 p-3">
          <h3 className="text-sm font-semibold">Submitted work</h3>
          <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{gig.workSubmission}</p>
        </section>
      )}
      <DeliveredFiles gig={gig} />
      {gig.disputeReason && (
        <section className="flex flex-col gap-1 rounded-lg border border-red-200 bg-red-50 p-3">
          <h3 className="text-sm font-semibold text-red-900">Dispute</h3>
          <p className="text-sm break-words whitespace-pre-wrap text-red-900">{gig.disputeReason}</p>
          {gig.status === "disputed" && <p className="text-xs text-red-800">The platform admin is reviewing this gig.</p>}
        </section>
      )}
      <AlsoOnNostr gig={gig} />

      <GigActions gig={gig} />
    </div>
  );
}
