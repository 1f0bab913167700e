// The `dev` Lightning backend (DESIGN.md §5): a simulated node inside the Worker, for `npm start`
// and tests. It issues real BOLT11 invoices signed with a fixed dev node key, on regtest (`lnbcrt`)
// so that no mainnet wallet will ever pay one. It "pays" by recording: an invoice of its own that
// was issued for `name@wallet.test` is received in process (receivedBy(name) tells how much each
// name got); any other invoice is recorded as paid (simulated) and nothing leaves the machine.
//
// It keeps its invoices and payments behind DevWalletStore, which the app backs with D1 and tests
// with MemoryDevWalletStore. The store's two writes are compare-and-set, so paying or marking
// paid twice (a retry, two racing requests) never records a second payment.
import { LightningError, type CreatedInvoice, type InvoiceLookup, type LightningBackend, type PaymentLookup, type PayResult } from "./backend";
import { InvalidInvoiceError, bytesToHex, decodeInvoice, fitDescription, randomBytes, sha256Hex, invoiceToPay } from "./invoice";
import { encodeSignedInvoice, recoverInvoiceNodeKey } from "./invoice-encoder";
import type { FetchLike } from "./lnurl";

/**
 * The dev node's private key: sha256("gigstr dev node key"). Public on purpose; it signs regtest
 * invoices of a simulated node and nothing else.
 */
export const DEV_NODE_PRIVATE_KEY = "69c80b9feb3ad36e79b2c370755e68cab21196967c8930ace342bbccb60cc9b5";
export const DEV_NODE_PUBKEY = "03e6336b1d09c2347610e7856fe905e0fe1a516c690e4d2bc65d4e58a9e9251be5";
/** Lightning addresses `name@wallet.test` are received by the dev wallet itself. */
export const DEV_WALLET_DOMAIN = "wallet.test";
/** What a `name@wallet.test` payRequest accepts: 1 sat to 10,000,000 sats (above any refund). */
const DEV_MIN_SENDABLE_MSAT = 1_000;
const DEV_MAX_SENDABLE_MSAT = 10_000_000_000;
const DEV_LNURL_INVOICE_EXPIRY_SEC = 600;

export interface DevInvoiceRecord {
  paymentHash: string;
  bolt11: string;
  /** Hex; the dev wallet knows the preimage of every invoice it issued. */
  preimage: string;
  amountMsat: number;
  memo: string | null;
  descriptionHash: string | null;
  /** The `name` of `name@wallet.test` the invoice was issued for; null for the platform's own invoices. */
  recipient: string | null;
  status: "pending" | "paid";
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
}

export interface DevPaymentRecord {
  paymentHash: string;
  bolt11: string;
  amountMsat: number;
  feeSats: number;
  preimage: string;
  /** internal: to one of the dev wallet's own `name@wallet.test` invoices; external: any other invoice (simulated). */
  destination: "internal" | "external";
  recipient: string | null;
  createdAt: string;
}

/** Where the dev wallet keeps its books. Implement over D1 with the two writes as compare-and-set. */
export interface DevWalletStore {
  insertInvoice(invoice: DevInvoiceRecord): Promise<void>;
  getInvoice(paymentHash: string): Promise<DevInvoiceRecord | null>;
  /** pending → paid (UPDATE ... WHERE status = 'pending'); true only for the call that changed it. */
  markInvoicePaid(paymentHash: string, paidAt: string): Promise<boolean>;
  /** INSERT unless a payment with this hash exists (ON CONFLICT DO NOTHING); true when inserted. */
  insertPayment(payment: DevPaymentRecord): Promise<boolean>;
  getPayment(paymentHash: string): Promise<DevPaymentRecord | null>;
  /** Paid invoices that were issued for `name@wallet.test`. */
  listPaidInvoicesFor(recipient: string): Promise<DevInvoiceRecord[]>;
}

export class MemoryDevWalletStore implements DevWalletStore {
  readonly invoices = new Map<string, DevInvoiceRecord>();
  readonly payments = new Map<string, DevPaymentRecord>();

