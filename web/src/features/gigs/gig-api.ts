// The gig calls that change something (SPEC.md §7 Gigs, Interest messages, Reports), and a hook that
// refreshes every gig read after one succeeds.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { AttachmentRef } from "../../../../domain/files";
import type { MilestonePlanItem, MilestoneProposalView } from "../../../../domain/milestones";
import { apiJson, apiRequest } from "../../lib/api";
import type { SignedNostrEvent } from "../../lib/nostr";
import { gigKeys } from "./use-gigs";
import type { ExtensionRequest, Gig, GigType, GigWithInvoice, InterestMessage } from "./types";

const gigPath = (id: string, action = "") => `/api/gigs/${encodeURIComponent(id)}${action ? `/${action}` : ""}`;

/**
 * A work action's path: on a gig with a milestone plan, `milestones/{n}/<action>` for the milestone the screen
 * shows as current (the Worker answers 409 if that is no longer so); the gig's own route without one.
 */
const workPath = (id: string, action: string, milestone?: number) => gigPath(id, milestone ? `milestones/${milestone}/${action}` : action);

/** POST /api/gigs/{id}/milestones/{n}/fund: the milestone's funding invoice (the same one again while payable). */
export interface MilestoneInvoice {
  paymentRequest: string;
  totalCharge: number;
  milestone: number;
}

export type MilestoneProposalAnswer = "accept" | "reject" | "withdraw";

export interface NewGig {
  gigType: GigType;
  title: string;
  description: string;
  category: string;
  payment: number;
  timeframe: number;
  /** Paid in 2 to 10 milestones whose amounts add up to the payment (domain/milestones.ts). */
  milestones?: MilestonePlanItem[];
}

export interface GigEdit {
  title?: string;
  description?: string;
  budget?: number;
}

export type InterestDecision = "approve" | "reject" | "enable-claim";

export type ExtensionDecision = "approve" | "reject";

/** POST /api/gigs/{id}/review: one review of the other party per gig (SPEC.md §5), signed by the reviewer or not (docs/decisions/028). */
export interface ReviewInput {
  rating: number;
  comment?: string;
  revieweeId: string;
  /** The review as a kind 1985 Nostr event signed by the reviewer's key; without it the review is not verified. */
  event?: SignedNostrEvent;
}

export const gigApi = {
  post: (gig: NewGig) => apiJson<GigWithInvoice>("POST", "/api/gigs", gig),
  edit: (id: string, edit: GigEdit) => apiJson<Gig>("PATCH", gigPath(id), edit),
  claim: (id: string) => apiJson<GigWithInvoice>("POST", gigPath(id, "claim")),
  cancel: (id: string) => apiJson<{ success?: boolean; refund?: { amount: number } }>("POST", gigPath(id, "cancel")),
  // The work on the gig's current milestone; `milestone` names it for a gig with a plan (see workPath).
  startWork: (id: string, milestone?: number) => apiJson<unknown>("POST", workPath(id, "start-work", milestone)),
  submitWork: (id: string, workSubmission: string, attachments: AttachmentRef[] = [], milestone?: number) =>
    apiJson<unknown>("POST", workPath(id, "submit", milestone), { workSubmission, attachments }),
  requestRevision: (id: string, note: string, milestone?: number) => apiJson<unknown>("POST", workPath(id, "request-revision", milestone), { note }),
  approve: (id: string, milestone?: number) => apiJson<unknown>("POST", workPath(id, "approve", milestone)),
  dispute: (id: string, reason: string, milestone?: number) => apiJson<unknown>("POST", workPath(id, "dispute", milestone), { reason }),
  /** The hirer asks for a later milestone's invoice (issue 28). */
  fundMilestone: (id: string, milestone: number) => apiJson<MilestoneInvoice>("POST", gigPath(id, `milestones/${milestone}/fund`)),
  /** Either party proposes new milestones for every unfunded one; the other party answers. */
  proposeMilestones: (id: string, milestones: MilestonePlanItem[], fromNumber?: number) =>
    apiJson<Pick<MilestoneProposalView, "id" | "fromNumber" | "milestones" | "status">>("POST", gigPath(id, "milestone-proposals"), { milestones, fromNumber }),
  answerMilestoneProposal: (id: string, proposalId: string, answer: MilestoneProposalAnswer) =>
    apiJson<unknown>("POST", gigPath(id, `milestone-proposals/${encodeURIComponent(proposalId)}/${answer}`)),
  sendInterest: (id: string, message: string) => apiJson<InterestMessage>("POST", gigPath(id, "pre-claim-messages"), { message }),
  decideInterest: (messageId: string, decision: InterestDecision) =>
    apiJson<InterestMessage>("PATCH", `/api/pre-claim-messages/${encodeURIComponent(messageId)}/${decision}`),
  requestExtension: (id: string, daysToAdd: number, reason?: string) =>
    apiJson<ExtensionRequest>("POST", gigPath(id, "request-extension"), reason ? { daysToAdd, reason } : { daysToAdd }),
  decideExtension: (id: string, requestId: string, decision: ExtensionDecision) =>
    apiJson<ExtensionRequest>("POST", gigPath(id, `extension-request/${encodeURIComponent(requestId)}/${decision}`)),
  /** The hirer moves the deadline; `newDeadline` is an ISO instant later than the current one. */
  extendDeadline: (id: string, newDeadline: string) => apiJson<{ deadline: string }>("PATCH", gigPath(id, "extend-deadline"), { newDeadline }),
  review: (id: string, review: ReviewInput) => apiJson<unknown>("POST", gigPath(id, "review"), review),
  report: (report: { gigId: string; reason: string; details?: string }) => apiJson<unknown>("POST", "/api/gig-reports", report),
  /** Dev Lightning backend only (DESIGN.md §5): the in-Worker wallet pays the invoice. */
  payWithDevWallet: (paymentRequest: string) => apiJson<unknown>("POST", "/api/dev/invoices/pay", { paymentRequest }),
};

/** GET /api/gigs/{id}/receipt with the session's bearer token, saved as a PDF file. */
export async function downloadReceipt(gigId: string): Promise<void> {
  const res = await apiRequest("GET", gigPath(gigId, "receipt"));
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? `gigstr-receipt-${gigId.slice(0, 8)}.pdf`;
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

export interface GigMutationHandlers<TData> {
  onSuccess?: (data: TData) => void;
  onError?: (err: unknown) => void;
}

/**
 * A mutation that, once it succeeds, refreshes every gig list, gig and interest list in the cache (and
 * stays pending until they are read again, so its button cannot be pressed twice).
 *
 * Its `mutate(vars, { onSuccess, onError })` runs the handlers even when the component that called it
 * is gone by then: a successful action usually moves the gig on, the re-read gig unmounts the button
 * that ran it, and TanStack Query drops per-call callbacks of an unmounted observer — which lost the
 * toasts and the review step that follow an action.
 */
export function useGigMutation<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gigKeys.all() }),
  });
  const { mutateAsync } = mutation;
  const mutate = useCallback(
    (vars: TVars, handlers: GigMutationHandlers<TData> = {}) => {
      mutateAsync(vars).then(handlers.onSuccess, handlers.onError ?? ((err: unknown) => console.error("Gig action failed", err)));
    },
    [mutateAsync],
  );
  return { ...mutation, mutate };
}
