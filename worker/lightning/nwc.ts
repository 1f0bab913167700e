// The `nwc` backend: any Nostr Wallet Connect wallet (NIP-47) from NWC_URL
// (`nostr+walletconnect://<wallet pubkey>?relay=wss://...&secret=<hex>`).
//
// A request is a kind-23194 event to the wallet, its content {method, params} encrypted (NIP-04 as
// in NIP-47's first version, or NIP-44 v2 with an ["encryption", "nip44_v2"] tag); the answer is a
// kind-23195 event from the wallet naming our request in an `e` tag, {result_type, error, result}.
// We check the answer's signature, author and `e` tag ourselves, whatever the relay does.
//
// Payments (see backend.ts): `failed` only when the wallet refused before trying (insufficient
// balance, quota, restricted, unauthorized, rate limited, not implemented, unsupported encryption)
// or when nothing was sent (the relay could not be reached, or refused the request with OK false: see
// relayTransport for what counts as sent). PAYMENT_FAILED
// is `unknown`: NIP-47 says it "may be due to a timeout". So are INTERNAL, OTHER, silence and any
// answer we cannot verify. A success must carry a preimage that hashes to the invoice's payment hash.
// NIP-47 has no per-payment fee limit: the wallet's own settings bound routing fees.
import { AbstractRelay } from "nostr-tools/abstract-relay";
import { matchFilter, type Filter } from "nostr-tools/filter";
import * as nip04 from "nostr-tools/nip04";
import * as nip44 from "nostr-tools/nip44";
import { finalizeEvent, getPublicKey, verifyEvent, type Event, type VerifiedEvent } from "nostr-tools/pure";
import { z } from "zod";
import { INVOICE_EXPIRY_GRACE_MS, LightningError, type CreatedInvoice, type InvoiceLookup, type LightningBackend, type PaymentLookup, type PayResult, type WalletCheck } from "./backend";
import { InvalidInvoiceError, decodeInvoice, fitDescription, hexToBytes, sha256Hex, invoiceToPay } from "./invoice";

export const NWC_REQUEST_KIND = 23194;
export const NWC_RESPONSE_KIND = 23195;
/** The wallet service's info event (replaceable): the methods it serves, the encryption it speaks. */
export const NWC_INFO_KIND = 13194;

export interface NwcConnection {
  walletPubkey: string;
  relays: string[];
  /** Hex secret key of this client. */
  secret: string;
}

/** Parses NWC_URL; throws LightningError("configuration"). */
export function parseNwcUrl(value: string | undefined): NwcConnection {
  const bad = (why: string) => new LightningError(`NWC_URL ${why}`, "configuration");
  if (!value) throw bad("is not set");
  let url: URL;
  try {
    url = new URL(value.trim().replace(/^(nostr\+walletconnect|nostrwalletconnect):(\/\/)?/i, "https://"));
  } catch {
    throw bad("is not a nostr+walletconnect:// URL");
  }
  if (!/^(nostr\+walletconnect|nostrwalletconnect):/i.test(value.trim())) throw bad("is not a nostr+walletconnect:// URL");
  const walletPubkey = (url.hostname || url.pathname.replace(/^\/+/, "")).toLowerCase();
  const secret = (url.searchParams.get("secret") ?? "").toLowerCase();
  const relays = url.searchParams.getAll("relay");
  if (!/^[0-9a-f]{64}$/.test(walletPubkey)) throw bad("has no valid wallet public key");
  if (!/^[0-9a-f]{64}$/.test(secret)) throw bad("has no valid secret");
  if (relays.length === 0 || relays.some((r) => !/^wss?:\/\//i.test(r))) throw bad("needs at least one ws(s):// relay");
  return { walletPubkey, relays, secret };
}

/** Thrown by a transport; `sent` says whether the request may have reached the relay. */
export class NwcTransportError extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
    this.name = "NwcTransportError";
  }
}

/**
 * Carries one request: publish `event` to the relay and resolve with the first event the relay
 * delivers for `filter`, or throw NwcTransportError (sent=false when the request surely never left).
 */
