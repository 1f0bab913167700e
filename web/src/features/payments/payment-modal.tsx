// Escrow funding over Lightning (SPEC.md §2 Other modals, §4 Escrow; issue 26). The amount the hirer pays
// comes first. On a phone (narrow or touch: the wallet is most likely on this very device) the next step is
// "Open in Wallet" (the lightning: link) and "Copy Invoice", full width; the QR code, drawn in the browser
// (never an external QR service), waits under "Pay from another device". On a desktop the QR code is the
// natural path (scan it with the phone) and shows at once, above the two buttons.
//
// The invoice's time left, read from the BOLT11 invoice itself, counts down; at zero the dialog says it
// expired. The gig is polled every 2 s; once its escrow is funded the dialog says so and, 2 s later, hands
// over to the gig's details. An invoice that expired or can no longer be paid offers "Post again" (or, for a
// service offering's hire, "Hire again"). With the dev wallet a quiet, test-only "Pay with dev wallet" pays.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { decode } from "light-bolt11-decoder";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Button, buttonClasses } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { AlertIcon, BoltIcon, CheckIcon, ChevronDownIcon, CopyIcon, ExternalLinkIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { copyText } from "../../lib/clipboard";
import { cn } from "../../lib/cn";
import { formatSats, shortId } from "../../lib/format";
import { useIsPhone } from "../../lib/phone";
import { useConfig } from "../config/use-config";
import { gigApi } from "../gigs/gig-api";
import { gigKeys, useGig } from "../gigs/use-gigs";
import type { Gig } from "../gigs/types";
import type { PaymentRequestInfo } from "./payment-types";
import { PostAgainButton } from "./post-again-button";

export const PAYMENT_POLL_MS = 2000;
export const PAID_CLOSE_DELAY_MS = 2000;

/** The time (ms since the epoch) a BOLT11 invoice expires: its timestamp plus its expiry (an hour when absent); null if unreadable. */
export function invoiceExpiresAt(bolt11: string): number | null {
  try {
    const decoded = decode(bolt11.trim().replace(/^lightning:/i, ""));
    const timestamp = decoded.sections.find((s) => s.name === "timestamp");
    if (!timestamp || typeof timestamp.value !== "number") return null;
    return (timestamp.value + decoded.expiry) * 1000;
  } catch {
    return null;
  }
}

