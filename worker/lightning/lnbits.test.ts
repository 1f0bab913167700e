import { afterEach, describe, expect, it, vi } from "vitest";
import { LightningError } from "./backend";
import { LnbitsBackend } from "./lnbits";
import { scriptedFetch, strangerInvoice, type Handler, type Routes } from "./test-helpers";

const BASE = "https://lnbits.example.com";
const PAYMENTS = `${BASE}/api/v1/payments`;
const RESERVE = `${BASE}/api/v1/payments/fee-reserve`;

function lnbits(routes: Routes, extra: { webhookUrl?: string; now?: () => number } = {}) {
  const scripted = scriptedFetch(routes);
  const backend = new LnbitsBackend({ url: `${BASE}/`, adminKey: "admin-key", fetch: scripted.fetch, ...extra });
  return { backend, calls: scripted.calls };
}

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const json = (body: unknown, status = 200) => Response.json(body, { status });

describe("LNbits invoices", () => {
  it("creates an invoice with the key, amount, memo, expiry and webhook, and checks what comes back", async () => {
    const inv = await strangerInvoice({ amountMsat: 10_250_000, description: "Gigstr: Logo", expirySec: 3600 });
    const { backend, calls } = lnbits(
      { [PAYMENTS]: () => json({ payment_hash: inv.paymentHash, bolt11: inv.bolt11, status: "pending", checking_id: inv.paymentHash }, 201) },
      { webhookUrl: "https://gigstr.example/api/webhooks/lightning/s3cret" },
    );
    const created = await backend.createInvoice(10_250, "Gigstr: Logo", 3600);
    expect(created).toMatchObject({ bolt11: inv.bolt11, paymentHash: inv.paymentHash });
    expect(Date.parse(created.expiresAt)).toBeGreaterThan(Date.now());
    const call = calls[0]!;
    expect(call.init.method).toBe("POST");
    expect(new Headers(call.init.headers).get("x-api-key")).toBe("admin-key");
    expect(bodyOf(call.init)).toEqual({ out: false, amount: 10_250, unit: "sat", memo: "Gigstr: Logo", expiry: 3600, webhook: "https://gigstr.example/api/webhooks/lightning/s3cret" });
  });

  it("accepts the older answer with payment_request", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const { backend } = lnbits({ [PAYMENTS]: () => json({ payment_hash: inv.paymentHash, payment_request: inv.bolt11, checking_id: "x" }, 201) });
    expect((await backend.createInvoice(1, "m", 60)).bolt11).toBe(inv.bolt11);
  });

  it("refuses an invoice for another amount or hash, and reports LNbits being down", async () => {
    const inv = await strangerInvoice({ amountMsat: 2_000 });
    const { backend } = lnbits({ [PAYMENTS]: () => json({ payment_hash: inv.paymentHash, bolt11: inv.bolt11 }, 201) });
    await expect(backend.createInvoice(1, "m", 60)).rejects.toMatchObject({ code: "bad_response" });
    const { backend: wrongHash } = lnbits({ [PAYMENTS]: () => json({ payment_hash: "00".repeat(32), bolt11: inv.bolt11 }, 201) });
    await expect(wrongHash.createInvoice(2, "m", 60)).rejects.toMatchObject({ code: "bad_response" });
    const { backend: down } = lnbits({ [PAYMENTS]: () => json({ detail: "boom" }, 500) });
    await expect(down.createInvoice(2, "m", 60)).rejects.toMatchObject({ code: "unavailable" });
    const { backend: refused } = lnbits({ [PAYMENTS]: () => json({ detail: "Invalid key" }, 401) });
    await expect(refused.createInvoice(2, "m", 60)).rejects.toBeInstanceOf(LightningError);
  });

  it("looks an invoice up: paid, pending, expired after its expiry, unknown", async () => {
    const inv = await strangerInvoice({ amountMsat: 5_000, expirySec: 600 });
    const at = (path: string) => `${PAYMENTS}/${path}`;
    const details = { bolt11: inv.bolt11, amount: 5_000, status: "pending" };
    let now = Date.now();
    const { backend } = lnbits(
      {
        [at("paid")]: () => json({ paid: true, preimage: inv.preimage, details: { ...details, status: "success" } }),
        [at("pending")]: () => json({ paid: false, status: "pending", details }),
        [at("failed")]: () => json({ paid: false, status: "failed", details }),
      },
      { now: () => now },
    );
    expect(await backend.lookupInvoice("paid")).toMatchObject({ status: "paid", amountSats: 5 });
    expect(await backend.lookupInvoice("pending")).toMatchObject({ status: "pending", amountSats: 5 });
    expect((await backend.lookupInvoice("failed")).status).toBe("expired");
    now += 600_000 + 61_000;
    expect((await backend.lookupInvoice("pending")).status).toBe("expired");
    await expect(backend.lookupInvoice("missing")).rejects.toMatchObject({ code: "unavailable" });
  });
});

