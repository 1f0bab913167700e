// Writes and signs BOLT11 invoices for the dev node, and recovers the key that signed one.
//
// Why not the `bolt11` package: it loads `secp256k1`, whose elliptic fallback does
// `require('elliptic')` from a file named elliptic.js; the vitest workers plugin resolves that bare
// name to the requiring file itself ("EC is not a constructor"), so importing `bolt11` anywhere the
// Worker's entry reaches breaks every worker test. This encoder produces byte-for-byte the invoice
// `bolt11.encode` + `bolt11.sign` produce for the same fields (RFC 6979 signatures are
// deterministic; dev-backend.test.ts holds one fixture made with the package to prove it).
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bech32Decode, bech32Encode, convertBits, fromWords, toWords } from "./bech32";
import { bytesToHex, hexToBytes } from "./invoice";

const TAG = { payment_hash: 1, payment_secret: 16, description: 13, description_hash: 23, expiry: 6, min_final_cltv_expiry: 24, feature_bits: 5 };
/** Feature bits var_onion_optin (9) and payment_secret (15), both "supported", as 4 words (bolt11's default). */
const FEATURE_WORDS = [1, 0, 16, 0];
const DEFAULT_MIN_FINAL_CLTV_EXPIRY = 9;

export interface InvoiceFields {
  /** bech32 network prefix: "bc", "tb", "bcrt". */
  network: string;
  /** null: an invoice without an amount (the payer chooses). */
  amountMsat: number | null;
  /** Seconds since the epoch. */
  timestamp: number;
  paymentHash: string;
  paymentSecret: string;
  /** Exactly one of description and descriptionHash. */
  description?: string;
  descriptionHash?: string;
  expirySec: number;
}

/** Amount part of the human-readable prefix, shortest unit first as the `bolt11` package writes it. */
function amountToHrp(msat: number): string {
  const s = String(msat);
  if (s.length > 11 && /0{11}$/.test(s)) return s.slice(0, -11);
  if (s.length > 8 && /0{8}$/.test(s)) return `${s.slice(0, -8)}m`;
  if (s.length > 5 && /0{5}$/.test(s)) return `${s.slice(0, -5)}u`;
  if (s.length > 2 && /0{2}$/.test(s)) return `${s.slice(0, -2)}n`;
  return `${msat * 10}p`;
}

function intToWords(n: number): number[] {
  if (n === 0) return [0];
  const words: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 32)) words.unshift(v % 32);
  return words;
}

function tag(code: number, words: number[]): number[] {
  if (words.length > 1023) throw new Error("invoice field too long");
  return [code, words.length >> 5, words.length & 31, ...words];
}

async function signingHash(hrp: string, dataWords: number[]): Promise<Uint8Array> {
  const hrpBytes = new TextEncoder().encode(hrp);
  const dataBytes = convertBits(dataWords, 5, 8, true);
  const message = new Uint8Array(hrpBytes.length + dataBytes.length);
  message.set(hrpBytes);
  message.set(dataBytes, hrpBytes.length);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", message));
}

/** A signed BOLT11 invoice for `fields`, signed with the node key `privateKeyHex`. */
export async function encodeSignedInvoice(fields: InvoiceFields, privateKeyHex: string): Promise<string> {
  if (fields.amountMsat !== null && (!Number.isSafeInteger(fields.amountMsat) || fields.amountMsat <= 0)) {
    throw new RangeError("amountMsat must be a positive integer");
  }
  if ((fields.description === undefined) === (fields.descriptionHash === undefined)) throw new Error("give a description or a description hash");
  const hrp = `ln${fields.network}${fields.amountMsat === null ? "" : amountToHrp(fields.amountMsat)}`;
  const timestampWords = intToWords(fields.timestamp);
  while (timestampWords.length < 7) timestampWords.unshift(0);
  const data = [
    ...timestampWords,
    ...tag(TAG.payment_hash, toWords(hexToBytes(fields.paymentHash))),
    ...tag(TAG.payment_secret, toWords(hexToBytes(fields.paymentSecret))),
    ...(fields.descriptionHash !== undefined
      ? tag(TAG.description_hash, toWords(hexToBytes(fields.descriptionHash)))
      : tag(TAG.description, toWords(new TextEncoder().encode(fields.description)))),
    ...tag(TAG.expiry, intToWords(fields.expirySec)),
    ...tag(TAG.feature_bits, FEATURE_WORDS),
    ...tag(TAG.min_final_cltv_expiry, intToWords(DEFAULT_MIN_FINAL_CLTV_EXPIRY)),
  ];
  const hash = await signingHash(hrp, data);
  const recovered = secp256k1.sign(hash, hexToBytes(privateKeyHex), { prehash: false, format: "recovered" });
  // noble writes [recovery id, r, s]; BOLT11 wants r ‖ s ‖ recovery id.
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1), 0);
  signature[64] = recovered[0]!;
  return bech32Encode(hrp, [...data, ...toWords(signature)]);
}

/** Checks an invoice's signature and returns the (compressed, hex) node key that made it. */
export async function recoverInvoiceNodeKey(bolt11: string): Promise<string> {
  const { hrp, words } = bech32Decode(bolt11.trim());
  if (words.length < 104 + 7) throw new Error("invoice too short");
  const data = words.slice(0, -104);
  const sig = fromWords(words.slice(-104));
  const recovered = new Uint8Array(65);
  recovered[0] = sig[64]!;
  recovered.set(sig.subarray(0, 64), 1);
  const hash = await signingHash(hrp, data);
  return bytesToHex(secp256k1.recoverPublicKey(recovered, hash, { prehash: false }));
}

/** The compressed public key (hex) of a node's private key. */
export function nodePublicKey(privateKeyHex: string): string {
  return bytesToHex(secp256k1.getPublicKey(hexToBytes(privateKeyHex), true));
}
