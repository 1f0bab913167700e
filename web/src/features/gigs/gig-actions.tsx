// The details modal's actions, by role and status (SPEC.md §2 Gig details modal, §6; DESIGN.md §4). What is
// offered comes from the shared state machine (gigPermissions → judge); the Worker checks it again.
import { useMutation } from "@tanstack/react-query";
import { Suspense, useId, useState, type FormEvent, type ReactNode } from "react";
import { workerPayout } from "../../../../domain/fees";
import type { AttachmentRef } from "../../../../domain/files";
import { nextStep, type InterestSummary, type NextAction } from "../../../../domain/gig-next-step";
import { Button } from "../../components/ui/button";
import { AlertIcon, BoltIcon, CheckIcon, DownloadIcon, LockIcon, PencilIcon, TrashIcon } from "../../components/ui/icons";
import { Label, Textarea } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { formatSats, shorten } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { useLoginDialog } from "../auth/login-dialog-context";
import { FilePicker } from "../files/file-picker";
import { downloadReceipt, gigApi, useGigMutation } from "./gig-api";
import { useGigDialogs } from "./gig-dialogs-context";
import { useClaimGig } from "./use-claim-gig";
import { canOpenChat, gigPermissions } from "./gig-roles";
import { InterestReviewPanel, MyInterestPanel } from "./interest-panels";
import type { ReviewPrompt } from "./review-step";
import { useInterestMessages } from "./use-gigs";
import { actionMilestone, currentAmount, currentMilestone, FundMilestoneButton, fundedFromCurrent, milestoneFacts } from "./milestone-steps";
import { PostAgainButton } from "../payments/post-again-button";
import type { Gig, InterestMessage } from "./types";
import { lazyPart } from "../../lib/lazy-part";

// Extensions and reviews check their input with the shared zod rules: loaded only for the parties who see them
// (never a visitor, so the Worker's bundle gets stand-ins: `#browser-only/…`, decision 030).
const WorkerExtensionPanel = lazyPart(() => import("#browser-only/extension-panel").then((m) => m.WorkerExtensionPanel));
const HirerExtensionPanel = lazyPart(() => import("#browser-only/extension-panel").then((m) => m.HirerExtensionPanel));
const GigReviewPanel = lazyPart(() => import("#browser-only/review-step").then((m) => m.GigReviewPanel));

function useFailureToast() {
  const { toast } = useToast();
  return (title: string) => (err: unknown) => toast({ title, description: errorText(err), variant: "destructive" });
}

/** Where a next step's button takes the reader: the panel below that holds the step (see NextStepBanner). */
const stepAnchor = (action: NextAction) => `gig-next-step-${action}`;

/** Scrolls the step's panel into view and puts focus on its first field or button. */
function goToStep(action: NextAction) {
  const panel = document.getElementById(stepAnchor(action));
  if (!panel) return;
  const reduced = typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  panel.scrollIntoView?.({ behavior: reduced ? "auto" : "smooth", block: "start" });
  const first = panel.querySelector<HTMLElement>("textarea:not([disabled]), button:not([disabled])");
  first?.focus({ preventScroll: true });
}

/** The interest messages as the next step reads them: every one for the owner, the reader's own for a member. */
function interestSummaries(messages: InterestMessage[] | undefined, isOwner: boolean, userId: string | undefined): InterestSummary[] | undefined {
  if (!messages) return undefined;
  const seen = isOwner ? messages : messages.filter((m) => m.senderId === userId);
  return seen.map((m) => ({ name: m.sender.displayName || shorten(m.sender.username, true), status: m.status, claimEnabled: m.claimEnabled }));
}

/**
 * What this reader can do now, right under the gig's title (issue 26): a headline and one button, or a quiet
 * line when the next move is the other party's. Which one is domain/gig-next-step.ts; single-press steps
 * (claim, start, pay, log in) happen here, the others take the reader to their panel below.
 */
