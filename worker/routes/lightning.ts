import { Hono } from "hono";
import { z } from "zod";
import { eq } from "drizzle-orm";
import type { AppEnv } from "../context";
import { invoices } from "../db/schema";
import { AppError, notFound } from "../errors";
import { timingSafeEqual } from "../auth/tokens";
import { DevWalletError } from "../lightning/dev-backend";
import { lnbitsSignatureValid } from "../lightning/lnbits";
import { checkInvoice, markInvoicePaid } from "../services/escrow";
import { depsOf } from "./deps";
import { isLocalRun } from "../deployment";
import type { Deps } from "../services/deps";
import { parseJson } from "./parse";

const DEV_WALLET_STATUS: Record<DevWalletError["code"], 400 | 404 | 409> = {
  invalid_invoice: 400,
  invalid_request: 400,
  unknown_invoice: 404,
  expired: 409,
};

const devPayBody = z.object({
  paymentRequest: z.string({ error: "paymentRequest is required" }).trim().min(1, "paymentRequest is required"),
  // false: the wallet only records the payment, like a wallet that sends no webhook; the gig's invoice
  // watcher (its GigRoom's alarm) or the minute's cron finds it.
  webhook: z.boolean({ error: "webhook must be true or false" }).default(true),
});

/**
 * POST /api/dev/invoices/pay — a local run pays an invoice as the payer would: the dev wallet (backend dev),
 * or the local wallet behind LOCAL_WALLET_URL (a local nwc run), never through our escrow code. Not on a
 * deployed Worker.
 */
export const devWalletRoutes = new Hono<AppEnv>().post("/invoices/pay", async (c) => {
  const deps = depsOf(c);
  const localWallet = isLocalRun(c.env) ? c.env.LOCAL_WALLET_URL : undefined;
  if (!deps.devWallet && !localWallet) throw notFound();
  const { paymentRequest, webhook } = await parseJson(c, devPayBody);
  if (!deps.devWallet) return c.json(await payThroughLocalWallet(deps, localWallet!, paymentRequest, webhook));
  try {
    const paid = await deps.devWallet.payDevInvoice(paymentRequest);
    // The dev wallet is its own node: tell escrow at once, as a webhook would (unless asked not to).
    const outcome = webhook ? await markInvoicePaid(deps, paid.paymentHash) : null;
    return c.json({ paid: true, paymentHash: paid.paymentHash, amount: paid.amountSats, alreadyPaid: paid.alreadyPaid, outcome });
  } catch (err) {
    if (err instanceof DevWalletError) throw new AppError(DEV_WALLET_STATUS[err.code], err.code, err.message);
    throw err;
  }
});

/** The local wallet pays; then the invoice is looked up at the platform's wallet (as its watcher would). */
async function payThroughLocalWallet(deps: Deps, walletUrl: string, paymentRequest: string, lookUp: boolean) {
  const res = await fetch(new URL("/pay", walletUrl), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paymentRequest }) });
  const answer = (await res.json()) as { paymentHash?: string; amount?: number; alreadyPaid?: boolean; message?: string; error?: string };
  if (!res.ok || !answer.paymentHash) throw new AppError(res.status === 404 ? 404 : 400, answer.error ?? "unknown_invoice", answer.message ?? "The local wallet could not pay this invoice");
  let outcome: Awaited<ReturnType<typeof markInvoicePaid>> | null = null;
  if (lookUp && (await deps.lightning.lookupInvoice(answer.paymentHash)).status === "paid") outcome = await markInvoicePaid(deps, answer.paymentHash);
  return { paid: true, paymentHash: answer.paymentHash, amount: answer.amount, alreadyPaid: answer.alreadyPaid ?? false, outcome };
}

const webhookPayment = z.object({ payment_hash: z.string().optional(), paymentHash: z.string().optional() }).passthrough();
/**
 * LNbits (since v1.1.0) posts `json=payment.json()`: a JSON string holding the payment record. The
 * open PR that signs webhooks sends the object itself. Both are read.
 */
const webhookBody = z.preprocess((body) => {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}, webhookPayment);

/**
 * POST /api/webhooks/lightning/<secret> — the wallet says an invoice changed. The body is only a
 * hint: the invoice is looked up at the wallet before anything is recorded.
 */
export const webhookRoutes = new Hono<AppEnv>().post("/lightning/:secret", async (c) => {
  const secret = c.env.WEBHOOK_SECRET;
  if (!secret || !timingSafeEqual(c.req.param("secret"), secret)) throw notFound();
  const signature = c.req.header("LNbits-Signature");
  const signingSecret = c.env.LNBITS_WEBHOOK_SECRET;
  if (signature && signingSecret && !(await lnbitsSignatureValid(signingSecret, signature, await c.req.text()))) {
    throw new AppError(401, "invalid_signature", "The LNbits-Signature header does not sign this body with LNBITS_WEBHOOK_SECRET");
  }
  const body = await parseJson(c, webhookBody);
  const hash = body.payment_hash ?? body.paymentHash;
  if (!hash) return c.json({ received: true });
  const deps = depsOf(c);
  const invoice = await deps.db.query.invoices.findFirst({ where: eq(invoices.paymentHash, hash) });
  // An expired invoice too: a payment that settled after we stopped waiting is refunded (markInvoicePaid).
  if (invoice && invoice.status !== "paid") await checkInvoice(deps, invoice);
  return c.json({ received: true });
});
