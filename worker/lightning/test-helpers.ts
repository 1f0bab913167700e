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

/**
 * What the fake LNbits' funding source does with the next outgoing payment (`state.outcome`, or the
 * next entry of `state.nextOutcomes`). Each is something LNbits v1.5.2-rc3 does with a real source;
 * docs/decisions/021-lnbits-as-its-source-answers.md names the source file of each.
 */
export type FundingOutcome =
  /** Sent and settled: 201 with the record `success`, the preimage and the fee. */
  | "success"
  /** Sent and settled, but the funding source gives no preimage. */
  | "success_without_preimage"
  /** Still in flight after LNbits' wait: 201 "pending". `settleOutgoing`/`failOutgoing` end it at the source. */
  | "pending"
  /** The funding source refuses with the payment hash (`ok=False`): nothing sent; LNbits records it failed, 520. */
  | "failed"
  /**
   * OpenNode/LNPay: the source sends and answers with its own withdrawal id, not the payment hash, so
   * LNbits records the payment failed and answers 520 "Payment failed: without an error message.". Asked
   * later by payment hash, the source does not know it (its records are under its own id): pending.
   */
  | "failed_but_sent"
  /** LNbits refuses with 400 before recording anything (a ValueError: the daily withdrawal limit). Nothing sent. */
  | "refused_400"
  /**
   * The source sends, then cannot read its own node's answer (JSONDecodeError, a ValueError): LNbits
   * answers 400 {detail} and its record stays pending. Asked by hash, the source finds it settled.
   */
  | "sent_then_400"
  /** As `sent_then_400`, but nothing left: the source's error page was not JSON. Asked by hash, it does not know it. */
  | "unsent_400"
  /** The source sends, then raises (KeyError, dropped connection): 500 "Unexpected error! ID: …", record pending. */
  | "sent_then_500"
  /** The source cannot be reached: 500, record pending, nothing sent. Asked by hash, it does not know it. */
  | "unsent_500"
  /**
   * In flight (201 "pending"), and the funding source's first status check of it answers failed: LNbits
   * then stores it failed and never checks it again on its own (only a re-POST asks the source again).
   */
  | "pending_lookup_lies_once";

export interface FakeLnbitsOptions {
  base?: string;
  balanceSats?: number;
  /** LNbits' service fee (LNBITS_SERVICE_FEE, percent; 0 = none). Non-zero means a service-fee wallet is set. */
  serviceFeePercent?: number;
  /** The routing fee the funding source reports (msat). */
  routingFeeMsat?: number;
  maxIncomingSats?: number;
  now?: () => number;
  /** What the funding source answers when asked about a payment hash it has no record of (see FakeLnbitsState). */
  unknownHashStatus?: SourceStatus;
}

/** A funding source's answer to "how did the payment with this id end?" (lnbits/wallets/base.py PaymentStatus). */
export type SourceStatus = "pending" | "success" | "failed";

export interface FakeLnbitsState {
  outcome: FundingOutcome;
  /** Outcomes for the next new payments, one each, before `outcome` applies again (re-POSTs of a known hash take none). */
  nextOutcomes: FundingOutcome[];
  feeReserveDown: boolean;
  serviceFeePercent: number;
  /**
   * The source's status for a hash it has no record of: "pending" for LND, Core Lightning, OpenNode, LNPay
   * (an error or "not found" is kept pending); "failed" for phoenixd (404) and NWC (NOT_FOUND).
   */
  unknownHashStatus: SourceStatus;
}

type PaymentRecord = Record<string, unknown> & { payment_hash: string; checking_id: string; amount: number; fee: number; status: string; preimage: string | null };

/** The funding source's own view of an outgoing payment (the truth, whatever LNbits recorded). */
interface SourcePayment {
  status: SourceStatus;
  amountMsat: number;
  /** Whether asking the source by payment hash finds it (OpenNode/LNPay file payments under their own id: pending). */
  findable: boolean;
  /** The next status check answers "failed" whatever the truth, once. */
  liesOnce: boolean;
  preimage: string;
}

const SOURCE_SAYS_FAILED = "Payment is failed node, retrying is not possible.";

/**
 * A fake LNbits answering as v1.5.2-rc3 does (lnbits/core/views/payment_api.py, core/services/payments.py,
 * decorators.py, exceptions.py; docs/decisions/021-lnbits-as-its-source-answers.md), with a funding source
 * behind it whose truth is kept apart from what LNbits records:
 * - keys: none → 401 "No Api Key provided."; unknown → 404 "Wallet not found."; an invoice key paying → 403;
 *   GET /api/v1/payments/{hash} takes no key: without a valid one it searches every wallet and leaves out
 *   `details` (and `status` while pending);
 * - 520 {detail, status} for payment and invoice errors, 400 {detail} for a ValueError, 500 for anything else;
 * - the balance counts settled incoming, and settled or pending outgoing (amount plus fee): never failed ones;
 * - a pending record is checked with the source whenever it is looked up; a failed one only when the same
 *   invoice is POSTed again (then: 520 "failed" if the source says failed, 520 "success" if it says paid,
 *   and 201 with the old failed record if it says pending).
 * `sentMsat`/`totalSentMsat` tell what really left the wallet, whatever LNbits recorded.
 */