export function NextStepBanner({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const p = gigPermissions(gig, user?.id);
  const isOpen = gig.status === "open";
  const interest = useInterestMessages(gig.id, isOpen && !!user);
  const step = nextStep({
    gigType: gig.gigType,
    status: gig.status,
    escrowStatus: gig.escrowStatus,
    payment: gig.payment,
    roles: p.roles,
    hasInvoice: !!gig.paymentRequest,
    interest: isOpen && user ? interestSummaries(interest.data, p.isOwner, user.id) : [],
    milestone: milestoneFacts(gig),
  });
  // Its place is kept while the interest messages load, so the facts below do not jump when it shows.
  if (isOpen && user && interest.isPending) return <Skeleton className="h-12 rounded-xl" />;
  if (!step) return null;
  if (step.kind === "wait") {
    return (
      <p className="flex items-center gap-2 rounded-lg bg-stone-100 px-3 py-2 text-sm text-stone-700">
        <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-stone-400" />
        <span>
          <span className="sr-only">Next step: </span>
          {step.title}
        </span>
      </p>
    );
  }
  return (
    <section
      aria-label="Next step"
      className="flex flex-col gap-3 rounded-xl border border-brand-300 bg-brand-50 p-3 sm:flex-row sm:items-center sm:justify-between sm:p-4"
    >
      <div className="flex min-w-0 flex-col gap-0.5">
        <p className="font-semibold break-words text-stone-900">{step.title}</p>
        {step.detail && <p className="text-sm text-stone-700">{step.detail}</p>}
      </div>
      <div className="flex shrink-0 flex-col">
        <StepButton gig={gig} action={step.action} label={step.label} />
      </div>
    </section>
  );
}

const STEP_BUTTON_CLASS = "w-full sm:w-auto";

function StepButton({ gig, action, label }: { gig: Gig; action: NextAction; label: string }) {
  switch (action) {
    case "login_to_claim":
      return <LoginToClaimButton label={label} />;
    case "claim":
      return <ClaimButton gig={gig} label={label} />;
    case "start_work":
      return <StartWorkButton gig={gig} label={label} />;
    case "fund_escrow":
      return <PayInvoiceButton gig={gig} label={label} />;
    case "fund_milestone": {
      const current = currentMilestone(gig);
      // Until the details answer (with the milestones) is in, the button waits for it.
      if (!current) return <Button className={STEP_BUTTON_CLASS} disabled>{label}</Button>;
      return <FundMilestoneButton gig={gig} milestone={current} className={STEP_BUTTON_CLASS} />;
    }
    case "post_again":
      return <PostAgainButton gig={gig} />;
    default:
      return (
        <Button className={STEP_BUTTON_CLASS} onClick={() => goToStep(action)}>
          {label}
        </Button>
      );
  }
}

export function GigActions({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const p = gigPermissions(gig, user?.id);
  const { openChat, openManage } = useGigDialogs();
  const isOpen = gig.status === "open";
  const interest = useInterestMessages(gig.id, isOpen && !!user);
  const mine = !p.isOwner ? interest.data?.find((m) => m.senderId === user?.id) : undefined;
  // Claiming, once enabled, is the next step above (NextStepBanner); until then the locked button says why.
  const claimEnabled = mine?.status === "approved" && mine.claimEnabled;

  // The review step opens by itself right after the worker submits or the hirer approves.
  const [reviewPrompt, setReviewPromptNow] = useState<ReviewPrompt | null>(null);
  // A gig paid in milestones asks for a review once, at its last milestone, not after every step.
  const lastStep = gig.milestoneCount <= 1 || gig.currentMilestone >= gig.milestoneCount;
  const setReviewPrompt = (prompt: ReviewPrompt) => {
    if (lastStep) setReviewPromptNow(prompt);
  };
  const [reviewDone, setReviewDone] = useState(false);
  // Right after the action the step sits under it; otherwise it waits below the other actions and their buttons.
  const reviewPanel = p.can("review") && !reviewDone && (
    <Suspense fallback={null}>
      <GigReviewPanel gig={gig} prompt={reviewPrompt} onPromptClosed={() => setReviewPromptNow(null)} onFinished={() => setReviewDone(true)} />
    </Suspense>
  );
  const reviewingDelivery = p.can("approve") || p.can("request_revision") || p.can("dispute");

  return (
    <div className="flex flex-col gap-4">
      {isOpen && user && p.can("send_interest") && (
        <>
          <div id={stepAnchor("write_interest")} className="scroll-mt-4">
            <MyInterestPanel gig={gig} mine={mine} loading={interest.isPending} />
          </div>
          {!interest.isPending && !claimEnabled && <LockedClaimButton gig={gig} />}
        </>
      )}
      {isOpen && p.can("review_interest") && (
        <div id={stepAnchor("review_interest")} className="scroll-mt-4">
          <InterestReviewPanel messages={interest.data ?? []} loading={interest.isPending} />
        </div>
      )}

      {p.can("submit_work") && (
        <div id={stepAnchor("submit_work")} className="scroll-mt-4">
          <SubmitWorkPanel gig={gig} onSubmitted={() => setReviewPrompt("submitted")} />
        </div>
      )}
      {reviewingDelivery && (
        <div id={stepAnchor("review_delivery")} className="flex scroll-mt-4 flex-col gap-4">
          {p.can("approve") && <ApproveButton gig={gig} onApproved={() => setReviewPrompt("approved")} />}
          {reviewPrompt && reviewPanel}
          {p.can("request_revision") && <RevisionPanel gig={gig} />}
          {p.can("dispute") && <DisputePanel gig={gig} />}
        </div>
      )}
      {!reviewingDelivery && reviewPrompt && reviewPanel}

      <div className="flex flex-wrap gap-2">
        {canOpenChat(gig, p) && (
          <Button variant="outline" onClick={() => openChat(gig.id)}>
            Open Chat
          </Button>
        )}
        {p.can("receipt") && <ReceiptButton gig={gig} />}
        {((p.isOwner && p.can("edit")) || p.can("extend_deadline")) && (
          <Button variant="outline" onClick={() => openManage(gig.id)}>
            <PencilIcon />
            Manage
          </Button>
        )}
        {p.can("cancel") && <CancelGigButton gig={gig} />}
      </div>

      {/* Below the buttons, the panels whose code loads when first shown (a review at rest, more time): arriving
          there, they push none of the buttons above down from under a finger. */}
      {!reviewPrompt && reviewPanel}
      <Suspense fallback={null}>
        {p.can("request_extension") && <WorkerExtensionPanel gig={gig} />}
        {p.can("extend_deadline") && <HirerExtensionPanel gig={gig} />}
      </Suspense>
    </div>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900">{children}</div>
  );
}

/**
 * Claiming needs login (SPEC.md §5): the login dialog opens and says why. The spec's Login Required toast
 * (§8) is kept, as a plain notice rather than an error: the visitor did nothing wrong.
 */
function LoginToClaimButton({ label }: { label: string }) {
  const { toast } = useToast();
  const { openLogin } = useLoginDialog();
  return (
    <Button
      className={STEP_BUTTON_CLASS}
      onClick={() => {
        toast({ title: "Login Required", description: "Please login to claim gigs." });
        openLogin("Log in to claim this gig.");
      }}
    >
      {label}
    </Button>
  );
}

/** Before the owner approves the member's message and enables claiming, the claim button is there but locked. */
function LockedClaimButton({ gig }: { gig: Gig }) {
  const service = gig.gigType === "service_offering";
  return (
    <div className="flex flex-col gap-1">
      <Button disabled className="sm:self-start">
        <LockIcon />
        {service ? `Hire for ${formatSats(gig.totalCharge ?? gig.payment)}` : "Claim Gig"}
      </Button>
      <p className="text-xs text-stone-500">
        Available once {service ? "the worker" : "the hirer"} approves your interest message and enables claiming.
      </p>
    </div>
  );
}

/** Claim (job) or hire (service offering): the next step once the owner approved my message and enabled claiming. */
function ClaimButton({ gig, label }: { gig: Gig; label: string }) {
  const claim = useClaimGig(gig);
  const run = () => claim.run();
  return (
    <Button className={STEP_BUTTON_CLASS} onClick={run} disabled={claim.isPending}>
      {claim.isPending ? "Claiming..." : label}
    </Button>
  );
}

function PayInvoiceButton({ gig, label }: { gig: Gig; label: string }) {
  const { openPayment } = useGigDialogs();
  return (
    <Button
      className={STEP_BUTTON_CLASS}
      onClick={() => openPayment({ gigId: gig.id, paymentRequest: gig.paymentRequest!, payment: gig.payment, totalCharge: gig.totalCharge ?? gig.payment })}
    >
      <BoltIcon />
      {label}
    </Button>
  );
}

function StartWorkButton({ gig, label }: { gig: Gig; label: string }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const start = useGigMutation(() => gigApi.startWork(gig.id, actionMilestone(gig)));
  return (
    <Button
      className={STEP_BUTTON_CLASS}
      disabled={start.isPending}
      onClick={() =>
        start.mutate(undefined, {
          onSuccess: () => toast({ title: "Work Started", description: "Submit your work before the deadline." }),
          onError: fail("Failed to Start Work"),
        })
      }
    >
      {start.isPending ? "Starting..." : label}
    </Button>
  );
}

function SubmitWorkPanel({ gig, onSubmitted }: { gig: Gig; onSubmitted: () => void }) {
  const id = useId();
  const { toast } = useToast();
  const fail = useFailureToast();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<AttachmentRef[]>([]);
  const [uploading, setUploading] = useState(false);
  const milestone = actionMilestone(gig);
  const submit = useGigMutation(({ work, attachments }: { work: string; attachments: AttachmentRef[] }) =>
    gigApi.submitWork(gig.id, work, attachments, milestone),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const work = text.trim();
    if (!work) {
      toast({ title: "Work submission required", description: "Please provide details of your completed work.", variant: "destructive" });
      return;
    }
    submit.mutate(
      { work, attachments: files },
      {
        onSuccess: () => {
          setText("");
          setFiles([]);
          toast({ title: "Work Submitted", description: "The hirer will review your work." });
          onSubmitted();
        },
        onError: fail("Failed to Submit Work"),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3">
      <Label htmlFor={`${id}-work`}>{milestone ? `Submit your work on milestone ${milestone}` : "Submit your work"}</Label>
      <p id={`${id}-work-hint`} className="text-xs text-stone-500">
        Describe what you delivered and where to find it. The hirer approves it to release {milestone ? "this milestone's" : "the"} payment.
      </p>
      <Textarea id={`${id}-work`} aria-describedby={`${id}-work-hint`} value={text} onChange={(e) => setText(e.target.value)} rows={4} maxLength={10_000} />
      <FilePicker value={files} onChange={setFiles} onUploadingChange={setUploading} disabled={submit.isPending} />
      <Button type="submit" size="sm" className="self-end" disabled={submit.isPending || uploading}>
        {submit.isPending ? "Submitting..." : uploading ? "Uploading..." : milestone ? `Submit milestone ${milestone}` : "Submit Work"}
      </Button>
    </form>
  );
}

function ApproveButton({ gig, onApproved }: { gig: Gig; onApproved: () => void }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const { refreshUser } = useAuth();
  const milestone = actionMilestone(gig);
  const payout = formatSats(workerPayout(currentAmount(gig)));
  const approve = useGigMutation(() => gigApi.approve(gig.id, milestone));
  return (
    <Notice>
      <span>{`Happy with the work? Approving ${milestone ? `milestone ${milestone} ` : ""}releases ${payout} to the worker.`}</span>
      <Button
        size="sm"
        disabled={approve.isPending}
        onClick={() =>
          approve.mutate(undefined, {
            onSuccess: () => {
              toast({ title: "Work Approved", description: `Payment Released: ${payout} are on the way to the worker.` });
              void refreshUser(); // the gig may have completed: the hirer's own counts on /profile changed
              onApproved();
            },
            onError: fail("Failed to Approve Work"),
          })
        }
      >
        <CheckIcon />
        {approve.isPending ? "Approving..." : milestone ? `Approve milestone ${milestone}` : "Approve & Release Payment"}
      </Button>
    </Notice>
  );
}

/** A toggled panel with a required text (revision note, dispute reason): the send button stays disabled while blank. */
function ReasonPanel({
  openLabel,
  label,
  hint,
  submitLabel,
  destructive,
  pending,
  onSubmit,
}: {
  openLabel: string;
  label: string;
  hint: string;
  submitLabel: string;
  destructive?: boolean;
  pending: boolean;
  onSubmit: (text: string, done: () => void) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  if (!open) {
    return (
      <Button variant="outline" className="sm:self-start" onClick={() => setOpen(true)}>
        {destructive && <AlertIcon />}
        {openLabel}
      </Button>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim())
          onSubmit(text.trim(), () => {
            setText("");
            setOpen(false);
          });
      }}
      className={`flex flex-col gap-2 rounded-lg border p-3 ${destructive ? "border-red-200 bg-red-50/50" : "border-stone-200"}`}
    >
      <Label htmlFor={`${id}-text`}>{label}</Label>
      <p id={`${id}-hint`} className="text-xs text-stone-500">
        {hint}
      </p>
      <Textarea id={`${id}-text`} aria-describedby={`${id}-hint`} value={text} onChange={(e) => setText(e.target.value)} rows={3} maxLength={2000} autoFocus />
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button type="submit" size="sm" variant={destructive ? "destructive" : "primary"} disabled={!text.trim() || pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function RevisionPanel({ gig }: { gig: Gig }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const milestone = actionMilestone(gig);
  const revise = useGigMutation((note: string) => gigApi.requestRevision(gig.id, note, milestone));
  return (
    <ReasonPanel
      openLabel="Request Revision"
      label="What needs to change?"
      hint={milestone ? `The worker revises milestone ${milestone} and submits it again.` : "The worker revises the work and submits it again."}
      submitLabel="Send Revision Request"
      pending={revise.isPending}
      onSubmit={(note, done) =>
        revise.mutate(note, {
          onSuccess: () => {
            done();
            toast({ title: "Revision Requested", description: "The worker has been asked to revise the work." });
          },
          onError: fail("Failed to Request Revision"),
        })
      }
    />
  );
}

function DisputePanel({ gig }: { gig: Gig }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const milestone = actionMilestone(gig);
  const dispute = useGigMutation((reason: string) => gigApi.dispute(gig.id, reason, milestone));
  return (
    <ReasonPanel
      openLabel="Raise Dispute"
      label="Reason for the dispute"
      hint={
        milestone
          ? `The dispute is about milestone ${milestone}: its escrow stays locked and the platform admin reviews the gig and its chat before deciding. Approved milestones stay paid.`
          : "The escrow stays locked and the platform admin reviews the gig and its chat before deciding."
      }
      submitLabel="Raise Dispute"
      destructive
      pending={dispute.isPending}
      onSubmit={(reason, done) =>
        dispute.mutate(reason, {
          onSuccess: () => {
            done();
            toast({ title: "Dispute Raised", description: "An admin will review this gig." });
          },
          onError: fail("Failed to Raise Dispute"),
        })
      }
    />
  );
}

/**
 * Cancel Gig (SPEC.md §6). A worker backing out of a gig they claimed (or were hired for) withdraws: the same
 * cancellation, said in their words. The hirer of a service offering who has not paid withdraws the hire.
 */
export function CancelGigButton({ gig, onCancelled }: { gig: Gig; onCancelled?: () => void }) {
  const { user } = useAuth();
  const { toast } = useToast();
  const fail = useFailureToast();
  const [confirming, setConfirming] = useState(false);
  const cancel = useGigMutation(() => gigApi.cancel(gig.id));
  const { isHirer, isWorker } = gigPermissions(gig, user?.id);
  // The hirer of a service offering who has not paid withdraws the hire: the worker's offer opens again.
  const withdrawingHire = isHirer && gig.gigType === "service_offering" && gig.status === "pending_payment";
  // The worker of a claimed gig withdraws from it: the gig is cancelled and a funded escrow goes back to the hirer.
  const workerWithdrawing = isWorker && !isHirer && gig.status === "claimed";
  // A plan refunds every funded milestone not yet started: the current one and any funded after it.
  const planRefund = fundedFromCurrent(gig);
  const funded = planRefund !== undefined ? planRefund > 0 : gig.escrowStatus === "funded";
  const escrow = formatSats(planRefund || (gig.totalCharge ?? gig.payment));
  const run = () =>
    cancel.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        const amount = answer?.refund?.amount;
        if (withdrawingHire) toast({ title: "Hire Withdrawn", description: "Nothing was charged. The offer is open to others again." });
        else
          toast({
            title: "Gig Cancelled",
            description: amount
              ? `Refunded: ${formatSats(amount)} ${isHirer ? "are being sent to your" : "are being sent to the hirer's"} Lightning address.`
              : workerWithdrawing
                ? "You withdrew from the gig."
                : "The gig is no longer active.",
          });
        onCancelled?.();
      },
      onError: fail("Failed to Cancel Gig"),
    });
  if (!confirming) {
    return (
      <Button variant="ghost" className="text-red-700! hover:bg-red-50!" onClick={() => setConfirming(true)}>
        <TrashIcon />
        {workerWithdrawing ? "Withdraw" : "Cancel Gig"}
      </Button>
    );
  }
  const question = withdrawingHire
    ? "Withdraw your hire? Nothing has been charged, and the offer opens to others again."
    : workerWithdrawing
      ? `Withdraw from this gig? It is cancelled${funded ? ` and the escrow (${escrow}) is refunded to the hirer` : ""}. You are not paid for it.`
      : `Cancel this gig?${funded ? ` The escrow (${escrow}) is refunded to the hirer.` : ""}`;
  return (
    <div
      role="group"
      aria-label={withdrawingHire || workerWithdrawing ? "Confirm withdrawal" : "Confirm cancellation"}
      className="flex w-full flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
    >
      {/* The question takes a line of its own on a phone; beside the buttons it would be a narrow column. */}
      <span className="basis-full sm:flex-1 sm:basis-0">{question}</span>
      {/* The buttons say what happens: a hirer withdrawing an unpaid hire keeps or withdraws the hire, not the gig. */}
      <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
        {withdrawingHire ? "Keep my hire" : "Keep Gig"}
      </Button>
      <Button size="sm" variant="destructive" onClick={run} disabled={cancel.isPending}>
        {withdrawingHire
          ? cancel.isPending
            ? "Withdrawing..."
            : "Withdraw hire"
          : workerWithdrawing
            ? cancel.isPending
              ? "Withdrawing..."
              : "Yes, Withdraw"
            : cancel.isPending
              ? "Cancelling..."
              : "Yes, Cancel Gig"}
      </Button>
    </div>
  );
}

function ReceiptButton({ gig }: { gig: Gig }) {
  const { toast } = useToast();
  const download = useMutation({ mutationFn: () => downloadReceipt(gig.id) });
  return (
    <Button
      variant="outline"
      disabled={download.isPending}
      onClick={() =>
        download.mutate(undefined, {
          onSuccess: () => toast({ title: "Receipt Downloaded", description: "The PDF receipt is in your downloads." }),
          onError: () => toast({ title: "Download Failed", description: "Failed to download receipt", variant: "destructive" }),
        })
      }
    >
      <DownloadIcon />
      Download Receipt
    </Button>
  );
}