describe("LNbits payments", () => {
  let invoice: Awaited<ReturnType<typeof strangerInvoice>>;
  const reserve = (msat = 10_000): Handler => () => json({ fee_reserve: msat });
  const setup = async (pay: Handler, extra: Record<string, Handler> = {}) => {
    invoice = await strangerInvoice({ amountMsat: 9_750_000 });
    return lnbits({ [RESERVE]: reserve(), [PAYMENTS]: pay, ...extra });
  };

  afterEach(() => {
    vi.useRealTimers();
  });

  it("succeeds with the preimage and the fee LNbits charged", async () => {
    const { backend, calls } = await setup(() => json({ payment_hash: invoice.paymentHash, status: "success", preimage: invoice.preimage, fee: -3_000 }, 201));
    expect(await backend.payInvoice(invoice.bolt11, 98)).toEqual({ status: "succeeded", preimage: invoice.preimage, feeSats: 3 });
    const pay = calls.find((c) => c.init.method === "POST")!;
    expect(bodyOf(pay.init)).toEqual({ out: true, bolt11: invoice.bolt11 });
  });

  it("fails, without paying, when LNbits would reserve more than the fee cap", async () => {
    invoice = await strangerInvoice({ amountMsat: 9_750_000 });
    const { backend, calls } = lnbits({ [RESERVE]: reserve(200_000), [PAYMENTS]: () => json({}, 201) });
    expect(await backend.payInvoice(invoice.bolt11, 98)).toMatchObject({ status: "failed" });
    expect(calls.some((c) => c.init.method === "POST")).toBe(false);
  });

  it("fails on LNbits' explicit failure", async () => {
    const { backend } = await setup(() => json({ detail: "Insufficient balance.", status: "failed" }, 520));
    expect(await backend.payInvoice(invoice.bolt11, 98)).toEqual({ status: "failed", reason: "LNbits: Insufficient balance." });
    const { backend: failedPayment } = await setup(() => json({ payment_hash: invoice.paymentHash, status: "failed" }, 201));
    expect((await failedPayment.payInvoice(invoice.bolt11, 98)).status).toBe("failed");
    const { backend: badRequest } = await setup(() => json({ detail: "Invalid bolt11" }, 400));
    expect((await badRequest.payInvoice(invoice.bolt11, 98)).status).toBe("failed");
  });

  it("is unknown, never failed, on a 520 still pending, a 5xx, a gateway error or an unreadable answer", async () => {
    for (const answer of [
      () => json({ detail: "Payment is pending", status: "pending" }, 520),
      () => json({ detail: "Internal Server Error" }, 500),
      () => new Response("<html>Bad gateway</html>", { status: 502 }),
      () => new Response("not json", { status: 504 }),
    ] satisfies Handler[]) {
      const { backend } = await setup(answer);
      expect((await backend.payInvoice(invoice.bolt11, 98)).status).toBe("unknown");
    }
  });

  it("is unknown when the connection drops", async () => {
    const { backend } = await setup(() => Promise.reject(new TypeError("connection reset")));
    expect(await backend.payInvoice(invoice.bolt11, 98)).toMatchObject({ status: "unknown" });
  });

  it("is unknown when LNbits does not answer in time", async () => {
    vi.useFakeTimers();
    const { backend } = await setup(() => new Promise<Response>(() => {}));
    const result = backend.payInvoice(invoice.bolt11, 98);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toMatchObject({ status: "unknown" });
  });

  it("asks once when LNbits accepts without saying how it ended (older API)", async () => {
    invoice = await strangerInvoice({ amountMsat: 9_750_000 });
    const { backend } = lnbits({
      [RESERVE]: reserve(),
      [PAYMENTS]: () => json({ payment_hash: invoice.paymentHash, checking_id: invoice.paymentHash }, 201),
      [`${PAYMENTS}/${invoice.paymentHash}`]: () => json({ paid: true, preimage: invoice.preimage, details: { fee: -1_000 } }),
    });
    expect(await backend.payInvoice(invoice.bolt11, 98)).toEqual({ status: "succeeded", preimage: invoice.preimage, feeSats: 1 });
  });

  it("looks a payment up: succeeded, failed, pending, not found, unclear", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const at = (hash: string) => `${PAYMENTS}/${hash}`;
    const { backend } = lnbits({
      [at("ok")]: () => json({ paid: true, preimage: inv.preimage, details: { fee: -2_500, status: "success" } }),
      [at("failed")]: () => json({ paid: false, status: "failed" }),
      [at("pending")]: () => json({ paid: false, status: "pending", preimage: null }),
      [at("missing")]: () => json({ detail: "Payment does not exist." }, 404),
      [at("broken")]: () => json({ detail: "oops" }, 503),
    });
    expect(await backend.lookupPayment("ok")).toEqual({ status: "succeeded", preimage: inv.preimage, feeSats: 3 });
    expect((await backend.lookupPayment("failed")).status).toBe("failed");
    expect((await backend.lookupPayment("pending")).status).toBe("pending");
    expect(await backend.lookupPayment("missing")).toMatchObject({ status: "unknown", notFound: true });
    expect((await backend.lookupPayment("broken")).status).toBe("unknown");
    expect((await backend.lookupPayment("network")).status).toBe("unknown");
  });

  it("refuses invoices without an amount before calling LNbits", async () => {
    const { backend, calls } = lnbits({});
    const amountless = await strangerInvoice({ amountMsat: null });
    expect((await backend.payInvoice(amountless.bolt11, 10)).status).toBe("failed");
    expect(calls).toHaveLength(0);
  });

  it("needs a URL and an admin key", () => {
    const fetch = scriptedFetch({}).fetch;
    expect(() => new LnbitsBackend({ url: "nope", adminKey: "k", fetch })).toThrow(LightningError);
    expect(() => new LnbitsBackend({ url: BASE, adminKey: "", fetch })).toThrow(LightningError);
  });
});
