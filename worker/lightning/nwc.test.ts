import { matchFilter, type Filter } from "nostr-tools/filter";
import * as nip04 from "nostr-tools/nip04";
import * as nip44 from "nostr-tools/nip44";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event, type VerifiedEvent } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { LightningError } from "./backend";
import { bytesToHex } from "./invoice";
import { NWC_INFO_KIND, NWC_REQUEST_KIND, NWC_RESPONSE_KIND, NwcBackend, NwcTransportError, parseNwcUrl, type NwcEncryption, type NwcTransport } from "./nwc";
import { strangerInvoice } from "./test-helpers";

type Reply = { result_type?: string; error?: { code: string; message?: string } | null; result?: Record<string, unknown> | null };
type WalletBehaviour = (method: string, params: Record<string, unknown>) => Reply | "silence" | "unreachable" | "forged" | Promise<Reply>;

/** A relay with a wallet behind it: decrypts each request as the wallet would and answers through `behaviour`. */
function fakeWallet(behaviour: WalletBehaviour, relays = ["wss://relay.example.com"], down: Record<string, "unreachable" | "silence"> = {}) {
  const walletKey = generateSecretKey();
  const walletPubkey = getPublicKey(walletKey);
  const clientKey = generateSecretKey();
  const requests: { event: VerifiedEvent; method: string; params: Record<string, unknown>; relay: string }[] = [];

  const transport: NwcTransport = {
    async request(relay, event, filter: Filter) {
      if (down[relay] === "unreachable") throw new NwcTransportError("connection refused", false);
      if (down[relay] === "silence") throw new NwcTransportError("no answer", true);
      const behaviourFor = (method: string, params: Record<string, unknown>) => behaviour(method, params);
      expect(verifyEvent(event)).toBe(true);
      const clientPubkey = event.pubkey;
      const nip44Tagged = event.tags.some((t) => t[0] === "encryption" && t[1] === "nip44_v2");
      const plaintext = nip44Tagged
        ? nip44.decrypt(event.content, nip44.getConversationKey(walletKey, clientPubkey))
        : nip04.decrypt(walletKey, clientPubkey, event.content);
      const { method, params } = JSON.parse(plaintext) as { method: string; params: Record<string, unknown> };
      requests.push({ event, method, params, relay });
      const reply = await behaviourFor(method, params);
      if (reply === "unreachable") throw new NwcTransportError("connection refused", false);
      if (reply === "silence") throw new NwcTransportError("the wallet did not answer in time", true);
      const body = JSON.stringify({ result_type: method, error: null, result: null, ...(reply === "forged" ? { result: { preimage: "00".repeat(32) } } : reply) });
      const signer = reply === "forged" ? generateSecretKey() : walletKey;
      const content = nip44Tagged ? nip44.encrypt(body, nip44.getConversationKey(walletKey, clientPubkey)) : nip04.encrypt(walletKey, clientPubkey, body);
      const response: Event = finalizeEvent(
        { kind: NWC_RESPONSE_KIND, created_at: event.created_at, tags: [["p", clientPubkey], ["e", event.id]], content },
        signer,
      );
      if (reply !== "forged") expect(matchFilter(filter, response)).toBe(true);
      return response;
    },
  };
  const url = `nostr+walletconnect://${walletPubkey}?${relays.map((r) => `relay=${encodeURIComponent(r)}`).join("&")}&secret=${bytesToHex(clientKey)}`;
  const backend = (encryption?: NwcEncryption) => new NwcBackend({ url, transport, encryption });
  return { backend, requests, walletPubkey, clientPubkey: getPublicKey(clientKey), transport, url, walletKey };
}

