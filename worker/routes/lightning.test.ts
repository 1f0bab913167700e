// The wallet's webhook, as LNbits v1.5.2-rc3 sends it (docs/decisions/013-lnbits-api-version-checked.md).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { makeDeps } from "../composition";
import { postGig, signUp } from "../test/factories";
import { webhookBytes } from "../lightning/test-helpers";
import { statement } from "../db/test-statements";

const SECRET = "lightning-route-test-secret";

async function webhook(body: string, headers: Record<string, string> = {}, extraEnv: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`https://gigstr.test/api/webhooks/lightning/${SECRET}`, {
    method: "POST",
    // httpx's `json=` sends application/json and the User-Agent LNbits sets.
    headers: { "content-type": "application/json", "user-agent": "lnbits/1.5.2-rc3", ...headers },
    body,
  });
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, WEBHOOK_SECRET: SECRET, ...extraEnv }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A gig whose invoice the wallet has been paid, without telling us yet. */
async function paidButNotTold() {
  const hirer = await signUp({ lightningAddress: `hook${crypto.randomUUID().slice(0, 6)}@wallet.test` });
  const posted = await postGig(hirer);
  const paid = await makeDeps(env, () => {}).devWallet!.payDevInvoice(posted.paymentRequest!);
  return { gigId: posted.gig.id as string, paymentHash: paid.paymentHash, bolt11: posted.paymentRequest! };
}

const invoiceStatus = (gigId: string) => statement("SELECT status FROM invoices WHERE gig_id = ?", gigId).first("status");

/** The payment record LNbits serialises (Payment.json()), for the invoice it settled. */
function lnbitsRecord(paymentHash: string, bolt11: string) {
  return {
    checking_id: paymentHash,
    payment_hash: paymentHash,
    wallet_id: "5f0c9d0e3b8a4a4f9c2d7e1b6a3c8f21",
    amount: 10_250_000,
    fee: 0,
    bolt11,
    payment_request: bolt11,
    fiat_provider: null,
    status: "success",
    memo: "Gigstr: Design a logo – “escrow”",
    expiry: "2026-11-24T11:00:00+00:00",
    webhook: `https://gigstr.test/api/webhooks/lightning/${SECRET}`,
    webhook_status: null,
    preimage: "5c3b9a1f0e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170f5e4d3c",
    tag: null,
    extension: null,
    time: "2026-11-24T10:00:00.123456+00:00",
    created_at: "2026-11-24T10:00:00.123456+00:00",
    updated_at: "2026-11-24T10:04:31.654321+00:00",
    labels: [],
    extra: {},
  };
}

async function signed(secret: string, t: string, body: string) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${body}`)));
  return `t=${t},v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

describe("POST /api/webhooks/lightning/<secret> from LNbits", () => {
  it("reads the body LNbits sends today: a JSON string holding the payment record", async () => {
    const gig = await paidButNotTold();
    const bytes = webhookBytes(lnbitsRecord(gig.paymentHash, gig.bolt11));
    expect(bytes.startsWith('"{\\"checking_id\\": \\"')).toBe(true); // json.dumps of json.dumps
    expect(await webhook(bytes)).toEqual({ status: 200, body: { received: true } });
    expect(await invoiceStatus(gig.gigId)).toBe("paid");
  });

  it("reads the record as an object too (the signed form of the open LNbits PR)", async () => {
    const gig = await paidButNotTold();
    expect((await webhook(JSON.stringify(lnbitsRecord(gig.paymentHash, gig.bolt11)))).status).toBe(200);
    expect(await invoiceStatus(gig.gigId)).toBe("paid");
  });

  it("checks an LNbits-Signature header against LNBITS_WEBHOOK_SECRET; a forged one changes nothing", async () => {
    const gig = await paidButNotTold();
    const body = JSON.stringify(lnbitsRecord(gig.paymentHash, gig.bolt11));
    const t = String(Math.floor(Date.now() / 1000));
    const withSecret = { LNBITS_WEBHOOK_SECRET: "wallet-webhook-secret" };

    const forged = await webhook(body, { "LNbits-Signature": await signed("guessed-secret", t, body) }, withSecret);
    expect(forged).toMatchObject({ status: 401, body: { error: "invalid_signature", message: expect.stringContaining("LNbits-Signature") } });
    const garbled = await webhook(body, { "LNbits-Signature": "t=1,v1=zz" }, withSecret);
    expect(garbled.status).toBe(401);
    expect(await invoiceStatus(gig.gigId)).toBe("pending");

    expect((await webhook(body, { "LNbits-Signature": await signed("wallet-webhook-secret", t, body) }, withSecret)).status).toBe(200);
    expect(await invoiceStatus(gig.gigId)).toBe("paid");
  });

  it("a body that is neither JSON nor a JSON string of an object is refused with 400 and changes nothing", async () => {
    const gig = await paidButNotTold();
    expect((await webhook("payment_hash=" + gig.paymentHash)).status).toBe(400);
    expect((await webhook(JSON.stringify("not a record"))).status).toBe(400);
    expect(await invoiceStatus(gig.gigId)).toBe("pending");
  });
});
