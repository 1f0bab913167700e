// LNURL-pay client for payouts (DESIGN.md §3 "Destination") and the pieces the alias server reuses.
//
// A payout resolves the recipient's Lightning address (LUD-16) to a payRequest (LUD-06), checks the
// amount against min/maxSendable, asks the callback for an invoice and, BEFORE anything is paid,
// verifies that the invoice is for exactly the msat asked, commits to the payRequest's metadata
// (description hash = sha256(metadata)) and has not expired.
//
// Outbound rules, because the URLs come from users and from their providers: https only, no
// redirects followed, 5 s time-out for each request (headers and body), at most 64 KB read, and no
// IP-literal or local hosts. Domains listed in LNURL_OVERRIDES (`domain=http://127.0.0.1:port,...`)
// are fetched from that base instead (tests, staging) and are exempt from the scheme and host rules.
//
// This site's own alias endpoints (/.well-known/lnurlp/*) are never fetched when the client is told its
// hosts (`ownHosts`): neither a destination that is an alias here nor a payRequest whose callback is
// one; either would have the Worker call itself, alias after alias (alias_loop).
//
// Everything outbound goes through the injected `fetch`, so tests play servers without a network
// and the dev wallet answers `name@wallet.test` in process (see dev-backend.ts).
import { z } from "zod";
import { bech32Decode, fromWords } from "./bech32";
import { InvalidInvoiceError, decodeInvoice, sha256Hex } from "./invoice";

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
/** Lightning-address domain (lower case) → the base URL its LNURL endpoints are fetched from. */
export type LnurlOverrides = ReadonlyMap<string, URL>;

export interface LnurlClientOptions {
  fetch: FetchLike;
  overrides?: LnurlOverrides;
  /** Per request, headers and body together. Default LNURL_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default LNURL_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Clock for invoice expiry checks, ms since the epoch. Default Date.now. */
  now?: () => number;
  /**
   * This site's own hosts (the request's, ALIAS_DOMAIN): their alias endpoints are refused with
   * LnurlError("alias_loop") instead of fetched. Without it, no host is treated as our own.
   */
  ownHosts?: readonly string[];
}

export const LNURL_TIMEOUT_MS = 5_000;
export const LNURL_MAX_BODY_BYTES = 64 * 1024;
/** An invoice must stay valid at least this long after we receive it, so it cannot expire mid-payment. */
export const INVOICE_MIN_VALIDITY_MS = 30_000;

export type LnurlErrorCode =
  | "invalid_address"
  | "forbidden_url"
  | "redirect"
  | "timeout"
  | "too_large"
  | "network"
  | "http_error"
  | "bad_response"
  | "remote_error"
  | "amount_out_of_range"
  | "invalid_invoice"
  | "invoice_amount_mismatch"
  | "description_hash_mismatch"
  | "invoice_expired"
  | "alias_loop"
  | "configuration";

/**
 * Resolving or asking failed. No money has moved when this is thrown: the payout can be retried
 * later (the recipient's provider may be down) or shown to the admin.
 */
export class LnurlError extends Error {
  constructor(
    readonly code: LnurlErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "LnurlError";
  }
}

export interface PayRequest {
  /** The callback as the provider gave it (absolute URL). */
  callback: string;
  minSendable: number;
  maxSendable: number;
  /** The raw metadata string; the invoice's description hash is its SHA-256. */
  metadata: string;
  /** LUD-12: longest comment accepted, 0 when none. */
  commentAllowed: number;
  /** The host the payRequest came from (for messages). */
  domain: string;
}

export interface VerifiedInvoice {
  bolt11: string;
  paymentHash: string;
  amountMsat: number;
  /** ISO-8601. */
  expiresAt: string;
  descriptionHash: string;
}

// ---------------------------------------------------------------- settings and addresses

