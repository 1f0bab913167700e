// The main page's gig modals: details, management, escrow payment and chat. Any tab opens them through
// useGigDialogs(). Which gig's details or chat is open *is* the gig intent (useGigIntent), so a deep link
// (/?tab=active&gigId=…[&openChat=true]) and a click on a card open the same modal, and closing it clears
// the intent. Every modal's code loads on first use, keeping it off the first page.
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from "react";
import { GigDialogsContext } from "./gig-dialogs-context";
import { useGigIntent } from "./gig-intent";
import { GigChatSlot } from "./gig-chat-slot";
import type { PaymentRequestInfo } from "../payments/payment-types";

const GigDetailsModal = lazy(() => import("./gig-details-modal").then((m) => ({ default: m.GigDetailsModal })));
const ManageGigModal = lazy(() => import("./manage-gig-modal").then((m) => ({ default: m.ManageGigModal })));
const PaymentModal = lazy(() => import("../payments/payment-modal").then((m) => ({ default: m.PaymentModal })));

export function GigDialogsProvider({ children }: { children: ReactNode }) {
  const { intent, openGig, clearIntent } = useGigIntent();
  const [manageGigId, setManageGigId] = useState<string | null>(null);
  const [payment, setPayment] = useState<PaymentRequestInfo | null>(null);

  const openDetails = useCallback((gigId: string) => openGig({ gigId, openChat: false }), [openGig]);
  const openChat = useCallback((gigId: string) => openGig({ gigId, openChat: true }), [openGig]);
  const openManage = useCallback(
    (gigId: string) => {
      clearIntent();
      setManageGigId(gigId);
    },
    [clearIntent],
  );
  const openPayment = useCallback(
    (next: PaymentRequestInfo) => {
      // One modal at a time: the details give way to the invoice, and come back once it is paid.
      clearIntent();
      setPayment(next);
    },
    [clearIntent],
  );
  const api = useMemo(() => ({ openDetails, openChat, openManage, openPayment }), [openDetails, openChat, openManage, openPayment]);

  const detailsGigId = intent && !intent.openChat ? intent.gigId : null;
  const chatGigId = intent?.openChat ? intent.gigId : null;

  return (
    <GigDialogsContext.Provider value={api}>
      {children}
      <Suspense fallback={null}>
        {detailsGigId && (
          <GigDetailsModal
            key={detailsGigId}
            gigId={detailsGigId}
            open
            onOpenChange={(open) => {
              if (!open) clearIntent();
            }}
          />
        )}
        {chatGigId && (
          <GigChatSlot
            gigId={chatGigId}
            onOpenChange={(open) => {
              if (!open) clearIntent();
            }}
          />
        )}
        {manageGigId && (
          <ManageGigModal
            key={manageGigId}
            gigId={manageGigId}
            open
            onOpenChange={(open) => {
              if (!open) setManageGigId(null);
            }}
          />
        )}
        {payment && (
          <PaymentModal
            key={payment.gigId}
            payment={payment}
            open
            onOpenChange={(open) => {
              if (!open) setPayment(null);
            }}
            onPaid={() => {
              setPayment(null);
              openDetails(payment.gigId);
            }}
          />
        )}
      </Suspense>
    </GigDialogsContext.Provider>
  );
}
