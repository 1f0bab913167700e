// The `lnbits` backend: an LNbits wallet over its REST API (LNBITS_URL, LNBITS_ADMIN_KEY), checked
// against LNbits v1.5.2-rc3 (docs/decisions/013-lnbits-api-version-checked.md).
//
//   wallet key check GET  /api/v1/wallet                       (an admin key's answer carries `id`)
//   create invoice   POST /api/v1/payments {out: false, amount, memo, expiry, unit: "sat", webhook?}
//   look up          GET  /api/v1/payments/{payment_hash}
//   fee reserve      GET  /api/v1/payments/fee-reserve?invoice=  (routing reserve + LNbits' service fee)
//   pay              POST /api/v1/payments {out: true, bolt11}
//
// How answers map, for payments (see backend.ts): LNbits says `failed` with a 520 {detail, status}
// or a Payment whose status is "failed"; a 4xx means the request was refused before anything
// happened. Because some funding sources (OpenNode, LNPay) report a payment they sent as failed, a
// 520 `failed` is confirmed by a look-up after a pause before we call it failed. Everything else —
// time-out, network error, 5xx, 520 "pending", an unreadable body — is `unknown`.
// The fee cap: LNbits takes no per-payment fee limit, so nothing is paid unless its fee reserve for
// the invoice (which includes its service fee) is known and within the cap.
import { z } from "zod";
import { INVOICE_EXPIRY_GRACE_MS, LightningError, type CreatedInvoice, type InvoiceLookup, type LightningBackend, type PaymentLookup, type PayResult, type WalletCheck } from "./backend";
import { InvalidInvoiceError, decodeInvoice, fitDescription, invoiceToPay } from "./invoice";
import type { FetchLike } from "./lnurl";

export interface LnbitsOptions {
  /** LNBITS_URL, e.g. https://lnbits.example.com */
  url: string;
  /** LNBITS_ADMIN_KEY: paying needs the admin key. */
  adminKey: string;
  fetch: FetchLike;
  /** Where LNbits posts when an invoice is paid (/api/webhooks/lightning/<secret>). */
  webhookUrl?: string;
  /** Invoices and look-ups. Default 10 s. */
  timeoutMs?: number;
  /** Paying: LNbits answers when the payment settles or fails. Default 60 s. */
  payTimeoutMs?: number;
  now?: () => number;
  /** The pause before a failure LNbits reported is confirmed by a look-up. Default 5 s. */
  failureConfirmDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Where wallet-key checks are remembered; default: one map per isolate. */
  walletChecks?: Map<string, LnbitsWalletCheck>;
}

/** What GET /api/v1/wallet said about LNBITS_ADMIN_KEY: shown on Money Health. */
export type LnbitsWalletCheck = WalletCheck;

/** How long a wallet-key check is trusted before it is made again. */
export const WALLET_CHECK_TTL_MS = 10 * 60_000;
const walletChecksOfThisIsolate = new Map<string, LnbitsWalletCheck>();

class Unclear extends Error {}

interface HttpAnswer {
  status: number;
  body: unknown;
}

const createdSchema = z.object({
  payment_hash: z.string(),
  bolt11: z.string().optional(),
  payment_request: z.string().optional(),
});

const paymentSchema = z.object({
  payment_hash: z.string().optional(),
  status: z.string().optional(),
  preimage: z.string().nullish(),
  fee: z.number().optional(),
});

const walletSchema = z.object({ id: z.string().optional(), name: z.string().optional(), balance: z.number().optional() });

const lookupSchema = z.object({
  paid: z.boolean(),
  status: z.string().optional(),
  preimage: z.string().nullish(),
  details: z
    .object({
      status: z.string().optional(),
      amount: z.number().optional(),
      fee: z.number().optional(),
      bolt11: z.string().optional(),
      expiry: z.union([z.string(), z.number()]).nullish(),
      // When the payment last changed: for a paid invoice, when it settled (`time` is its creation).
      updated_at: z.union([z.string(), z.number()]).nullish(),
    })
    .passthrough()
    .optional(),
});

