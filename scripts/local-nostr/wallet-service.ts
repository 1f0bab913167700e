// A Lightning wallet for local runs and tests, spoken to over Nostr Wallet Connect: the wallet side is
// @getalby/sdk's NWCWalletService (an independent NIP-47 implementation: decryption, NIP-04/NIP-44,
// response events), backed by a small simulated node that issues real BOLT11 invoices and keeps its
// invoices and payments in memory. Invoices it issued for a named recipient (`name@wallet.test`) are paid
// inside it, so payouts settle with real preimages; anything else has no route.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { NWCWalletService, NWCWalletServiceKeyPair, type Nip47PayResponse, type Nip47Transaction, type NWCWalletServiceResponse } from "@getalby/sdk/nwc";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { decodeInvoice, bytesToHex, hexToBytes, sha256Hex } from "../../worker/lightning/invoice";
import { encodeSignedInvoice } from "../../worker/lightning/invoice-encoder";
import { startRelay } from "./relay";

/** The simulated node's signing key (a fixed test key: these invoices never touch a real network). */
const NODE_KEY = "6c9a0fa4e0c54e8ad1e3bfa1c71e1f1b4fbd4d2b1a7f3c0a3e5b9d7c1f2e4a68";

export interface NodeInvoice {
  paymentHash: string;
  bolt11: string;
  preimage: string;
  amountMsat: number;
  description: string;
  createdAt: number;
  expiresAt: number;
  /** Who the money is for: null for the platform's own invoices (NWC make_invoice), else `name`. */
  recipient: string | null;
  settledAt: number | null;
}

export interface NodePayment {
  paymentHash: string;
  bolt11: string;
  amountMsat: number;
  feesMsat: number;
  preimage: string | null;
  state: "pending" | "settled" | "failed";
  createdAt: number;
  settledAt: number | null;
}

/**
 * What a test may make the wallet do to one payment (by payment hash), the cases that cost money elsewhere:
 * - `fail`: refuse it (PAYMENT_FAILED), nothing paid;
 * - `hold`: record it as pending and answer nothing until `release(hash)` settles it;
 * - `unknown_until_settled`: like hold, and look-ups answer NOT_FOUND meanwhile (a wallet that records
 *   an outgoing payment only once it resolves);
 * - `fees`: settle it charging this many msat in fees.
 */
export type PaymentScenario = { kind: "fail" } | { kind: "hold" } | { kind: "unknown_until_settled" } | { kind: "fees"; feesMsat: number };

export class SimulatedNode {
  readonly invoices = new Map<string, NodeInvoice>();
  readonly payments = new Map<string, NodePayment>();
  private readonly scenarios = new Map<string, PaymentScenario>();
  private readonly held = new Map<string, () => void>();
  /** Payments lookup_invoice answers NOT_FOUND for, though list_transactions lists them (some wallets). */
  readonly listedOnly = new Set<string>();
  /** Scenario for the next payments of any hash (a test that does not know the hash in advance). */
  nextPaymentScenario: PaymentScenario | null = null;

  constructor(readonly now: () => number = () => Date.now()) {}

  /** A new invoice; `description` may be `{ hash }` (LNURL-pay: the hash of the payRequest's metadata). */
  async issue(amountMsat: number, description: string | { hash: string }, expirySec: number, recipient: string | null): Promise<NodeInvoice> {
    const preimage = randomBytes(32);
    const paymentHash = await sha256Hex(preimage);
    const createdAt = Math.floor(this.now() / 1000);
    const bolt11 = await encodeSignedInvoice(
      {
        network: "bcrt",
        amountMsat,
        timestamp: createdAt,
        paymentHash,
        paymentSecret: bytesToHex(randomBytes(32)),
        ...(typeof description === "string" ? { description: description.slice(0, 600) } : { descriptionHash: description.hash }),
        expirySec,
      },
      NODE_KEY,
    );
    const invoice: NodeInvoice = {
      paymentHash,
      bolt11,
      preimage: bytesToHex(preimage),
      amountMsat,
      description: typeof description === "string" ? description : "",
      createdAt,
      expiresAt: createdAt + expirySec,
      recipient,
      settledAt: null,
    };
    this.invoices.set(paymentHash, invoice);
    return invoice;
  }