describe("NWC_URL", () => {
  it("gives the wallet key, relays and secret", () => {
    const pk = "b".repeat(64);
    const conn = parseNwcUrl(`nostr+walletconnect://${pk}?relay=wss://relay.one&relay=wss%3A%2F%2Frelay.two&secret=${"a".repeat(64)}&lud16=x@y.z`);
    expect(conn).toEqual({ walletPubkey: pk, relays: ["wss://relay.one", "wss://relay.two"], secret: "a".repeat(64) });
  });

  it("refuses anything incomplete", () => {
    for (const bad of [undefined, "", "https://x", `nostr+walletconnect://${"b".repeat(64)}?secret=${"a".repeat(64)}`, `nostr+walletconnect://xyz?relay=wss://r&secret=${"a".repeat(64)}`, `nostr+walletconnect://${"b".repeat(64)}?relay=wss://r&secret=short`]) {
      expect(() => parseNwcUrl(bad)).toThrow(LightningError);
    }
  });
});

describe("NWC requests", () => {
  it("are kind 23194 events to the wallet, NIP-04 encrypted by default", async () => {
    const inv = await strangerInvoice({ amountMsat: 10_250_000, description: "Gigstr: Logo" });
    const wallet = fakeWallet(() => ({ result: { type: "incoming", invoice: inv.bolt11, payment_hash: inv.paymentHash } }));
    const created = await wallet.backend().createInvoice(10_250, "Gigstr: Logo", 3600);
    expect(created).toMatchObject({ bolt11: inv.bolt11, paymentHash: inv.paymentHash });

    const [req] = wallet.requests;
    expect(req!.relay).toBe("wss://relay.example.com");
    expect(req!.event.kind).toBe(NWC_REQUEST_KIND);
    expect(req!.event.pubkey).toBe(wallet.clientPubkey);
    expect(req!.event.tags).toContainEqual(["p", wallet.walletPubkey]);
    expect(req!.event.content).toContain("?iv=");
    expect(req!.method).toBe("make_invoice");
    expect(req!.params).toEqual({ amount: 10_250_000, description: "Gigstr: Logo", expiry: 3600 });
  });

  it("use NIP-44 when asked, and say so in a tag", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const wallet = fakeWallet(() => ({ result: { invoice: inv.bolt11 } }));
    await wallet.backend("nip44_v2").createInvoice(1, "m", 60);
    expect(wallet.requests[0]!.event.tags).toContainEqual(["encryption", "nip44_v2"]);
    expect(wallet.requests[0]!.event.content).not.toContain("?iv=");
  });

  it("use what the wallet's info event offers when NWC_URL's owner chose nothing: NIP-44 v2 if offered, else NIP-04", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const info = (signer: Uint8Array, encryption: string | null) =>
      finalizeEvent({ kind: NWC_INFO_KIND, created_at: 1_795_000_000, tags: encryption ? [["encryption", encryption]] : [], content: "get_info make_invoice pay_invoice" }, signer);
    const cases: [string, (walletKey: Uint8Array) => Event | null, boolean][] = [
      ["offers both", (k) => info(k, "nip04 nip44_v2"), true],
      ["offers NIP-04 only", (k) => info(k, "nip04"), false],
      ["names no encryption", (k) => info(k, null), false],
      ["has no info event", () => null, false],
      ["is impersonated by another key", () => info(generateSecretKey(), "nip44_v2"), false],
    ];
    for (const [what, infoOf, nip44Expected] of cases) {
      const wallet = fakeWallet(() => ({ result: { invoice: inv.bolt11 } }));
      const backend = new NwcBackend({ url: wallet.url, transport: { ...wallet.transport, latest: async () => infoOf(wallet.walletKey) } });
      await backend.createInvoice(1, "m", 60);
      expect(wallet.requests[0]!.event.tags.some((t) => t[0] === "encryption" && t[1] === "nip44_v2"), what).toBe(nip44Expected);
    }
  });

  it("check the wallet with get_info: a connection without pay_invoice cannot pay, and Money Health says so", async () => {
    const readOnly = fakeWallet(() => ({ result: { alias: "Hub", methods: ["get_info", "make_invoice", "lookup_invoice"] } }));
    expect(await readOnly.backend().checkWallet()).toMatchObject({ ok: false, problem: expect.stringMatching(/may not pay.*without pay_invoice/) });
    const payer = fakeWallet((method) => (method === "get_balance" ? { result: { balance: 21_000_000 } } : { result: { methods: ["get_info", "pay_invoice", "get_balance"] } }));
    expect(await payer.backend().checkWallet()).toMatchObject({ ok: true, balanceSats: 21_000 });
    const silent = fakeWallet(() => "silence");
    expect(await silent.backend().checkWallet()).toMatchObject({ ok: false, problem: expect.stringMatching(/did not answer get_info/) });
  });

  it("refuse an invoice for another amount", async () => {
    const inv = await strangerInvoice({ amountMsat: 2_000 });
    const wallet = fakeWallet(() => ({ result: { invoice: inv.bolt11 } }));
    await expect(wallet.backend().createInvoice(1, "m", 60)).rejects.toMatchObject({ code: "bad_response" });
  });

  it("look invoices up: settled, pending, expired, unknown hash", async () => {
    const states: Record<string, Record<string, unknown> | { code: string }> = {
      settled: { type: "incoming", state: "settled", amount: 5_000, settled_at: 1_795_000_000 },
      old: { type: "incoming", amount: 5_000, settled_at: 1_795_000_000 },
      pending: { type: "incoming", state: "pending", amount: 5_000, expires_at: Math.floor(Date.now() / 1000) + 600 },
      lapsed: { type: "incoming", amount: 5_000, expires_at: Math.floor(Date.now() / 1000) - 600 },
      expired: { type: "incoming", state: "expired", amount: 5_000 },
      missing: { code: "NOT_FOUND" },
    };
    const wallet = fakeWallet((_m, params) => {
      const s = states[String(params.payment_hash)]!;
      return "code" in s ? { error: { code: String(s.code), message: "no such invoice" } } : { result: s };
    });
    const backend = wallet.backend();
    expect(await backend.lookupInvoice("settled")).toMatchObject({ status: "paid", amountSats: 5 });
    expect((await backend.lookupInvoice("old")).status).toBe("paid");
    expect((await backend.lookupInvoice("pending")).status).toBe("pending");
    expect((await backend.lookupInvoice("lapsed")).status).toBe("expired");
    expect((await backend.lookupInvoice("expired")).status).toBe("expired");
    await expect(backend.lookupInvoice("missing")).rejects.toMatchObject({ code: "not_found" });
    expect(wallet.requests.every((r) => r.method === "lookup_invoice")).toBe(true);
  });
});

