// The details modal's actions, by role and status (SPEC.md §2 Gig details modal, §6; DESIGN.md §4). What is
// offered comes from the shared state machine (gigPermissions → judge); the Worker checks it again.
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState, type FormEvent, type ReactNode } from "react";
import { workerPayout } from "../../../../domain/fees";
import type { AttachmentRef } from "../../../../domain/files";
import { Button } from "../../components/ui/button";
import { AlertIcon, BoltIcon, CheckIcon, DownloadIcon, LockIcon, PencilIcon, TrashIcon } from "../../components/ui/icons";
import { Label, Textarea } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { formatSats } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { useLoginDialog } from "../auth/login-dialog-context";
import { FilePicker } from "../files/file-picker";
import { downloadReceipt, gigApi, useGigMutation } from "./gig-api";
import { useGigDialogs } from "./gig-dialogs-context";
import { canOpenChat, gigPermissions } from "./gig-roles";
import { InterestReviewPanel, MyInterestPanel } from "./interest-panels";
import { isLightningAddressRequired, useLightningAddressRequired } from "./lightning-address-required";
import type { ReviewPrompt } from "./review-step";
import { useInterestMessages } from "./use-gigs";
import type { Gig } from "./types";

// Extensions and reviews check their input with the shared zod rules: loaded only for the parties who see them.
const WorkerExtensionPanel = lazy(() => import("./extension-panel").then((m) => ({ default: m.WorkerExtensionPanel })));
const HirerExtensionPanel = lazy(() => import("./extension-panel").then((m) => ({ default: m.HirerExtensionPanel })));
const GigReviewPanel = lazy(() => import("./review-step").then((m) => ({ default: m.GigReviewPanel })));

function useFailureToast() {
  const { toast } = useToast();
  return (title: string) => (err: unknown) => toast({ title, description: errorText(err), variant: "destructive" });
}

export function GigActions({ gig }: { gig: Gig }) {
  const { user } = useAuth();
  const p = gigPermissions(gig, user?.id);
  const { openChat, openManage, openPayment } = useGigDialogs();
  const isOpen = gig.status === "open";
  const interest = useInterestMessages(gig.id, isOpen && !!user);
  const mine = !p.isOwner ? interest.data?.find((m) => m.senderId === user?.id) : undefined;

  const payerOfPendingInvoice = gig.status === "pending_payment" && p.isHirer && !!gig.paymentRequest;
  // The review step opens by itself right after the worker submits or the hirer approves.
  const [reviewPrompt, setReviewPrompt] = useState<ReviewPrompt | null>(null);
  const [reviewDone, setReviewDone] = useState(false);
  // Right after the action the step sits under it; otherwise it waits below the other actions.
  const reviewPanel = p.can("review") && !reviewDone && (
    <Suspense fallback={null}>
      <GigReviewPanel gig={gig} prompt={reviewPrompt} onPromptClosed={() => setReviewPrompt(null)} onFinished={() => setReviewDone(true)} />
    </Suspense>
  );

  return (
    <div className="flex flex-col gap-4">
      {isOpen && !user && <VisitorClaim gig={gig} />}
      {isOpen && user && p.can("send_interest") && (
        <>
          <MyInterestPanel gigId={gig.id} mine={mine} loading={interest.isPending} />
          <ClaimButton gig={gig} enabled={mine?.status === "approved" && mine.claimEnabled} />
        </>
      )}
      {isOpen && p.can("review_interest") && <InterestReviewPanel messages={interest.data ?? []} loading={interest.isPending} />}

      {payerOfPendingInvoice && (
        <Notice tone="warning">
          <span>The escrow is waiting for your payment.</span>
          <Button
            size="sm"
            onClick={() =>
              openPayment({ gigId: gig.id, paymentRequest: gig.paymentRequest!, payment: gig.payment, totalCharge: gig.totalCharge ?? gig.payment })
            }
          >
            <BoltIcon />
            Pay Invoice
          </Button>
        </Notice>
      )}

      {p.can("start_work") && <StartWorkButton gig={gig} />}
      {p.can("submit_work") && <SubmitWorkPanel gig={gig} onSubmitted={() => setReviewPrompt("submitted")} />}
      {p.can("approve") && <ApproveButton gig={gig} onApproved={() => setReviewPrompt("approved")} />}
      {reviewPrompt && reviewPanel}
      {p.can("request_revision") && <RevisionPanel gig={gig} />}
      {p.can("dispute") && <DisputePanel gig={gig} />}
      {!reviewPrompt && reviewPanel}
      <Suspense fallback={null}>
        {p.can("request_extension") && <WorkerExtensionPanel gig={gig} />}
        {p.can("extend_deadline") && <HirerExtensionPanel gig={gig} />}
      </Suspense>

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
        {p.can("cancel") && <CancelGigButton gig={gig} isHirer={p.isHirer} />}
      </div>
    </div>
  );
}