  /** Sats received by `recipient` through invoices this node issued for them. */
  receivedBy(recipient: string): number {
    let msat = 0;
    for (const inv of this.invoices.values()) if (inv.recipient === recipient && inv.settledAt !== null) msat += inv.amountMsat;
    return msat / 1000;
  }

  setScenario(paymentHash: string, scenario: PaymentScenario): void {
    this.scenarios.set(paymentHash, scenario);
  }

  /** Settles a held payment (the recipient's node let it through at last). */
  release(paymentHash: string): void {
    this.held.get(paymentHash)?.();
  }

  /** An outside payer pays one of this node's invoices (the platform's funding invoices). */
  payFromOutside(bolt11: string): NodeInvoice {
    const { paymentHash } = decodeInvoice(bolt11);
    const invoice = this.invoices.get(paymentHash);
    if (!invoice) throw new Error("this wallet did not issue that invoice");
    if (invoice.settledAt === null) invoice.settledAt = Math.floor(this.now() / 1000);
    return invoice;
  }

  /** The platform pays `bolt11` (NWC pay_invoice). */
  async pay(bolt11: string): Promise<NWCWalletServiceResponse<Nip47PayResponse>> {
    let decoded;
    try {
      decoded = decodeInvoice(bolt11);
    } catch {
      return failure("OTHER", "invalid invoice");
    }
    const existing = this.payments.get(decoded.paymentHash);
    if (existing?.state === "settled") return { result: { preimage: existing.preimage!, fees_paid: existing.feesMsat }, error: undefined };
    const scenario = this.scenarios.get(decoded.paymentHash) ?? this.nextPaymentScenario ?? undefined;
    if (scenario?.kind === "fail") return failure("PAYMENT_FAILED", "no route");
    const target = this.invoices.get(decoded.paymentHash);
    if (!target || target.recipient === null) return failure("PAYMENT_FAILED", "no route to this node");
    if (target.settledAt !== null) return failure("PAYMENT_FAILED", "invoice already paid");
    if (decoded.expiresAtMs <= this.now()) return failure("PAYMENT_FAILED", "invoice expired");
    const payment: NodePayment = {
      paymentHash: decoded.paymentHash,
      bolt11,
      amountMsat: target.amountMsat,
      feesMsat: scenario?.kind === "fees" ? scenario.feesMsat : 0,
      preimage: null,
      state: "pending",
      createdAt: Math.floor(this.now() / 1000),
      settledAt: null,
    };
    if (scenario?.kind !== "unknown_until_settled") this.payments.set(payment.paymentHash, payment);
    if (scenario?.kind === "hold" || scenario?.kind === "unknown_until_settled") {
      await new Promise<void>((resolve) => this.held.set(payment.paymentHash, resolve));
      this.payments.set(payment.paymentHash, payment);
    }
    target.settledAt = Math.floor(this.now() / 1000);
    payment.state = "settled";
    payment.settledAt = target.settledAt;
    payment.preimage = target.preimage;
    return { result: { preimage: payment.preimage, fees_paid: payment.feesMsat }, error: undefined };
  }

  /** NWC lookup_invoice: an outgoing payment or an incoming invoice by hash (or by invoice). */
  lookup(paymentHash: string): Nip47Transaction | null {
    const payment = this.payments.get(paymentHash);
    if (payment) {
      return {
        type: "outgoing",
        state: payment.state,
        invoice: payment.bolt11,
        description: "",
        description_hash: "",
        preimage: payment.preimage ?? "",
        payment_hash: payment.paymentHash,
        amount: payment.amountMsat,
        fees_paid: payment.feesMsat,
        settled_at: payment.settledAt ?? 0,
        created_at: payment.createdAt,
        expires_at: 0,
      } as Nip47Transaction;
    }
    const invoice = this.invoices.get(paymentHash);
    if (!invoice || invoice.recipient !== null) return null;
    const expired = invoice.settledAt === null && this.now() / 1000 > invoice.expiresAt;
    return {
      type: "incoming",
      state: invoice.settledAt !== null ? "settled" : expired ? "failed" : "pending",
      invoice: invoice.bolt11,
      description: invoice.description,
      description_hash: "",
      preimage: invoice.settledAt !== null ? invoice.preimage : "",
      payment_hash: invoice.paymentHash,
      amount: invoice.amountMsat,
      fees_paid: 0,
      settled_at: invoice.settledAt ?? 0,
      created_at: invoice.createdAt,
      expires_at: invoice.expiresAt,
    } as Nip47Transaction;
  }
}