export interface NwcTransport {
  request(relayUrl: string, event: VerifiedEvent, filter: Filter, timeoutMs: number): Promise<Event>;
  /** The newest stored event matching `filter` (the wallet's info event), or null; optional for test transports. */
  latest?(relayUrl: string, filter: Filter, timeoutMs: number): Promise<Event | null>;
}

/** A WebSocket's readyState while open (the same number in every implementation). */
const WEBSOCKET_OPEN = 1;

/**
 * The real transport: a WebSocket to the relay. `latest` goes through nostr-tools' relay client; `request`
 * speaks NIP-01 itself, so that it sees every frame and knows whether the request may have left.
 *
 * A failed request was not sent (sent=false) only when
 * - the socket never opened (refused, failed, timed out), or closed or failed before the EVENT frame was
 *   handed to it: nothing was written; or
 * - the relay refused the request explicitly: ["OK", <id>, false, <reason>] (but "duplicate:": the relay
 *   already has this very event, so it went out before).
 * Everything else once the EVENT frame was handed to the open socket may have reached the wallet
 * (sent=true, unknown): the socket closing or failing before an answer, with or without the relay's OK true,
 * the relay closing the subscription the answer would come on, an error from send itself, and silence until
 * the time-out.
 */
export function relayTransport(webSocket?: typeof WebSocket): NwcTransport {
  return {
    async latest(relayUrl, filter, timeoutMs) {
      const relay = new AbstractRelay(relayUrl, { verifyEvent, websocketImplementation: webSocket ?? globalThis.WebSocket, enablePing: false, enableReconnect: false });
      await relay.connect({ timeout: Math.min(timeoutMs, 10_000) });
      try {
        return await new Promise<Event | null>((resolve) => {
          let newest: Event | null = null;
          const timer = setTimeout(() => resolve(newest), timeoutMs);
          relay.subscribe([filter], {
            onevent: (event) => {
              if (!newest || event.created_at > newest.created_at) newest = event;
            },
            oneose: () => {
              clearTimeout(timer);
              resolve(newest);
            },
            eoseTimeout: timeoutMs,
          });
        });
      } finally {
        relay.close();
      }
    },
    request(relayUrl, event, filter, timeoutMs) {
      const WebSocketImpl = webSocket ?? globalThis.WebSocket;
      const subscriptionId = `nwc:${event.id.slice(0, 16)}`;
      return new Promise<Event>((resolve, reject) => {
        let ws: WebSocket | undefined;
        /** The EVENT frame was handed to the open socket: from here on the request may have left. */
        let written = false;
        /** The relay answered OK true (or "duplicate:"): it took the request. */
        let accepted = false;
        /** The relay closed the subscription the answer would come on (CLOSED): only its OK may still say more. */
        let subscriptionClosed = false;
        let done = false;
        let timer: ReturnType<typeof setTimeout> | undefined;

        const finish = (outcome: { answer: Event } | { error: NwcTransportError }) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          try {
            ws?.close();
          } catch {
            // Closing is courtesy; the outcome stands.
          }
          if ("answer" in outcome) resolve(outcome.answer);
          else reject(outcome.error);
        };
        const fail = (message: string, sent: boolean) => finish({ error: new NwcTransportError(message, sent) });
        const notConnected = (why: string) => fail(`could not connect to ${relayUrl} (${why})`, false);
        /** The socket closed or failed: nothing was sent unless the EVENT frame had been handed to it. */
        const lost = (what: string) => {
          if (!written) notConnected(what);
          else fail(`the connection to ${relayUrl} ${what} before the wallet answered; the request may have reached it`, true);
        };

        timer = setTimeout(() => notConnected("connection timed out"), Math.min(timeoutMs, 10_000));
        try {
          ws = new WebSocketImpl(relayUrl);
        } catch (err) {
          notConnected(errorText(err));
          return;
        }
        const socket = ws;
        socket.addEventListener("error", () => lost("failed"));
        socket.addEventListener("close", (e) => lost(`closed${e.code ? ` (${e.code}${e.reason ? ` ${e.reason.slice(0, 100)}` : ""})` : ""}`));
        socket.addEventListener("open", () => {
          if (done) return;
          clearTimeout(timer);
          if (socket.readyState !== WEBSOCKET_OPEN) return notConnected("closed while opening");
          try {
            // The subscription for the answer first: the relay handles frames in order, so no answer is missed.
            socket.send(JSON.stringify(["REQ", subscriptionId, filter]));
          } catch (err) {
            return notConnected(`could not subscribe: ${errorText(err)}`);
          }
          written = true;
          timer = setTimeout(() => fail(accepted ? "the wallet did not answer in time" : `neither ${relayUrl} nor the wallet answered in time`, true), timeoutMs);
          try {
            socket.send(JSON.stringify(["EVENT", event]));
          } catch (err) {
            // On an open socket a send error does not prove that nothing left.
            fail(`sending the request to ${relayUrl} failed (${errorText(err)}); it may have left`, true);
          }
        });
        socket.addEventListener("message", (message) => {
          if (done) return;
          const frame = parseFrame(message.data);
          if (!frame) return;
          if (frame[0] === "EVENT" && frame[1] === subscriptionId) {
            const answer = frame[2] as Event;
            if (isAnswerFor(answer, filter)) finish({ answer });
          } else if (frame[0] === "OK" && frame[1] === event.id) {
            const reason = typeof frame[3] === "string" ? frame[3].slice(0, 200) : "";
            const duplicate = /^duplicate:/i.test(reason);
            if (frame[2] === false && !duplicate) return fail(`${relayUrl} refused the request (${reason || "no reason given"})`, false);
            // Anything but true, false or "duplicate:" is no answer at all: keep waiting.
            if (frame[2] !== true && !duplicate) return;
            accepted = true;
            if (subscriptionClosed) fail(`${relayUrl} took the request but closed the subscription for the answer`, true);
          } else if (frame[0] === "CLOSED" && frame[1] === subscriptionId) {
            subscriptionClosed = true;
            const reason = typeof frame[2] === "string" ? frame[2].slice(0, 200) : "";
            // No answer can come now. Until the relay's OK, the request may still turn out refused.
            if (accepted) fail(`${relayUrl} closed the subscription for the answer (${reason || "no reason given"}); the request may have reached the wallet`, true);
          }
        });
      });
    },
  };
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);

