import { afterEach, describe, expect, it, vi } from "vitest";
import { LightningError } from "./backend";
import { LnbitsBackend } from "./lnbits";
import { fakeLnbits, scriptedFetch, strangerInvoice, type Handler, type Routes } from "./test-helpers";

const BASE = "https://lnbits.example.com";
const PAYMENTS = `${BASE}/api/v1/payments`;
const RESERVE = `${BASE}/api/v1/payments/fee-reserve`;
const WALLET = `${BASE}/api/v1/wallet`;

/** LNbits answering from `routes`, its wallet check passing unless a route says otherwise. */
function lnbits(routes: Routes, extra: { webhookUrl?: string; now?: () => number } = {}) {
  const scripted = scriptedFetch({ [WALLET]: () => json({ id: "w1", name: "Gigstr", balance: 1_000_000_000 }), ...routes });
  const backend = new LnbitsBackend({ url: `${BASE}/`, adminKey: "admin-key", fetch: scripted.fetch, walletChecks: new Map(), sleep: async () => {}, ...extra });
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
    invoice = await strangerInvoice({ amountMsat: 9_750_000 });
    // LNbits refused before recording a payment: the look-up finds none.
    const { backend } = lnbits({
      [RESERVE]: reserve(),
      [PAYMENTS]: () => json({ detail: "Insufficient balance.", status: "failed" }, 520),
      [`${PAYMENTS}/${invoice.paymentHash}`]: () => json({ detail: "Payment does not exist." }, 404),
    });
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

describe("against a fake LNbits answering as v1.5.2-rc3", () => {
  const backendOn = (fake: ReturnType<typeof fakeLnbits>, opts: { adminKey?: string; now?: () => number } = {}) => {
    const pauses: number[] = [];
    const backend = new LnbitsBackend({
      url: fake.base,
      adminKey: opts.adminKey ?? fake.keys.admin,
      fetch: fake.fetch,
      walletChecks: new Map(),
      sleep: async (ms) => void pauses.push(ms),
      now: opts.now,
    });
    return { backend, pauses };
  };
  const payee = () => strangerInvoice({ amountMsat: 10_000_000 });
  const posted = (fake: ReturnType<typeof fakeLnbits>) => fake.calls.filter((c) => c.method === "POST" && c.path === "/api/v1/payments").length;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("an invoice's paidAt is when it settled, not when it was made", async () => {
    let now = Date.parse("2026-11-24T10:00:00Z");
    const fake = fakeLnbits({ now: () => now });
    const { backend } = backendOn(fake, { now: () => now });
    const created = await backend.createInvoice(1_000, "Gigstr: Logo", 3600);
    now += 17 * 60_000;
    fake.settleIncoming(created.paymentHash);
    expect(await backend.lookupInvoice(created.paymentHash)).toEqual({ status: "paid", amountSats: 1_000, paidAt: "2026-11-24T10:17:00.000Z" });
  });

  it("an invoice LNbits refuses with a 520 (amount too high) is a clear, permanent refusal", async () => {
    const { backend } = backendOn(fakeLnbits({ maxIncomingSats: 5_000 }));
    const refused = await backend.createInvoice(6_000, "Gigstr: Logo", 3600).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(LightningError);
    expect(refused).toMatchObject({ code: "rejected", message: expect.stringContaining("Invoice amount 6000 sats is too high. Max allowed: 5000 sats.") });
  });

  it("pays and reports what LNbits charged on top: routing plus its service fee", async () => {
    const fake = fakeLnbits({ serviceFeePercent: 0.5, routingFeeMsat: 2_000 });
    const { backend } = backendOn(fake);
    // Reserve 100 + service fee 50 = 150 sats, within a cap of 200.
    const result = await backend.payInvoice((await payee()).bolt11, 200);
    expect(result).toMatchObject({ status: "succeeded", feeSats: 2 + 50 });
    expect(fake.wallet.balanceMsat).toBe(1_000_000_000 - 10_000_000 - 52_000);
  });

  it("a payment LNbits reports paid without a preimage has succeeded (it does not stay in flight)", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "success_without_preimage";
    const { backend } = backendOn(fake);
    const inv = await payee();
    expect(await backend.payInvoice(inv.bolt11, 100)).toEqual({ status: "succeeded", preimage: null, feeSats: 1 });
    expect(await backend.lookupPayment(inv.paymentHash)).toEqual({ status: "succeeded", feeSats: 1 });
  });

  it("a payment still pending after LNbits' wait is unknown, then found settled by its hash", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "pending";
    const { backend } = backendOn(fake);
    const inv = await payee();
    expect((await backend.payInvoice(inv.bolt11, 100)).status).toBe("unknown");
    expect((await backend.lookupPayment(inv.paymentHash)).status).toBe("pending");
    fake.settleOutgoing(inv.paymentHash);
    expect(await backend.lookupPayment(inv.paymentHash)).toMatchObject({ status: "succeeded", feeSats: 1 });
  });

  it("paying a hash LNbits already paid (520 'success') is the earlier success, not a failure", async () => {
    const fake = fakeLnbits();
    const { backend } = backendOn(fake);
    const inv = await payee();
    expect((await backend.payInvoice(inv.bolt11, 100)).status).toBe("succeeded");
    expect(await backend.payInvoice(inv.bolt11, 100)).toMatchObject({ status: "succeeded", feeSats: 1 });
    expect(fake.wallet.balanceMsat).toBe(1_000_000_000 - 10_001_000);
  });

  it("a 520 'failed' is a failure only once a look-up after a pause confirms it", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "failed";
    const { backend, pauses } = backendOn(fake);
    expect(await backend.payInvoice((await payee()).bolt11, 100)).toEqual({ status: "failed", reason: "LNbits: Payment failed: no route" });
    expect(pauses).toEqual([5_000]);

    // The look-up after the pause finds the payment settled (the funding source sent it): not failed.
    const inv = await payee();
    const { backend: settledMeanwhile } = lnbits({
      [RESERVE]: () => json({ fee_reserve: 100_000 }),
      [PAYMENTS]: () => json({ detail: "Payment failed: withdrawal error", status: "failed" }, 520),
      [`${PAYMENTS}/${inv.paymentHash}`]: () => json({ paid: true, preimage: inv.preimage, details: { fee: -1_000, status: "success" } }),
    });
    expect(await settledMeanwhile.payInvoice(inv.bolt11, 100)).toEqual({ status: "succeeded", preimage: inv.preimage, feeSats: 1 });
    const { backend: stillPending } = lnbits({
      [RESERVE]: () => json({ fee_reserve: 100_000 }),
      [PAYMENTS]: () => json({ detail: "Payment failed: withdrawal error", status: "failed" }, 520),
      [`${PAYMENTS}/${inv.paymentHash}`]: () => json({ paid: false, status: "pending", preimage: null }),
    });
    expect((await stillPending.payInvoice(inv.bolt11, 100)).status).toBe("unknown");
  });

  it("pays nothing when the fee-reserve call fails (the fee cap could not be checked)", async () => {
    const fake = fakeLnbits();
    fake.state.feeReserveDown = true;
    const { backend } = backendOn(fake);
    const result = await backend.payInvoice((await payee()).bolt11, 100);
    expect(result).toMatchObject({ status: "failed", reason: expect.stringContaining("fee cap could not be checked") });
    expect(posted(fake)).toBe(0);
    expect(fake.wallet.balanceMsat).toBe(1_000_000_000);
  });

  it("a service fee above the cap is refused before paying, marked as over the cap so it is not retried blindly", async () => {
    const fake = fakeLnbits({ serviceFeePercent: 2 });
    const { backend } = backendOn(fake);
    // 10,000 sats: reserve max(2 sats, 1 %) = 100 plus a 2 % service fee = 200: 300 sats, cap 100.
    const result = await backend.payInvoice((await payee()).bolt11, 100);
    expect(result).toEqual({ status: "failed", reason: expect.stringContaining("above the cap of 100"), feeOverCapSats: 300 });
    expect(posted(fake)).toBe(0);
  });

  it("a wrong key or an invoice key is found by the wallet check, logged loudly, and nothing is paid", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const fake = fakeLnbits();
    const { backend: wrong } = backendOn(fake, { adminKey: "not-a-key" });
    expect(await wrong.checkWallet()).toMatchObject({ ok: false, problem: expect.stringContaining("HTTP 404: Wallet not found.") });
    expect(await wrong.payInvoice((await payee()).bolt11, 100)).toMatchObject({ status: "failed", reason: expect.stringContaining("LNBITS_ADMIN_KEY") });

    const { backend: invoiceKey } = backendOn(fake, { adminKey: fake.keys.invoice });
    expect(await invoiceKey.checkWallet()).toMatchObject({ ok: false, problem: expect.stringContaining("invoice key") });
    expect(await invoiceKey.payInvoice((await payee()).bolt11, 100)).toMatchObject({ status: "failed", reason: expect.stringContaining("invoice key") });
    expect(posted(fake)).toBe(0);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("LNbits wallet check failed"));

    const { backend: admin } = backendOn(fake);
    expect(await admin.checkWallet()).toMatchObject({ ok: true, balanceSats: 1_000_000 });
  });

  it("the wallet check is remembered for a while, then made again", async () => {
    let now = Date.now();
    const fake = fakeLnbits();
    const { backend } = backendOn(fake, { now: () => now });
    await backend.checkWallet();
    await backend.checkWallet();
    now += 10 * 60_000 + 1;
    await backend.checkWallet();
    expect(fake.calls.filter((c) => c.path === "/api/v1/wallet")).toHaveLength(2);
  });
});
