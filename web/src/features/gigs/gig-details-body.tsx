// What a gig shows (SPEC.md §2 Gig details): title, copyable gig ID, poster with their track record, status,
// payment in the reader's terms, timeframe, posted date, deadline, time remaining, category, description, the
// escrow notice, the progress stepper (or a milestone plan's steps, which its parties can change), what was
// submitted or disputed, a listed gig's Nostr listing, and the actions of the member's role (gig-actions.tsx).
// Right under the title, the reader's next step (issue 26). One body for the details dialog on Browse and Active
// and for the gig's own page (/gig/:id, issue 29): the dialog gives it its dialog title, the page its h1.
// The page is rendered by the Worker and hydrated (decision 030), so what this draws first reads the clock and
// the reader's time zone only through lib/hydration.tsx.
import { skipToken, useQuery } from "@tanstack/react-query";
import { Suspense, useRef, type ReactNode } from "react";
import { Link } from "react-router";
import { UserAvatar } from "../../components/ui/avatar";
import { CopyButton } from "../../components/ui/copy-button";
import { CheckIcon, LockIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";
import { formatDate, formatRenderedTime, formatSats, shortId, shorten } from "../../lib/format";
import { useLocalTime, useNow } from "../../lib/hydration";
import { timeRemaining } from "../../../../domain/format";
import { useAuth } from "../auth/auth-context";
import { configKeys, type AppConfig } from "../config/use-config";
import { AttachmentList } from "../files/attachment-list";
import { useGigAttachments } from "../files/use-gig-attachments";
import { AlsoOnNostr } from "./also-on-nostr";
import { GigActions, NextStepBanner } from "./gig-actions";
import { hasPlan, MilestoneSteps } from "./milestone-steps";
import { amountFor, gigPermissions } from "./gig-roles";
import { posterReputation } from "./gig-card";
import { GigStatusBadge, GigTypeBadge } from "./gig-status";
import type { Gig } from "./types";
import { lazyPart } from "../../lib/lazy-part";

// The plan change checks its rows with the shared zod rules: loaded only for the parties who see it. A visitor is
// never one, so the Worker's bundle gets a stand-in that draws nothing (`#browser-only/…`, decision 030).
const MilestonePlanChange = lazyPart(() => import("#browser-only/milestone-plan-change").then((m) => m.MilestonePlanChange));

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
function remainingText(gig: Gig, now: number): string {
  if (gig.status === "completed") return "Completed";
  if (gig.status === "cancelled") return "Cancelled";
  return timeRemaining(gig.status, gig.deadline, now);
}

/**
 * One fact of the gig: a line of its own on a phone (the label, then the value beside it, ending clear of the
 * floating suggestion button so that no value ever scrolls under it: SUGGESTION_BUTTON_SIDE_ROOM), a small box
 * from `sm` up.
 */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      className="col-span-2 grid grid-cols-subgrid items-baseline gap-x-3 rounded-lg bg-stone-50 py-1.5 ps-3 pe-[var(--suggestion-button-side-room,0.75rem)] sm:col-span-1 sm:flex sm:flex-col sm:items-stretch sm:gap-0.5 sm:py-2"
    >
      <dt className="text-xs text-stone-600">{label}</dt>
      <dd className="min-w-0 text-sm font-medium text-balance break-words text-stone-900">{children}</dd>
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

/** Files delivered with the work (SPEC.md §2 Attachments): read for the parties only, once work was submitted. */
function useDeliveredFiles(gig: Gig) {
  const { user } = useAuth();
  const party = gigPermissions(gig, user?.id).isParty;
  const delivered = !!gig.submittedAt || ["work_submitted", "needs_revision", "completed", "disputed"].includes(gig.status);
  return useGigAttachments(gig.id, party && delivered);
}

/** The deadline: in the reader's time zone once hydrated, in UTC (saying so) in the Worker's page before that. */
function DeadlineText({ deadline }: { deadline: string }) {
  const localTime = useLocalTime();
  const date = new Date(deadline);
  if (!localTime) {
    return <>{`${formatDate(deadline, { as: "rendered" })} ${formatRenderedTime(date)} UTC`}</>;
  }
  return <>{`${formatDate(deadline)} ${date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}`}</>;
}

/**
 * "Also on Nostr" needs the deployment's Nostr key (GET /api/config). A visitor's page asks for nothing once
 * hydrated (decision 030: the Worker's page holds what it shows), so there the line shows only once that is
 * known, without asking for it; a member's browser (which reads the page again anyway) and the dialog ask.
 */
function NostrListing({ gig, ask }: { gig: Gig; ask: boolean }) {
  const known = useQuery<AppConfig>({ queryKey: configKeys.all(), queryFn: skipToken });
  return ask || known.data ? <AlsoOnNostr gig={gig} /> : null;
}

/** The gig's title as its place gives it: the details dialog's title, or the gig page's h1. */
export type GigTitle = (props: { className: string; children: ReactNode }) => ReactNode;

export interface GigDetailsBodyProps {
  gig: Gig;
  Title: GigTitle;
  /** The body's own section headings (Description, Submitted work…): one level below the title. */
  sectionHeading: "h2" | "h3";
  /** Room on the title's line for the dialog's close button. */
  titleClassName?: string;
  /** A page rendered by the Worker: a visitor's browser asks for nothing more than the page holds. */
  renderedPage?: boolean;
}

/** Everything a gig shows, for the details dialog and the gig's own page alike. */
export function GigDetailsBody({ gig, Title, sectionHeading: H, titleClassName, renderedPage = false }: GigDetailsBodyProps) {
  const localTime = useLocalTime();
  const now = useNow();
  // A member's browser shows the visitor's page the Worker rendered until their session is read: the next step
  // keeps its place meanwhile rather than offering them to log in.
  const { isLoading: signingIn, user } = useAuth();
  const poster = gig.poster;
  const posterName = poster ? poster.displayName || shorten(poster.username, true) : null;
  const files = useDeliveredFiles(gig);
  // A gig paid in milestones opened from a list shows the list's copy until its own answer brings the milestones.
  // The actions wait for what arrives above them (the milestones, the delivered files): drawn before, the next
  // step's button would be pushed down as those came, from under a finger about to tap it.
  // Once shown they stay: the files read again after the worker submits must not take away the review step
  // that submitting opened.
  const planPending = hasPlan(gig) && !gig.milestones;
  const actionsShownFor = useRef<string | null>(null);
  const actionsWait = (planPending || files.isLoading) && actionsShownFor.current !== gig.id;
  if (!actionsWait) actionsShownFor.current = gig.id;
  return (
    <div className="flex flex-col gap-5">
      <div className={cn("flex flex-col gap-1.5", titleClassName)}>
        <div className="flex flex-wrap items-center gap-2">
          <GigTypeBadge gigType={gig.gigType} />
          <GigStatusBadge status={gig.status} />
          <span className="inline-flex items-center font-mono text-xs text-stone-500">
            ID {shortId(gig.id)}
            <CopyButton value={gig.id} label="Copy gig ID" copiedDescription="Gig ID copied to clipboard" className="h-7 w-7" />
          </span>
        </div>
        <Title className="text-xl break-words">{gig.title}</Title>
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

      {signingIn ? <Skeleton className="h-12 rounded-xl" /> : <NextStepBanner gig={gig} />}

      {/* On a phone the labels make one column (as wide as the longest) and the values another. */}
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-1.5 sm:grid-cols-3 sm:gap-2">
        <PaymentFact gig={gig} />
        <Fact label="Timeframe">
          {gig.timeframe} {gig.timeframe === 1 ? "day" : "days"}
        </Fact>
        <Fact label="Category">{gig.category}</Fact>
        <Fact label="Posted">{formatDate(gig.createdAt, { as: localTime ? "local" : "rendered" })}</Fact>
        <Fact label="Deadline">{gig.deadline ? <DeadlineText deadline={gig.deadline} /> : "Set when claimed"}</Fact>
        <Fact label="Time remaining">{remainingText(gig, now)}</Fact>
      </dl>

      <section aria-label="Description" className="flex flex-col gap-1">
        <H className="text-sm font-semibold">Description</H>
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
      {planPending ? (
        <Skeleton className="rounded-lg" style={{ height: `${1.75 + gig.milestoneCount * 4.75}rem` }} />
      ) : hasPlan(gig) ? (
        <MilestoneSteps gig={gig} />
      ) : (
        gig.status !== "cancelled" && <Stepper gig={gig} />
      )}

      {gig.revisionNote && gig.status === "needs_revision" && (
        <section className="flex flex-col gap-1 rounded-lg border border-amber-200 bg-amber-50 p-3">
          <H className="text-sm font-semibold text-amber-900">Revision requested</H>
          <p className="text-sm break-words whitespace-pre-wrap text-amber-900">{gig.revisionNote}</p>
        </section>
      )}
      {gig.workSubmission && (
        <section className="flex flex-col gap-1 rounded-lg border border-stone-200 p-3">
          <H className="text-sm font-semibold">Submitted work</H>
          <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{gig.workSubmission}</p>
        </section>
      )}
      <AttachmentList attachments={files.data ?? []} />
      {gig.disputeReason && (
        <section className="flex flex-col gap-1 rounded-lg border border-red-200 bg-red-50 p-3">
          <H className="text-sm font-semibold text-red-900">Dispute</H>
          <p className="text-sm break-words whitespace-pre-wrap text-red-900">{gig.disputeReason}</p>
          {gig.status === "disputed" && <p className="text-xs text-red-800">The platform admin is reviewing this gig.</p>}
        </section>
      )}
      {actionsWait ? <Skeleton data-testid="actions-pending" className="h-11 rounded-lg" /> : <GigActions gig={gig} />}

      {/* Below the actions, what may come a moment after the rest: changing the milestones (its code loads when
          first shown) and the Nostr listing (it waits for the deployment's settings). Arriving there, they move
          nothing above them, never the next step's button under a finger about to tap it. */}
      {hasPlan(gig) && (
        <Suspense fallback={null}>
          <MilestonePlanChange gig={gig} />
        </Suspense>
      )}
      <NostrListing gig={gig} ask={!renderedPage || user !== null} />
    </div>
  );
}
