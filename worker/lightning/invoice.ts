// Reading BOLT11 invoices (light-bolt11-decoder) and the small hashing helpers the backends share.
import { decode } from "light-bolt11-decoder";

/** BOLT11: an invoice without an expiry field expires after one hour. */
const DEFAULT_EXPIRY_SEC = 3600;

export interface DecodedInvoice {
  bolt11: string;
  /** The bech32 network prefix: "bc" (mainnet), "tb", "tbs", "bcrt" (regtest), "sb". */
  network: string;
  paymentHash: string;
  /** null for an invoice without an amount. */
  amountMsat: number | null;
  /** Seconds since the epoch. */
  timestamp: number;
  expirySec: number;
  /** Milliseconds since the epoch. */
  expiresAtMs: number;
  description: string | null;
  /** Hex, the `h` field (LNURL-pay invoices commit to their metadata with it). */
  descriptionHash: string | null;
}

export class InvalidInvoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidInvoiceError";
  }
}

type Section = ReturnType<typeof decode>["sections"][number];

/** Decodes a BOLT11 invoice; throws InvalidInvoiceError when it is not one we can rely on. */
export function decodeInvoice(bolt11: string): DecodedInvoice {
  const text = bolt11.trim().replace(/^lightning:/i, "");
  let sections: Section[];
  try {
    sections = decode(text).sections;
  } catch (err) {
    throw new InvalidInvoiceError(`not a valid BOLT11 invoice (${err instanceof Error ? err.message : "unreadable"})`);
  }
  const find = (name: string) => sections.find((s) => s.name === name) as { value?: unknown; letters?: string } | undefined;

  const paymentHash = find("payment_hash")?.value;
  if (typeof paymentHash !== "string" || !/^[0-9a-f]{64}$/.test(paymentHash)) throw new InvalidInvoiceError("invoice has no payment hash");

  const network = find("coin_network")?.letters;
  if (typeof network !== "string") throw new InvalidInvoiceError("invoice has no network");

  let amountMsat: number | null = null;
  const amount = find("amount")?.value;
  if (amount !== undefined) {
    if (typeof amount !== "string" || !/^\d+$/.test(amount)) throw new InvalidInvoiceError("invoice amount is unreadable");
    const n = Number(amount);
    if (!Number.isSafeInteger(n)) throw new InvalidInvoiceError("invoice amount is out of range");
    amountMsat = n;
  }

  const timestamp = find("timestamp")?.value;
  if (typeof timestamp !== "number") throw new InvalidInvoiceError("invoice has no timestamp");
  const expiryField = find("expiry")?.value;
  const expirySec = typeof expiryField === "number" ? expiryField : DEFAULT_EXPIRY_SEC;

  const description = find("description")?.value;
  const descriptionHash = find("description_hash")?.value;
  return {
    bolt11: text.toLowerCase(),
    network,
    paymentHash,
    amountMsat,
    timestamp,
    expirySec,
    expiresAtMs: (timestamp + expirySec) * 1000,
    description: typeof description === "string" ? description : null,
    descriptionHash: typeof descriptionHash === "string" ? descriptionHash : null,
  };
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error("not a hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** Hex SHA-256 of a UTF-8 string or of bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  // A copy on its own ArrayBuffer: what every runtime's digest takes (Node's types refuse a shared buffer).
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data);
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** A truthful description field: BOLT11 allows at most 639 bytes; cut on a character boundary. */
export function fitDescription(text: string, maxBytes = 639): string {
  const enc = new TextEncoder();
  if (enc.encode(text).length <= maxBytes) return text;
  let out = "";
  for (const ch of text) {
    if (enc.encode(out + ch).length > maxBytes) break;
    out += ch;
  }
  return out;
}

/**
 * Decodes an invoice the wallet is about to pay. An unreadable invoice, or one without an amount,
 * is a failed payment (nothing was sent), so the backends return that answer as it is.
 */
export function invoiceToPay(bolt11: string): (DecodedInvoice & { amountMsat: number }) | { status: "failed"; reason: string } {
  let decoded: DecodedInvoice;
  try {
    decoded = decodeInvoice(bolt11);
  } catch (err) {
    return { status: "failed", reason: err instanceof InvalidInvoiceError ? err.message : "invalid invoice" };
  }
  if (decoded.amountMsat === null || decoded.amountMsat <= 0) return { status: "failed", reason: "invoices without an amount are not paid" };
  return decoded as DecodedInvoice & { amountMsat: number };
}
