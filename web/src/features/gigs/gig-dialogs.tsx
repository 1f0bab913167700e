// The main page's gig modals: details, management, escrow payment and chat. Any tab opens them through
// useGigDialogs(). Which gig's details or chat is open *is* the gig intent (useGigIntent), so a deep link
// (/?tab=active&gigId=…[&openChat=true]) and a click on a card open the same modal, and closing it clears
// the intent. Every modal's code loads on first use, keeping it off the first page. A gig's own page
// (routes/gig.tsx) provides the same dialogs to the same actions, but shows a gig's details as a page: it says
// where "the details" of a gig are (`showDetails`) instead of the details modal.
import { Suspense, useCallback, useMemo, useState, type ReactNode } from "react";
import { GigDialogsContext } from "./gig-dialogs-context";
import { useGigIntent } from "./gig-intent";
import { GigChatSlot } from "./gig-chat-slot";
import type { PaymentRequestInfo } from "../payments/payment-types";
import { lazyPart } from "../../lib/lazy-part";

// Each opens on a member's click, after hydration: the Worker's bundle gets stand-ins that draw nothing
// (`#browser-only/…`, decision 030), keeping the payment dialog's QR code and the rest out of its script.
const GigDetailsModal = lazyPart(() => import("#browser-only/gig-details-modal").then((m) => m.GigDetailsModal));
const ManageGigModal = lazyPart(() => import("#browser-only/manage-gig-modal").then((m) => m.ManageGigModal));
const PaymentModal = lazyPart(() => import("#browser-only/payment-modal").then((m) => m.PaymentModal));

export function GigDialogsProvider({
  children,
  showDetails,
}: {
  children: ReactNode;
  /** Shows a gig's details somewhere else than the details modal (the gig's own page). */
  showDetails?: (gigId: string) => void;
}) {
  const { intent, openGig, clearIntent } = useGigIntent();
  const [manageGigId, setManageGigId] = useState<string | null>(null);
  const [payment, setPayment] = useState<PaymentRequestInfo | null>(null);

  const openDetails = useCallback(
    (gigId: string) => (showDetails ? showDetails(gigId) : openGig({ gigId, openChat: false })),
    [openGig, showDetails],
  );
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

  const detailsGigId = intent && !intent.openChat && !showDetails ? intent.gigId : null;
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