const errorSchema = z.object({ detail: z.unknown().optional(), status: z.string().optional() });

const ZERO_PREIMAGE = /^0*$/;
/** 4xx answers that mean LNbits refused the request before doing anything. */
const REFUSED = new Set([400, 401, 403, 404, 405, 422, 429]);

const msatToSats = (msat: number) => Math.ceil(Math.abs(msat) / 1000);
/** A preimage worth keeping: LNbits reports "paid" without one (null or zeros) on some funding sources. */
const keptPreimage = (preimage: string | null | undefined) => (preimage && !ZERO_PREIMAGE.test(preimage) ? preimage : null);

function describe(body: unknown): string {
  const parsed = errorSchema.safeParse(body);
  const detail = parsed.success ? parsed.data.detail : undefined;
  const text = typeof detail === "string" ? detail : detail === undefined ? "" : JSON.stringify(detail);
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 200) || "no detail";
}

export class LnbitsBackend implements LightningBackend {
  readonly kind = "lnbits" as const;
  private readonly base: string;
  private readonly now: () => number;

  constructor(private readonly options: LnbitsOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new LightningError("LNBITS_URL is not a URL", "configuration");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new LightningError("LNBITS_URL must be an http(s) URL", "configuration");
    if (!options.adminKey) throw new LightningError("LNBITS_ADMIN_KEY is not set", "configuration");
    this.base = url.href.replace(/\/+$/, "");
    this.now = options.now ?? Date.now;
  }

