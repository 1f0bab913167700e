// The gig calls that change something (SPEC.md §7 Gigs, Interest messages, Reports), and a hook that
// refreshes every gig read after one succeeds.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AttachmentRef } from "../../../../domain/files";
import { apiJson, apiRequest } from "../../lib/api";
import { gigKeys } from "./use-gigs";
import type { Gig, GigType, GigWithInvoice, InterestMessage } from "./types";

const gigPath = (id: string, action = "") => `/api/gigs/${encodeURIComponent(id)}${action ? `/${action}` : ""}`;

export interface NewGig {
  gigType: GigType;
  title: string;
  description: string;
  category: string;
  payment: number;
  timeframe: number;
}

export interface GigEdit {
  title?: string;
  description?: string;
  budget?: number;
}

export type InterestDecision = "approve" | "reject" | "enable-claim";

export const gigApi = {
  post: (gig: NewGig) => apiJson<GigWithInvoice>("POST", "/api/gigs", gig),
  edit: (id: string, edit: GigEdit) => apiJson<Gig>("PATCH", gigPath(id), edit),
  claim: (id: string) => apiJson<GigWithInvoice>("POST", gigPath(id, "claim")),
  cancel: (id: string) => apiJson<{ success?: boolean; refund?: { amount: number } }>("POST", gigPath(id, "cancel")),
  startWork: (id: string) => apiJson<unknown>("POST", gigPath(id, "start-work")),
  submitWork: (id: string, workSubmission: string, attachments: AttachmentRef[] = []) =>
    apiJson<unknown>("POST", gigPath(id, "submit"), { workSubmission, attachments }),
  requestRevision: (id: string, note: string) => apiJson<unknown>("POST", gigPath(id, "request-revision"), { note }),
  approve: (id: string) => apiJson<unknown>("POST", gigPath(id, "approve")),
  dispute: (id: string, reason: string) => apiJson<unknown>("POST", gigPath(id, "dispute"), { reason }),
  sendInterest: (id: string, message: string) => apiJson<InterestMessage>("POST", gigPath(id, "pre-claim-messages"), { message }),
  decideInterest: (messageId: string, decision: InterestDecision) =>
    apiJson<InterestMessage>("PATCH", `/api/pre-claim-messages/${encodeURIComponent(messageId)}/${decision}`),
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

/** A mutation that, once it succeeds, refreshes every gig list, gig and interest list in the cache. */
export function useGigMutation<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gigKeys.all() }),
  });
}
