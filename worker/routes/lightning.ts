// The Lightning doors: the wallet's webhook, and on a local run the payer's stand-in (POST /api/dev/invoices/pay).
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { AppError, notFound } from "../errors";
import { timingSafeEqual } from "../auth/tokens";
import { lnbitsSignatureValid } from "../lightning/lnbits";
import { payAsPayer } from "../services/dev-payments";
import { invoiceChanged } from "../services/escrow";
import { depsOf } from "./deps";
import { isLocalRun } from "../deployment";
import { parseJson } from "./parse";

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
  return c.json(await payAsPayer(deps, localWallet, paymentRequest, webhook));
});

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
  await invoiceChanged(depsOf(c), hash);
  return c.json({ received: true });
});