/** A relay's frame (a JSON array), or null. */
function parseFrame(data: unknown): unknown[] | null {
  let text: string;
  if (typeof data === "string") text = data;
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) text = new TextDecoder().decode(data);
  else return null;
  try {
    const frame: unknown = JSON.parse(text);
    return Array.isArray(frame) ? frame : null;
  } catch {
    return null;
  }
}

/** A signed event the relay delivered on our subscription that matches it (a relay may send anything). */
function isAnswerFor(candidate: Event, filter: Filter): boolean {
  try {
    return typeof candidate === "object" && candidate !== null && matchFilter(filter, candidate) && verifyEvent(candidate);
  } catch {
    return false;
  }
}

export type NwcEncryption = "nip04" | "nip44_v2";

const WALLET_CHECK_TTL_MS = 5 * 60_000;
/** Each wallet's last check, per isolate (checkWallet). */
const WALLET_CHECKS = new Map<string, WalletCheck>();

/** What each wallet's info event offered, per isolate: a backend is made per request, the wallet stays. */
const ADVERTISED_ENCRYPTION = new Map<string, NwcEncryption>();

export interface NwcOptions {
  /** NWC_URL */
  url: string;
  transport: NwcTransport;
  encryption?: NwcEncryption;
  /** make_invoice and lookup_invoice. Default 15 s. */
  timeoutMs?: number;
  /** pay_invoice. Default 60 s. */
  payTimeoutMs?: number;
  now?: () => number;
}

