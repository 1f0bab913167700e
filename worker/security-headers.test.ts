// HSTS (issue 14): every answer of a deployed Worker tells browsers to use https only, errors too;
// a local run's never does (it would pin the developer's 127.0.0.1 and localhost to https).
import { describe, expect, it } from "vitest";
import { api, signUp } from "./test/factories";
import { LOCAL_HOSTS, SECURITY_HEADERS, staticAssetHeadersFile, STRICT_TRANSPORT_SECURITY } from "./security-policy";

const DEPLOYED = { LOCAL_DEV: undefined, LIGHTNING_BACKEND: "dev" };

async function answers(env?: typeof DEPLOYED) {
  const member = await signUp();
  return [
    await api("/api/config", { env }),
    await api("/api/user/me", { token: member.token, env }),
    await api("/api/nothing-here", { env }), // 404
    await api("/api/user/me", { env }), // 401
    await api("/api/user/me", { method: "PATCH", token: member.token, json: { lightningAddress: "not an address" }, env }), // 400
    await api("/.well-known/lnurlp/nobody-here", { env }), // 404 outside /api
    await api("/api/dev/invoices/pay", { method: "POST", json: {}, env }), // 404 deployed, 400 locally
  ];
}

describe("Strict-Transport-Security", () => {
  it("is on every answer of a deployed Worker, errors included", async () => {
    expect(STRICT_TRANSPORT_SECURITY).toBe("max-age=63072000; includeSubDomains");
    const all = await answers(DEPLOYED);
    expect(new Set(all.map((r) => r.status))).toEqual(new Set([200, 401, 400, 404]));
    for (const res of all) {
      expect([res.url, res.status, res.headers.get("strict-transport-security")]).toEqual([res.url, res.status, STRICT_TRANSPORT_SECURITY]);
      expect(res.headers.get("content-security-policy")).toBe(SECURITY_HEADERS["Content-Security-Policy"]);
    }
    // Payments switched off (a 503) too.
    const member = await signUp({ lightningAddress: "hsts@wallet.test" });
    const post = await api("/api/gigs", {
      method: "POST",
      token: member.token,
      json: { gigType: "job_request", title: "A logo", description: "A clean logo for a meetup.", category: "Design", payment: 10_000, timeframe: 7 },
      env: DEPLOYED,
    });
    expect(post.status).toBe(503);
    expect(post.headers.get("strict-transport-security")).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it("is never on a local run's answers", async () => {
    for (const res of await answers()) {
      expect([res.status, res.headers.get("strict-transport-security")]).toEqual([res.status, null]);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("is in the static assets' _headers for every host but the local ones, which unset it", () => {
    const file = staticAssetHeadersFile();
    const rules = file.trim().split(/\n(?=\S)/);
    expect(rules[0]!.split("\n")).toEqual(["/*", ...Object.entries(SECURITY_HEADERS).map(([n, v]) => `  ${n}: ${v}`), `  Strict-Transport-Security: ${STRICT_TRANSPORT_SECURITY}`]);
    // Cloudflare applies the matching rules in order and matches `https://host/path` on host and path only.
    expect(rules.slice(1)).toEqual(LOCAL_HOSTS.map((host) => `https://${host}/*\n  ! Strict-Transport-Security`));
    expect(LOCAL_HOSTS).toEqual(["127.0.0.1", "localhost"]);
  });
});
