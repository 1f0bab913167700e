// Escrow funding over Lightning (SPEC.md §2 Other modals, §4 Escrow). The invoice as a QR code drawn in the
// browser (never an external QR service), a lightning: link to open a wallet, a copy button, the amounts.
// The gig is polled every 2 s; once its escrow is funded the modal says so and, 2 s later, hands over to
// the gig's details. With the dev Lightning backend a "Pay with dev wallet" button pays the invoice.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Button, buttonClasses } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { AlertIcon, BoltIcon, CheckIcon, CopyIcon, ExternalLinkIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { copyText } from "../../lib/clipboard";
import { formatSats, shortId } from "../../lib/format";
import { useConfig } from "../config/use-config";
import { gigApi } from "../gigs/gig-api";
import { gigKeys, useGig } from "../gigs/use-gigs";
import type { Gig } from "../gigs/types";
import type { PaymentRequestInfo } from "./payment-types";

export const PAYMENT_POLL_MS = 2000;
export const PAID_CLOSE_DELAY_MS = 2000;

/** The invoice as a QR code (data URL), drawn locally; qrcode loads only when a payment is shown. */
function useInvoiceQr(paymentRequest: string) {
  return useQuery({
    queryKey: ["invoice-qr", paymentRequest],
    queryFn: async () => {
      const QRCode = await import("qrcode");
      // Upper case keeps the QR in alphanumeric mode: a smaller, easier-to-scan code.
      return QRCode.toDataURL(`lightning:${paymentRequest}`.toUpperCase(), { errorCorrectionLevel: "M", margin: 1, width: 320 });
    },
    staleTime: Infinity,
  });
}

/**
 * What the gig says of the invoice shown since `openedAt`: only a read made while it is shown counts (the
 * cache may hold the gig as it was); the escrow funded, or the gig no longer waiting for a payment.
 */
function invoiceOutcome(gig: Gig | undefined, readAt: number, openedAt: number): "waiting" | "paid" | "lapsed" {
  if (!gig || readAt < openedAt) return "waiting";
  if (gig.escrowStatus === "funded" || gig.escrowStatus === "released") return "paid";
  return gig.status === "pending_payment" ? "waiting" : "lapsed";
}