  /**
   * Whether LNBITS_ADMIN_KEY is a wallet's admin key (an invoice key cannot pay; a wrong key can do
   * nothing). Workers have no start-up hook: this runs before the first payment of an isolate and
   * whenever Money Health asks, and is remembered for WALLET_CHECK_TTL_MS. A key problem is logged
   * loudly; an unreachable LNbits is not remembered (the next call asks again).
   */
  async checkWallet(): Promise<LnbitsWalletCheck> {
    const checks = this.options.walletChecks ?? walletChecksOfThisIsolate;
    const key = `${this.base}\n${this.options.adminKey}`;
    const known = checks.get(key);
    if (known && this.now() - Date.parse(known.checkedAt) < WALLET_CHECK_TTL_MS) return known;
    const checkedAt = new Date(this.now()).toISOString();
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", "/api/v1/wallet", undefined, this.options.timeoutMs ?? 10_000);
    } catch (err) {
      return { ok: false, checkedAt, problem: err instanceof Error ? err.message : "LNbits could not be reached" };
    }
    const wallet = walletSchema.safeParse(answer.body);
    let check: LnbitsWalletCheck;
    if (answer.status === 200 && wallet.success && wallet.data.id) {
      check = { ok: true, checkedAt, balanceSats: wallet.data.balance === undefined ? undefined : Math.floor(wallet.data.balance / 1000) };
    } else if (answer.status === 200 && wallet.success) {
      check = { ok: false, checkedAt, problem: "LNBITS_ADMIN_KEY is the wallet's invoice key: LNbits cannot pay with it. Set the wallet's admin key." };
    } else if (REFUSED.has(answer.status)) {
      check = { ok: false, checkedAt, problem: `LNbits does not accept LNBITS_ADMIN_KEY (HTTP ${answer.status}: ${describe(answer.body)}). Set the wallet's admin key.` };
    } else {
      return { ok: false, checkedAt, problem: `LNbits answered the wallet check with HTTP ${answer.status}: ${describe(answer.body)}` };
    }
    if (!check.ok) console.error(`LNbits wallet check failed: ${check.problem}`);
    checks.set(key, check);
    return check;
  }

  /** One HTTP exchange; throws Unclear for a time-out, a network error or a body that is not JSON. */
  private async call(method: "GET" | "POST", path: string, body: unknown, timeoutMs: number): Promise<HttpAnswer> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Unclear(`LNbits did not answer within ${timeoutMs / 1000} s`));
        controller.abort();
      }, timeoutMs);
    });
    deadline.catch(() => {});
    try {
      const exchange = (async () => {
        const res = await this.options.fetch(`${this.base}${path}`, {
          method,
          headers: { "X-Api-Key": this.options.adminKey, "content-type": "application/json", accept: "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
          redirect: "manual",
        });
        const text = await res.text();
        let json: unknown = undefined;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        return { status: res.status, body: json };
      })();
      return await Promise.race([exchange, deadline]);
    } catch (err) {
      if (err instanceof Unclear) throw err;
      throw new Unclear(`LNbits could not be reached (${err instanceof Error ? err.message : "network error"})`);
    } finally {
      clearTimeout(timer);
    }
  }

  async createInvoice(amountSats: number, memo: string, expirySec: number): Promise<CreatedInvoice> {
    if (!Number.isSafeInteger(amountSats) || amountSats < 1) throw new RangeError(`amountSats must be a positive integer, got ${amountSats}`);
    let answer: HttpAnswer;
    try {
      answer = await this.call(
        "POST",
        "/api/v1/payments",
        {
          out: false,
          amount: amountSats,
          unit: "sat",
          memo: fitDescription(memo),
          expiry: expirySec,
          ...(this.options.webhookUrl ? { webhook: this.options.webhookUrl } : {}),
        },
        this.options.timeoutMs ?? 10_000,
      );
    } catch (err) {
      throw new LightningError(err instanceof Error ? err.message : "LNbits is unavailable", "unavailable");
    }
    if (answer.status < 200 || answer.status >= 300) {
      // 520 {detail, status: "failed"} is LNbits' own refusal (amount too high, balance limit): permanent.
      const refused = answer.status < 500 || (answer.status === 520 && errorSchema.safeParse(answer.body).data?.status === "failed");
      throw new LightningError(`LNbits refused to create the invoice (HTTP ${answer.status}: ${describe(answer.body)})`, refused ? "rejected" : "unavailable");
    }
    const created = createdSchema.safeParse(answer.body);
    const bolt11 = created.success ? (created.data.bolt11 ?? created.data.payment_request) : undefined;
    if (!created.success || !bolt11) throw new LightningError("LNbits answered without an invoice", "bad_response");
    // Trust, but check: the invoice we hand to the hirer must be for exactly what we asked.
    let decoded;
    try {
      decoded = decodeInvoice(bolt11);
    } catch (err) {
      throw new LightningError(`LNbits returned an invalid invoice (${err instanceof InvalidInvoiceError ? err.message : "unreadable"})`, "bad_response");
    }
    if (decoded.amountMsat !== amountSats * 1000 || decoded.paymentHash !== created.data.payment_hash) {
      throw new LightningError("LNbits returned an invoice for another amount or payment hash", "bad_response");
    }
    return { bolt11: decoded.bolt11, paymentHash: decoded.paymentHash, expiresAt: new Date(decoded.expiresAtMs).toISOString() };
  }

  async lookupInvoice(paymentHash: string): Promise<InvoiceLookup> {
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", `/api/v1/payments/${encodeURIComponent(paymentHash)}`, undefined, this.options.timeoutMs ?? 10_000);
    } catch (err) {
      throw new LightningError(err instanceof Error ? err.message : "LNbits is unavailable", "unavailable");
    }
    if (answer.status === 404) throw new LightningError("LNbits has no invoice with this payment hash", "not_found");
    if (answer.status < 200 || answer.status >= 300) throw new LightningError(`LNbits answered HTTP ${answer.status}`, answer.status >= 500 ? "unavailable" : "rejected");
    const parsed = lookupSchema.safeParse(answer.body);
    if (!parsed.success) throw new LightningError("LNbits answered the look-up with something unreadable", "bad_response");
    const { paid, status, details } = parsed.data;
    const amountSats = details?.amount !== undefined ? Math.floor(Math.abs(details.amount) / 1000) : undefined;
    if (paid) return { status: "paid", amountSats, paidAt: toIso(details?.updated_at) };
    if (status === "failed" || details?.status === "failed") return { status: "expired", amountSats };
    const expiresAtMs = expiryOf(details);
    if (expiresAtMs !== null && this.now() > expiresAtMs + INVOICE_EXPIRY_GRACE_MS) return { status: "expired", amountSats };
    return { status: "pending", amountSats };
  }

  async payInvoice(bolt11: string, maxFeeSats: number): Promise<PayResult> {
    const decoded = invoiceToPay(bolt11);
    if ("status" in decoded) return decoded;

    const wallet = await this.checkWallet();
    if (!wallet.ok) return { status: "failed", reason: `Not paid: ${wallet.problem}` };

    const reserve = await this.feeReserveSats(decoded.bolt11);
    if (typeof reserve === "string") return { status: "failed", reason: `Not paid: ${reserve}, so the routing fee cap could not be checked` };
    if (reserve > maxFeeSats) {
      return {
        status: "failed",
        reason: `LNbits would charge up to ${reserve} sats in fees (its routing reserve plus any service fee), above the cap of ${maxFeeSats}`,
        feeOverCapSats: reserve,
      };
    }

    let answer: HttpAnswer;
    try {
      answer = await this.call("POST", "/api/v1/payments", { out: true, bolt11: decoded.bolt11 }, this.options.payTimeoutMs ?? 60_000);
    } catch (err) {
      return { status: "unknown", reason: err instanceof Error ? err.message : "LNbits did not answer" };
    }

    if (answer.status >= 200 && answer.status < 300) {
      const payment = paymentSchema.safeParse(answer.body);
      if (payment.success && payment.data.status === "success") {
        return { status: "succeeded", preimage: keptPreimage(payment.data.preimage), feeSats: payment.data.fee === undefined ? 0 : msatToSats(payment.data.fee) };
      }
      if (payment.success && payment.data.status === "failed") return { status: "failed", reason: "LNbits: payment failed" };
      // Still pending after LNbits' own wait (201 "pending"), or an older answer with the hash only: ask once.
      return this.settledOr(decoded.paymentHash, "LNbits accepted the payment; it has not settled yet");
    }

    const error = errorSchema.safeParse(answer.body);
    if (answer.status === 520 && error.success) {
      const detail = describe(answer.body);
      if (error.data.status === "failed") return this.confirmFailure(decoded.paymentHash, detail);
      // "Payment already paid." (success) or "Payment is still pending." (pending): this hash was sent before.
      return this.settledOr(decoded.paymentHash, `LNbits: ${detail}`);
    }
    if (REFUSED.has(answer.status)) return { status: "failed", reason: `LNbits refused the payment (HTTP ${answer.status}: ${describe(answer.body)})` };
    return { status: "unknown", reason: `LNbits answered HTTP ${answer.status}: ${describe(answer.body)}` };
  }

  /** LNbits' fee reserve for paying `bolt11`, in sats, or why it is not known. */
  private async feeReserveSats(bolt11: string): Promise<number | string> {
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", `/api/v1/payments/fee-reserve?invoice=${encodeURIComponent(bolt11)}`, undefined, this.options.timeoutMs ?? 10_000);
    } catch (err) {
      return `LNbits did not tell its fee reserve (${err instanceof Error ? err.message : "no answer"})`;
    }
    const reserveMsat = (answer.body as { fee_reserve?: unknown } | undefined)?.fee_reserve;
    if (answer.status !== 200 || typeof reserveMsat !== "number" || !Number.isFinite(reserveMsat)) {
      return `LNbits did not tell its fee reserve (HTTP ${answer.status}: ${describe(answer.body)})`;
    }
    return msatToSats(reserveMsat);
  }

  /** How a payment we just sent ended, by a look-up; `unknown` with `reason` unless it settled or failed. */
  private async settledOr(paymentHash: string, reason: string): Promise<PayResult> {
    const looked = await this.lookupPayment(paymentHash);
    if (looked.status === "succeeded") return { status: "succeeded", preimage: looked.preimage ?? null, feeSats: looked.feeSats ?? 0 };
    if (looked.status === "failed") return { status: "failed", reason: looked.reason ?? "LNbits: payment failed" };
    return { status: "unknown", reason };
  }

  /**
   * LNbits said `failed`. With OpenNode or LNPay as its funding source that can be a payment that left:
   * only a look-up after a pause that finds it failed, or finds no payment at all (LNbits refused
   * before recording one: bad invoice, balance), makes it a failure.
   */
  private async confirmFailure(paymentHash: string, detail: string): Promise<PayResult> {
    await (this.options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(this.options.failureConfirmDelayMs ?? 5_000);
    const looked = await this.lookupPayment(paymentHash);
    if (looked.status === "succeeded") return { status: "succeeded", preimage: looked.preimage ?? null, feeSats: looked.feeSats ?? 0 };
    if (looked.status === "failed" || looked.notFound) return { status: "failed", reason: `LNbits: ${detail}` };
    return { status: "unknown", reason: `LNbits said "${detail}" but its record of the payment is not failed (${looked.status}); looking it up again later` };
  }

  async lookupPayment(paymentHash: string): Promise<PaymentLookup> {
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", `/api/v1/payments/${encodeURIComponent(paymentHash)}`, undefined, this.options.timeoutMs ?? 10_000);
    } catch (err) {
      return { status: "unknown", reason: err instanceof Error ? err.message : "LNbits did not answer" };
    }
    if (answer.status === 404) return { status: "unknown", reason: "LNbits has no payment with this hash", notFound: true };
    if (answer.status < 200 || answer.status >= 300) return { status: "unknown", reason: `LNbits answered HTTP ${answer.status}` };
    const parsed = lookupSchema.safeParse(answer.body);
    if (!parsed.success) return { status: "unknown", reason: "LNbits answered the look-up with something unreadable" };
    const { paid, status, preimage, details } = parsed.data;
    // The wallet's "paid" is the outcome; some funding sources settle without giving a preimage.
    if (paid) return { status: "succeeded", preimage: keptPreimage(preimage) ?? undefined, feeSats: details?.fee === undefined ? 0 : msatToSats(details.fee) };
    if (status === "failed" || details?.status === "failed") return { status: "failed", reason: "LNbits: payment failed" };
    return { status: "pending" };
  }
}

