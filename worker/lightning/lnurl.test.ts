import { afterEach, describe, expect, it, vi } from "vitest";
import { bech32Encode, toWords } from "./bech32";
import { sha256Hex } from "./invoice";
import {
  LnurlError,
  decodeLnurl,
  fetchPayoutInvoice,
  forbiddenHostReason,
  lightningAddressUrl,
  outboundUrl,
  parseLnurlOverrides,
  requestInvoice,
  requestInvoiceMsat,
  resolveLightningAddress,
  type LnurlClientOptions,
} from "./lnurl";
import { METADATA, lnurlProvider, scriptedFetch, strangerInvoice, streamingBody, type Routes } from "./test-helpers";

const WELL_KNOWN = "https://provider.com/.well-known/lnurlp/alice";
const CALLBACK = "https://provider.com/lnurlp/alice/callback";

function client(routes: Routes, extra: Partial<LnurlClientOptions> = {}) {
  const scripted = scriptedFetch(routes);
  return { ...scripted, opts: { fetch: scripted.fetch, ...extra } satisfies LnurlClientOptions };
}

/** Runs `promise` and returns the LnurlError it must fail with. */
async function refusal(promise: Promise<unknown>): Promise<LnurlError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(LnurlError);
  return outcome.error as LnurlError;
}

describe("paying a Lightning address", () => {
  it("resolves the address, asks for the amount and returns the verified invoice", async () => {
    const issued: string[] = [];
    const { opts, calls } = client(lnurlProvider({ issued }));
    const invoice = await fetchPayoutInvoice("Alice@Provider.com", 9_750, opts);

    expect(calls.map((c) => c.url)).toEqual([WELL_KNOWN, `${CALLBACK}?amount=9750000`]);
    expect(calls.every((c) => c.init.redirect === "manual" && c.init.signal instanceof AbortSignal)).toBe(true);
    expect(invoice.bolt11).toBe(issued[0]);
    expect(invoice.amountMsat).toBe(9_750_000);
    expect(invoice.descriptionHash).toBe(await sha256Hex(METADATA));
    expect(invoice.paymentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps the callback's own query parameters as they are", async () => {
    const provider = lnurlProvider({ callback: `${CALLBACK}?k=a%20b` });
    const { opts, calls } = client(provider);
    await requestInvoice(await resolveLightningAddress("alice@provider.com", opts), 21, opts);
    expect(calls[1]!.url).toBe(`${CALLBACK}?k=a%20b&amount=21000`);
  });

  it("accepts a bech32 LNURL as destination", async () => {
    const lnurl = bech32Encode("lnurl", toWords(new TextEncoder().encode(WELL_KNOWN))).toUpperCase();
    expect(decodeLnurl(lnurl)).toBe(WELL_KNOWN);
    const { opts } = client(lnurlProvider());
    expect((await fetchPayoutInvoice(`lightning:${lnurl}`, 100, opts)).amountMsat).toBe(100_000);
  });

  it("refuses an amount outside min/maxSendable without asking for an invoice", async () => {
    const { opts, calls } = client(lnurlProvider({ payRequest: { minSendable: 10_000, maxSendable: 20_000 } }));
    const payRequest = await resolveLightningAddress("alice@provider.com", opts);
    expect((await refusal(requestInvoice(payRequest, 9, opts))).code).toBe("amount_out_of_range");
    expect((await refusal(requestInvoice(payRequest, 21, opts))).code).toBe("amount_out_of_range");
    expect(calls).toHaveLength(1);
  });

  it("reports the provider's own refusal", async () => {
    const { opts } = client({ [WELL_KNOWN]: () => Response.json({ status: "ERROR", reason: "User not found" }, { status: 404 }) });
    const err = await refusal(resolveLightningAddress("alice@provider.com", opts));
    expect(err.code).toBe("remote_error");
    expect(err.message).toContain("User not found");
  });

  it("refuses an answer that is not a payRequest", async () => {
    const { opts } = client({ [WELL_KNOWN]: () => Response.json({ tag: "withdrawRequest", callback: CALLBACK }) });
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts))).code).toBe("bad_response");
    const { opts: opts2 } = client({ [WELL_KNOWN]: () => new Response("<html>hello</html>") });
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts2))).code).toBe("bad_response");
    const { opts: opts3 } = client(lnurlProvider({ payRequest: { metadata: "not json" } }));
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts3))).code).toBe("bad_response");
  });

  it("refuses text that is not a Lightning address", async () => {
    for (const bad of ["alice", "@provider.com", "alice@", "al ice@provider.com", "alice@provider..com"]) {
      expect(() => lightningAddressUrl(bad)).toThrow(LnurlError);
    }
  });
});