export function PaymentModal({
  payment,
  open,
  onOpenChange,
  onPaid,
}: {
  payment: PaymentRequestInfo;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called 2 s after the escrow is seen funded. */
  onPaid: () => void;
}) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const config = useConfig();
  const qr = useInvoiceQr(payment.paymentRequest);
  const [openedAt] = useState(() => Date.now());
  // Polled until the invoice is paid or can no longer be (then nothing this dialog shows can change).
  const gig = useGig(payment.gigId, {
    refetchInterval: (query) => (invoiceOutcome(query.state.data, query.state.dataUpdatedAt, openedAt) === "waiting" ? PAYMENT_POLL_MS : false),
  });
  const outcome = gig.isPlaceholderData ? "waiting" : invoiceOutcome(gig.data, gig.dataUpdatedAt, openedAt);
  const paid = outcome === "paid";
  const lapsed = outcome === "lapsed";
  const fee = payment.totalCharge - payment.payment;
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;

  const devWallet = useMutation({
    mutationFn: () => gigApi.payWithDevWallet(payment.paymentRequest),
    onSuccess: () => gig.refetch(),
    onError: (err) => toast({ title: "Payment Failed", description: errorText(err), variant: "destructive" }),
  });

  // The "Payment Required" toast opens after the dialog and so takes the first Escape (Radix layers);
  // one Escape should still close the payment screen.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onOpenChange(false);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, onOpenChange]);

  useEffect(() => {
    toast({ title: "Payment Required", description: `Pay ${formatSats(payment.totalCharge)} to fund the escrow for this gig.` });
  }, [toast, payment.totalCharge]);

  useEffect(() => {
    if (!paid) return;
    toast({ title: "Payment Received!", description: "The escrow is funded." });
    void queryClient.invalidateQueries({ queryKey: gigKeys.all() });
    const timer = setTimeout(() => onPaidRef.current(), PAID_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [paid, toast, queryClient]);

  const copyInvoice = async () => {
    if (await copyText(payment.paymentRequest)) toast({ title: "Copied", description: "Invoice copied to clipboard" });
    else toast({ title: "Copy Failed", description: "Could not copy to clipboard.", variant: "destructive" });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <BoltIcon className="text-brand-600" />
            Fund Escrow
          </DialogTitle>
          <DialogDescription>
            Pay this Lightning invoice to fund the escrow of gig <span className="font-mono">{shortId(payment.gigId)}</span>. The sats are held until the
            work is approved, and refunded in full if the gig is cancelled.
          </DialogDescription>
        </DialogHeader>

        {paid ? (
          <div role="status" className="flex flex-col items-center gap-3 py-8 text-center">
            <span className="flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-green-700">
              <CheckIcon size={32} strokeWidth={3} />
            </span>
            <p className="text-lg font-semibold">Payment Received!</p>
            <p className="text-sm text-stone-600">{formatSats(payment.totalCharge)} is in escrow. Opening the gig...</p>
          </div>
        ) : lapsed ? (
          <div role="status" className="flex flex-col items-center gap-3 py-8 text-center">
            <span className="flex h-14 w-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
              <AlertIcon size={28} />
            </span>
            <p className="font-semibold">This invoice can no longer be paid</p>
            <p className="text-sm text-stone-600">It expired or the gig changed. Nothing was charged.</p>
          </div>
        ) : (
          <div className="flex flex-col gap-4">
            <a
              href={`lightning:${payment.paymentRequest}`}
              className="mx-auto block rounded-xl border border-stone-200 bg-white p-2 shadow-sm"
              aria-label="Lightning invoice QR code: open in a wallet"
            >
              {qr.data ? (
                <img src={qr.data} alt="" width={240} height={240} className="h-48 w-48 sm:h-60 sm:w-60" />
              ) : qr.isError ? (
                <span className="flex h-48 w-48 items-center justify-center p-4 text-center text-sm text-stone-600 sm:h-60 sm:w-60">
                  The QR code could not be drawn. Copy the invoice below or open it in a wallet.
                </span>
              ) : (
                <Skeleton className="h-48 w-48 rounded-lg sm:h-60 sm:w-60" />
              )}
            </a>

            <dl className="grid grid-cols-3 gap-2 rounded-lg bg-stone-50 p-3 text-center text-sm">
              <div>
                <dt className="text-xs text-stone-500">Amount</dt>
                <dd className="font-medium">{formatSats(payment.payment)}</dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Fee (2.5%)</dt>
                <dd className="font-medium">{formatSats(fee)}</dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Total</dt>
                <dd className="font-bold text-brand-800">{formatSats(payment.totalCharge)}</dd>
              </div>
            </dl>

            <p className="rounded-lg border border-stone-200 bg-stone-50 px-3 py-2 font-mono text-xs break-all text-stone-600" title="Lightning invoice">
              {payment.paymentRequest.slice(0, 48)}…
            </p>

            <div className="grid gap-2 sm:grid-cols-2">
              <a href={`lightning:${payment.paymentRequest}`} className={buttonClasses("primary")}>
                <ExternalLinkIcon />
                Open in Wallet
              </a>
              <Button variant="outline" onClick={copyInvoice}>
                <CopyIcon />
                Copy Invoice
              </Button>
            </div>
            {(config.data?.devWallet ?? config.data?.lightningBackend === "dev") && (
              <Button variant="secondary" onClick={() => devWallet.mutate()} disabled={devWallet.isPending}>
                <BoltIcon />
                {devWallet.isPending ? "Paying..." : "Pay with dev wallet"}
              </Button>
            )}

            <p role="status" className="flex items-center justify-center gap-2 text-sm text-stone-500">
              <span className="h-2 w-2 animate-pulse rounded-full bg-brand-500" aria-hidden="true" />
              Waiting for payment...
            </p>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