/** Time left as a clock: "9:41", or "1:00:00" from an hour up; never below "0:00". */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** Now, ticking every second while `running`. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

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
function invoiceOutcome(gig: Gig | undefined, readAt: number, openedAt: number, milestone?: number): "waiting" | "paid" | "lapsed" {
  if (!gig || readAt < openedAt) return "waiting";
  if (milestone !== undefined && milestone > 1) {
    // A later milestone's invoice: that milestone's own escrow says it (the gig's is its current milestone's).
    const m = gig.milestones?.find((x) => x.number === milestone);
    if (m && m.escrow !== "unfunded") return "paid";
    return gig.status === "completed" || gig.status === "cancelled" || (m && !m.paymentRequest) ? "lapsed" : "waiting";
  }
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
  const [openedAt] = useState(() => Date.now());
  // Polled until the invoice is paid or can no longer be (then nothing this dialog shows can change). An
  // invoice whose time ran out is still polled: a payment in flight at expiry may yet settle.
  const gig = useGig(payment.gigId, {
    refetchInterval: (query) => (invoiceOutcome(query.state.data, query.state.dataUpdatedAt, openedAt, payment.milestone) === "waiting" ? PAYMENT_POLL_MS : false),
  });
  const outcome = gig.isPlaceholderData ? "waiting" : invoiceOutcome(gig.data, gig.dataUpdatedAt, openedAt, payment.milestone);
  const expiresAt = useMemo(() => invoiceExpiresAt(payment.paymentRequest), [payment.paymentRequest]);
  const now = useNow(outcome === "waiting" && expiresAt !== null);
  const timeRanOut = expiresAt !== null && now >= expiresAt;
  const state = outcome === "paid" ? "paid" : outcome === "lapsed" ? "lapsed" : timeRanOut ? "expired" : "waiting";
  const scanHeadingId = useId();
  // A phone: the wallet is likely on this device, so opening it comes first and the QR code is for another device.
  const payHere = useIsPhone();
  const devWalletOn = config.data?.devWallet ?? config.data?.lightningBackend === "dev";
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;

  const devWallet = useMutation({
    mutationFn: () => gigApi.payWithDevWallet(payment.paymentRequest),
    onSuccess: () => gig.refetch(),
    onError: (err) => toast({ title: "Payment Failed", description: errorText(err), variant: "destructive" }),
  });

  useEffect(() => {
    if (state !== "paid") return;
    toast({ title: "Payment Received!", description: "The escrow is funded." });
    void queryClient.invalidateQueries({ queryKey: gigKeys.all() });
    const timer = setTimeout(() => onPaidRef.current(), PAID_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state, toast, queryClient]);

  // "Payment Required" is for after the dialog: closed while the invoice can still be paid, the gig still
  // waits for it. While the dialog shows, the dialog itself says so.
  const changeOpen = (next: boolean) => {
    if (!next && state === "waiting") {
      toast({
        title: "Payment Required",
        description:
          payment.milestone !== undefined && payment.milestone > 1
            ? `Pay ${formatSats(payment.totalCharge)} to fund milestone ${payment.milestone}: Pay milestone ${payment.milestone} in the gig's details, under Active.`
            : `Pay ${formatSats(payment.totalCharge)} to fund the escrow for this gig: Pay Invoice in its details, under Active.`,
      });
    }
    onOpenChange(next);
  };

  const copyInvoice = async () => {
    if (await copyText(payment.paymentRequest)) toast({ title: "Copied", description: "Invoice copied to clipboard" });
    else toast({ title: "Copy Failed", description: "Could not copy to clipboard.", variant: "destructive" });
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent phoneFullScreen className="sm:max-w-md">
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

        {state === "paid" ? (
          <div role="status" className="flex flex-col items-center gap-3 py-8 text-center">
            <span className="flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-green-700">
              <CheckIcon size={32} strokeWidth={3} />
            </span>
            <p className="text-lg font-semibold">Payment Received!</p>
            <p className="text-sm text-stone-600">{formatSats(payment.totalCharge)} is in escrow. Opening the gig...</p>
          </div>
        ) : state === "lapsed" || state === "expired" ? (
          <div className="flex flex-col gap-5">
            <div role="status" className="flex flex-col items-center gap-3 pt-6 text-center">
              <span className="flex h-14 w-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
                <AlertIcon size={28} />
              </span>
              <p className="font-semibold">This invoice can no longer be paid</p>
              <p className="text-sm text-stone-600">
                {state === "expired" || (expiresAt !== null && Date.now() >= expiresAt)
                  ? "Its time ran out. Nothing was charged."
                  : "It expired or the gig changed. Nothing was charged."}
              </p>
            </div>
            {gig.data && <PostAgainButton gig={gig.data} />}
          </div>
        ) : (
          <div className="flex flex-col gap-4">
            <AmountSummary payment={payment} timeLeft={expiresAt === null ? null : expiresAt - now} />
            {payHere ? (
              <>
                <WalletActions paymentRequest={payment.paymentRequest} onCopy={copyInvoice} stacked />
                <details className="group rounded-lg border border-stone-200">
                  <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-3 py-2 text-sm font-medium text-stone-800 [&::-webkit-details-marker]:hidden">
                    Pay from another device
                    <ChevronDownIcon className="text-stone-500 transition-transform group-open:rotate-180" />
                  </summary>
                  <div className="flex flex-col items-center gap-3 border-t border-stone-200 px-3 pt-3 pb-4">
                    <p className="text-center text-sm text-stone-600">Scan this code with a Lightning wallet on another phone.</p>
                    <InvoiceQr paymentRequest={payment.paymentRequest} />
                    <InvoiceText paymentRequest={payment.paymentRequest} />
                  </div>
                </details>
              </>
            ) : (
              <>
                <section aria-labelledby={scanHeadingId} className="flex flex-col items-center gap-2">
                  <h3 id={scanHeadingId} className="text-sm font-medium text-stone-800">
                    Scan with the Lightning wallet on your phone
                  </h3>
                  <InvoiceQr paymentRequest={payment.paymentRequest} />
                </section>
                <WalletActions paymentRequest={payment.paymentRequest} onCopy={copyInvoice} />
              </>
            )}

            {devWalletOn && (
              <div className="flex flex-col items-center gap-0.5 border-t border-dashed border-stone-300 pt-2">
                <Button variant="ghost" size="sm" onClick={() => devWallet.mutate()} disabled={devWallet.isPending}>
                  <BoltIcon />
                  {devWallet.isPending ? "Paying..." : "Pay with dev wallet"}
                </Button>
                <p className="text-center text-xs text-stone-600">Test only: this local run's simulated wallet pays. No real sats move.</p>
              </div>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What the hirer pays, big; what it is made of, small; and the invoice's state and time left. */
function AmountSummary({ payment, timeLeft }: { payment: PaymentRequestInfo; timeLeft: number | null }) {
  const fee = payment.totalCharge - payment.payment;
  const lastMinute = timeLeft !== null && timeLeft <= 60_000;
  return (
    <div className="flex flex-col items-center gap-1 rounded-xl bg-stone-50 px-3 py-3 text-center">
      <dl className="flex flex-wrap justify-center gap-x-3 gap-y-1 text-xs text-stone-600">
        <div className="flex basis-full flex-col items-center">
          <dt className="font-medium">You pay</dt>
          <dd className="text-3xl font-bold tracking-tight text-stone-900">{formatSats(payment.totalCharge)}</dd>
        </div>
        {payment.milestoneLabel && (
          <div className="flex basis-full justify-center gap-1">
            <dt className="sr-only">For</dt>
            <dd className="font-medium text-stone-800">{payment.milestoneLabel}</dd>
          </div>
        )}
        <div className="flex gap-1">
          <dt>Amount</dt>
          <dd className="font-medium text-stone-800">{formatSats(payment.payment)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Fee (2.5%)</dt>
          <dd className="font-medium text-stone-800">{formatSats(fee)}</dd>
        </div>
      </dl>
      <div className="mt-1 flex flex-wrap items-center justify-center gap-x-2 text-sm text-stone-600">
        <p role="status" className="flex items-center gap-2">
          <span className="h-2 w-2 animate-pulse rounded-full bg-brand-500" aria-hidden="true" />
          Waiting for payment...
        </p>
        {timeLeft !== null && (
          <p role="timer" className={cn("tabular-nums", lastMinute ? "font-semibold text-red-700" : "text-stone-700")}>
            Expires in {formatTimeLeft(timeLeft)}
          </p>
        )}
      </div>
    </div>
  );
}

function WalletActions({ paymentRequest, onCopy, stacked = false }: { paymentRequest: string; onCopy: () => void; stacked?: boolean }) {
  return (
    <div className={cn("grid gap-2", !stacked && "grid-cols-2")}>
      <a href={`lightning:${paymentRequest}`} className={buttonClasses("primary", stacked ? "lg" : "md", "w-full")}>
        <ExternalLinkIcon />
        Open in Wallet
      </a>
      <Button variant="outline" size={stacked ? "lg" : "md"} onClick={onCopy} className="w-full">
        <CopyIcon />
        Copy Invoice
      </Button>
    </div>
  );
}

function InvoiceQr({ paymentRequest }: { paymentRequest: string }) {
  const qr = useInvoiceQr(paymentRequest);
  return (
    <a
      href={`lightning:${paymentRequest}`}
      className="block rounded-xl border border-stone-200 bg-white p-2 shadow-sm"
      aria-label="Lightning invoice QR code: open in a wallet"
    >
      {qr.data ? (
        <img src={qr.data} alt="" width={240} height={240} className="h-48 w-48 sm:h-60 sm:w-60" />
      ) : qr.isError ? (
        <span className="flex h-48 w-48 items-center justify-center p-4 text-center text-sm text-stone-600 sm:h-60 sm:w-60">
          The QR code could not be drawn. Copy the invoice or open it in a wallet.
        </span>
      ) : (
        <Skeleton className="h-48 w-48 rounded-lg sm:h-60 sm:w-60" />
      )}
    </a>
  );
}

function InvoiceText({ paymentRequest }: { paymentRequest: string }) {
  return (
    <p className="w-full rounded-lg border border-stone-200 bg-stone-50 px-3 py-2 font-mono text-xs break-all text-stone-600" title="Lightning invoice">
      {paymentRequest.slice(0, 48)}…
    </p>
  );
}
