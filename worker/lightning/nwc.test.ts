import { matchFilter, type Filter } from "nostr-tools/filter";
import * as nip04 from "nostr-tools/nip04";
import * as nip44 from "nostr-tools/nip44";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event, type VerifiedEvent } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { LightningError } from "./backend";
import { bytesToHex } from "./invoice";
import { NWC_INFO_KIND, NWC_REQUEST_KIND, NWC_RESPONSE_KIND, NwcBackend, NwcTransportError, parseNwcUrl, relayTransport, type NwcEncryption, type NwcTransport } from "./nwc";
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

type Frame = unknown[];

/** A socket of a scripted relay, as the transport sees a WebSocket; the relay's side acts through `reply`, `drop` and `fail`. */
interface ScriptedSocket {
  url: string;
  readyState: number;
  /** The frames the client sent (each written to the open socket). */
  sent: Frame[];
  closedByClient: boolean;
  reply(frame: Frame | string | ArrayBuffer): void;
  /** The connection is gone (no close frame). */
  drop(code?: number): void;
  /** An error, then the connection is gone. */
  fail(): void;
}

interface RelayScript {
  /** What the connection does: opens (default), fails, closes before opening, never opens, or the constructor throws. */
  connect?: "open" | "fail" | "close" | "never" | "throw";
  /** The relay's side, for each frame the client sent (after it was written). */
  onFrame?: (frame: Frame, socket: ScriptedSocket) => void;
  /** A send that throws (nothing recorded as sent). */
  sendThrows?: (frame: Frame) => boolean;
}

