// A misconfigured Lightning backend stops only what needs Lightning: people can still browse and sign in,
// and posting a job answers 503 with nothing written. So does the dev wallet on a deployed Worker
// (decision 011): payments are off, /api/dev does not exist, the cron moves nothing.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "./index";
import { adminApi, TEST_ADMIN_PIN } from "./test/admin";
import { api, approveInterest, BASE, call, payWithDevWallet, postGig, signUp, statusAndBody } from "./test/factories";
import { statement } from "./db/test-statements";

async function withLnbitsUnset(path: string, init: { method?: string; token?: string; json?: unknown } = {}) {
  const headers = new Headers();
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  // lnbits without LNBITS_URL / LNBITS_ADMIN_KEY: a configuration error.
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, LIGHTNING_BACKEND: "lnbits", LNBITS_URL: "", LNBITS_ADMIN_KEY: "" }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("a misconfigured Lightning backend", () => {
  it("still serves browsing, gig pages and profiles", async () => {
    const member = await signUp();
    expect((await withLnbitsUnset("/api/gigs?status=open")).status).toBe(200);
    expect((await withLnbitsUnset("/api/user/me", { token: member.token })).status).toBe(200);
  });

  it("answers 503 to posting a job and writes nothing", async () => {
    const hirer = await signUp({ lightningAddress: "hirer@wallet.test" });
    const res = await withLnbitsUnset("/api/gigs", {
      method: "POST",
      token: hirer.token,
      json: { gigType: "job_request", title: "Logo for a bakery", description: "A simple logo, two rounds of changes.", category: "Design", payment: 10_000, timeframe: 7 },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "lightning_unavailable" });
    const mine = await withLnbitsUnset("/api/gigs?participant=me", { token: hirer.token });
    expect(mine.body).toEqual([]);
  });
});

// A deployed Worker (no LOCAL_DEV) whose LIGHTNING_BACKEND is dev, unset or unknown: payments are off.
const DEPLOYED_DEV = { LOCAL_DEV: undefined, LIGHTNING_BACKEND: "dev" };
const PAYMENTS_OFF = {
  message: "Payments are switched off: LIGHTNING_BACKEND must be set to lnbits or nwc on a deployed Gigstr (the simulated dev wallet only runs locally).",
  error: "payments_off",
};
const jobForm = { gigType: "job_request", title: "Logo for a bakery", description: "A simple logo, two rounds of changes.", category: "Design", payment: 10_000, timeframe: 7 };
const countOf = (sql: string, ...values: unknown[]) => statement(sql, ...values).first<number>("n");