function failure(code: string, message: string): NWCWalletServiceResponse<never> {
  return { result: undefined, error: { code, message } } as NWCWalletServiceResponse<never>;
}

export interface LocalWallet {
  /** nostr+walletconnect://<wallet pubkey>?relay=<relay>&secret=<client secret> */
  nwcUrl: string;
  /** The connection's keys (hex): another service started with them answers the same requests. */
  keys: { walletSecret: string; clientSecret: string };
  node: SimulatedNode;
  walletPubkey: string;
  close(): void;
}

/**
 * Connects a wallet service for a new NWC connection to `relayUrl` (or for the connection `keys`: a second
 * service answering the same requests, as a wallet running twice would), and publishes its info event.
 */
export async function startWalletService(relayUrl: string, node = new SimulatedNode(), keys?: LocalWallet["keys"]): Promise<LocalWallet> {
  const walletSecret = keys?.walletSecret ?? bytesToHex(generateSecretKey());
  const clientSecretHex = keys?.clientSecret ?? bytesToHex(generateSecretKey());
  const clientSecret = hexToBytes(clientSecretHex);
  const keypair = new NWCWalletServiceKeyPair(walletSecret, getPublicKey(clientSecret));
  const service = new NWCWalletService({ relayUrls: [relayUrl] });
  // The service publishes each reply with `Promise.any(pool.publish(...))` and never catches it, so a reply
  // still waiting for the relay's OK when the service closes would reject unhandled. Such a publish ends as
  // "closed" instead: closing a wallet must not look like a failure of whatever ran before.
  const publish = service.pool.publish.bind(service.pool);
  service.pool.publish = (...args: Parameters<typeof publish>) => publish(...args).map((p) => p.catch(() => "closed")) as ReturnType<typeof publish>;
  const ok = <T,>(result: T): NWCWalletServiceResponse<T> => ({ result, error: undefined });
  await service.subscribe(keypair, {
    getInfo: async () =>
      ok({ alias: "Gigstr local wallet", color: "#f7931a", pubkey: keypair.walletPubkey, network: "regtest", block_height: 1, block_hash: "00".repeat(32), methods: ["get_info", "make_invoice", "lookup_invoice", "pay_invoice", "list_transactions"] }),
    makeInvoice: async (request) => {
      const invoice = await node.issue(request.amount, request.description ?? "", request.expiry ?? 3600, null);
      return ok(node.lookup(invoice.paymentHash)!);
    },
    lookupInvoice: async (request) => {
      const hash = request.payment_hash ?? (request.invoice ? decodeInvoice(request.invoice).paymentHash : "");
      const found = node.listedOnly.has(hash) ? null : node.lookup(hash);
      return found ? ok(found) : failure("NOT_FOUND", "no invoice or payment with this hash");
    },
    payInvoice: async (request) => node.pay(request.invoice),
    listTransactions: async (request) => {
      const hashes = request.type === "incoming" ? [...node.invoices.keys()] : request.type === "outgoing" ? [...node.payments.keys()] : [...node.invoices.keys(), ...node.payments.keys()];
      const transactions = hashes.map((h) => node.lookup(h)).filter((t): t is Nip47Transaction => t !== null && (!request.type || t.type === request.type));
      return ok({ transactions: transactions.slice(0, request.limit ?? transactions.length), total_count: transactions.length });
    },
  });
  await service.publishWalletServiceInfoEvent(walletSecret, ["get_info", "make_invoice", "lookup_invoice", "pay_invoice", "list_transactions"], []);
  const nwcUrl = `nostr+walletconnect://${keypair.walletPubkey}?relay=${encodeURIComponent(relayUrl)}&secret=${bytesToHex(clientSecret)}`;
  return { nwcUrl, keys: { walletSecret, clientSecret: clientSecretHex }, node, walletPubkey: keypair.walletPubkey, close: () => service.close() };
}