const answerSchema = z.object({
  result_type: z.string(),
  error: z.object({ code: z.string(), message: z.string().optional() }).nullish(),
  result: z.record(z.string(), z.unknown()).nullish(),
});

const transactionSchema = z.object({
  type: z.string().optional(),
  state: z.string().optional(),
  invoice: z.string().optional(),
  payment_hash: z.string().optional(),
  preimage: z.string().nullish(),
  amount: z.number().optional(),
  fees_paid: z.number().optional(),
  expires_at: z.number().nullish(),
  settled_at: z.number().nullish(),
});

const payResultSchema = z.object({ preimage: z.string(), fees_paid: z.number().optional() });

/** Error codes by which the wallet refuses a payment before trying it. */
const REFUSED_BEFORE_PAYING = new Set(["RATE_LIMITED", "NOT_IMPLEMENTED", "INSUFFICIENT_BALANCE", "QUOTA_EXCEEDED", "RESTRICTED", "UNAUTHORIZED", "UNSUPPORTED_ENCRYPTION"]);

type Answer = { ok: true; result: Record<string, unknown> } | { ok: false; code: string; message: string };

/** The wallet's answer could not be trusted or read: for a payment that is `unknown`. */
class UnverifiedAnswer extends Error {}

const msatToSats = (msat: number) => Math.ceil(Math.abs(msat) / 1000);

export class NwcBackend implements LightningBackend {
  readonly kind = "nwc" as const;
  private readonly connection: NwcConnection;
  private readonly secretKey: Uint8Array;
  private readonly clientPubkey: string;
  private readonly now: () => number;

  constructor(private readonly options: NwcOptions) {
    this.connection = parseNwcUrl(options.url);
    this.secretKey = hexToBytes(this.connection.secret);
    this.clientPubkey = getPublicKey(this.secretKey);
    this.now = options.now ?? Date.now;
  }

  /**
   * The encryption to use: NWC_URL's owner may fix it (options.encryption); else what the wallet advertises in
   * its info event (kind 13194, `encryption` tag): NIP-44 v2 when offered, else NIP-04 (NIP-47's default, and
   * what a wallet whose info event names none speaks). Learnt once; a failed look-up is asked again next time.
   */
  private async encryptionToUse(): Promise<NwcEncryption> {
    if (this.options.encryption) return this.options.encryption;
    const known = ADVERTISED_ENCRYPTION.get(this.connection.walletPubkey);
    if (known) return known;
    const transport = this.options.transport;
    if (!transport.latest) return "nip04";
    for (const relay of this.connection.relays) {
      try {
        const info = await transport.latest(relay, { kinds: [NWC_INFO_KIND], authors: [this.connection.walletPubkey], limit: 1 }, this.options.timeoutMs ?? 15_000);
        if (!info || info.pubkey !== this.connection.walletPubkey || info.kind !== NWC_INFO_KIND || !verifyEvent(info)) continue;
        const offered = (info.tags.find((t) => t[0] === "encryption")?.[1] ?? "").split(/\s+/);
        const chosen: NwcEncryption = offered.includes("nip44_v2") ? "nip44_v2" : "nip04";
        ADVERTISED_ENCRYPTION.set(this.connection.walletPubkey, chosen);
        return chosen;
      } catch {
        // Try the next relay; without an answer, NIP-04 for now.
      }
    }
    return "nip04";
  }

  private encrypt(plaintext: string, encryption: NwcEncryption): string {
    if (encryption === "nip44_v2") {
      return nip44.encrypt(plaintext, nip44.getConversationKey(this.secretKey, this.connection.walletPubkey));
    }
    return nip04.encrypt(this.secretKey, this.connection.walletPubkey, plaintext);
  }

  private decrypt(ciphertext: string): string {
    // NIP-04 payloads carry "?iv="; anything else is NIP-44.
    if (ciphertext.includes("?iv=")) return nip04.decrypt(this.secretKey, this.connection.walletPubkey, ciphertext);
    return nip44.decrypt(ciphertext, nip44.getConversationKey(this.secretKey, this.connection.walletPubkey));
  }