function toIso(value: string | number | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = typeof value === "number" ? value * 1000 : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function expiryOf(details: { bolt11?: string; expiry?: string | number | null } | undefined): number | null {
  if (!details) return null;
  if (details.bolt11) {
    try {
      return decodeInvoice(details.bolt11).expiresAtMs;
    } catch {
      // fall through to the expiry field
    }
  }
  if (details.expiry === null || details.expiry === undefined) return null;
  const ms = typeof details.expiry === "number" ? details.expiry * 1000 : Date.parse(details.expiry);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Whether an `LNbits-Signature: t=<unix time>,v1=<hex>` header signs `rawBody`: HMAC-SHA256 with the
 * wallet's webhook secret over "<t>.<raw body>" (the scheme of the open LNbits PR #4016, the same as
 * LNbits' own Stripe check; no release sends it yet). The time is not checked: a webhook is only a
 * hint that makes us look the invoice up, so a replay changes nothing.
 */
export async function lnbitsSignatureValid(secret: string, header: string, rawBody: string): Promise<boolean> {
  const parts = new Map(header.split(",").map((part) => part.trim().split("=", 2) as [string, string | undefined]));
  const t = parts.get("t");
  const v1 = parts.get("v1")?.toLowerCase();
  if (!t || !/^\d+$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const signature = Uint8Array.from(v1.match(/../g)!.map((byte) => parseInt(byte, 16)));
  return crypto.subtle.verify("HMAC", key, signature, encoder.encode(`${t}.${rawBody}`));
}