function Notice({ tone, children }: { tone: "warning" | "info"; children: ReactNode }) {
  return (
    <div
      className={
        tone === "warning"
          ? "flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          : "flex flex-wrap items-center justify-between gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
      }
    >
      {children}
    </div>
  );
}

const claimLabel = (gig: Gig) => (gig.gigType === "service_offering" ? "Hire" : "Claim Gig");

/** Claiming needs login (SPEC.md §5): a visitor is told so and offered the login dialog. */
function VisitorClaim({ gig }: { gig: Gig }) {
  const { toast } = useToast();
  const { openLogin } = useLoginDialog();
  return (
    <Notice tone="info">
      <span>Log in to send an interest message and claim this gig.</span>
      <Button
        size="sm"
        onClick={() => {
          toast({ title: "Login Required", description: "Please login to claim gigs.", variant: "destructive" });
          openLogin();
        }}
      >
        {claimLabel(gig)}
      </Button>
    </Notice>
  );
}

/** Claim (job) or hire (service offering): enabled once the owner approved my message and enabled claiming. */
function ClaimButton({ gig, enabled }: { gig: Gig; enabled: boolean }) {
  const { toast } = useToast();
  const { openPayment, openDetails } = useGigDialogs();
  const lightningAddressRequired = useLightningAddressRequired("claiming");
  const claim = useGigMutation(() => gigApi.claim(gig.id));
  const run = () =>
    claim.mutate(undefined, {
      onSuccess: (answer) => {
        if (answer.paymentRequest) {
          openPayment({ gigId: gig.id, paymentRequest: answer.paymentRequest, payment: answer.gig.payment, totalCharge: answer.totalCharge });
        } else {
          toast({ title: "Gig Claimed", description: "It is yours. Start work when you are ready." });
          openDetails(gig.id);
        }
      },
      onError: (err) => {
        if (isLightningAddressRequired(err)) lightningAddressRequired();
        else toast({ title: "Failed to Claim Gig", description: errorText(err), variant: "destructive" });
      },
    });
  return (
    <div className="flex flex-col gap-1">
      <Button onClick={run} disabled={!enabled || claim.isPending} className="sm:self-start">
        {!enabled && <LockIcon />}
        {claim.isPending ? "Claiming..." : gig.gigType === "service_offering" ? `Hire for ${formatSats(gig.totalCharge ?? gig.payment)}` : claimLabel(gig)}
      </Button>
      {!enabled && <p className="text-xs text-stone-500">Available once the owner approves your interest message and enables claiming.</p>}
    </div>
  );
}

function StartWorkButton({ gig }: { gig: Gig }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const start = useGigMutation(() => gigApi.startWork(gig.id));
  return (
    <Notice tone="info">
      <span>
        {gig.gigType === "service_offering" ? "You were hired and the escrow is funded." : "You claimed this gig."} Start when you are ready; the
        hirer is told.
      </span>
      <Button
        size="sm"
        disabled={start.isPending}
        onClick={() =>
          start.mutate(undefined, {
            onSuccess: () => toast({ title: "Work Started", description: "Submit your work before the deadline." }),
            onError: fail("Failed to Start Work"),
          })
        }
      >
        {start.isPending ? "Starting..." : "Start Work"}
      </Button>
    </Notice>
  );
}

