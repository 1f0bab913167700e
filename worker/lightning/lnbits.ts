// The `lnbits` backend: an LNbits wallet over its REST API (LNBITS_URL, LNBITS_ADMIN_KEY), checked
// against LNbits v1.5.2-rc3 (docs/decisions/013-lnbits-api-version-checked.md, and for how payments
// are read, docs/decisions/021-lnbits-as-its-source-answers.md).
//
//   wallet key check GET  /api/v1/wallet                       (an admin key's answer carries `id`)
//   create invoice   POST /api/v1/payments {out: false, amount, memo, expiry, unit: "sat", webhook?}
//   look up          GET  /api/v1/payments/{payment_hash}       (with the key: the record in `details`)
//   record check     GET  /api/v1/payments/{payment_hash}       (without a key: any wallet's record)
//   fee reserve      GET  /api/v1/payments/fee-reserve?invoice=  (routing reserve + LNbits' service fee)
//   pay              POST /api/v1/payments {out: true, bolt11}   (again for a failed record: LNbits then
//                                                                 asks its funding source)
//
// How answers map, under the payout rule (a payment is `failed` only when nothing left, by LNbits' own
// source, or when the funding source itself reports it failed; see backend.ts):
// - 201 `success` is paid; 201 `pending` is looked up once; 201 with a `failed` record is unknown (LNbits
//   hands back an old failed record when its funding source does not know the payment).
// - 401/403/404/405/422/429 on pay are refusals made before LNbits' payment code runs: failed.
// - 520 `failed` and 400 can come before or after the funding source was asked (OpenNode and LNPay
//   answer a payment they sent in a way LNbits records as failed; a source's unreadable answer is a 400).
//   After a pause, the record is looked for without a key (any wallet's) and with it: no record either
//   way means LNbits never reached its funding source (it records every payment before asking it):
//   failed, unless its message says it did ask the source ("Payment failed: …"). A record found is
//   read with the key, and a failed one POSTed again, which makes LNbits ask its funding source: only
//   its "Payment is failed node, retrying is not possible." is failed.
// - A look-up (lookupPayment) answers failed only the same way: a stored failed record is re-POSTed.
//   Without `details` (LNbits did not take our key as the payment's wallet's) nothing is concluded.
// - Time-outs, network errors, 5xx, 520 `pending`, unreadable bodies: unknown.
//
// How long one payInvoice call can last (payInvoiceWorstCaseMs; the payout's claim must outlast it,
// backend.ts LONGEST_PAY_CALL_MS): wallet check (timeoutMs) + fee reserve (timeoutMs) + pay
// (payTimeoutMs) + pause (failureConfirmDelayMs) + record check (timeoutMs) + look-up (timeoutMs) +
// re-POST (payTimeoutMs) + look-up after a re-POST said paid (timeoutMs). With the defaults (10 s,
// 60 s, 5 s): 5 × 10 + 2 × 60 + 5 = 175 s, under 3 minutes. The constructor refuses timeouts that
// would take it past LONGEST_PAY_CALL_MS.
//
// The fee cap: LNbits takes no per-payment fee limit, so nothing is paid unless its fee reserve for
// the invoice (which includes its service fee) is known and within the cap.
//
// Not done: refusing to run on OpenNode or LNPay. No endpoint a wallet key can call names the funding
// source (GET /api/v1/status tells it to an LNbits admin account only); see decision 021.
import { z } from "zod";
import { INVOICE_EXPIRY_GRACE_MS, LONGEST_PAY_CALL_MS, LightningError, type CreatedInvoice, type InvoiceLookup, type LightningBackend, type PaymentLookup, type PayResult, type WalletCheck } from "./backend";
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
  /** The pause before a failure (520 `failed`, 400) LNbits reported on paying is checked. Default 5 s. */
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

/**
 * The longest one payInvoice call can last with these options (see the top of this file): every call it
 * can make, one after the other, each at its time-out, and the pause.
 */