describe("the dev wallet on a deployed Worker", () => {
  it("answers 503 naming LIGHTNING_BACKEND to posting a job request, for dev, unset and unknown, and writes nothing", async () => {
    const hirer = await signUp({ lightningAddress: "deployed-hirer@wallet.test" });
    for (const settings of [DEPLOYED_DEV, { LOCAL_DEV: undefined, LIGHTNING_BACKEND: undefined }, { LIGHTNING_BACKEND: "lnd" }]) {
      const res = await statusAndBody(await api("/api/gigs", { method: "POST", token: hirer.token, json: jobForm, env: settings }));
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: "payments_off", message: expect.stringContaining("LIGHTNING_BACKEND") });
    }
    expect(await countOf("SELECT COUNT(*) AS n FROM gigs WHERE poster_id = ?", hirer.id)).toBe(0);
    expect(await countOf("SELECT COUNT(*) AS n FROM invoices WHERE payer_id = ?", hirer.id)).toBe(0);
  });

  it("answers 503 to hiring a service offering: the offer stays open with no hirer and no invoice", async () => {
    const worker = await signUp({ lightningAddress: "deployed-worker@wallet.test" });
    const offer = await postGig(worker, { gigType: "service_offering", payment: 3_000 });
    const hirer = await signUp({ lightningAddress: "deployed-hirer2@wallet.test" });
    await approveInterest(offer.gig.id, worker, hirer);

    const res = await statusAndBody(await api(`/api/gigs/${offer.gig.id}/claim`, { method: "POST", token: hirer.token, env: DEPLOYED_DEV }));
    expect(res).toEqual({ status: 503, body: PAYMENTS_OFF });
    const gig = (await call(`/api/gigs/${offer.gig.id}`, worker.token)).body;
    expect(gig).toMatchObject({ status: "open", hirerId: null });
    expect(await countOf("SELECT COUNT(*) AS n FROM invoices WHERE gig_id = ?", offer.gig.id)).toBe(0);
  });

  it("has no /api/dev: paying with the dev wallet is a 404 like any unknown path, and the invoice stays unpaid", async () => {
    const hirer = await signUp({ lightningAddress: "deployed-hirer3@wallet.test" });
    const posted = await postGig(hirer); // posted on a local run: a real pending invoice
    const pay = await statusAndBody(await api("/api/dev/invoices/pay", { method: "POST", json: { paymentRequest: posted.paymentRequest }, env: DEPLOYED_DEV }));
    expect(pay).toEqual({ status: 404, body: { message: "Not found", error: "not_found" } });
    expect(await countOf("SELECT COUNT(*) AS n FROM invoices WHERE gig_id = ? AND status = 'pending'", posted.gig.id)).toBe(1);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body.status).toBe("pending_payment");
  });

  it("answers 503 to the wallet's webhook and to an admin's payout retry; browsing, profiles and the config still answer", async () => {
    const member = await signUp({ lightningAddress: "deployed-member@wallet.test" });
    const posted = await postGig(member); // posted on a local run: a real pending invoice
    const hash = await statement("SELECT payment_hash AS h FROM invoices WHERE gig_id = ?", posted.gig.id).first<string>("h");
    const webhook = await statusAndBody(
      await api(`/api/webhooks/lightning/${"s".repeat(32)}`, { method: "POST", json: { payment_hash: hash }, env: { ...DEPLOYED_DEV, WEBHOOK_SECRET: "s".repeat(32) } }),
    );
    expect(webhook).toEqual({ status: 503, body: PAYMENTS_OFF });
    expect((await call(`/api/gigs/${posted.gig.id}`, member.token)).body.status).toBe("pending_payment");

    // A deployed Worker's admin signs in with the session of a key in ADMIN_PUBKEYS and the PIN.
    const settings = { ...DEPLOYED_DEV, ADMIN_PUBKEYS: member.npub };
    const signedIn = await adminApi("/api/admin/auth", { method: "POST", json: { pin: TEST_ADMIN_PIN }, token: member.token, ip: "10.77.0.1", env: settings });
    expect(signedIn.status).toBe(200);
    const retry = await adminApi(`/api/admin/payouts/${crypto.randomUUID()}/retry`, { method: "POST", adminToken: signedIn.body.adminToken as string, env: settings });
    expect(retry).toEqual({ status: 503, body: PAYMENTS_OFF });

    expect((await api("/api/gigs?status=open", { env: DEPLOYED_DEV })).status).toBe(200);
    expect((await api("/api/user/me", { token: member.token, env: DEPLOYED_DEV })).status).toBe(200);
    const profile = await statusAndBody(await api("/api/user/me", { method: "PATCH", token: member.token, json: { displayName: "Still here" }, env: DEPLOYED_DEV }));
    expect(profile).toMatchObject({ status: 200, body: { displayName: "Still here" } });
    expect((await api("/api/config", { env: DEPLOYED_DEV })).status).toBe(200);
  });

  it("the minute's jobs do not run: an expired invoice is neither checked nor expired", async () => {
    const hirer = await signUp({ lightningAddress: "deployed-hirer4@wallet.test" });
    const posted = await postGig(hirer);
    await statement("UPDATE invoices SET expires_at = ? WHERE gig_id = ?", new Date(Date.now() - 3_600_000).toISOString(), posted.gig.id).run();

    const ctx = createExecutionContext();
    await worker.scheduled!({ cron: "* * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController, { ...env, ...DEPLOYED_DEV }, ctx);
    await waitOnExecutionContext(ctx);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body.status).toBe("pending_payment");
    expect(await countOf("SELECT COUNT(*) AS n FROM invoices WHERE gig_id = ? AND status = 'pending'", posted.gig.id)).toBe(1);
  });
});

describe("the Pay with dev wallet button (GET /api/config devWallet)", () => {
  it("is offered on a local dev run and a local run with a local wallet, never on a deployed Worker", async () => {
    const devWalletOf = async (over: Partial<typeof env>) => ((await (await api("/api/config", { env: over })).json()) as { devWallet: boolean }).devWallet;
    expect(await devWalletOf({})).toBe(true);
    expect(await devWalletOf({ LIGHTNING_BACKEND: "nwc", NWC_URL: "nostr+walletconnect://x", LOCAL_WALLET_URL: "http://127.0.0.1:9" })).toBe(true);
    expect(await devWalletOf({ LIGHTNING_BACKEND: "nwc", NWC_URL: "nostr+walletconnect://x" })).toBe(false);
    expect(await devWalletOf({ LIGHTNING_BACKEND: "nwc", LOCAL_WALLET_URL: "http://127.0.0.1:9", LOCAL_DEV: undefined })).toBe(false);
    expect(await devWalletOf(DEPLOYED_DEV)).toBe(false);
  });

  it("POST /api/dev/invoices/pay does not exist on a deployed Worker, even with LOCAL_WALLET_URL set", async () => {
    const res = await api("/api/dev/invoices/pay", { method: "POST", json: { paymentRequest: "lnbcrt1" }, env: { LIGHTNING_BACKEND: "nwc", LOCAL_WALLET_URL: "http://127.0.0.1:9", LOCAL_DEV: undefined } });
    expect(res.status).toBe(404);
  });
});

describe("the dev wallet on a local run (LOCAL_DEV=1)", () => {
  it("posts, pays and funds a job as before", async () => {
    const hirer = await signUp({ lightningAddress: "local-hirer@wallet.test" });
    const posted = await postGig(hirer);
    expect(posted.paymentRequest).toMatch(/^lnbc/);
    expect((await payWithDevWallet(posted.paymentRequest!)).status).toBe(200);
    expect((await call(`/api/gigs/${posted.gig.id}`, hirer.token)).body).toMatchObject({ status: "open", escrowStatus: "funded" });
    expect((await api("/api/dev/invoices/pay", { method: "POST", json: {} })).status).toBe(400);
  });
});