describe("malicious or broken providers: refused, and no invoice comes back", () => {
  it("an invoice for another amount", async () => {
    const { opts } = client(
      lnurlProvider({
        invoice: async (msat) => ({ pr: (await strangerInvoice({ amountMsat: msat + 1_000, descriptionHash: await sha256Hex(METADATA) })).bolt11 }),
      }),
    );
    const err = await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts));
    expect(err.code).toBe("invoice_amount_mismatch");
    expect(err.message).toContain("1001000 msat instead of 1000000 msat");
  });

  it("an invoice without an amount", async () => {
    const { opts } = client(
      lnurlProvider({ invoice: async () => ({ pr: (await strangerInvoice({ amountMsat: null, descriptionHash: await sha256Hex(METADATA) })).bolt11 }) }),
    );
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts))).code).toBe("invoice_amount_mismatch");
  });

  it("an invoice whose description hash is not the metadata's", async () => {
    const { opts } = client(
      lnurlProvider({ invoice: async (msat) => ({ pr: (await strangerInvoice({ amountMsat: msat, descriptionHash: await sha256Hex("other metadata") })).bolt11 }) }),
    );
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts))).code).toBe("description_hash_mismatch");
    const { opts: plain } = client(lnurlProvider({ invoice: async (msat) => ({ pr: (await strangerInvoice({ amountMsat: msat, description: METADATA })).bolt11 }) }));
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, plain))).code).toBe("description_hash_mismatch");
  });

  it("an expired invoice", async () => {
    const old = Math.floor(Date.now() / 1000) - 3_600;
    const { opts } = client(
      lnurlProvider({
        invoice: async (msat) => ({ pr: (await strangerInvoice({ amountMsat: msat, descriptionHash: await sha256Hex(METADATA), timestampSec: old, expirySec: 600 })).bolt11 }),
      }),
    );
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts))).code).toBe("invoice_expired");
  });

  it("something that is not an invoice", async () => {
    const { opts } = client(lnurlProvider({ invoice: async () => ({ pr: "lnbc1definitelynotaninvoice" }) }));
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts))).code).toBe("invalid_invoice");
    const { opts: none } = client(lnurlProvider({ invoice: async () => ({ routes: [] }) }));
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, none))).code).toBe("bad_response");
  });

  it("a redirect, which is never followed", async () => {
    const { opts, calls } = client({
      [WELL_KNOWN]: () => new Response(null, { status: 302, headers: { location: "https://evil.example/.well-known/lnurlp/alice" } }),
    });
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts))).code).toBe("redirect");
    expect(calls).toHaveLength(1);
    const { opts: cb } = client({ ...lnurlProvider(), [CALLBACK]: () => new Response(null, { status: 307, headers: { location: "https://evil.example/" } }) });
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, cb))).code).toBe("redirect");
  });

  it("a callback over plain http", async () => {
    const { opts, calls } = client(lnurlProvider({ callback: "http://provider.com/lnurlp/alice/callback" }));
    const err = await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts));
    expect(err.code).toBe("forbidden_url");
    expect(err.message).toContain("only https");
    expect(calls).toHaveLength(1);
    const httpLnurl = bech32Encode("lnurl", toWords(new TextEncoder().encode("http://provider.com/.well-known/lnurlp/alice")));
    expect((await refusal(fetchPayoutInvoice(httpLnurl, 1_000, opts))).code).toBe("forbidden_url");
  });

  it("IP-literal and local hosts, for the address and for the callback", async () => {
    for (const address of ["alice@127.0.0.1", "alice@10.0.0.8", "alice@localhost", "alice@printer.local", "alice@metadata.google.internal", "alice@box.localhost", "alice@intranet"]) {
      const { opts, calls } = client({});
      const err = await refusal(fetchPayoutInvoice(address, 1_000, opts));
      expect(["forbidden_url", "invalid_address"]).toContain(err.code);
      expect(calls).toHaveLength(0);
    }
    for (const callback of ["https://[::1]/cb", "https://[fd00::1]:8443/cb", "https://169.254.169.254/latest", "https://0x7f000001/cb", "https://2130706433/cb", "https://localhost/cb"]) {
      const { opts, calls } = client(lnurlProvider({ callback }));
      expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, opts))).code).toBe("forbidden_url");
      expect(calls).toHaveLength(1);
    }
  });

  it("a body over 64 KB, declared or streamed", async () => {
    const { opts } = client({ [WELL_KNOWN]: () => new Response(streamingBody(70 * 1024)) });
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts))).code).toBe("too_large");
    const { opts: declared } = client({ [WELL_KNOWN]: () => new Response("{}", { headers: { "content-length": String(65 * 1024) } }) });
    expect((await refusal(resolveLightningAddress("alice@provider.com", declared))).code).toBe("too_large");
    const { opts: callback } = client({ ...lnurlProvider(), [CALLBACK]: () => new Response(streamingBody(100 * 1024)) });
    expect((await refusal(fetchPayoutInvoice("alice@provider.com", 1_000, callback))).code).toBe("too_large");
  });

  it("accepts a body of exactly 64 KB", async () => {
    const body = JSON.stringify({ status: "ERROR", reason: "x".repeat(64 * 1024 - 40) }).padEnd(64 * 1024, " ");
    const { opts } = client({ [WELL_KNOWN]: () => new Response(body) });
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts))).code).toBe("remote_error");
  });

  describe("slow servers", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("a server that never answers, even one that ignores the abort", async () => {
      vi.useFakeTimers();
      let aborted = false;
      const { opts } = client({
        [WELL_KNOWN]: (_url: URL, init: RequestInit) => {
          init.signal?.addEventListener("abort", () => (aborted = true));
          return new Promise<Response>(() => {});
        },
      });
      const outcome = refusal(resolveLightningAddress("alice@provider.com", opts));
      await vi.advanceTimersByTimeAsync(5_000);
      expect((await outcome).code).toBe("timeout");
      expect(aborted).toBe(true);
    });

    it("a server that sends headers, then trickles the body forever", async () => {
      vi.useFakeTimers();
      const never = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("{")) });
      const { opts } = client({ ...lnurlProvider(), [CALLBACK]: () => new Response(never) });
      const payRequest = await resolveLightningAddress("alice@provider.com", opts);
      const outcome = refusal(requestInvoice(payRequest, 1_000, opts));
      await vi.advanceTimersByTimeAsync(5_000);
      expect((await outcome).code).toBe("timeout");
    });

    it("does not time out a server that answers in time", async () => {
      vi.useFakeTimers();
      const { opts } = client({
        [WELL_KNOWN]: () => new Promise<Response>((resolve) => setTimeout(() => resolve(lnurlProvider()[WELL_KNOWN]!(new URL(WELL_KNOWN), {})), 4_000)),
      });
      const outcome = resolveLightningAddress("alice@provider.com", opts);
      await vi.advanceTimersByTimeAsync(4_000);
      expect((await outcome).minSendable).toBe(1000);
    });
  });

  it("an unreachable server", async () => {
    const { opts } = client({ [WELL_KNOWN]: () => Promise.reject(new TypeError("connection refused")) });
    expect((await refusal(resolveLightningAddress("alice@provider.com", opts))).code).toBe("network");
  });
});