export function fakeLnbits(opts: FakeLnbitsOptions = {}) {
  const base = opts.base ?? "https://lnbits.example.com";
  const now = opts.now ?? Date.now;
  const keys = { admin: "admin-key", invoice: "invoice-key" };
  const payments = new Map<string, PaymentRecord>();
  const source = new Map<string, SourcePayment>();
  const sent = new Map<string, { msat: number; feeMsat: number; times: number }>();
  const serviceFeesCredited = new Set<string>();
  let baseMsat = (opts.balanceSats ?? 1_000_000) * 1000;
  let routingFeesMsat = 0;
  let errorIds = 0;
  const state: FakeLnbitsState = {
    outcome: "success",
    nextOutcomes: [],
    feeReserveDown: false,
    serviceFeePercent: opts.serviceFeePercent ?? 0,
    unknownHashStatus: opts.unknownHashStatus ?? "pending",
  };
  const calls: { method: string; path: string; key: "admin" | "invoice" | "wrong" | "none" }[] = [];
  const preimages = new Map<string, string>();
  const routingFee = () => opts.routingFeeMsat ?? 1000;

  /** The balances view (lnbits/core/migrations.py m025): failed payments are not counted. */
  const recordedMsat = () => {
    let sum = 0;
    for (const p of payments.values()) {
      if ((p.status === "success" && p.amount > 0) || ((p.status === "success" || p.status === "pending") && p.amount < 0)) sum += p.amount - Math.abs(p.fee);
    }
    return sum;
  };
  const wallet = {
    id: "wallet-1",
    name: "Gigstr",
    /** What LNbits says the wallet holds (GET /api/v1/wallet); setting it moves the starting balance. */
    get balanceMsat() {
      return baseMsat + recordedMsat();
    },
    set balanceMsat(value: number) {
      baseMsat = value - recordedMsat();
    },
  };

  const json = (body: unknown, status = 200) => Response.json(body, { status });
  const refused = (detail: string, status: string) => json({ detail, status }, 520);
  const unexpected = () => json({ detail: `Unexpected error! ID: fake${++errorIds}` }, 500);
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

  /** The funding source really sends `amountMsat` to the payee for this hash. */
  const send = (hash: string, amountMsat: number) => {
    const s = sent.get(hash) ?? { msat: 0, feeMsat: 0, times: 0 };
    sent.set(hash, { msat: s.msat + amountMsat, feeMsat: s.feeMsat + routingFee(), times: s.times + 1 });
    routingFeesMsat += routingFee();
  };

  /** update_payment_success_status: fee = routing fee + service fee, the source's preimage kept. */
  const markSuccess = (payment: PaymentRecord, preimage: string | null) => {
    Object.assign(payment, { status: "success", fee: -(routingFee() + serviceFee(payment.amount)), preimage: payment.preimage ?? preimage, updated_at: iso() });
  };

  /** The funding source's get_payment_status(checking_id): what it answers LNbits by payment hash. */
  const checkAtSource = (hash: string): SourceStatus => {
    const s = source.get(hash);
    if (!s) return state.unknownHashStatus;
    // OpenNode/LNPay look the hash up as one of their own ids, get an error, and keep it pending.
    if (!s.findable) return "pending";
    if (s.liesOnce) {
      s.liesOnce = false;
      return "failed";
    }
    return s.status;
  };

  /** update_pending_payment: a pending outgoing record is checked with the source. */
  const refresh = (payment: PaymentRecord) => {
    if (payment.status !== "pending" || payment.amount > 0) return;
    const status = checkAtSource(payment.payment_hash);
    if (status === "failed") Object.assign(payment, { status: "failed", updated_at: iso() });
    if (status === "success") markSuccess(payment, source.get(payment.payment_hash)?.preimage ?? null);
  };

  /** _credit_service_fee_wallet: a second credit for the same hash hits "Payment already exists" (a ValueError: 400). */
  const creditServiceFee = (payment: PaymentRecord): Response | null => {
    if (serviceFee(payment.amount) === 0) return null;
    if (serviceFeesCredited.has(payment.payment_hash)) return json({ detail: "Payment already exists" }, 400);
    serviceFeesCredited.add(payment.payment_hash);
    return null;
  };

  /** _verify_external_payment: the same invoice POSTed again. */
  function payAgain(old: PaymentRecord): Response {
    if (old.status === "pending") return refused("Payment is still pending.", "pending");
    if (old.status === "success") return refused("Payment already paid.", "success");
    const status = checkAtSource(old.payment_hash);
    if (status === "failed") return refused(SOURCE_SAYS_FAILED, "failed");
    if (status === "success") {
      markSuccess(old, source.get(old.payment_hash)?.preimage ?? null);
      return refused("Failed payment was already paid on the fundingsource.", "success");
    }
    // The source says pending (or does not know it): LNbits hands back its old failed record, sends nothing.
    return creditServiceFee(old) ?? json(old, 201);
  }

  async function pay(bolt11: string): Promise<Response> {
    let decoded;
    try {
      decoded = decodeInvoice(bolt11);
    } catch {
      return refused("Bolt11 decoding failed.", "failed");
    }
    if (!decoded.amountMsat) return refused("Amountless invoices not supported.", "failed");
    const hash = decoded.paymentHash;
    const amount = decoded.amountMsat;
    const old = payments.get(hash);
    const takeOutcome = () => state.nextOutcomes.shift() ?? state.outcome;
    // The wallet's limits are checked first (check_wallet_daily_withdraw_limit raises a ValueError: 400).
    if (!old && (state.nextOutcomes[0] ?? state.outcome) === "refused_400") {
      takeOutcome();
      return json({ detail: `Daily withdrawal limit of ${Math.floor(amount / 1000) - 1} sats reached.` }, 400);
    }
    const reserve = feeReserveTotal(amount);
    if (wallet.balanceMsat < amount) return refused("Insufficient balance.", "failed");
    if (wallet.balanceMsat < amount + reserve) return refused(`You must reserve at least (${Math.round(reserve / 1000)}  sat) to cover potential routing fees.`, "failed");
    if (old) return payAgain(old);
    const outcome = takeOutcome();
    const payment = record({ payment_hash: hash, amount: -amount, bolt11, fee: -reserve, memo: decoded.description ?? null });
    payments.set(hash, payment);
    const preimage = preimages.get(hash) ?? "ab".repeat(32);
    const atSource = (status: SourceStatus, findable = true, liesOnce = false) => source.set(hash, { status, amountMsat: amount, findable, liesOnce, preimage });
    const settled = (withPreimage: boolean) => {
      atSource("success");
      send(hash, amount);
      markSuccess(payment, withPreimage ? preimage : null);
      return creditServiceFee(payment) ?? json(payment, 201);
    };
    switch (outcome) {
      case "success":
        return settled(true);
      case "success_without_preimage":
        return settled(false);
      case "pending":
      case "pending_lookup_lies_once":
        atSource("pending", true, outcome === "pending_lookup_lies_once");
        return creditServiceFee(payment) ?? json(payment, 201);
      case "failed":
        atSource("failed");
        Object.assign(payment, { status: "failed", updated_at: iso() });
        return refused("Payment failed: no route", "failed");
      case "failed_but_sent":
        atSource("success", false);
        send(hash, amount);
        Object.assign(payment, { status: "failed", updated_at: iso() });
        return refused("Payment failed: without an error message.", "failed");
      case "sent_then_400":
        atSource("success");
        send(hash, amount);
        return json({ detail: "Expecting value: line 1 column 1 (char 0)" }, 400);
      case "unsent_400":
        return json({ detail: "Expecting value: line 1 column 1 (char 0)" }, 400);
      case "sent_then_500":
        atSource("success");
        send(hash, amount);
        return unexpected();
      case "unsent_500":
        return unexpected();
      case "refused_400":
        throw new Error("fake LNbits: refused_400 is answered before the payment is recorded");
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

  /** GET /api/v1/payments/{hash} (api_payment): no key needed; `details` only for the payment's own wallet. */
  function lookUp(hash: string, keyType: "admin" | "invoice" | null): Response {
    const payment = payments.get(hash);
    if (!payment) return json({ detail: "Payment does not exist." }, 404);
    const own = keyType !== null;
    if (payment.status === "success") return json(own ? { paid: true, preimage: payment.preimage, details: payment } : { paid: true, preimage: payment.preimage });
    if (payment.status === "failed") return json(own ? { paid: false, status: "failed", details: payment } : { paid: false, status: "failed" });
    refresh(payment);
    const paid = payment.status === "success";
    return json(own ? { paid, status: payment.status, preimage: payment.preimage, details: payment } : { paid, preimage: payment.preimage });
  }

  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    const method = init.method ?? "GET";
    const key = new Headers(init.headers).get("x-api-key") || u.searchParams.get("api-key");
    const keyType = key === keys.admin ? "admin" : key === keys.invoice ? "invoice" : null;
    calls.push({ method, path: u.pathname, key: keyType ?? (key ? "wrong" : "none") });
    if (u.origin !== base) throw new TypeError(`network error: nothing at ${u.origin}`);
    if (u.pathname === "/api/v1/payments/fee-reserve") {
      if (state.feeReserveDown) return new Response("<html>502 Bad Gateway</html>", { status: 502 });
      try {
        const amount = decodeInvoice(u.searchParams.get("invoice") ?? "").amountMsat;
        return amount ? json({ fee_reserve: feeReserveTotal(amount) }) : json({ detail: "Invoice has no amount." }, 400);
      } catch {
        return unexpected();
      }
    }
    const hash = u.pathname.match(/^\/api\/v1\/payments\/([^/]+)$/)?.[1];
    if (hash && method === "GET") return lookUp(hash, keyType);
    if (!key) return json({ detail: "No Api Key provided." }, 401);
    if (!keyType) return json({ detail: "Wallet not found." }, 404);
    if (u.pathname === "/api/v1/wallet") return json({ name: wallet.name, balance: wallet.balanceMsat, ...(keyType === "admin" ? { id: wallet.id } : {}) });
    if (u.pathname === "/api/v1/payments" && method === "POST") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      if (!body.out) return createInvoice(body);
      if (keyType !== "admin") return json({ detail: "Invoice (or Admin) key required." }, 403);
      if (!body.bolt11) return json({ detail: "Missing BOLT11 invoice" }, 400);
      return pay(String(body.bolt11));
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
    /** Msat the funding source delivered to the payee for this hash (fees apart), summed over every send. */
    sentMsat(paymentHash: string): number {
      return sent.get(paymentHash)?.msat ?? 0;
    },
    /** What left for this hash: to the payee (`amountMsat`) and in routing fees (`feeMsat`), over every send. */
    sentOf(paymentHash: string): { amountMsat: number; feeMsat: number } {
      const s = sent.get(paymentHash);
      return { amountMsat: s?.msat ?? 0, feeMsat: s?.feeMsat ?? 0 };
    },
    /** How many times the funding source sent money for this hash. */
    sends(paymentHash: string): number {
      return sent.get(paymentHash)?.times ?? 0;
    },
    /** Msat that really left the wallet to payees, over every hash (fees apart). */
    get totalSentMsat(): number {
      let total = 0;
      for (const s of sent.values()) total += s.msat;
      return total;
    },
    /** Routing fees the funding source paid, in total. */
    get routingFeesMsat(): number {
      return routingFeesMsat;
    },
    /**
     * The truth at the funding source for an outgoing payment, whatever LNbits recorded: "success" (money
     * left), "pending" (in flight: may still leave), "failed" (nothing left), null (it never received it).
     */
    sourceStatus(paymentHash: string): SourceStatus | null {
      return source.get(paymentHash)?.status ?? null;
    },
    /** Hashes of payments in flight at the funding source (for settleOutgoing/failOutgoing). */
    pendingOutgoing(): string[] {
      return [...source].filter(([, s]) => s.status === "pending").map(([hash]) => hash);
    },
    /** Someone pays our invoice: LNbits marks it settled and returns the bytes it posts to its webhook. */
    settleIncoming(paymentHash: string): string {
      const payment = payments.get(paymentHash);
      if (!payment) throw new Error(`fake LNbits: no invoice ${paymentHash}`);
      Object.assign(payment, { status: "success", preimage: preimages.get(paymentHash) ?? null, updated_at: iso() });
      return webhookBytes(payment);
    },
    /**
     * A payment in flight settles at the funding source: the money leaves. LNbits' record follows when it
     * next checks (a look-up of a pending record; a re-POST of a failed one), as LNbits does.
     */
    settleOutgoing(paymentHash: string) {
      const s = source.get(paymentHash);
      if (!s || s.status !== "pending") throw new Error(`fake LNbits: no payment in flight for ${paymentHash}`);
      s.status = "success";
      s.preimage = "cd".repeat(32);
      send(paymentHash, s.amountMsat);
    },
    /** A payment in flight fails at the funding source (the HTLC comes back): nothing left. */
    failOutgoing(paymentHash: string) {
      const s = source.get(paymentHash);
      if (!s || s.status !== "pending") throw new Error(`fake LNbits: no payment in flight for ${paymentHash}`);
      s.status = "failed";
    },
  };
}

/** The body LNbits posts to a payment's webhook: httpx `json=payment.json()`, a JSON string holding the record. */
export function webhookBytes(payment: Record<string, unknown>): string {
  return JSON.stringify(pythonJsonDumps(payment));
}
