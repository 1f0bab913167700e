// How any part of the main page opens the gig modals (gig-dialogs.tsx provides it). Apart from the provider,
// so the modals the provider loads can open one another without an import loop.
import { createContext, useContext } from "react";
import type { PaymentRequestInfo } from "../payments/payment-types";

export interface GigDialogsApi {
  openDetails: (gigId: string) => void;
  openChat: (gigId: string) => void;
  openManage: (gigId: string) => void;
  /** The escrow funding modal for an invoice (after posting a job, hiring a service, or from the details). */
  openPayment: (payment: PaymentRequestInfo) => void;
}

export const GigDialogsContext = createContext<GigDialogsApi | null>(null);

export function useGigDialogs(): GigDialogsApi {
  const api = useContext(GigDialogsContext);
  if (!api) throw new Error("useGigDialogs must be used within GigDialogsProvider");
  return api;
}