  /** The signed request event for `method`; exposed for tests of the wire format. */
  buildRequest(method: string, params: Record<string, unknown>, expiresInSec?: number, encryption: NwcEncryption = this.options.encryption ?? "nip04"): VerifiedEvent {
    const createdAt = Math.floor(this.now() / 1000);
    const tags = [["p", this.connection.walletPubkey]];
    if (encryption === "nip44_v2") tags.push(["encryption", "nip44_v2"]);
    if (expiresInSec !== undefined) tags.push(["expiration", String(createdAt + expiresInSec)]);
    return finalizeEvent({ kind: NWC_REQUEST_KIND, created_at: createdAt, tags, content: this.encrypt(JSON.stringify({ method, params }), encryption) }, this.secretKey);
  }

  /**
   * One NIP-47 call, over the first relay that takes it. Throws NwcTransportError (nothing or no answer came back)
   * or UnverifiedAnswer (something came back that is not a valid answer to this request).
   */
  private async rpc(method: string, params: Record<string, unknown>, timeoutMs: number, expiresInSec?: number): Promise<Answer> {
    const request = this.buildRequest(method, params, expiresInSec, await this.encryptionToUse());
    const filter: Filter = { kinds: [NWC_RESPONSE_KIND], authors: [this.connection.walletPubkey], "#e": [request.id], "#p": [this.clientPubkey] };
    let event: Event | undefined;
    for (const [i, relay] of this.connection.relays.entries()) {
      try {
        event = await this.options.transport.request(relay, request, filter, timeoutMs);
        break;
      } catch (err) {
        // Only a request that surely never left may go to the next relay.
        if (!(err instanceof NwcTransportError) || err.sent || i === this.connection.relays.length - 1) throw err;
      }
    }
    if (
      !event ||
      event.kind !== NWC_RESPONSE_KIND ||
      event.pubkey !== this.connection.walletPubkey ||
      !event.tags.some((t) => t[0] === "e" && t[1] === request.id) ||
      !verifyEvent(event)
    ) {
      throw new UnverifiedAnswer("the answer is not a signed reply of the wallet to this request");
    }
    let parsed;
    try {
      parsed = answerSchema.safeParse(JSON.parse(this.decrypt(event.content)));
    } catch {
      throw new UnverifiedAnswer("the wallet's answer could not be decrypted");
    }
    if (!parsed.success || parsed.data.result_type !== method) throw new UnverifiedAnswer("the wallet's answer is not readable");
    if (parsed.data.error) return { ok: false, code: parsed.data.error.code, message: (parsed.data.error.message ?? "").slice(0, 200) };
    if (!parsed.data.result) throw new UnverifiedAnswer("the wallet answered without a result");
    return { ok: true, result: parsed.data.result };
  }

  /** rpc for calls that move no money: every problem is a LightningError. */
  private async query(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    let answer: Answer;
    try {
      answer = await this.rpc(method, params, this.options.timeoutMs ?? 15_000);
    } catch (err) {
      throw new LightningError(`NWC ${method}: ${err instanceof Error ? err.message : "no answer"}`, err instanceof UnverifiedAnswer ? "bad_response" : "unavailable");
    }
    if (!answer.ok) {
      throw new LightningError(`NWC ${method}: ${answer.code} ${answer.message}`.trim(), answer.code === "NOT_FOUND" ? "not_found" : "rejected");
    }
    return answer.result;
  }