describe("NWC payments", () => {
  it("succeed with a preimage that hashes to the invoice's payment hash", async () => {
    const inv = await strangerInvoice({ amountMsat: 9_750_000 });
    const wallet = fakeWallet(() => ({ result: { preimage: inv.preimage, fees_paid: 2_100 } }));
    expect(await wallet.backend().payInvoice(inv.bolt11, 98)).toEqual({ status: "succeeded", preimage: inv.preimage, feeSats: 3 });
    const req = wallet.requests[0]!;
    expect(req.method).toBe("pay_invoice");
    expect(req.params).toEqual({ invoice: inv.bolt11 });
    const expiration = req.event.tags.find((t) => t[0] === "expiration");
    expect(Number(expiration?.[1])).toBeGreaterThan(req.event.created_at);
  });

  it("are unknown when the wallet claims success with a wrong preimage", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const wallet = fakeWallet(() => ({ result: { preimage: "11".repeat(32) } }));
    expect((await wallet.backend().payInvoice(inv.bolt11, 10)).status).toBe("unknown");
  });

  it("fail when the wallet refuses before trying", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    for (const code of ["INSUFFICIENT_BALANCE", "QUOTA_EXCEEDED", "RESTRICTED", "UNAUTHORIZED", "RATE_LIMITED", "NOT_IMPLEMENTED"]) {
      const wallet = fakeWallet(() => ({ error: { code, message: "no" } }));
      expect(await wallet.backend().payInvoice(inv.bolt11, 10)).toMatchObject({ status: "failed", reason: `${code}: no` });
    }
  });

  it("fail when nothing could be sent", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const wallet = fakeWallet(() => "unreachable");
    expect((await wallet.backend().payInvoice(inv.bolt11, 10)).status).toBe("failed");
  });

  it("are unknown on PAYMENT_FAILED, INTERNAL, OTHER, silence and forged answers", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const answers: ReturnType<WalletBehaviour>[] = [
      { error: { code: "PAYMENT_FAILED", message: "timeout" } },
      { error: { code: "INTERNAL" } },
      { error: { code: "OTHER" } },
      "silence",
      "forged",
      { result: { nothing: true } },
    ];
    for (const answer of answers) {
      const wallet = fakeWallet(() => answer);
      expect((await wallet.backend().payInvoice(inv.bolt11, 10)).status).toBe("unknown");
    }
  });

  it("are looked up by payment hash", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const txs: Record<string, Reply> = {
      ok: { result: { type: "outgoing", state: "settled", preimage: inv.preimage, fees_paid: 1_000, settled_at: 1_795_000_000 } },
      bad: { result: { type: "outgoing", state: "settled", preimage: "22".repeat(32) } },
      failed: { result: { type: "outgoing", state: "failed" } },
      pending: { result: { type: "outgoing", state: "pending" } },
      missing: { error: { code: "NOT_FOUND" } },
      broken: { error: { code: "INTERNAL" } },
    };
    const wallet = fakeWallet((_m, params) => {
      const key = params.payment_hash === inv.paymentHash ? "ok" : String(params.payment_hash);
      return txs[key]!;
    });
    const backend = wallet.backend();
    expect(await backend.lookupPayment(inv.paymentHash)).toEqual({ status: "succeeded", preimage: inv.preimage, feeSats: 1 });
    expect((await backend.lookupPayment("bad")).status).toBe("unknown");
    expect((await backend.lookupPayment("failed")).status).toBe("failed");
    expect((await backend.lookupPayment("pending")).status).toBe("pending");
    expect(await backend.lookupPayment("missing")).toMatchObject({ status: "unknown", notFound: true });
    expect((await backend.lookupPayment("broken")).status).toBe("unknown");
  });

  it("not found by lookup_invoice, are read from the wallet's list of outgoing payments (list_transactions)", async () => {
    const settled = await strangerInvoice({ amountMsat: 1_000 });
    const listed = [
      { type: "outgoing", state: "failed", payment_hash: "f".repeat(64) },
      { type: "outgoing", state: "settled", payment_hash: settled.paymentHash, preimage: settled.preimage, fees_paid: 2_000 },
      { type: "incoming", state: "settled", payment_hash: "e".repeat(64) },
    ];
    const wallet = fakeWallet((method, params) => {
      if (method === "lookup_invoice") return { error: { code: "NOT_FOUND" } };
      expect(params).toEqual({ type: "outgoing", limit: 100 });
      return { result: { transactions: listed } };
    });
    const backend = wallet.backend();
    expect(await backend.lookupPayment("f".repeat(64))).toMatchObject({ status: "failed" });
    expect(await backend.lookupPayment(settled.paymentHash)).toEqual({ status: "succeeded", preimage: settled.preimage, feeSats: 2 });
    // An incoming invoice with the hash, or no entry at all: still not found, never failed.
    expect(await backend.lookupPayment("e".repeat(64))).toMatchObject({ status: "unknown", notFound: true });
    expect(await backend.lookupPayment("d".repeat(64))).toMatchObject({ status: "unknown", notFound: true });
    expect(wallet.requests.map((r) => r.method)).toContain("list_transactions");
  });

  it("go to the next relay only when the first surely did not take the request", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const relays = ["wss://one.example.com", "wss://two.example.com"];
    const answer = () => ({ result: { preimage: inv.preimage } });
    const fallback = fakeWallet(answer, relays, { "wss://one.example.com": "unreachable" });
    expect((await fallback.backend().payInvoice(inv.bolt11, 10)).status).toBe("succeeded");
    expect(fallback.requests.map((r) => r.relay)).toEqual(["wss://two.example.com"]);
    const maybeSent = fakeWallet(answer, relays, { "wss://one.example.com": "silence" });
    expect((await maybeSent.backend().payInvoice(inv.bolt11, 10)).status).toBe("unknown");
    expect(maybeSent.requests).toHaveLength(0);
  });
});