export function payInvoiceWorstCaseMs(options: Pick<LnbitsOptions, "timeoutMs" | "payTimeoutMs" | "failureConfirmDelayMs"> = {}): number {
  const { timeoutMs = 10_000, payTimeoutMs = 60_000, failureConfirmDelayMs = 5_000 } = options;
  return 5 * timeoutMs + 2 * payTimeoutMs + failureConfirmDelayMs;
}

/** LNbits' answer to a re-POST of a failed payment when its funding source says the payment failed. */
const SOURCE_SAYS_FAILED = "Payment is failed node, retrying is not possible.";
/** LNbits' answer to a look-up of a payment hash it has no record of, in any wallet. */
const NO_SUCH_PAYMENT = "Payment does not exist.";

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
/** 4xx answers that mean LNbits refused the request before doing anything (for the wallet check). */
const REFUSED = new Set([400, 401, 403, 404, 405, 422, 429]);
/**
 * 4xx answers to paying that come before LNbits' payment code runs (key checks in decorators.py, routing,
 * rate limits): nothing was sent. Not 400: LNbits answers any ValueError with 400, including a funding
 * source's unreadable answer after the payment left.
 */
const REFUSED_BEFORE_PAYING = new Set([401, 403, 404, 405, 422, 429]);

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
    if (!options.adminKey?.trim()) throw new LightningError("LNBITS_ADMIN_KEY is not set", "configuration");
    if (payInvoiceWorstCaseMs(options) > LONGEST_PAY_CALL_MS) {
      throw new LightningError(`LNbits time-outs too long: a payment could take ${payInvoiceWorstCaseMs(options) / 1000} s, more than ${LONGEST_PAY_CALL_MS / 1000} s`, "configuration");
    }
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
      answer = await this.call("GET", "/api/v1/wallet", undefined, this.timeoutMs);
    } catch (err) {
      return { ok: false, checkedAt, problem: err instanceof Error ? err.message : "LNbits could not be reached" };
    }
    const wallet = walletSchema.safeParse(answer.body);
    let check: LnbitsWalletCheck;
    if (answer.status === 200 && wallet.success && wallet.data.id) {
      check = { ok: true, checkedAt, balanceSats: wallet.data.balance === undefined ? undefined : Math.floor(wallet.data.balance / 1000) };
    } else if (answer.status === 200 && wallet.success) {
      check = { ok: false, checkedAt, problem: "LNBITS_ADMIN_KEY is the wallet's invoice key: LNbits cannot pay with it. Set the wallet's admin key." };
    } else if (answer.status === 401) {
      check = {
        ok: false,
        checkedAt,
        problem: `LNbits received no key (HTTP 401: ${describe(answer.body)}): something between Gigstr and LNbits drops the X-Api-Key header, or LNBITS_ADMIN_KEY is blank.`,
      };
    } else if (REFUSED.has(answer.status)) {
      check = { ok: false, checkedAt, problem: `LNbits does not accept LNBITS_ADMIN_KEY (HTTP ${answer.status}: ${describe(answer.body)}). Set the wallet's admin key.` };
    } else {
      return { ok: false, checkedAt, problem: `LNbits answered the wallet check with HTTP ${answer.status}: ${describe(answer.body)}` };
    }
    if (!check.ok) console.error(`LNbits wallet check failed: ${check.problem}`);
    checks.set(key, check);
    return check;
  }

  /**
   * One HTTP exchange; throws Unclear for a time-out or a network error (a body that is not JSON is
   * `body: undefined`). `withKey: false` sends no key: LNbits' payment look-up then searches every wallet.
   */
  private async call(method: "GET" | "POST", path: string, body: unknown, timeoutMs: number, withKey = true): Promise<HttpAnswer> {
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
          headers: { ...(withKey ? { "X-Api-Key": this.options.adminKey } : {}), "content-type": "application/json", accept: "application/json" },
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
        this.timeoutMs,
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
      answer = await this.call("GET", `/api/v1/payments/${encodeURIComponent(paymentHash)}`, undefined, this.timeoutMs);
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
      answer = await this.call("POST", "/api/v1/payments", { out: true, bolt11: decoded.bolt11 }, this.payTimeoutMs);
    } catch (err) {
      return { status: "unknown", reason: err instanceof Error ? err.message : "LNbits did not answer" };
    }

    if (answer.status >= 200 && answer.status < 300) {
      const payment = paymentSchema.safeParse(answer.body);
      if (payment.success && payment.data.status === "success") {
        return { status: "succeeded", preimage: keptPreimage(payment.data.preimage), feeSats: payment.data.fee === undefined ? 0 : msatToSats(payment.data.fee) };
      }
      if (payment.success && payment.data.status === "failed") {
        // LNbits hands back an earlier failed record when its funding source, asked again, does not know the
        // payment (OpenNode and LNPay never know one by its hash): nothing says it did not leave.
        return { status: "unknown", reason: "LNbits answered with its earlier record of this payment, marked failed, which its funding source does not confirm" };
      }
      // Still pending after LNbits' own wait (201 "pending"), or an older answer with the hash only: ask once.
      return this.settledOr(decoded.paymentHash, decoded.bolt11, "LNbits accepted the payment; it has not settled yet");
    }

    const error = errorSchema.safeParse(answer.body);
    if (answer.status === 520 && error.success && error.data.status) {
      const detail = describe(answer.body);
      if (error.data.status === "failed") {
        const afterSource = typeof error.data.detail === "string" && (error.data.detail.startsWith("Payment failed:") || error.data.detail === SOURCE_SAYS_FAILED);
        return this.confirmFailure(decoded.paymentHash, decoded.bolt11, `LNbits: ${detail}`, afterSource);
      }
      // "Payment already paid." (success) or "Payment is still pending." (pending): this hash was sent before.
      return this.settledOr(decoded.paymentHash, decoded.bolt11, `LNbits: ${detail}`);
    }
    if (answer.status === 400) return this.confirmFailure(decoded.paymentHash, decoded.bolt11, `LNbits refused the payment (HTTP 400: ${describe(answer.body)})`, false);
    if (REFUSED_BEFORE_PAYING.has(answer.status)) return { status: "failed", reason: `LNbits refused the payment (HTTP ${answer.status}: ${describe(answer.body)})` };
    return { status: "unknown", reason: `LNbits answered HTTP ${answer.status}: ${describe(answer.body)}` };
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 10_000;
  }

  private get payTimeoutMs(): number {
    return this.options.payTimeoutMs ?? 60_000;
  }

  /** LNbits' fee reserve for paying `bolt11`, in sats, or why it is not known. */
  private async feeReserveSats(bolt11: string): Promise<number | string> {
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", `/api/v1/payments/fee-reserve?invoice=${encodeURIComponent(bolt11)}`, undefined, this.timeoutMs);
    } catch (err) {
      return `LNbits did not tell its fee reserve (${err instanceof Error ? err.message : "no answer"})`;
    }
    const reserveMsat = (answer.body as { fee_reserve?: unknown } | undefined)?.fee_reserve;
    if (answer.status !== 200 || typeof reserveMsat !== "number" || !Number.isFinite(reserveMsat)) {
      return `LNbits did not tell its fee reserve (HTTP ${answer.status}: ${describe(answer.body)})`;
    }
    return msatToSats(reserveMsat);
  }

  /** How a payment we just sent ended, by a look-up; `unknown` with `reason` unless it settled or its source says failed. */
  private async settledOr(paymentHash: string, bolt11: string, reason: string): Promise<PayResult> {
    return payResultOf(await this.lookUp(paymentHash, bolt11), reason);
  }

  /**
   * LNbits said `failed` (520) or 400 on paying. Either can come after its funding source sent the money
   * (OpenNode, LNPay; a source's unreadable answer). After a pause the record is looked for twice: without
   * a key (any wallet's) and with it. No record either way means LNbits never reached its funding source
   * (it stores a payment before asking it), so nothing left: failed. Unless LNbits' own message says it
   * did ask the source ("Payment failed: …" is raised only after the record is stored): then the missing
   * record is a contradiction, and unknown. A record found is read, and a failed one re-POSTed so that
   * LNbits asks its funding source.
   */
  private async confirmFailure(paymentHash: string, bolt11: string, detail: string, afterSource: boolean): Promise<PayResult> {
    await (this.options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(this.options.failureConfirmDelayMs ?? 5_000);
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", `/api/v1/payments/${encodeURIComponent(paymentHash)}`, undefined, this.timeoutMs, false);
    } catch (err) {
      return { status: "unknown", reason: `${detail}; whether LNbits recorded the payment is not known (${err instanceof Error ? err.message : "no answer"})` };
    }
    const noRecordAnywhere = answer.status === 404 && detailOf(answer.body) === NO_SUCH_PAYMENT;
    if (!noRecordAnywhere && (answer.status < 200 || answer.status >= 300)) {
      return { status: "unknown", reason: `${detail}; LNbits answered HTTP ${answer.status} when asked whether it recorded the payment` };
    }
    const looked = await this.lookUp(paymentHash, bolt11);
    if (noRecordAnywhere && looked.notFound) {
      if (afterSource) return { status: "unknown", reason: `${detail}, yet LNbits has no record of the payment, which it stores before asking its funding source; looking it up again later` };
      return { status: "failed", reason: detail };
    }
    if (looked.status === "failed") return { status: "failed", reason: `${detail} (its funding source confirms the payment failed)` };
    return payResultOf(looked, `${detail}, but LNbits recorded the payment and its funding source does not confirm it failed (${looked.reason ?? looked.status}); looking it up again later`);
  }

  async lookupPayment(paymentHash: string): Promise<PaymentLookup> {
    return this.lookUp(paymentHash);
  }

  /**
   * The payment's record, read with the key. A failed record is not taken at its word (LNbits stores
   * one when a funding source's answer does not carry the payment hash, and never checks it again): the
   * invoice (ours when paying, else the record's) is POSTed again, which makes LNbits ask its source.
   */
  private async lookUp(paymentHash: string, bolt11?: string): Promise<PaymentLookup> {
    const record = await this.readRecord(paymentHash);
    if (record.status !== "failed") return record;
    const invoice = bolt11 ?? record.bolt11;
    if (!invoice) return { status: "unknown", reason: "LNbits lists the payment as failed, without its invoice to ask the funding source again" };
    try {
      if (decodeInvoice(invoice).paymentHash !== paymentHash) return { status: "unknown", reason: "LNbits lists the payment as failed, with an invoice for another payment hash" };
    } catch {
      return { status: "unknown", reason: "LNbits lists the payment as failed, with an unreadable invoice" };
    }
    return this.askSource(paymentHash, invoice);
  }

  /** GET /api/v1/payments/{hash} with the key, as LNbits stored it (`failed`: a failed record with our wallet's invoice). */
  private async readRecord(paymentHash: string): Promise<PaymentLookup & { bolt11?: string }> {
    let answer: HttpAnswer;
    try {
      answer = await this.call("GET", `/api/v1/payments/${encodeURIComponent(paymentHash)}`, undefined, this.timeoutMs);
    } catch (err) {
      return { status: "unknown", reason: err instanceof Error ? err.message : "LNbits did not answer" };
    }
    if (answer.status === 404 && detailOf(answer.body) === NO_SUCH_PAYMENT) return { status: "unknown", reason: "LNbits has no payment with this hash", notFound: true };
    if (answer.status < 200 || answer.status >= 300) return { status: "unknown", reason: `LNbits answered HTTP ${answer.status}` };
    const parsed = lookupSchema.safeParse(answer.body);
    if (!parsed.success) return { status: "unknown", reason: "LNbits answered the look-up with something unreadable" };
    const { paid, status, preimage, details } = parsed.data;
    // LNbits adds `details` only for the wallet the key opens; without it the answer may be any wallet's
    // record with this hash (the payee's invoice, on the same LNbits), so it says nothing about ours.
    if (!details) return { status: "unknown", reason: "LNbits answered without the payment's details: it does not take LNBITS_ADMIN_KEY as the key of the wallet that made it" };
    if (details.amount !== undefined && details.amount > 0) return { status: "unknown", reason: "LNbits lists this hash as an invoice of this wallet, not a payment it made" };
    // The wallet's "paid" is the outcome; some funding sources settle without giving a preimage.
    if (paid) return { status: "succeeded", preimage: keptPreimage(preimage) ?? undefined, feeSats: details.fee === undefined ? 0 : msatToSats(details.fee) };
    if (status === "failed" || details.status === "failed") return { status: "failed", reason: "LNbits lists the payment as failed", bolt11: details.bolt11 };
    return { status: "pending" };
  }

  /**
   * POSTs a payment LNbits lists as failed again. LNbits v1.5.2-rc3 then does not pay: it asks its
   * funding source by payment hash and answers 520 "failed" (the source says failed), 520 "success" (the
   * source says paid; LNbits updates its record) or 201 with the old failed record (the source says
   * pending or does not know it). Only the first is failed; a refusal before LNbits asks the source
   * (balance, limits) says nothing about the payment.
   */
  private async askSource(paymentHash: string, bolt11: string): Promise<PaymentLookup> {
    let answer: HttpAnswer;
    try {
      answer = await this.call("POST", "/api/v1/payments", { out: true, bolt11 }, this.payTimeoutMs);
    } catch (err) {
      return { status: "unknown", reason: `LNbits lists the payment as failed; asking its funding source again: ${err instanceof Error ? err.message : "no answer"}` };
    }
    if (answer.status >= 200 && answer.status < 300) {
      const payment = paymentSchema.safeParse(answer.body);
      if (payment.success && payment.data.status === "success") {
        return { status: "succeeded", preimage: keptPreimage(payment.data.preimage) ?? undefined, feeSats: payment.data.fee === undefined ? 0 : msatToSats(payment.data.fee) };
      }
      return { status: "unknown", reason: "LNbits lists the payment as failed, and its funding source, asked again, does not know how it ended" };
    }
    const error = errorSchema.safeParse(answer.body);
    const detail = describe(answer.body);
    if (answer.status === 520 && error.success && error.data.status === "failed" && detailOf(answer.body) === SOURCE_SAYS_FAILED) {
      return { status: "failed", reason: `LNbits' funding source reports the payment failed (${detail})` };
    }
    if (answer.status === 520 && error.success && error.data.status === "success") {
      const record = await this.readRecord(paymentHash);
      if (record.status === "succeeded") return { status: "succeeded", preimage: record.preimage, feeSats: record.feeSats };
      return { status: "unknown", reason: `LNbits' funding source reports the payment paid (${detail}); its record could not be read` };
    }
    return { status: "unknown", reason: `LNbits lists the payment as failed; asked again, it answered HTTP ${answer.status}: ${detail}` };
  }
}

/** A PayResult from a look-up: succeeded and failed as they are, anything else unknown with `reason`. */
function payResultOf(looked: PaymentLookup, reason: string): PayResult {
  if (looked.status === "succeeded") return { status: "succeeded", preimage: looked.preimage ?? null, feeSats: looked.feeSats ?? 0 };
  if (looked.status === "failed") return { status: "failed", reason: looked.reason ?? "LNbits' funding source reports the payment failed" };
  return { status: "unknown", reason };
}

function detailOf(body: unknown): unknown {
  return errorSchema.safeParse(body).data?.detail;
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
