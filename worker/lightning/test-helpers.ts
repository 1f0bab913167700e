// Test doubles for the Lightning tests: a scripted fetch, invoices from a stranger's node and a
// well-behaved LNURL-pay provider that a test can make misbehave one answer at a time.
import { bytesToHex, decodeInvoice, randomBytes, sha256Hex } from "./invoice";
import { encodeSignedInvoice } from "./invoice-encoder";
import type { FetchLike } from "./lnurl";

export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export interface ScriptedFetch {
  fetch: FetchLike;
  calls: { url: string; init: RequestInit }[];
}

/** Routes by `origin + pathname`; non-function entries (such as a provider's `issued` list) are ignored. */
export type Routes = { readonly [key: string]: Handler | unknown };

/** A fetch answering `origin + pathname` keys from `routes`; anything else is a network error. */
export function scriptedFetch(routes: Routes): ScriptedFetch {
  const calls: ScriptedFetch["calls"] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const u = new URL(url);
    const handler = routes[`${u.origin}${u.pathname}`];
    if (typeof handler !== "function") throw new TypeError(`network error: nothing at ${u.origin}${u.pathname}`);
    return (handler as Handler)(u, init);
  };
  return { fetch, calls };
}

/** An invoice signed by a random node (someone else's wallet). */
export async function strangerInvoice(opts: {
  amountMsat: number | null;
  descriptionHash?: string;
  description?: string;
  expirySec?: number;
  timestampSec?: number;
  network?: string;
}): Promise<{ bolt11: string; paymentHash: string; preimage: string }> {
  const preimage = randomBytes(32);
  const paymentHash = await sha256Hex(preimage);
  const bolt11 = await encodeSignedInvoice(
    {
      network: opts.network ?? "bc",
      amountMsat: opts.amountMsat,
      timestamp: opts.timestampSec ?? Math.floor(Date.now() / 1000),
      paymentHash,
      paymentSecret: bytesToHex(randomBytes(32)),
      ...(opts.descriptionHash !== undefined ? { descriptionHash: opts.descriptionHash } : { description: opts.description ?? "" }),
      expirySec: opts.expirySec ?? 600,
    },
    bytesToHex(randomBytes(32)),
  );
  return { bolt11, paymentHash, preimage: bytesToHex(preimage) };
}

export const METADATA = JSON.stringify([
  ["text/plain", "Pay alice"],
  ["text/identifier", "alice@provider.com"],
]);

export interface ProviderOptions {
  /** Where the provider is actually served (an override base, or https://domain). */
  base?: string;
  domain?: string;
  name?: string;
  /** The callback URL the payRequest advertises. */
  callback?: string;
  payRequest?: Record<string, unknown>;
  /** Builds the callback's answer; defaults to an honest invoice. */
  invoice?: (amountMsat: number) => Promise<unknown>;
  /** Collects the invoices the honest callback issued. */
  issued?: string[];
}

/** An honest LNURL-pay provider for `name@domain`, with hooks to make it lie. */
export function lnurlProvider(opts: ProviderOptions = {}): Record<string, Handler> & { issued: string[] } {
  const issued: string[] = opts.issued ?? [];
  const domain = opts.domain ?? "provider.com";
  const name = opts.name ?? "alice";
  const base = opts.base ?? `https://${domain}`;
  const routes: Record<string, Handler> = {
    [`${base}/.well-known/lnurlp/${name}`]: () =>
      Response.json({
        tag: "payRequest",
        callback: opts.callback ?? `https://${domain}/lnurlp/${name}/callback`,
        minSendable: 1000,
        maxSendable: 100_000_000,
        metadata: METADATA,
        commentAllowed: 0,
        ...opts.payRequest,
      }),
    [`${base}/lnurlp/${name}/callback`]: async (url) => {
      const amountMsat = Number(url.searchParams.get("amount"));
      if (opts.invoice) return Response.json(await opts.invoice(amountMsat));
      const inv = await strangerInvoice({ amountMsat, descriptionHash: await sha256Hex(METADATA) });
      issued.push(inv.bolt11);
      return Response.json({ pr: inv.bolt11, routes: [] });
    },
  };
  return Object.assign(routes, { issued });
}

/** A body that streams `total` bytes in 1 KB chunks, never declaring its length. */
export function streamingBody(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(1024, total - sent);
      sent += n;
      controller.enqueue(new TextEncoder().encode(" ".repeat(n)));
    },
  });
}

/**
 * Python's json.dumps with its default settings (", " and ": " separators, non-ASCII escaped): how
 * LNbits serialises a payment record before posting it.
 */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`).join(", ")}}`;
}

