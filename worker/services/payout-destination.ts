// Where a payout goes: an invoice from the recipient's Lightning address (LNURL-pay), verified
// for amount and description hash before anything is paid (lightning/lnurl.ts).
import { fetchPayoutInvoice } from "../lightning/lnurl";
import type { Deps } from "./deps";

export async function invoiceForLightningAddress(deps: Deps, address: string, amountSats: number): Promise<{ bolt11: string; paymentHash: string }> {
  const invoice = await fetchPayoutInvoice(address, amountSats, deps.lnurl);
  return { bolt11: invoice.bolt11, paymentHash: invoice.paymentHash };
}