  async insertInvoice(invoice: DevInvoiceRecord) {
    if (this.invoices.has(invoice.paymentHash)) throw new Error("duplicate payment hash");
    this.invoices.set(invoice.paymentHash, { ...invoice });
  }
  async getInvoice(paymentHash: string) {
    const found = this.invoices.get(paymentHash);
    return found ? { ...found } : null;
  }
  async markInvoicePaid(paymentHash: string, paidAt: string) {
    const found = this.invoices.get(paymentHash);
    if (!found || found.status !== "pending") return false;
    this.invoices.set(paymentHash, { ...found, status: "paid", paidAt });
    return true;
  }
  async insertPayment(payment: DevPaymentRecord) {
    if (this.payments.has(payment.paymentHash)) return false;
    this.payments.set(payment.paymentHash, { ...payment });
    return true;
  }
  async getPayment(paymentHash: string) {
    const found = this.payments.get(paymentHash);
    return found ? { ...found } : null;
  }
  async listPaidInvoicesFor(recipient: string) {
    return [...this.invoices.values()].filter((i) => i.recipient === recipient && i.status === "paid").map((i) => ({ ...i }));
  }
}

/** What a test can make the next payment do, to exercise the payout service's failure paths. */
export type DevPayFault =
  /** The backend refuses explicitly: nothing is paid. */
  | "fail"
  /** The answer is lost before anything is paid (a time-out at the door). */
  | "unknown_before_paying"
  /** The payment goes through but the answer is lost (the case that must never lead to paying twice). */
  | "unknown_after_paying";

export interface DevWalletOptions {
  now?: () => number;
  /** Routing fee the simulated network charges for an external payment (default 0). */
  externalFeeSats?: number;
  faults?: (payment: { paymentHash: string; amountMsat: number; recipient: string | null }) => DevPayFault | null | undefined;
}

export type DevWalletErrorCode = "invalid_invoice" | "unknown_invoice" | "expired" | "invalid_request";

/** payDevInvoice and the in-process LNURL endpoints refuse with this; routes map it to 400/404/409. */
export class DevWalletError extends Error {
  constructor(
    readonly code: DevWalletErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DevWalletError";
  }
}

const ADDRESS_NAME = /^[a-z0-9._+-]{1,64}$/;

export class DevWallet implements LightningBackend {
  readonly kind = "dev" as const;
  private readonly now: () => number;