/** Parses LNURL_OVERRIDES; an empty or absent value is no overrides. Throws LnurlError("configuration"). */
export function parseLnurlOverrides(value: string | undefined | null): Map<string, URL> {
  const overrides = new Map<string, URL>();
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf("=");
    const domain = entry.slice(0, eq).trim().toLowerCase().replace(/\.$/, "");
    let base: URL | null = null;
    try {
      base = eq > 0 ? new URL(entry.slice(eq + 1).trim()) : null;
    } catch {
      base = null;
    }
    if (!domain || !base || (base.protocol !== "http:" && base.protocol !== "https:") || base.search || base.hash || base.username || base.password) {
      throw new LnurlError("configuration", `LNURL_OVERRIDES entry "${entry}" is not of the form domain=http(s)://host:port`);
    }
    overrides.set(domain, base);
  }
  return overrides;
}

const ADDRESS_NAME = /^[a-z0-9._+-]+$/;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Splits `name@domain` (LUD-16), lower-cased. Throws LnurlError("invalid_address"). */
export function parseLightningAddress(address: string): { name: string; domain: string } {
  const value = address.trim().toLowerCase();
  const at = value.lastIndexOf("@");
  const name = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (at <= 0 || !ADDRESS_NAME.test(name) || !HOSTNAME.test(domain)) {
    throw new LnurlError("invalid_address", `"${address}" is not a Lightning address (name@domain)`);
  }
  return { name, domain };
}

/** LUD-16: where a Lightning address's payRequest lives. */
export function lightningAddressUrl(address: string): string {
  const { name, domain } = parseLightningAddress(address);
  return `https://${domain}/.well-known/lnurlp/${name}`;
}

// ---------------------------------------------------------------- outbound rules

const LOCAL_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa", "lan"];