  async createInvoice(amountSats: number, memo: string, expirySec: number): Promise<CreatedInvoice> {
    if (!Number.isSafeInteger(amountSats) || amountSats < 1) throw new RangeError(`amountSats must be a positive integer, got ${amountSats}`);
    const result = transactionSchema.safeParse(await this.query("make_invoice", { amount: amountSats * 1000, description: fitDescription(memo), expiry: expirySec }));
    if (!result.success || !result.data.invoice) throw new LightningError("NWC make_invoice: the wallet returned no invoice", "bad_response");
    let decoded;
    try {
      decoded = decodeInvoice(result.data.invoice);
    } catch (err) {
      throw new LightningError(`NWC make_invoice: invalid invoice (${err instanceof InvalidInvoiceError ? err.message : "unreadable"})`, "bad_response");
    }
    if (decoded.amountMsat !== amountSats * 1000 || (result.data.payment_hash && result.data.payment_hash !== decoded.paymentHash)) {
      throw new LightningError("NWC make_invoice: the wallet returned an invoice for another amount or payment hash", "bad_response");
    }
    return { bolt11: decoded.bolt11, paymentHash: decoded.paymentHash, expiresAt: new Date(decoded.expiresAtMs).toISOString() };
  }

  async lookupInvoice(paymentHash: string): Promise<InvoiceLookup> {
    const parsed = transactionSchema.safeParse(await this.query("lookup_invoice", { payment_hash: paymentHash }));
    if (!parsed.success) throw new LightningError("NWC lookup_invoice: unreadable answer", "bad_response");
    const tx = parsed.data;
    const amountSats = tx.amount === undefined ? undefined : Math.floor(tx.amount / 1000);
    if (tx.state === "settled" || (tx.state === undefined && tx.settled_at)) {
      return { status: "paid", amountSats, paidAt: tx.settled_at ? new Date(tx.settled_at * 1000).toISOString() : undefined };
    }
    if (tx.state === "expired" || tx.state === "failed") return { status: "expired", amountSats };
    if (tx.expires_at && this.now() > tx.expires_at * 1000 + INVOICE_EXPIRY_GRACE_MS) return { status: "expired", amountSats };
    return { status: "pending", amountSats };
  }

  async payInvoice(bolt11: string, _maxFeeSats: number): Promise<PayResult> {
    const decoded = invoiceToPay(bolt11);
    if ("status" in decoded) return decoded;
    const timeoutMs = this.options.payTimeoutMs ?? 60_000;
    let answer: Answer;
    try {
      // A request the wallet receives after we stopped waiting must not be carried out: it expires.
      answer = await this.rpc("pay_invoice", { invoice: decoded.bolt11 }, timeoutMs, Math.ceil(timeoutMs / 1000) + 30);
    } catch (err) {
      if (err instanceof NwcTransportError && !err.sent) return { status: "failed", reason: `nothing was sent: ${err.message}` };
      return { status: "unknown", reason: err instanceof Error ? err.message : "no answer from the wallet" };
    }
    if (!answer.ok) {
      const reason = `${answer.code}${answer.message ? `: ${answer.message}` : ""}`;
      return REFUSED_BEFORE_PAYING.has(answer.code) ? { status: "failed", reason } : { status: "unknown", reason };
    }
    const paid = payResultSchema.safeParse(answer.result);
    if (!paid.success || !(await this.isPreimageOf(paid.data.preimage, decoded.paymentHash))) {
      return { status: "unknown", reason: "the wallet reported success without a valid preimage" };
    }
    return { status: "succeeded", preimage: paid.data.preimage.toLowerCase(), feeSats: paid.data.fees_paid === undefined ? 0 : msatToSats(paid.data.fees_paid) };
  }

