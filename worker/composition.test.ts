// A misconfigured Lightning backend stops only what needs Lightning: people can still browse and sign in,
// and posting a job answers 503 with nothing written.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "./index";
import { BASE, signUp } from "./test/factories";

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