describe("LNURL_OVERRIDES", () => {
  const overrides = parseLnurlOverrides(" provider.test=http://127.0.0.1:9911 , other.test=http://127.0.0.1:9922/base/ ");

  it("parses domain=base pairs and refuses anything else", () => {
    expect([...overrides.keys()]).toEqual(["provider.test", "other.test"]);
    expect(parseLnurlOverrides("").size).toBe(0);
    expect(parseLnurlOverrides(undefined).size).toBe(0);
    for (const bad of ["provider.test", "=http://127.0.0.1:1", "provider.test=ftp://x", "provider.test=not a url"]) {
      expect(() => parseLnurlOverrides(bad)).toThrow(LnurlError);
    }
  });

  it("fetches an overridden domain from its base, callbacks included", async () => {
    const provider = lnurlProvider({ domain: "provider.test", base: "http://127.0.0.1:9911" });
    const { opts, calls } = client(provider, { overrides });
    const invoice = await fetchPayoutInvoice("alice@provider.test", 500, opts);
    expect(invoice.amountMsat).toBe(500_000);
    expect(calls.map((c) => c.url)).toEqual([
      "http://127.0.0.1:9911/.well-known/lnurlp/alice",
      "http://127.0.0.1:9911/lnurlp/alice/callback?amount=500000",
    ]);
  });

  it("accepts a callback naming the override base itself, and keeps the base's path", async () => {
    const provider = lnurlProvider({ domain: "other.test", base: "http://127.0.0.1:9922/base", callback: "http://127.0.0.1:9922/base/lnurlp/alice/callback" });
    const { opts, calls } = client(provider, { overrides });
    await fetchPayoutInvoice("alice@other.test", 1, opts);
    expect(calls[0]!.url).toBe("http://127.0.0.1:9922/base/.well-known/lnurlp/alice");
    expect(calls[1]!.url).toBe("http://127.0.0.1:9922/base/lnurlp/alice/callback?amount=1000");
  });

  it("leaves other domains under the ordinary rules", () => {
    expect(() => outboundUrl("http://127.0.0.1:9933/x", overrides)).toThrow(LnurlError);
    expect(outboundUrl("https://provider.com/x", overrides).href).toBe("https://provider.com/x");
    // A path cannot smuggle another host into the rewritten URL.
    expect(outboundUrl("https://provider.test//evil.example/x", overrides).host).toBe("127.0.0.1:9911");
  });
});