  constructor(
    private readonly store: DevWalletStore,
    private readonly options: DevWalletOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  // ------------------------------------------------------------ LightningBackend

  async createInvoice(amountSats: number, memo: string, expirySec: number): Promise<CreatedInvoice> {
    if (!Number.isSafeInteger(amountSats) || amountSats < 1) throw new RangeError(`amountSats must be a positive integer, got ${amountSats}`);
    const record = await this.issueInvoice({ amountMsat: amountSats * 1000, memo, expirySec, recipient: null });
    return { bolt11: record.bolt11, paymentHash: record.paymentHash, expiresAt: record.expiresAt };
  }

  async lookupInvoice(paymentHash: string): Promise<InvoiceLookup> {
    const inv = await this.store.getInvoice(paymentHash);
    if (!inv) throw new LightningError("the dev wallet issued no invoice with this payment hash", "not_found");
    const amountSats = Math.floor(inv.amountMsat / 1000);
    if (inv.status === "paid") return { status: "paid", amountSats, paidAt: inv.paidAt ?? undefined };
    if (this.now() > Date.parse(inv.expiresAt)) return { status: "expired", amountSats };
    return { status: "pending", amountSats };
  }

  async payInvoice(bolt11: string, maxFeeSats: number): Promise<PayResult> {
    const decoded = invoiceToPay(bolt11);
    if ("status" in decoded) return decoded;
    const { paymentHash, amountMsat } = decoded;
    const previous = await this.store.getPayment(paymentHash);
    if (previous) return { status: "succeeded", preimage: previous.preimage, feeSats: previous.feeSats };
    if (!Number.isSafeInteger(maxFeeSats) || maxFeeSats < 0) return { status: "failed", reason: "invalid routing fee limit" };
    if (decoded.expiresAtMs <= this.now()) return { status: "failed", reason: "invoice expired" };

    const own = await this.store.getInvoice(paymentHash);
    if (own && own.recipient === null) return { status: "failed", reason: "the platform wallet does not pay its own invoices" };
    const fault = this.options.faults?.({ paymentHash, amountMsat, recipient: own?.recipient ?? null });
    if (fault === "fail") return { status: "failed", reason: "simulated failure: no route" };
    if (fault === "unknown_before_paying") return { status: "unknown", reason: "simulated time-out" };

    let result: PayResult;
    if (own) {
      // One of the dev wallet's own `name@wallet.test` invoices: received in process.
      if (!(await this.store.markInvoicePaid(paymentHash, new Date(this.now()).toISOString()))) {
        const raced = await this.store.getPayment(paymentHash);
        if (raced) return { status: "succeeded", preimage: raced.preimage, feeSats: raced.feeSats };
        return { status: "failed", reason: "invoice already paid" };
      }
      result = await this.recordPayment(decoded.bolt11, paymentHash, amountMsat, 0, own.preimage, "internal", own.recipient);
    } else {
      const fee = this.options.externalFeeSats ?? 0;
      if (fee > maxFeeSats) return { status: "failed", reason: `no route within ${maxFeeSats} sats of fees (the cheapest costs ${fee})`, feeOverCapSats: fee };
      // We cannot know an outside invoice's preimage: this one is made up, and says so by not hashing to the invoice.
      result = await this.recordPayment(decoded.bolt11, paymentHash, amountMsat, fee, bytesToHex(randomBytes(32)), "external", null);
    }
    if (fault === "unknown_after_paying") return { status: "unknown", reason: "simulated time-out after paying" };
    return result;
  }

  async lookupPayment(paymentHash: string): Promise<PaymentLookup> {
    const payment = await this.store.getPayment(paymentHash);
    if (!payment) return { status: "unknown", reason: "the dev wallet has no payment with this hash", notFound: true };
    return { status: "succeeded", preimage: payment.preimage, feeSats: payment.feeSats };
  }

  // ------------------------------------------------------------ dev only

  /**
   * An outside payer pays one of the dev wallet's invoices (POST /api/dev/invoices/pay, the
   * "Pay with dev wallet" button). Idempotent: paying a paid invoice again reports alreadyPaid.
   */
  async payDevInvoice(bolt11: string): Promise<{ paymentHash: string; amountSats: number; alreadyPaid: boolean }> {
    let decoded;
    try {
      decoded = decodeInvoice(bolt11);
    } catch (err) {
      throw new DevWalletError("invalid_invoice", err instanceof InvalidInvoiceError ? err.message : "invalid invoice");
    }
    const { paymentHash } = decoded;
    const inv = await this.store.getInvoice(paymentHash);
    if (!inv || inv.bolt11 !== decoded.bolt11) throw new DevWalletError("unknown_invoice", "this invoice was not issued by the dev wallet");
    const amountSats = Math.floor(inv.amountMsat / 1000);
    if (inv.status === "paid") return { paymentHash, amountSats, alreadyPaid: true };
    if (this.now() > Date.parse(inv.expiresAt)) throw new DevWalletError("expired", "this invoice has expired");
    const changed = await this.store.markInvoicePaid(paymentHash, new Date(this.now()).toISOString());
    return { paymentHash, amountSats, alreadyPaid: !changed };
  }

  /** Sats received by `name@wallet.test`, over all its paid invoices. */
  async receivedBy(name: string): Promise<number> {
    const invoices = await this.store.listPaidInvoicesFor(name.toLowerCase());
    return Math.floor(invoices.reduce((sum, i) => sum + i.amountMsat, 0) / 1000);
  }

  /** The LUD-06 metadata of `name@wallet.test`'s payRequest (its invoices' description hash is its SHA-256). */
  static metadataFor(name: string): string {
    const address = `${name}@${DEV_WALLET_DOMAIN}`;
    return JSON.stringify([
      ["text/plain", `Payment to ${address} (Gigstr dev wallet)`],
      ["text/identifier", address],
    ]);
  }

  /**
   * Answers LNURL-pay requests for `https://wallet.test/...` in process: the payRequest at
   * /.well-known/lnurlp/<name> and its callback /lnurlp/<name>/callback?amount=<msat>, which issues a
   * dev invoice for exactly that amount with the metadata's description hash.
   */
  async handleLnurlRequest(url: URL): Promise<Response> {
    const json = (body: unknown, status = 200) => Response.json(body, { status });
    const refuse = (reason: string, status = 400) => json({ status: "ERROR", reason }, status);
    const wellKnown = url.pathname.match(/^\/\.well-known\/lnurlp\/([^/]+)$/);
    const callback = url.pathname.match(/^\/lnurlp\/([^/]+)\/callback$/);
    const name = decodeURIComponent((wellKnown ?? callback)?.[1] ?? "").toLowerCase();
    if (!ADDRESS_NAME.test(name)) return refuse("not found", 404);
    const metadata = DevWallet.metadataFor(name);
    if (wellKnown) {
      return json({
        tag: "payRequest",
        callback: `https://${DEV_WALLET_DOMAIN}/lnurlp/${encodeURIComponent(name)}/callback`,
        minSendable: DEV_MIN_SENDABLE_MSAT,
        maxSendable: DEV_MAX_SENDABLE_MSAT,
        metadata,
        commentAllowed: 0,
      });
    }
    const amount = url.searchParams.get("amount") ?? "";
    const amountMsat = /^\d{1,16}$/.test(amount) ? Number(amount) : NaN;
    if (!(amountMsat >= DEV_MIN_SENDABLE_MSAT && amountMsat <= DEV_MAX_SENDABLE_MSAT)) return refuse("amount out of range");
    const record = await this.issueInvoice({
      amountMsat,
      descriptionHash: await sha256Hex(metadata),
      expirySec: DEV_LNURL_INVOICE_EXPIRY_SEC,
      recipient: name,
    });
    return json({ pr: record.bolt11, routes: [] });
  }

  private async issueInvoice(input: {
    amountMsat: number;
    memo?: string;
    descriptionHash?: string;
    expirySec: number;
    recipient: string | null;
  }): Promise<DevInvoiceRecord> {
    if (!Number.isSafeInteger(input.expirySec) || input.expirySec < 1) throw new RangeError(`expirySec must be a positive integer, got ${input.expirySec}`);
    const preimage = randomBytes(32);
    const paymentHash = await sha256Hex(preimage);
    const timestamp = Math.floor(this.now() / 1000);
    const memo = input.memo === undefined ? null : fitDescription(input.memo);
    const bolt11 = await encodeSignedInvoice(
      {
        network: "bcrt",
        amountMsat: input.amountMsat,
        timestamp,
        paymentHash,
        paymentSecret: bytesToHex(randomBytes(32)),
        ...(input.descriptionHash === undefined ? { description: memo ?? "" } : { descriptionHash: input.descriptionHash }),
        expirySec: input.expirySec,
      },
      DEV_NODE_PRIVATE_KEY,
    );
    const record: DevInvoiceRecord = {
      paymentHash,
      bolt11,
      preimage: bytesToHex(preimage),
      amountMsat: input.amountMsat,
      memo,
      descriptionHash: input.descriptionHash ?? null,
      recipient: input.recipient,
      status: "pending",
      createdAt: new Date(timestamp * 1000).toISOString(),
      expiresAt: new Date((timestamp + input.expirySec) * 1000).toISOString(),
      paidAt: null,
    };
    await this.store.insertInvoice(record);
    return record;
  }

  private async recordPayment(
    bolt11: string,
    paymentHash: string,
    amountMsat: number,
    feeSats: number,
    preimage: string,
    destination: DevPaymentRecord["destination"],
    recipient: string | null,
  ): Promise<PayResult> {
    const record: DevPaymentRecord = { paymentHash, bolt11, amountMsat, feeSats, preimage, destination, recipient, createdAt: new Date(this.now()).toISOString() };
    if (await this.store.insertPayment(record)) return { status: "succeeded", preimage, feeSats };
    const existing = await this.store.getPayment(paymentHash);
    return existing
      ? { status: "succeeded", preimage: existing.preimage, feeSats: existing.feeSats }
      : { status: "unknown", reason: "the dev wallet could not record the payment" };
  }
}

/**
 * A fetch for the LNURL client in which `https://wallet.test/...` is answered in process by the
 * dev wallet (no network); every other URL goes to `next`, or fails when there is none.
 */
export function devWalletLnurl(wallet: DevWallet, next?: FetchLike): FetchLike {
  return async (url, init) => {
    const u = new URL(url);
    if (u.hostname === DEV_WALLET_DOMAIN && u.protocol === "https:") return wallet.handleLnurlRequest(u);
    if (next) return next(url, init);
    throw new TypeError(`no network in the dev wallet: ${u.hostname}`);
  };
}

/** Verifies an invoice's signature and returns the node key it recovers (DEV_NODE_PUBKEY for dev invoices). */
export function recoverPayeeNodeKey(bolt11: string): Promise<string> {
  return recoverInvoiceNodeKey(bolt11);
}