/** A WebSocket implementation whose relay follows `script(url)`; each socket is kept in `sockets`. */
function scriptedRelays(script: (url: string) => RelayScript) {
  const sockets: ScriptedSocket[] = [];
  class Socket implements ScriptedSocket {
    readyState = 0;
    sent: Frame[] = [];
    closedByClient = false;
    private readonly listeners = new Map<string, ((e: unknown) => void)[]>();
    private readonly script: RelayScript;
    constructor(readonly url: string) {
      this.script = script(url);
      if (this.script.connect === "throw") throw new Error("invalid URL");
      sockets.push(this);
      setTimeout(() => {
        const connect = this.script.connect ?? "open";
        if (connect === "open") {
          this.readyState = 1;
          this.emit("open", {});
        } else if (connect === "fail") this.fail();
        else if (connect === "close") this.drop(1002);
      }, 1);
    }
    addEventListener(type: string, listener: (e: unknown) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    private emit(type: string, e: unknown) {
      for (const listener of this.listeners.get(type) ?? []) listener(e);
    }
    send(data: string) {
      if (this.readyState !== 1) throw new Error("not open");
      const frame = JSON.parse(data) as Frame;
      if (this.script.sendThrows?.(frame)) throw new Error("send failed");
      this.sent.push(frame);
      setTimeout(() => this.script.onFrame?.(frame, this), 1);
    }
    close() {
      if (this.readyState >= 2) return;
      this.closedByClient = true;
      this.readyState = 3;
      setTimeout(() => this.emit("close", { code: 1000, reason: "" }), 1);
    }
    reply(frame: Frame | string | ArrayBuffer) {
      if (this.readyState === 1) this.emit("message", { data: Array.isArray(frame) ? JSON.stringify(frame) : frame });
    }
    drop(code = 1006) {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.emit("close", { code, reason: "" });
    }
    fail() {
      this.emit("error", {});
      this.drop();
    }
  }
  return { webSocket: Socket as unknown as typeof WebSocket, sockets };
}

describe("The relay transport: a request that fails was not sent only if nothing was written or the relay said OK false", () => {
  const walletKey = generateSecretKey();
  const walletPubkey = getPublicKey(walletKey);
  const clientKey = generateSecretKey();
  const at = Math.floor(Date.now() / 1000);
  const answerTo = (request: Event, signer = walletKey, content = "answer") =>
    finalizeEvent({ kind: NWC_RESPONSE_KIND, created_at: at, tags: [["e", request.id], ["p", getPublicKey(clientKey)]], content }, signer);
  /** On the client's EVENT frame, `then(request, socket)`. */
  const onRequest = (then: (request: Event, socket: ScriptedSocket) => void): RelayScript["onFrame"] => (frame, socket) => {
    if (frame[0] === "EVENT") then(frame[1] as Event, socket);
  };

  async function send(script: RelayScript, timeoutMs = 300) {
    const relays = scriptedRelays(() => script);
    const request = finalizeEvent({ kind: NWC_REQUEST_KIND, created_at: at, tags: [["p", walletPubkey]], content: "request" }, clientKey);
    const filter: Filter = { kinds: [NWC_RESPONSE_KIND], authors: [walletPubkey], "#e": [request.id] };
    try {
      const answer = await relayTransport(relays.webSocket).request("wss://relay.test", request, filter, timeoutMs);
      return { answer, request, sockets: relays.sockets };
    } catch (err) {
      if (!(err instanceof NwcTransportError)) throw err;
      return { sent: err.sent, message: err.message, request, sockets: relays.sockets };
    }
  }

  it("not sent: the connection fails, closes before opening, never opens, or cannot be made", async () => {
    for (const connect of ["fail", "close", "never", "throw"] as const) {
      expect(await send({ connect }, 50), connect).toMatchObject({ sent: false, message: expect.stringContaining("could not connect") });
    }
  });

  it("not sent: the relay refuses the request with OK false, whatever its reason", async () => {
    for (const reason of ["blocked: not on the list", "auth-required: sign in", "rate-limited: slow down", "error: timed out", ""]) {
      const result = await send({ onFrame: onRequest((request, socket) => socket.reply(["OK", request.id, false, reason])) });
      expect(result, reason).toMatchObject({ sent: false, message: expect.stringContaining("refused the request") });
      expect(result.sockets[0]!.closedByClient).toBe(true);
    }
  });

  it("not sent: the subscription for the answer cannot be sent (so neither was the request)", async () => {
    const result = await send({ sendThrows: (frame) => frame[0] === "REQ" });
    expect(result).toMatchObject({ sent: false });
    expect(result.sockets[0]!.sent).toEqual([]);
  });

  it("maybe sent: the connection drops once the request was written, before any OK (what a relay restart looks like)", async () => {
    const result = await send({ onFrame: onRequest((_request, socket) => socket.drop()) });
    expect(result).toMatchObject({ sent: true, message: expect.stringContaining("may have reached") });
  });

  it("maybe sent: every other failure once the request was written", async () => {
    const cases: [string, RelayScript][] = [
      ["a drop after OK true", { onFrame: onRequest((request, socket) => (socket.reply(["OK", request.id, true, ""]), socket.drop())) }],
      ["a close with a policy-violation code", { onFrame: onRequest((_request, socket) => socket.drop(1008)) }],
      ["an error on the socket", { onFrame: onRequest((_request, socket) => socket.fail()) }],
      ["silence", {}],
      ["OK true, then silence", { onFrame: onRequest((request, socket) => socket.reply(["OK", request.id, true, ""])) }],
      ["OK false \"duplicate:\" (the relay already has it)", { onFrame: onRequest((request, socket) => socket.reply(["OK", request.id, false, "duplicate: have it"])) }],
      ["OK false for another event, then a drop", { onFrame: onRequest((_request, socket) => (socket.reply(["OK", "ab".repeat(32), false, "blocked"]), socket.drop())) }],
      ["an OK that is neither true nor false, then a drop", { onFrame: onRequest((request, socket) => (socket.reply(["OK", request.id, "false", "blocked"]), socket.drop())) }],
      ["the subscription closed, then OK true", { onFrame: onRequest((request, socket) => (socket.reply(["CLOSED", socket.sent[0]![1], "error: shutting down"]), socket.reply(["OK", request.id, true, ""]))) }],
      ["the subscription closed, then silence", { onFrame: onRequest((_request, socket) => socket.reply(["CLOSED", socket.sent[0]![1], "error: shutting down"])) }],
      ["a send of the request that throws", { sendThrows: (frame) => frame[0] === "EVENT" }],
    ];
    for (const [what, script] of cases) expect(await send(script), what).toMatchObject({ sent: true });
  });

  it("the subscription closed, then OK false: not sent", async () => {
    const script: RelayScript = {
      onFrame: onRequest((request, socket) => {
        socket.reply(["CLOSED", socket.sent[0]![1], "auth-required: sign in"]);
        socket.reply(["OK", request.id, false, "auth-required: sign in"]);
      }),
    };
    expect(await send(script)).toMatchObject({ sent: false });
  });

  it("subscribes before it sends the request, takes the first signed answer that matches, and closes the socket", async () => {
    const result = await send({
      onFrame: onRequest((request, socket) => {
        const subscription = socket.sent[0]![1];
        socket.reply(["OK", request.id, true, ""]);
        socket.reply(["EVENT", subscription, answerTo(request, generateSecretKey())]);
        socket.reply(["EVENT", subscription, { ...answerTo(request), content: "tampered" }]);
        socket.reply(["EVENT", subscription, { not: "an event" }]);
        socket.reply(["EVENT", "another-subscription", answerTo(request)]);
        socket.reply("not json");
        socket.reply(new TextEncoder().encode(JSON.stringify(["EVENT", subscription, answerTo(request, walletKey, "the real one")])).buffer as ArrayBuffer);
      }),
    });
    expect(result.answer).toMatchObject({ content: "the real one", pubkey: walletPubkey });
    const [socket] = result.sockets;
    expect(socket!.sent.map((f) => f[0])).toEqual(["REQ", "EVENT"]);
    expect(socket!.sent[0]![2]).toEqual({ kinds: [NWC_RESPONSE_KIND], authors: [walletPubkey], "#e": [result.request.id] });
    expect((socket!.sent[1]![1] as Event).id).toBe(result.request.id);
    expect(socket!.closedByClient).toBe(true);
  });

  it("a payment whose request was written before the relay dropped is unknown, never failed, and goes to no other relay", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const relays = scriptedRelays((url) => (url.includes("one") ? { onFrame: onRequest((_request, socket) => socket.drop()) } : {}));
    const url = `nostr+walletconnect://${walletPubkey}?relay=wss://one.example.com&relay=wss://two.example.com&secret=${bytesToHex(clientKey)}`;
    const backend = new NwcBackend({ url, transport: relayTransport(relays.webSocket), encryption: "nip44_v2", payTimeoutMs: 300 });
    expect(await backend.payInvoice(inv.bolt11, 10)).toMatchObject({ status: "unknown" });
    expect(relays.sockets.map((s) => s.url)).toEqual(["wss://one.example.com"]);
  });

  it("a payment refused with OK false by every relay failed; a refusal sends it to the next relay", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const relays = scriptedRelays(() => ({ onFrame: onRequest((request, socket) => socket.reply(["OK", request.id, false, "blocked: no"])) }));
    const url = `nostr+walletconnect://${walletPubkey}?relay=wss://one.example.com&relay=wss://two.example.com&secret=${bytesToHex(clientKey)}`;
    const backend = new NwcBackend({ url, transport: relayTransport(relays.webSocket), encryption: "nip44_v2", payTimeoutMs: 300 });
    expect(await backend.payInvoice(inv.bolt11, 10)).toMatchObject({ status: "failed", reason: expect.stringContaining("refused the request (blocked: no)") });
    expect(relays.sockets.map((s) => s.url)).toEqual(["wss://one.example.com", "wss://two.example.com"]);
  });
});
