// The `lnbits` backend: an LNbits wallet over its REST API (LNBITS_URL, LNBITS_ADMIN_KEY).
//
//   create invoice   POST /api/v1/payments {out: false, amount, memo, expiry, unit: "sat", webhook?}
//   look up          GET  /api/v1/payments/{payment_hash}
//   pay              POST /api/v1/payments {out: true, bolt11}
//
// How answers map, for payments (see backend.ts): LNbits says `failed` explicitly with a 520 whose
// body has status "failed", or a Payment whose status is "failed"; a 4xx that means the request was
// refused before anything happened (bad invoice, bad key, validation, rate limit) is failed too.
// Everything else — time-out, network error, 5xx, 520 with status "pending", an unreadable body —
// is `unknown`. LNbits has no per-payment fee limit: the cap is checked against its fee reserve
// (GET /api/v1/payments/fee-reserve) before paying, and LNbits never spends more than that reserve.
import { z } from "zod";
import { INVOICE_EXPIRY_GRACE_MS, LightningError, type CreatedInvoice, type InvoiceLookup, type LightningBackend, type PaymentLookup, type PayResult } from "./backend";
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
}

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
      time: z.union([z.string(), z.number()]).nullish(),
    })
    .passthrough()
    .optional(),
});

const errorSchema = z.object({ detail: z.unknown().optional(), status: z.string().optional() });

const ZERO_PREIMAGE = /^0*$/;
/** 4xx answers that mean LNbits refused the request before doing anything. */
const REFUSED = new Set([400, 401, 403, 404, 405, 422, 429]);

const msatToSats = (msat: number) => Math.ceil(Math.abs(msat) / 1000);

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
      throw new LightningError(`LNbits refused to create the invoice (HTTP ${answer.status}: ${describe(answer.body)})`, answer.status >= 500 ? "unavailable" : "rejected");
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
    if (paid) return { status: "paid", amountSats, paidAt: toIso(details?.time) };
    if (status === "failed" || details?.status === "failed") return { status: "expired", amountSats };
    const expiresAtMs = expiryOf(details);
    if (expiresAtMs !== null && this.now() > expiresAtMs + INVOICE_EXPIRY_GRACE_MS) return { status: "expired", amountSats };
    return { status: "pending", amountSats };
  }

  async payInvoice(bolt11: string, maxFeeSats: number): Promise<PayResult> {
    const decoded = invoiceToPay(bolt11);
    if ("status" in decoded) return decoded;

    // The fee cap: LNbits never spends more on routing than its fee reserve for the amount.
    try {
      const reserve = await this.call("GET", `/api/v1/payments/fee-reserve?invoice=${encodeURIComponent(decoded.bolt11)}`, undefined, this.options.timeoutMs ?? 10_000);
      const reserveMsat = (reserve.body as { fee_reserve?: unknown } | undefined)?.fee_reserve;
      if (reserve.status === 200 && typeof reserveMsat === "number" && msatToSats(reserveMsat) > maxFeeSats) {
        return { status: "failed", reason: `LNbits reserves ${msatToSats(reserveMsat)} sats for routing fees, above the cap of ${maxFeeSats}` };
      }
    } catch {
      // Nothing has been sent yet; without the reserve LNbits' own reserve setting still bounds the fee.
    }

    let answer: HttpAnswer;
    try {
      answer = await this.call("POST", "/api/v1/payments", { out: true, bolt11: decoded.bolt11 }, this.options.payTimeoutMs ?? 60_000);
    } catch (err) {
      return { status: "unknown", reason: err instanceof Error ? err.message : "LNbits did not answer" };
    }

    if (answer.status >= 200 && answer.status < 300) {
      const payment = paymentSchema.safeParse(answer.body);
      if (payment.success) {
        const { status, preimage, fee } = payment.data;
        if (status === "failed") return { status: "failed", reason: "LNbits: payment failed" };
        if (status === "success" && preimage && !ZERO_PREIMAGE.test(preimage)) {
          return { status: "succeeded", preimage, feeSats: fee === undefined ? 0 : msatToSats(fee) };
        }
      }
      // Accepted but not settled in the answer (older LNbits answers with the hash only): ask once.
      const looked = await this.lookupPayment(decoded.paymentHash);
      if (looked.status === "succeeded") return { status: "succeeded", preimage: looked.preimage!, feeSats: looked.feeSats ?? 0 };
      if (looked.status === "failed") return { status: "failed", reason: looked.reason ?? "LNbits: payment failed" };
      return { status: "unknown", reason: "LNbits accepted the payment; it has not settled yet" };
    }

    const error = errorSchema.safeParse(answer.body);
    if (answer.status === 520 && error.success && error.data.status === "failed") {
      return { status: "failed", reason: `LNbits: ${describe(answer.body)}` };
    }
    if (REFUSED.has(answer.status)) return { status: "failed", reason: `LNbits refused the payment (HTTP ${answer.status}: ${describe(answer.body)})` };
    return { status: "unknown", reason: `LNbits answered HTTP ${answer.status}: ${describe(answer.body)}` };
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
    if (paid) {
      if (!preimage || ZERO_PREIMAGE.test(preimage)) return { status: "unknown", reason: "LNbits says paid but gives no preimage" };
      return { status: "succeeded", preimage, feeSats: details?.fee === undefined ? 0 : msatToSats(details.fee) };
    }
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
