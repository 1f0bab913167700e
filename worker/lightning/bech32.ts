// Bech32 (BIP-173) without the 90-character limit, as BOLT11 invoices and LNURLs (LUD-01) use it.

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

export function bech32Encode(hrp: string, words: number[]): string {
  const values = [...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => CHARSET[w]).join("")}`;
}

/** Decodes and checks the checksum; throws on anything else. Returns the data words without checksum. */
export function bech32Decode(text: string): { hrp: string; words: number[] } {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) throw new Error("mixed-case bech32");
  const s = text.toLowerCase();
  const sep = s.lastIndexOf("1");
  if (sep < 1 || s.length - sep - 1 < 6) throw new Error("not bech32");
  const hrp = s.slice(0, sep);
  for (const c of hrp) if (c.charCodeAt(0) < 33 || c.charCodeAt(0) > 126) throw new Error("bad bech32 prefix");
  const data: number[] = [];
  for (const ch of s.slice(sep + 1)) {
    const v = CHARSET.indexOf(ch);
    if (v < 0) throw new Error("bad bech32 character");
    data.push(v);
  }
  if (polymod([...hrpExpand(hrp), ...data]) !== 1) throw new Error("bad bech32 checksum");
  return { hrp, words: data.slice(0, -6) };
}

/** Regroups bits; with `pad`, the last group is right-padded with zeros (BOLT11 does so when signing). */
export function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    acc = ((acc << from) | data[i]!) & 0xffffff;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & maxv);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    throw new Error("bad bech32 padding");
  }
  return out;
}

export const toWords = (bytes: Uint8Array): number[] => convertBits(bytes, 8, 5, true);
export const fromWords = (words: number[]): Uint8Array => Uint8Array.from(convertBits(words, 5, 8, false));
