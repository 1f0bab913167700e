// A local run's payer (POST /api/dev/invoices/pay): pays a funding invoice as the hirer's wallet would, through
// the dev wallet (backend dev) or the local wallet behind LOCAL_WALLET_URL (a local nwc run); never through
// the escrow code, which only hears of the payment as it would of a real one.
import { AppError } from "../errors";
import { DevWalletError } from "../lightning/dev-backend";
import { markInvoicePaid, type PaidOutcome } from "./escrow";
import type { Deps } from "./deps";

const DEV_WALLET_STATUS: Record<DevWalletError["code"], 400 | 404 | 409> = {
  invalid_invoice: 400,
  invalid_request: 400,
  unknown_invoice: 404,
  expired: 409,
};

export interface PayerPayment {
  paid: true;
  paymentHash: string;
  amount: number | undefined;
  alreadyPaid: boolean;
  /** What escrow made of it, when it was told at once (`webhook`); null otherwise. */
  outcome: PaidOutcome | null;
}

/**
 * Pays `paymentRequest` with the dev wallet, or else the local wallet at `localWalletUrl`. With `webhook`, escrow
 * is told at once (the dev wallet is its own node; the local wallet's payment is first looked up at the platform's
 * wallet, as its watcher would); without, the invoice watcher or the cron finds it.
 */
export async function payAsPayer(deps: Deps, localWalletUrl: string | undefined, paymentRequest: string, webhook: boolean): Promise<PayerPayment> {
  if (!deps.devWallet) return payThroughLocalWallet(deps, localWalletUrl!, paymentRequest, webhook);
  try {
    const paid = await deps.devWallet.payDevInvoice(paymentRequest);
    const outcome = webhook ? await markInvoicePaid(deps, paid.paymentHash) : null;
    return { paid: true, paymentHash: paid.paymentHash, amount: paid.amountSats, alreadyPaid: paid.alreadyPaid, outcome };
  } catch (err) {
    if (err instanceof DevWalletError) throw new AppError(DEV_WALLET_STATUS[err.code], err.code, err.message);
    throw err;
  }
}

async function payThroughLocalWallet(deps: Deps, walletUrl: string, paymentRequest: string, lookUp: boolean): Promise<PayerPayment> {
  const res = await fetch(new URL("/pay", walletUrl), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paymentRequest }) });
  const answer = (await res.json()) as { paymentHash?: string; amount?: number; alreadyPaid?: boolean; message?: string; error?: string };
  if (!res.ok || !answer.paymentHash) throw new AppError(res.status === 404 ? 404 : 400, answer.error ?? "unknown_invoice", answer.message ?? "The local wallet could not pay this invoice");
  let outcome: PaidOutcome | null = null;
  if (lookUp && (await deps.lightning.lookupInvoice(answer.paymentHash)).status === "paid") outcome = await markInvoicePaid(deps, answer.paymentHash);
  return { paid: true, paymentHash: answer.paymentHash, amount: answer.amount, alreadyPaid: answer.alreadyPaid ?? false, outcome };
}
