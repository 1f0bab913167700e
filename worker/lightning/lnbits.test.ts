import { afterEach, describe, expect, it, vi } from "vitest";
import { LONGEST_PAY_CALL_MS, LightningError } from "./backend";
import { LnbitsBackend, payInvoiceWorstCaseMs } from "./lnbits";
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
    // A 400 LNbits raised before recording anything (a ValueError such as its daily limit): no record anywhere.
    const { backend: badRequest } = lnbits({
      [RESERVE]: reserve(),
      [PAYMENTS]: () => json({ detail: "Daily withdrawal limit of 10 sats reached." }, 400),
      [`${PAYMENTS}/${invoice.paymentHash}`]: () => json({ detail: "Payment does not exist." }, 404),
    });
    expect(await badRequest.payInvoice(invoice.bolt11, 98)).toEqual({ status: "failed", reason: "LNbits refused the payment (HTTP 400: Daily withdrawal limit of 10 sats reached.)" });
    // Refused by the key check, before LNbits' payment code runs.
    const { backend: forbidden, calls } = await setup(() => json({ detail: "Invoice (or Admin) key required." }, 403));
    expect((await forbidden.payInvoice(invoice.bolt11, 98)).status).toBe("failed");
    expect(calls.filter((c) => c.url.startsWith(`${PAYMENTS}/`) && !c.url.startsWith(RESERVE))).toHaveLength(0);
  });

  it("a 201 carrying a failed record is unknown: LNbits hands back an old record its funding source does not confirm", async () => {
    const { backend, calls } = await setup(() => json({ payment_hash: invoice.paymentHash, status: "failed", fee: -2_000 }, 201));
    expect(await backend.payInvoice(invoice.bolt11, 98)).toMatchObject({ status: "unknown", reason: expect.stringContaining("marked failed") });
    expect(calls.filter((c) => c.init.method === "POST")).toHaveLength(1);
  });

  it("a 400 is not a failure on its own: a record of the payment makes it unknown", async () => {
    invoice = await strangerInvoice({ amountMsat: 9_750_000 });
    const { backend } = lnbits({
      [RESERVE]: reserve(),
      [PAYMENTS]: () => json({ detail: "Expecting value: line 1 column 1 (char 0)" }, 400),
      [`${PAYMENTS}/${invoice.paymentHash}`]: () => json({ paid: false, status: "pending", preimage: null, details: { amount: -9_750_000, status: "pending" } }),
    });
    expect(await backend.payInvoice(invoice.bolt11, 98)).toMatchObject({ status: "unknown" });
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

  it("looks a payment up: succeeded, pending, not found, unclear", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const at = (hash: string) => `${PAYMENTS}/${hash}`;
    const { backend } = lnbits({
      [at("ok")]: () => json({ paid: true, preimage: inv.preimage, details: { fee: -2_500, status: "success" } }),
      [at("pending")]: () => json({ paid: false, status: "pending", preimage: null, details: { amount: -1_000, status: "pending" } }),
      [at("missing")]: () => json({ detail: "Payment does not exist." }, 404),
      [at("proxy404")]: () => new Response("<html>Not Found</html>", { status: 404 }),
      [at("broken")]: () => json({ detail: "oops" }, 503),
    });
    expect(await backend.lookupPayment("ok")).toEqual({ status: "succeeded", preimage: inv.preimage, feeSats: 3 });
    expect((await backend.lookupPayment("pending")).status).toBe("pending");
    expect(await backend.lookupPayment("missing")).toMatchObject({ status: "unknown", notFound: true });
    expect(await backend.lookupPayment("proxy404")).toEqual({ status: "unknown", reason: "LNbits answered HTTP 404" });
    expect((await backend.lookupPayment("broken")).status).toBe("unknown");
    expect((await backend.lookupPayment("network")).status).toBe("unknown");
  });

  it("a failed record is failed only when LNbits, asked again, says its funding source reports it failed", async () => {
    const inv = await strangerInvoice({ amountMsat: 1_000 });
    const failedRecord = () => json({ paid: false, status: "failed", details: { amount: -1_000, status: "failed", bolt11: inv.bolt11 } });
    const { backend: confirmed, calls } = lnbits({
      [`${PAYMENTS}/${inv.paymentHash}`]: failedRecord,
      [PAYMENTS]: () => json({ detail: "Payment is failed node, retrying is not possible.", status: "failed" }, 520),
    });
    expect(await confirmed.lookupPayment(inv.paymentHash)).toMatchObject({ status: "failed" });
    expect(bodyOf(calls.find((c) => c.init.method === "POST")!.init)).toEqual({ out: true, bolt11: inv.bolt11 });
    for (const again of [
      () => json({ payment_hash: inv.paymentHash, status: "failed" }, 201),
      () => json({ detail: "Insufficient balance.", status: "failed" }, 520),
      () => json({ detail: "The time limit of 10 seconds between payments has been reached.", status: "failed" }, 520),
      () => json({ detail: "Payment already exists" }, 400),
      () => json({ detail: "Unexpected error! ID: 1" }, 500),
    ] satisfies Handler[]) {
      const { backend } = lnbits({ [`${PAYMENTS}/${inv.paymentHash}`]: failedRecord, [PAYMENTS]: again });
      expect((await backend.lookupPayment(inv.paymentHash)).status).toBe("unknown");
    }
    // A failed answer without `details` (LNbits did not take our key as the payment's wallet's): nothing is known.
    const { backend: keyless, calls: keylessCalls } = lnbits({ [`${PAYMENTS}/${inv.paymentHash}`]: () => json({ paid: false, status: "failed" }) });
    expect((await keyless.lookupPayment(inv.paymentHash)).status).toBe("unknown");
    expect(keylessCalls.some((c) => c.init.method === "POST")).toBe(false);
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
    expect(() => new LnbitsBackend({ url: BASE, adminKey: "  ", fetch })).toThrow(LightningError);
  });

  it("one payInvoice call lasts at most payInvoiceWorstCaseMs, under the payout claim's LONGEST_PAY_CALL_MS", async () => {
    expect(payInvoiceWorstCaseMs()).toBe(175_000);
    expect(payInvoiceWorstCaseMs()).toBeLessThan(LONGEST_PAY_CALL_MS);
    const fetch = scriptedFetch({}).fetch;
    expect(() => new LnbitsBackend({ url: BASE, adminKey: "k", fetch, payTimeoutMs: 120_000 })).toThrow(/time-outs too long/);

    // Every call answers just before its time-out, down the longest path: 520 failed, a record, failed,
    // re-POSTed, "already paid on the funding source", read again.
    vi.useFakeTimers();
    invoice = await strangerInvoice({ amountMsat: 9_750_000 });
    const late = (ms: number, answer: () => Response): Handler => () => new Promise((resolve) => setTimeout(() => resolve(answer()), ms - 1));
    let posts = 0;
    let gets = 0;
    const scripted = scriptedFetch({
      [WALLET]: late(10_000, () => json({ id: "w1", name: "Gigstr", balance: 1_000_000_000 })),
      [RESERVE]: late(10_000, () => json({ fee_reserve: 10_000 })),
      [PAYMENTS]: late(60_000, () =>
        ++posts === 1
          ? json({ detail: "Payment failed: without an error message.", status: "failed" }, 520)
          : json({ detail: "Failed payment was already paid on the fundingsource.", status: "success" }, 520),
      ),
      [`${PAYMENTS}/${invoice.paymentHash}`]: late(10_000, () =>
        ++gets < 3
          ? json({ paid: false, status: "failed", details: { amount: -9_750_000, status: "failed", bolt11: invoice.bolt11 } })
          : json({ paid: true, preimage: invoice.preimage, details: { amount: -9_750_000, fee: -1_000, status: "success" } }),
      ),
    });
    const backend = new LnbitsBackend({ url: BASE, adminKey: "admin-key", fetch: scripted.fetch, walletChecks: new Map() });
    const started = Date.now();
    const result = backend.payInvoice(invoice.bolt11, 98);
    await vi.advanceTimersByTimeAsync(payInvoiceWorstCaseMs());
    expect(await result).toEqual({ status: "succeeded", preimage: invoice.preimage, feeSats: 1 });
    expect(scripted.calls).toHaveLength(7);
    expect(Date.now() - started).toBeLessThanOrEqual(payInvoiceWorstCaseMs());
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

  it("a 520 'failed' is a failure only once LNbits, asked again after a pause, says its funding source reports it", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "failed";
    const { backend, pauses } = backendOn(fake);
    const inv = await payee();
    expect(await backend.payInvoice(inv.bolt11, 100)).toEqual({ status: "failed", reason: "LNbits: Payment failed: no route (its funding source confirms the payment failed)" });
    expect(pauses).toEqual([5_000]);
    // The same invoice POSTed again: LNbits asked its funding source, which has it failed. Nothing left.
    expect(posted(fake)).toBe(2);
    expect(fake.sentMsat(inv.paymentHash)).toBe(0);
    expect(await backend.lookupPayment(inv.paymentHash)).toMatchObject({ status: "failed" });

    // The look-up after the pause finds the payment settled (the funding source sent it): not failed.
    const other = await payee();
    const { backend: settledMeanwhile } = lnbits({
      [RESERVE]: () => json({ fee_reserve: 100_000 }),
      [PAYMENTS]: () => json({ detail: "Payment failed: withdrawal error", status: "failed" }, 520),
      [`${PAYMENTS}/${other.paymentHash}`]: () => json({ paid: true, preimage: other.preimage, details: { fee: -1_000, status: "success" } }),
    });
    expect(await settledMeanwhile.payInvoice(other.bolt11, 100)).toEqual({ status: "succeeded", preimage: other.preimage, feeSats: 1 });
    const { backend: stillPending } = lnbits({
      [RESERVE]: () => json({ fee_reserve: 100_000 }),
      [PAYMENTS]: () => json({ detail: "Payment failed: withdrawal error", status: "failed" }, 520),
      [`${PAYMENTS}/${other.paymentHash}`]: () => json({ paid: false, status: "pending", preimage: null, details: { status: "pending" } }),
    });
    expect((await stillPending.payInvoice(other.bolt11, 100)).status).toBe("unknown");
  });

  it("OpenNode/LNPay: a payment the funding source sent but LNbits recorded failed is never reported failed", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "failed_but_sent";
    const { backend } = backendOn(fake);
    const inv = await payee();
    const paid = await backend.payInvoice(inv.bolt11, 100);
    expect(paid.status).toBe("unknown");
    expect(fake.sentMsat(inv.paymentHash)).toBe(10_000_000);
    // LNbits does not count the failed record: its balance says the money is still there.
    expect(fake.wallet.balanceMsat).toBe(1_000_000_000);
    expect(fake.totalSentMsat).toBe(10_000_000);
    // Looked up later, again and again (the cron), it stays in doubt; nothing more leaves.
    for (let i = 0; i < 3; i++) expect((await backend.lookupPayment(inv.paymentHash)).status).toBe("unknown");
    // Paying the same invoice again (a retry) finds the old record: LNbits sends nothing, answers 201 with it.
    expect((await backend.payInvoice(inv.bolt11, 100)).status).toBe("unknown");
    expect(fake.sends(inv.paymentHash)).toBe(1);
    expect(fake.totalSentMsat).toBe(10_000_000);
  });

  it("a 201 with LNbits' old failed record (its funding source does not know the payment) is unknown", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "failed_but_sent";
    const { backend } = backendOn(fake);
    const inv = await payee();
    // The first attempt (LNbits recorded it failed) is made by hand, as an earlier run of ours would have.
    const first = await fake.fetch(`${fake.base}/api/v1/payments`, { method: "POST", headers: { "X-Api-Key": fake.keys.admin }, body: JSON.stringify({ out: true, bolt11: inv.bolt11 }) });
    expect(first.status).toBe(520);
    const again = await fake.fetch(`${fake.base}/api/v1/payments`, { method: "POST", headers: { "X-Api-Key": fake.keys.admin }, body: JSON.stringify({ out: true, bolt11: inv.bolt11 }) });
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ payment_hash: inv.paymentHash, status: "failed" });
    expect(await backend.payInvoice(inv.bolt11, 100)).toMatchObject({ status: "unknown", reason: expect.stringContaining("marked failed") });
    expect(fake.sends(inv.paymentHash)).toBe(1);
  });

  it("a 400 after the funding source sent (its answer unreadable) is not a failure: the record shows it paid", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "sent_then_400";
    const { backend } = backendOn(fake);
    const inv = await payee();
    expect(await backend.payInvoice(inv.bolt11, 100)).toMatchObject({ status: "succeeded", feeSats: 1 });
    expect(fake.sentMsat(inv.paymentHash)).toBe(10_000_000);
  });

  it("a 400 with nothing sent: unknown while the source does not know it, failed once it reports it failed, failed when LNbits recorded nothing", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "unsent_400";
    const { backend } = backendOn(fake);
    const lnd = await payee();
    // LND, Core Lightning: a hash the node never saw is kept pending.
    expect((await backend.payInvoice(lnd.bolt11, 100)).status).toBe("unknown");

    // phoenixd, NWC: the node says a hash it never saw failed; LNbits stores that, and says so when asked again.
    const phoenixd = fakeLnbits({ unknownHashStatus: "failed" });
    phoenixd.state.outcome = "unsent_400";
    const { backend: onPhoenixd } = backendOn(phoenixd);
    const inv = await payee();
    expect(await onPhoenixd.payInvoice(inv.bolt11, 100)).toMatchObject({ status: "failed", reason: expect.stringContaining("HTTP 400") });
    expect(phoenixd.totalSentMsat).toBe(0);

    // Refused with 400 before LNbits recorded anything: no record in any wallet.
    const limited = fakeLnbits();
    limited.state.outcome = "refused_400";
    const { backend: onLimited } = backendOn(limited);
    expect(await onLimited.payInvoice((await payee()).bolt11, 100)).toMatchObject({ status: "failed", reason: expect.stringContaining("Daily withdrawal limit") });
    expect(limited.payments.size).toBe(0);
  });

  it("a 500 is unknown whether or not the payment went through, and a later look-up finds the one that did", async () => {
    const fake = fakeLnbits();
    fake.state.nextOutcomes = ["sent_then_500", "unsent_500"];
    const { backend } = backendOn(fake);
    const sent = await payee();
    const unsent = await payee();
    expect((await backend.payInvoice(sent.bolt11, 100)).status).toBe("unknown");
    expect((await backend.payInvoice(unsent.bolt11, 100)).status).toBe("unknown");
    expect(fake.sentMsat(sent.paymentHash)).toBe(10_000_000);
    expect(fake.sentMsat(unsent.paymentHash)).toBe(0);
    expect(await backend.lookupPayment(sent.paymentHash)).toMatchObject({ status: "succeeded", feeSats: 1 });
    expect((await backend.lookupPayment(unsent.paymentHash)).status).toBe("pending");
  });

  it("a funding source that reports an in-flight payment failed once: LNbits keeps 'failed', the re-POST asks again", async () => {
    const fake = fakeLnbits();
    fake.state.outcome = "pending_lookup_lies_once";
    const { backend } = backendOn(fake);
    const inv = await payee();
    // LNbits' wait ends with the payment in flight; our look-up makes LNbits check it, and the source lies.
    expect((await backend.payInvoice(inv.bolt11, 100)).status).toBe("unknown");
    expect(fake.payments.get(inv.paymentHash)?.status).toBe("failed");
    expect(fake.sourceStatus(inv.paymentHash)).toBe("pending");
    expect((await backend.lookupPayment(inv.paymentHash)).status).toBe("unknown");
    // It settles at the node; LNbits' record still says failed, and only asking the source again finds it.
    fake.settleOutgoing(inv.paymentHash);
    expect(await backend.lookupPayment(inv.paymentHash)).toEqual({ status: "succeeded", preimage: "cd".repeat(32), feeSats: 1 });
    expect(fake.sends(inv.paymentHash)).toBe(1);
  });

  it("one lying 'Payment does not exist.' does not make a payment that left failed", async () => {
    for (const outcome of ["failed_but_sent", "sent_then_400"] as const) {
      const fake = fakeLnbits();
      fake.state.outcome = outcome;
      let lie = true;
      const lying: typeof fake.fetch = async (url, init) => {
        if (lie && (init.method ?? "GET") === "GET" && /\/api\/v1\/payments\/[0-9a-f]{64}$/.test(url)) {
          lie = false;
          return Response.json({ detail: "Payment does not exist." }, { status: 404 });
        }
        return fake.fetch(url, init);
      };
      const backend = new LnbitsBackend({ url: fake.base, adminKey: fake.keys.admin, fetch: lying, walletChecks: new Map(), sleep: async () => {} });
      const inv = await payee();
      expect((await backend.payInvoice(inv.bolt11, 100)).status).not.toBe("failed");
      expect(fake.sentMsat(inv.paymentHash)).toBe(10_000_000);
    }
    // LNbits says it asked its funding source ("Payment failed: …"), yet no look-up finds the record: a contradiction.
    const inv = await payee();
    const { backend } = lnbits({
      [RESERVE]: () => json({ fee_reserve: 100_000 }),
      [PAYMENTS]: () => json({ detail: "Payment failed: without an error message.", status: "failed" }, 520),
      [`${PAYMENTS}/${inv.paymentHash}`]: () => json({ detail: "Payment does not exist." }, 404),
    });
    expect((await backend.payInvoice(inv.bolt11, 100)).status).toBe("unknown");
  });

  it("a look-up without a valid key: LNbits answers from any wallet, without details, so nothing is concluded", async () => {
    const fake = fakeLnbits();
    fake.state.nextOutcomes = ["failed", "failed_but_sent", "pending"];
    const { backend } = backendOn(fake);
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const inv = await payee();
      hashes.push(inv.paymentHash);
      await backend.payInvoice(inv.bolt11, 100);
    }
    const { backend: wrongKey } = backendOn(fake, { adminKey: "not-a-key" });
    const before = posted(fake);
    for (const hash of hashes) {
      const raw = await fake.fetch(`${fake.base}/api/v1/payments/${hash}`, { method: "GET", headers: { "X-Api-Key": "not-a-key" } });
      expect(raw.status).toBe(200);
      expect(await raw.json()).not.toHaveProperty("details");
      expect(await wrongKey.lookupPayment(hash)).toMatchObject({ status: "unknown", reason: expect.stringContaining("without the payment's details") });
    }
    expect(posted(fake)).toBe(before);
  });

  it("LNbits answers 401 to a request without a key (a proxy dropping X-Api-Key): found by the wallet check, nothing paid", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const fake = fakeLnbits();
    const stripped: typeof fake.fetch = (url, init) => {
      const headers = new Headers(init.headers);
      headers.delete("x-api-key");
      return fake.fetch(url, { ...init, headers });
    };
    const backend = new LnbitsBackend({ url: fake.base, adminKey: fake.keys.admin, fetch: stripped, walletChecks: new Map(), sleep: async () => {} });
    expect(await backend.checkWallet()).toMatchObject({ ok: false, problem: expect.stringContaining("LNbits received no key (HTTP 401: No Api Key provided.)") });
    expect(await backend.payInvoice((await payee()).bolt11, 100)).toMatchObject({ status: "failed", reason: expect.stringContaining("X-Api-Key") });
    expect(posted(fake)).toBe(0);
    expect(errors).toHaveBeenCalled();
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