// ---- The whole local wallet, for `LIGHTNING_BACKEND=nwc npm start` ----------------------------------

/** The Lightning-address domain whose addresses this wallet receives for (`name@wallet.test`). */
export const LOCAL_WALLET_DOMAIN = "wallet.test";
const LNURL_MIN_MSAT = 1_000;
const LNURL_MAX_MSAT = 2_000_000_000;

export interface RunningLocalWallet {
  relayUrl: string;
  nwcUrl: string;
  /** http://127.0.0.1:<port>: LNURL-pay for `name@wallet.test` (through LNURL_OVERRIDES), and POST /pay. */
  httpUrl: string;
  node: SimulatedNode;
  close(): Promise<void>;
}

const metadataFor = (name: string) => JSON.stringify([["text/plain", `Payment to ${name}@${LOCAL_WALLET_DOMAIN}`], ["text/identifier", `${name}@${LOCAL_WALLET_DOMAIN}`]]);

/**
 * The relay, the wallet service and a small HTTP server in front of the simulated node: LNURL-pay for
 * `name@wallet.test` (its payRequest names https://wallet.test callbacks, which LNURL_OVERRIDES sends
 * here), `POST /pay {paymentRequest}` (an outside payer pays one of the wallet's invoices: the local
 * stand-in for a hirer's wallet) and `GET /received/<name>`.
 */
export async function startLocalWallet(options: { relayPort?: number; httpPort?: number; relayUrl?: string } = {}): Promise<RunningLocalWallet> {
  // On a relay already running (`npm start`'s, which also carries the gig listings), or on one of its own.
  const relay = options.relayUrl ? null : await startRelay(options.relayPort ?? 0);
  const relayUrl = options.relayUrl ?? relay!.url;
  const wallet = await startWalletService(relayUrl);
  const node = wallet.node;
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const wellKnown = url.pathname.match(/^\/\.well-known\/lnurlp\/([a-z0-9._-]+)$/);
      const callback = url.pathname.match(/^\/lnurlp\/([a-z0-9._-]+)\/callback$/);
      if (req.method === "GET" && wellKnown) {
        const name = wellKnown[1]!;
        return send(200, { tag: "payRequest", callback: `https://${LOCAL_WALLET_DOMAIN}/lnurlp/${name}/callback`, minSendable: LNURL_MIN_MSAT, maxSendable: LNURL_MAX_MSAT, metadata: metadataFor(name), commentAllowed: 0 });
      }
      if (req.method === "GET" && callback) {
        const name = callback[1]!;
        const amountMsat = Number(url.searchParams.get("amount"));
        if (!Number.isSafeInteger(amountMsat) || amountMsat < LNURL_MIN_MSAT || amountMsat > LNURL_MAX_MSAT) return send(400, { status: "ERROR", reason: "amount out of range" });
        const invoice = await node.issue(amountMsat, { hash: await sha256Hex(metadataFor(name)) }, 600, name);
        return send(200, { pr: invoice.bolt11, routes: [] });
      }
      if (req.method === "POST" && url.pathname === "/pay") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const { paymentRequest } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { paymentRequest?: string };
        if (!paymentRequest) return send(400, { message: "paymentRequest is required", error: "invalid_request" });
        try {
          const alreadyPaid = node.invoices.get(decodeInvoice(paymentRequest).paymentHash)?.settledAt != null;
          const invoice = node.payFromOutside(paymentRequest);
          return send(200, { paymentHash: invoice.paymentHash, amount: invoice.amountMsat / 1000, alreadyPaid });
        } catch (err) {
          return send(404, { message: err instanceof Error ? err.message : "unknown invoice", error: "unknown_invoice" });
        }
      }
      const received = url.pathname.match(/^\/received\/([a-z0-9._-]+)$/);
      if (req.method === "GET" && received) return send(200, { sats: node.receivedBy(received[1]!) });
      send(404, { message: "Not found", error: "not_found" });
    } catch (err) {
      send(500, { message: err instanceof Error ? err.message : "error", error: "internal" });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.httpPort ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    relayUrl,
    nwcUrl: wallet.nwcUrl,
    httpUrl: `http://127.0.0.1:${port}`,
    node,
    async close() {
      wallet.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await relay?.close();
    },
  };
}