function SubmitWorkPanel({ gig, onSubmitted }: { gig: Gig; onSubmitted: () => void }) {
  const id = useId();
  const { toast } = useToast();
  const fail = useFailureToast();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<AttachmentRef[]>([]);
  const [uploading, setUploading] = useState(false);
  const submit = useGigMutation(({ work, attachments }: { work: string; attachments: AttachmentRef[] }) =>
    gigApi.submitWork(gig.id, work, attachments),
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
      <Label htmlFor={`${id}-work`}>Submit your work</Label>
      <p id={`${id}-work-hint`} className="text-xs text-stone-500">
        Describe what you delivered and where to find it. The hirer approves it to release the payment.
      </p>
      <Textarea id={`${id}-work`} aria-describedby={`${id}-work-hint`} value={text} onChange={(e) => setText(e.target.value)} rows={4} maxLength={10_000} />
      <FilePicker value={files} onChange={setFiles} onUploadingChange={setUploading} disabled={submit.isPending} />
      <Button type="submit" size="sm" className="self-end" disabled={submit.isPending || uploading}>
        {submit.isPending ? "Submitting..." : uploading ? "Uploading..." : "Submit Work"}
      </Button>
    </form>
  );
}

function ApproveButton({ gig, onApproved }: { gig: Gig; onApproved: () => void }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const { refreshUser } = useAuth();
  const approve = useGigMutation(() => gigApi.approve(gig.id));
  return (
    <Notice tone="info">
      <span>Happy with the work? Approving releases {formatSats(workerPayout(gig.payment))} to the worker.</span>
      <Button
        size="sm"
        disabled={approve.isPending}
        onClick={() =>
          approve.mutate(undefined, {
            onSuccess: () => {
              toast({ title: "Work Approved", description: `Payment Released: ${formatSats(workerPayout(gig.payment))} are on the way to the worker.` });
              void refreshUser(); // the gig completed: the hirer's own counts on /profile changed
              onApproved();
            },
            onError: fail("Failed to Approve Work"),
          })
        }
      >
        <CheckIcon />
        {approve.isPending ? "Approving..." : "Approve & Release Payment"}
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
  const revise = useGigMutation((note: string) => gigApi.requestRevision(gig.id, note));
  return (
    <ReasonPanel
      openLabel="Request Revision"
      label="What needs to change?"
      hint="The worker revises the work and submits it again."
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
  const dispute = useGigMutation((reason: string) => gigApi.dispute(gig.id, reason));
  return (
    <ReasonPanel
      openLabel="Raise Dispute"
      label="Reason for the dispute"
      hint="The escrow stays locked and the platform admin reviews the gig and its chat before deciding."
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

export function CancelGigButton({ gig, isHirer, onCancelled }: { gig: Gig; isHirer: boolean; onCancelled?: () => void }) {
  const { toast } = useToast();
  const fail = useFailureToast();
  const [confirming, setConfirming] = useState(false);
  const cancel = useGigMutation(() => gigApi.cancel(gig.id));
  // The hirer of a service offering who has not paid withdraws the hire: the worker's offer opens again.
  const withdrawing = isHirer && gig.gigType === "service_offering" && gig.status === "pending_payment";
  const run = () =>
    cancel.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        const amount = answer?.refund?.amount;
        if (withdrawing) toast({ title: "Hire Withdrawn", description: "Nothing was charged. The offer is open to others again." });
        else
          toast({
            title: "Gig Cancelled",
            description: amount
              ? `Refunded: ${formatSats(amount)} ${isHirer ? "are being sent to your" : "are being sent to the hirer's"} Lightning address.`
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
        Cancel Gig
      </Button>
    );
  }
  return (
    <div role="group" aria-label="Confirm cancellation" className="flex w-full flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      <span className="flex-1">
        {withdrawing
          ? "Withdraw your hire? Nothing has been charged, and the offer opens to others again."
          : `Cancel this gig?${gig.escrowStatus === "funded" ? ` The escrow (${formatSats(gig.totalCharge ?? gig.payment)}) is refunded to the hirer.` : ""}`}
      </span>
      {/* The buttons say what happens: a hirer withdrawing an unpaid hire keeps or withdraws the hire, not the gig. */}
      <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
        {withdrawing ? "Keep my hire" : "Keep Gig"}
      </Button>
      <Button size="sm" variant="destructive" onClick={run} disabled={cancel.isPending}>
        {withdrawing ? (cancel.isPending ? "Withdrawing..." : "Withdraw hire") : cancel.isPending ? "Cancelling..." : "Yes, Cancel Gig"}
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