describe("host rules", () => {
  it("allow ordinary public names and refuse the rest", () => {
    expect(forbiddenHostReason("getalby.com")).toBeNull();
    expect(forbiddenHostReason("wallet.of.satoshi.com")).toBeNull();
    for (const host of ["127.0.0.1", "[::1]", "localhost", "localhost.", "a.localhost", "x.local", "svc.internal", "router", "nas.home.arpa", "1.2.3.4"]) {
      expect(forbiddenHostReason(host)).not.toBeNull();
    }
  });

  it("msat amounts pass through to the callback (the alias server proxies payers' amounts)", async () => {
    const { opts, calls } = client(lnurlProvider());
    const payRequest = await resolveLightningAddress("alice@provider.com", opts);
    const invoice = await requestInvoiceMsat(payRequest, 1_500, opts);
    expect(invoice.amountMsat).toBe(1_500);
    expect(calls[1]!.url).toBe(`${CALLBACK}?amount=1500`);
  });
});

describe("this site's own alias endpoints (the Worker must never pay through itself)", () => {
  const OWN = ["gigstr.test", "pay.gigstr.example"];

  it("refuses a payRequest whose callback is one of our alias callbacks, without calling it", async () => {
    for (const callback of [
      "https://gigstr.test/.well-known/lnurlp/bob/callback",
      "https://PAY.gigstr.example./.well-known/lnurlp/bob/callback?x=1",
      "https://gigstr.test/%2Ewell-known/lnurlp/bob/%63allback",
    ]) {
      const { opts, calls } = client(lnurlProvider({ callback }), { ownHosts: OWN });
      const err = await refusal(fetchPayoutInvoice("alice@provider.com", 21, opts));
      expect(err.code).toBe("alias_loop");
      expect(err.message).toBe("provider.com sends payments to an alias on this site: Gigstr would call itself, so it is not paid this way");
      expect(calls.map((c) => c.url)).toEqual([WELL_KNOWN]);
    }
  });

  it("refuses a destination that is itself an alias on this site, without fetching it", async () => {
    const lnurl = bech32Encode("lnurl", toWords(new TextEncoder().encode("https://gigstr.test/.well-known/lnurlp/bob"))).toUpperCase();
    for (const destination of ["bob@gigstr.test", "bob@Pay.Gigstr.Example", lnurl]) {
      const { opts, calls } = client({}, { ownHosts: OWN });
      const err = await refusal(fetchPayoutInvoice(destination, 21, opts));
      expect(err.code).toBe("alias_loop");
      expect(calls).toEqual([]);
    }
  });

  it("leaves everything else alone: other hosts, and other paths on our own host", async () => {
    const { opts } = client(lnurlProvider(), { ownHosts: OWN });
    expect((await fetchPayoutInvoice("alice@provider.com", 21, opts)).amountMsat).toBe(21_000);
    const elsewhere = lnurlProvider({ callback: "https://gigstr.test/api/something/callback" });
    elsewhere["https://gigstr.test/api/something/callback"] = elsewhere["https://provider.com/lnurlp/alice/callback"]!;
    const other = client(elsewhere, { ownHosts: OWN });
    expect((await fetchPayoutInvoice("alice@provider.com", 21, other.opts)).amountMsat).toBe(21_000);
  });
});