  /**
   * Money Health's wallet check: get_info, and whether the connection may pay (`pay_invoice` among its
   * methods); get_balance when offered. Remembered for 5 minutes per wallet and isolate, failures not.
   */
  async checkWallet(): Promise<WalletCheck> {
    const known = WALLET_CHECKS.get(this.connection.walletPubkey);
    if (known && this.now() - Date.parse(known.checkedAt) < WALLET_CHECK_TTL_MS) return known;
    const checkedAt = new Date(this.now()).toISOString();
    let info: Record<string, unknown>;
    try {
      info = await this.query("get_info", {});
    } catch (err) {
      return { ok: false, checkedAt, problem: `The NWC wallet did not answer get_info: ${err instanceof Error ? err.message : "no answer"}` };
    }
    const methods = Array.isArray(info.methods) ? info.methods.filter((m): m is string => typeof m === "string") : [];
    const check: WalletCheck = methods.includes("pay_invoice")
      ? { ok: true, checkedAt }
      : { ok: false, checkedAt, problem: `This NWC connection may not pay: its methods are ${methods.join(", ") || "none"}, without pay_invoice. Make a connection that may pay and set NWC_URL to it.` };
    if (check.ok && methods.includes("get_balance")) {
      try {
        const balance = await this.query("get_balance", {});
        if (typeof balance.balance === "number") check.balanceSats = msatToSats(balance.balance);
      } catch {
        // The balance is only shown; the check stands without it.
      }
    }
    if (!check.ok) console.error(`NWC wallet check failed: ${check.problem}`);
    WALLET_CHECKS.set(this.connection.walletPubkey, check);
    return check;
  }

  async lookupPayment(paymentHash: string): Promise<PaymentLookup> {
    let answer: Answer;
    try {
      answer = await this.rpc("lookup_invoice", { payment_hash: paymentHash }, this.options.timeoutMs ?? 15_000);
    } catch (err) {
      return { status: "unknown", reason: err instanceof Error ? err.message : "no answer from the wallet" };
    }
    if (!answer.ok) {
      if (answer.code === "NOT_FOUND") return this.listedPayment(paymentHash);
      return { status: "unknown", reason: `${answer.code}${answer.message ? `: ${answer.message}` : ""}` };
    }
    const parsed = transactionSchema.safeParse(answer.result);
    if (!parsed.success) return { status: "unknown", reason: "unreadable answer" };
    return this.outcomeOf(parsed.data, paymentHash);
  }

  /**
   * lookup_invoice did not find the payment: some wallets only list outgoing payments. The wallet's list of
   * recent outgoing payments (list_transactions) is read, and a payment it lists counts as the wallet's word;
   * one it does not list stays "not found" (never failed: it may still be in flight).
   */
  private async listedPayment(paymentHash: string): Promise<PaymentLookup> {
    const notFound: PaymentLookup = { status: "unknown", reason: "the wallet has no payment with this hash", notFound: true };
    let answer: Answer;
    try {
      answer = await this.rpc("list_transactions", { type: "outgoing", limit: 100 }, this.options.timeoutMs ?? 15_000);
    } catch {
      return notFound;
    }
    if (!answer.ok) return notFound;
    const list = z.object({ transactions: z.array(z.unknown()) }).safeParse(answer.result);
    if (!list.success) return notFound;
    for (const item of list.data.transactions) {
      const tx = transactionSchema.safeParse(item);
      if (tx.success && tx.data.payment_hash?.toLowerCase() === paymentHash && tx.data.type !== "incoming") return this.outcomeOf(tx.data, paymentHash);
    }
    return notFound;
  }

  /** What one outgoing transaction of the wallet says about our payment. */
  private async outcomeOf(tx: z.infer<typeof transactionSchema>, paymentHash: string): Promise<PaymentLookup> {
    if (tx.type === "incoming") return { status: "unknown", reason: "the wallet knows this hash as an incoming invoice, not a payment" };
    if (tx.state === "failed") return { status: "failed", reason: "the wallet says the payment failed" };
    if (tx.state === "settled" || (tx.state === undefined && tx.settled_at)) {
      if (!tx.preimage || !(await this.isPreimageOf(tx.preimage, paymentHash))) return { status: "unknown", reason: "settled without a valid preimage" };
      return { status: "succeeded", preimage: tx.preimage.toLowerCase(), feeSats: tx.fees_paid === undefined ? 0 : msatToSats(tx.fees_paid) };
    }
    return { status: "pending" };
  }

  private async isPreimageOf(preimage: string, paymentHash: string): Promise<boolean> {
    if (!/^[0-9a-fA-F]{64}$/.test(preimage)) return false;
    return (await sha256Hex(hexToBytes(preimage))) === paymentHash;
  }
}