/** What the fake LNbits' funding source does with an outgoing payment. */
export type FundingOutcome =
  | "success"
  /** Settled, but the funding source gives no preimage. */
  | "success_without_preimage"
  /** Still in flight after LNbits' 5 s wait: LNbits answers 201 "pending". */
  | "pending"
  | "failed"
  /** OpenNode/LNPay: the funding source errs although the payment left; LNbits records it failed. */
  | "failed_but_sent";

export interface FakeLnbitsOptions {
  base?: string;
  balanceSats?: number;
  /** LNbits' service fee (LNBITS_SERVICE_FEE, percent; 0 = none). */
  serviceFeePercent?: number;
  /** The routing fee the funding source reports (msat). */
  routingFeeMsat?: number;
  maxIncomingSats?: number;
  now?: () => number;
}

type PaymentRecord = Record<string, unknown> & { payment_hash: string; amount: number; status: string; preimage: string | null };

/**
 * A fake LNbits answering as v1.5.2-rc3 does (lnbits/core/views/payment_api.py, services/payments.py,
 * exceptions.py): 404 "Wallet not found." for a bad key, 520 {detail, status} for payment and invoice
 * errors, 201 with the Payment record, `fee` negative msat holding routing plus service fee.
 */
export function fakeLnbits(opts: FakeLnbitsOptions = {}) {
  const base = opts.base ?? "https://lnbits.example.com";
  const now = opts.now ?? Date.now;
  const keys = { admin: "admin-key", invoice: "invoice-key" };
  const wallet = { id: "wallet-1", name: "Gigstr", balanceMsat: (opts.balanceSats ?? 1_000_000) * 1000 };
  const payments = new Map<string, PaymentRecord>();
  const state = { outcome: "success" as FundingOutcome, feeReserveDown: false, serviceFeePercent: opts.serviceFeePercent ?? 0 };
  const calls: { method: string; path: string }[] = [];
  const preimages = new Map<string, string>();

  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const refused = (detail: string, status: string) => json({ detail, status }, 520);
  const iso = () => new Date(now()).toISOString().replace("Z", "+00:00");
  const serviceFee = (msat: number) => Math.floor((Math.abs(msat) / 100) * state.serviceFeePercent);
  const feeReserveTotal = (msat: number) => Math.max(2000, Math.floor(Math.abs(msat) / 100)) + serviceFee(msat);
  const record = (fields: Partial<PaymentRecord> & { payment_hash: string; amount: number; bolt11: string }): PaymentRecord => ({
    checking_id: fields.payment_hash,
    wallet_id: wallet.id,
    fee: 0,
    payment_request: fields.bolt11,
    fiat_provider: null,
    status: "pending",
    memo: null,
    expiry: null,
    webhook: null,
    webhook_status: null,
    preimage: null,
    tag: null,
    extension: null,
    time: iso(),
    created_at: iso(),
    updated_at: iso(),
    labels: [],
    extra: {},
    ...fields,
  });

  async function pay(bolt11: string): Promise<Response> {
    let decoded;
    try {
      decoded = decodeInvoice(bolt11);
    } catch {
      return refused("Bolt11 decoding failed.", "failed");
    }
    if (!decoded.amountMsat) return refused("Amountless invoices not supported.", "failed");
    const amount = decoded.amountMsat;
    const reserve = feeReserveTotal(amount);
    if (wallet.balanceMsat < amount) return refused("Insufficient balance.", "failed");
    if (wallet.balanceMsat < amount + reserve) return refused(`You must reserve at least (${Math.round(reserve / 1000)}  sat) to cover potential routing fees.`, "failed");
    const old = payments.get(decoded.paymentHash);
    if (old?.status === "pending") return refused("Payment is still pending.", "pending");
    if (old?.status === "success") return refused("Payment already paid.", "success");
    if (old) return refused("Payment is failed node, retrying is not possible.", "failed");
    const payment = record({ payment_hash: decoded.paymentHash, amount: -amount, bolt11, fee: -reserve, memo: decoded.description ?? null });
    payments.set(decoded.paymentHash, payment);
    const sent = () => {
      wallet.balanceMsat -= amount + (opts.routingFeeMsat ?? 1000) + serviceFee(amount);
      Object.assign(payment, { status: "success", fee: -((opts.routingFeeMsat ?? 1000) + serviceFee(amount)), updated_at: iso() });
    };
    switch (state.outcome) {
      case "success":
        sent();
        payment.preimage = preimages.get(decoded.paymentHash) ?? "ab".repeat(32);
        return json(payment, 201);
      case "success_without_preimage":
        sent();
        return json(payment, 201);
      case "pending":
        return json(payment, 201);
      case "failed":
        Object.assign(payment, { status: "failed", updated_at: iso() });
        return refused("Payment failed: no route", "failed");
      case "failed_but_sent":
        wallet.balanceMsat -= amount;
        Object.assign(payment, { status: "failed", updated_at: iso() });
        return refused("Payment failed: withdrawal error", "failed");
    }
  }

  async function createInvoice(body: Record<string, unknown>): Promise<Response> {
    const amount = Number(body.amount);
    if (!(amount > 0)) return refused("Amountless invoices not supported.", "failed");
    if (amount > (opts.maxIncomingSats ?? 10_000_000)) return refused(`Invoice amount ${amount} sats is too high. Max allowed: ${opts.maxIncomingSats ?? 10_000_000} sats.`, "failed");
    const inv = await strangerInvoice({ amountMsat: amount * 1000, description: String(body.memo ?? ""), expirySec: Number(body.expiry ?? 3600) });
    preimages.set(inv.paymentHash, inv.preimage);
    const payment = record({ payment_hash: inv.paymentHash, amount: amount * 1000, bolt11: inv.bolt11, memo: String(body.memo ?? ""), webhook: (body.webhook as string | undefined) ?? null });
    payments.set(inv.paymentHash, payment);
    return json(payment, 201);
  }

  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    const method = init.method ?? "GET";
    calls.push({ method, path: u.pathname });
    if (u.origin !== base) throw new TypeError(`network error: nothing at ${u.origin}`);
    const key = new Headers(init.headers).get("x-api-key");
    const keyType = key === keys.admin ? "admin" : key === keys.invoice ? "invoice" : null;
    if (u.pathname === "/api/v1/payments/fee-reserve") {
      if (state.feeReserveDown) return new Response("<html>502 Bad Gateway</html>", { status: 502 });
      try {
        const amount = decodeInvoice(u.searchParams.get("invoice") ?? "").amountMsat;
        return amount ? json({ fee_reserve: feeReserveTotal(amount) }) : json({ detail: "Invoice has no amount." }, 400);
      } catch {
        return json({ detail: "Unexpected error! ID: 1" }, 500);
      }
    }
    if (!keyType) return json({ detail: "Wallet not found." }, 404);
    if (u.pathname === "/api/v1/wallet") return json({ name: wallet.name, balance: wallet.balanceMsat, ...(keyType === "admin" ? { id: wallet.id } : {}) });
    if (u.pathname === "/api/v1/payments" && method === "POST") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      if (!body.out) return createInvoice(body);
      if (keyType !== "admin") return json({ detail: "Invoice (or Admin) key required." }, 403);
      return pay(String(body.bolt11 ?? ""));
    }
    const hash = u.pathname.match(/^\/api\/v1\/payments\/([^/]+)$/)?.[1];
    if (hash && method === "GET") {
      const payment = payments.get(hash);
      if (!payment) return json({ detail: "Payment does not exist." }, 404);
      if (payment.status === "success") return json({ paid: true, preimage: payment.preimage, details: payment });
      if (payment.status === "failed") return json({ paid: false, status: "failed", details: payment });
      return json({ paid: false, status: payment.status, preimage: payment.preimage, details: payment });
    }
    return json({ detail: "Not Found" }, 404);
  };

  return {
    base,
    keys,
    fetch,
    calls,
    state,
    payments,
    wallet,
    /** Someone pays our invoice: LNbits marks it settled and returns the bytes it posts to its webhook. */
    settleIncoming(paymentHash: string): string {
      const payment = payments.get(paymentHash);
      if (!payment) throw new Error(`fake LNbits: no invoice ${paymentHash}`);
      Object.assign(payment, { status: "success", preimage: preimages.get(paymentHash) ?? null, updated_at: iso() });
      wallet.balanceMsat += payment.amount;
      return webhookBytes(payment);
    },
    /** A payment that stayed pending settles at the funding source. */
    settleOutgoing(paymentHash: string) {
      const payment = payments.get(paymentHash)!;
      wallet.balanceMsat -= -payment.amount + 1000;
      Object.assign(payment, { status: "success", fee: -1000, preimage: "cd".repeat(32), updated_at: iso() });
    },
  };
}

/** The body LNbits posts to a payment's webhook: httpx `json=payment.json()`, a JSON string holding the record. */
export function webhookBytes(payment: Record<string, unknown>): string {
  return JSON.stringify(pythonJsonDumps(payment));
}