/** Why a host may not be fetched, or null when it may. Expects a URL's (already normalised) hostname. */
export function forbiddenHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (!host) return "it has no host";
  if (host.startsWith("[") || host.includes(":")) return "IP-literal hosts are not allowed";
  // WHATWG URL parsing turns every numeric IPv4 spelling (0x7f.1, 2130706433, ...) into a dotted quad;
  // a host whose last label is all digits is an IPv4 address or invalid.
  if (/(^|\.)\d+$/.test(host)) return "IP-literal hosts are not allowed";
  if (LOCAL_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`))) return "local hosts are not allowed";
  if (!host.includes(".")) return "single-label hosts are not allowed";
  return null;
}

function overrideBaseFor(url: URL, overrides: LnurlOverrides): { base: URL; rebase: boolean } | null {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const base = overrides.get(host);
  if (base) return { base, rebase: true };
  // A local test server may name itself in the callback it returns: its own base is trusted as well.
  for (const b of overrides.values()) if (url.origin === b.origin) return { base: b, rebase: false };
  return null;
}

/** The URL actually fetched for `url` under the outbound rules; throws LnurlError("forbidden_url"). */
export function outboundUrl(url: string, overrides: LnurlOverrides = new Map()): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LnurlError("forbidden_url", `"${url.slice(0, 200)}" is not a URL`);
  }
  if (u.username || u.password) throw new LnurlError("forbidden_url", `${u.hostname}: URLs with credentials are not allowed`);
  u.hash = "";
  const override = overrideBaseFor(u, overrides);
  if (override) {
    if (!override.rebase) return u;
    // Copy the base and set only path and query, so nothing in the path can change the host.
    const target = new URL(override.base.href);
    target.pathname = override.base.pathname.replace(/\/$/, "") + u.pathname;
    target.search = u.search;
    return target;
  }
  if (u.protocol !== "https:") throw new LnurlError("forbidden_url", `${u.hostname}: only https is allowed, not ${u.protocol.replace(":", "")}`);
  const why = forbiddenHostReason(u.hostname);
  if (why) throw new LnurlError("forbidden_url", `${u.hostname}: ${why}`);
  return u;
}

async function readLimited(res: Response, maxBytes: number, signal: AbortSignal, host: string): Promise<string> {
  const tooLarge = () => new LnurlError("too_large", `${host} answered with more than ${maxBytes} bytes`);
  const declared = res.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(body);
}

/** Printable, short: a remote party's text never reaches our logs or users unbounded. */
function clean(text: unknown): string {
  return String(text)
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .slice(0, 200);
}

function remoteError(json: unknown): string | null {
  if (json && typeof json === "object" && "status" in json && String((json as { status: unknown }).status).toUpperCase() === "ERROR") {
    const reason = (json as { reason?: unknown }).reason;
    return reason === undefined ? "no reason given" : clean(reason);
  }
  return null;
}

/**
 * GETs an LNURL endpoint under the outbound rules and returns its parsed JSON body. A body of the
 * form {status: "ERROR", reason} becomes LnurlError("remote_error").
 */
export async function fetchLnurlJson(url: string, opts: LnurlClientOptions): Promise<unknown> {
  const target = outboundUrl(url, opts.overrides);
  const host = new URL(url).hostname;
  const timeoutMs = opts.timeoutMs ?? LNURL_TIMEOUT_MS;
  const maxBytes = opts.maxBodyBytes ?? LNURL_MAX_BODY_BYTES;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Rejects when the time is up, even if the fetch or the body stream ignores the abort signal.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new LnurlError("timeout", `${host} did not answer within ${timeoutMs / 1000} s`);
      reject(err);
      controller.abort(err);
    }, timeoutMs);
  });
  deadline.catch(() => {});
  try {
    let res: Response;
    try {
      res = await Promise.race([
        opts.fetch(target.href, { method: "GET", redirect: "manual", signal: controller.signal, headers: { accept: "application/json" } }),
        deadline,
      ]);
    } catch (err) {
      if (err instanceof LnurlError) throw err;
      throw new LnurlError("network", `could not reach ${host}`);
    }
    if ((res.type as string) === "opaqueredirect" || (res.status >= 300 && res.status < 400) || res.redirected) {
      await res.body?.cancel().catch(() => {});
      throw new LnurlError("redirect", `${host} answered with a redirect (${res.status}); redirects are not followed`);
    }
    const text = await Promise.race([readLimited(res, maxBytes, controller.signal, host), deadline]);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const reason = remoteError(json);
    if (reason !== null) throw new LnurlError("remote_error", `${host} refused: ${reason}`);
    if (!res.ok) throw new LnurlError("http_error", `${host} answered HTTP ${res.status}`);
    if (json === undefined) throw new LnurlError("bad_response", `${host} did not answer with JSON`);
    return json;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- payRequest

const payRequestSchema = z.object({
  tag: z.string(),
  callback: z.string().min(1).max(2048),
  minSendable: z.number().int().positive(),
  maxSendable: z.number().int().positive(),
  metadata: z.string().min(2),
  commentAllowed: z.number().int().nonnegative().optional(),
});

function isValidMetadata(metadata: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return false;
  }
  return (
    Array.isArray(parsed) &&
    parsed.every((e) => Array.isArray(e) && typeof e[0] === "string") &&
    parsed.some((e) => e[0] === "text/plain" && typeof e[1] === "string")
  );
}

/** Checks an LNURL-pay first-step answer (LUD-06). `host` names the server in messages. */
export function parsePayRequest(json: unknown, host: string, overrides: LnurlOverrides = new Map()): PayRequest {
  if (json && typeof json === "object" && "tag" in json && (json as { tag: unknown }).tag !== "payRequest") {
    throw new LnurlError("bad_response", `${host} did not answer with a payRequest (tag "${clean((json as { tag: unknown }).tag)}")`);
  }
  const parsed = payRequestSchema.safeParse(json);
  if (!parsed.success || parsed.data.tag !== "payRequest") throw new LnurlError("bad_response", `${host} did not answer with a valid payRequest`);
  const p = parsed.data;
  if (p.minSendable > p.maxSendable) throw new LnurlError("bad_response", `${host}: minSendable is above maxSendable`);
  if (!isValidMetadata(p.metadata)) throw new LnurlError("bad_response", `${host}: payRequest metadata is not valid LUD-06 metadata`);
  outboundUrl(p.callback, overrides); // refuse a callback we would never call, now rather than later
  return {
    callback: p.callback,
    minSendable: p.minSendable,
    maxSendable: p.maxSendable,
    metadata: p.metadata,
    commentAllowed: p.commentAllowed ?? 0,
    domain: host,
  };
}

/** Fetches and checks the payRequest behind any LNURL-pay URL. */
export async function fetchPayRequest(url: string, opts: LnurlClientOptions): Promise<PayRequest> {
  const json = await fetchLnurlJson(url, opts);
  return parsePayRequest(json, new URL(url).hostname, opts.overrides);
}

/** LUD-16: a Lightning address's payRequest. */
export async function resolveLightningAddress(address: string, opts: LnurlClientOptions): Promise<PayRequest> {
  return fetchPayRequest(lightningAddressUrl(address), opts);
}

/** The host a payout destination is fetched from (the address's domain, or the LNURL's host); null when unreadable. */
export function destinationHost(destination: string): string | null {
  const value = destination.trim().replace(/^lightning:/i, "");
  try {
    if (/^lnurl1/i.test(value)) return new URL(decodeLnurl(value)).hostname.toLowerCase();
    return parseLightningAddress(value).domain.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether `host` (a hostname, any case, with or without its trailing dot) is one of `ownHosts`. */
export function isOwnHost(host: string, ownHosts: readonly string[]): boolean {
  const normal = (h: string) => h.trim().toLowerCase().replace(/\.$/, "");
  const wanted = normal(host);
  return wanted !== "" && ownHosts.some((own) => normal(own) === wanted);
}

/**
 * Whether `url` is one of this site's alias endpoints (`/.well-known/lnurlp/<alias>` or its callback)
 * on one of `ownHosts`. The path is compared as our router reads it: percent-decoded, in any case.
 */
export function isOwnAliasUrl(url: string, ownHosts: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!isOwnHost(u.hostname, ownHosts)) return false;
  let path = u.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // left as it is: a malformed escape is not decoded by the router either
  }
  return /^\/+\.well-known\/+lnurlp(\/|$)/i.test(path);
}

/** A payout destination as the profile accepts it: a Lightning address or a bech32 `lnurl1...`. */
export async function resolvePayDestination(destination: string, opts: LnurlClientOptions): Promise<PayRequest> {
  const value = destination.trim().replace(/^lightning:/i, "");
  const url = /^lnurl1/i.test(value) ? decodeLnurl(value) : lightningAddressUrl(value);
  const ownHosts = opts.ownHosts ?? [];
  if (isOwnAliasUrl(url, ownHosts)) {
    throw new LnurlError("alias_loop", `${clean(value)} is an alias on this site: Gigstr would call itself, so it is not paid this way`);
  }
  const payRequest = await fetchPayRequest(url, opts);
  if (isOwnAliasUrl(payRequest.callback, ownHosts)) {
    throw new LnurlError("alias_loop", `${payRequest.domain} sends payments to an alias on this site: Gigstr would call itself, so it is not paid this way`);
  }
  return payRequest;
}

// ---------------------------------------------------------------- invoice

/**
 * Verifies an invoice returned by an LNURL-pay callback before anything is paid: exactly
 * `amountMsat`, description hash = sha256(metadata), still valid for INVOICE_MIN_VALIDITY_MS.
 */
export async function verifyLnurlInvoice(
  pr: string,
  expected: { amountMsat: number; metadata: string; now?: number; host?: string },
): Promise<VerifiedInvoice> {
  const host = expected.host ?? "the provider";
  let inv;
  try {
    inv = decodeInvoice(pr);
  } catch (err) {
    throw new LnurlError("invalid_invoice", `${host} returned an invalid invoice: ${err instanceof InvalidInvoiceError ? err.message : "unreadable"}`);
  }
  if (inv.amountMsat !== expected.amountMsat) {
    throw new LnurlError(
      "invoice_amount_mismatch",
      `${host} returned an invoice for ${inv.amountMsat === null ? "no amount" : `${inv.amountMsat} msat`} instead of ${expected.amountMsat} msat`,
    );
  }
  if (inv.descriptionHash !== (await sha256Hex(expected.metadata))) {
    throw new LnurlError("description_hash_mismatch", `${host} returned an invoice whose description hash does not match its metadata`);
  }
  if (inv.expiresAtMs - INVOICE_MIN_VALIDITY_MS <= (expected.now ?? Date.now())) {
    throw new LnurlError("invoice_expired", `${host} returned an expired invoice`);
  }
  return {
    bolt11: inv.bolt11,
    paymentHash: inv.paymentHash,
    amountMsat: inv.amountMsat,
    expiresAt: new Date(inv.expiresAtMs).toISOString(),
    descriptionHash: inv.descriptionHash,
  };
}

const callbackAnswerSchema = z.object({ pr: z.string().min(1).max(4096) });

/** Appends query parameters without re-encoding the provider's own (some sign them). */
function withParams(callback: string, params: Record<string, string>): string {
  const hashAt = callback.indexOf("#");
  const base = hashAt >= 0 ? callback.slice(0, hashAt) : callback;
  const query = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  return `${base}${base.includes("?") ? "&" : "?"}${query}`;
}

/**
 * Asks the payRequest's callback for an invoice of `amountMsat` and verifies it. The alias server
 * uses this to proxy a payer's request (msat, optional LUD-12 comment) to the owner's provider.
 */
export async function requestInvoiceMsat(
  payRequest: PayRequest,
  amountMsat: number,
  opts: LnurlClientOptions,
  extra: { comment?: string } = {},
): Promise<VerifiedInvoice> {
  if (!Number.isSafeInteger(amountMsat) || amountMsat <= 0) throw new RangeError(`amountMsat must be a positive integer, got ${amountMsat}`);
  if (amountMsat < payRequest.minSendable || amountMsat > payRequest.maxSendable) {
    throw new LnurlError(
      "amount_out_of_range",
      `${payRequest.domain} accepts ${payRequest.minSendable / 1000}–${payRequest.maxSendable / 1000} sats, not ${amountMsat / 1000}`,
    );
  }
  const params: Record<string, string> = { amount: String(amountMsat) };
  if (extra.comment && payRequest.commentAllowed > 0) params.comment = extra.comment.slice(0, payRequest.commentAllowed);
  const url = withParams(payRequest.callback, params);
  const host = new URL(url).hostname;
  const json = await fetchLnurlJson(url, opts);
  const answer = callbackAnswerSchema.safeParse(json);
  if (!answer.success) throw new LnurlError("bad_response", `${host} did not return an invoice`);
  return verifyLnurlInvoice(answer.data.pr, { amountMsat, metadata: payRequest.metadata, now: (opts.now ?? Date.now)(), host });
}

/** Asks for a verified invoice of exactly `amountSats`. */
export function requestInvoice(payRequest: PayRequest, amountSats: number, opts: LnurlClientOptions): Promise<VerifiedInvoice> {
  if (!Number.isSafeInteger(amountSats) || amountSats <= 0) throw new RangeError(`amountSats must be a positive integer, got ${amountSats}`);
  return requestInvoiceMsat(payRequest, amountSats * 1000, opts);
}

/** A payout's whole LNURL leg: resolve the destination, then ask for and verify the invoice. */
export async function fetchPayoutInvoice(destination: string, amountSats: number, opts: LnurlClientOptions): Promise<VerifiedInvoice> {
  const payRequest = await resolvePayDestination(destination, opts);
  return requestInvoice(payRequest, amountSats, opts);
}

// ---------------------------------------------------------------- bech32 LNURL (LUD-01)

/** Decodes a bech32 `lnurl1...` string to its URL. Throws LnurlError("invalid_address"). */
export function decodeLnurl(lnurl: string): string {
  try {
    const { hrp, words } = bech32Decode(lnurl.trim());
    if (hrp !== "lnurl") throw new Error("not an LNURL");
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fromWords(words));
  } catch {
    throw new LnurlError("invalid_address", "not a valid LNURL");
  }
}
