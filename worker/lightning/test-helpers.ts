// Test doubles for the Lightning tests: a scripted fetch, invoices from a stranger's node and a
// well-behaved LNURL-pay provider that a test can make misbehave one answer at a time.
import { bytesToHex, randomBytes, sha256Hex } from "./invoice";
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
