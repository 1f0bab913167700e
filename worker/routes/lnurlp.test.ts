// The alias Lightning address: served with the owner's metadata, forwarding the owner's real invoices.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { api, call, signUp, inOneRateWindow } from "../test/factories";
import { makeDeps } from "../composition";
import { DevWallet } from "../lightning/dev-backend";
import { decodeInvoice, sha256Hex } from "../lightning/invoice";
import { statement } from "../db/test-statements";
import { DOORS } from "../rate-limits";

async function memberWithAlias() {
  const name = `al${crypto.randomUUID().slice(0, 8)}`;
  const m = await signUp({ lightningAddress: `${name}@wallet.test` });
  const alias = `sats${crypto.randomUUID().slice(0, 6)}`;
  expect((await call("/api/user/me", m.token, "PATCH", { gigstrAlias: alias })).status).toBe(200);
  return { m, name, alias };
}

describe("GET /.well-known/lnurlp/<alias>", () => {
  it("answers the owner's payRequest with our callback, and the callback forwards the owner's invoice", async () => {
    const { name, alias } = await memberWithAlias();
    const res = await api(`/.well-known/lnurlp/${alias}`);
    expect(res.status).toBe(200);
    const payRequest = (await res.json()) as { tag: string; callback: string; metadata: string; minSendable: number; maxSendable: number };
    expect(payRequest.tag).toBe("payRequest");
    expect(payRequest.metadata).toBe(DevWallet.metadataFor(name));
    expect(payRequest.callback).toBe(`https://gigstr.test/.well-known/lnurlp/${alias}/callback`);

    const cb = await api(`/.well-known/lnurlp/${alias}/callback?amount=21000`);
    const { pr } = (await cb.json()) as { pr: string };
    const invoice = decodeInvoice(pr);
    expect(invoice.amountMsat).toBe(21_000);
    expect(invoice.descriptionHash).toBe(await sha256Hex(payRequest.metadata));

    // Paying it reaches the owner's own wallet; the platform never holds the sats.
    const wallet = makeDeps(env, () => {}).devWallet!;
    expect((await wallet.payInvoice(pr, 10)).status).toBe("succeeded");
    expect(await wallet.receivedBy(name)).toBe(21);
    const ledger = await statement("SELECT COUNT(*) AS n FROM ledger_entries WHERE memo LIKE '%alias%'").first<{ n: number }>();
    expect(ledger?.n).toBe(0);
  });

  it("answers LUD-06 errors for unknown aliases, deleted owners and bad amounts", async () => {
    const unknown = await api("/.well-known/lnurlp/nobody-here");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ status: "ERROR", reason: "Unknown alias" });

    const { m, alias } = await memberWithAlias();
    expect((await api(`/.well-known/lnurlp/${alias}/callback?amount=abc`)).status).toBe(400);
    expect((await api(`/.well-known/lnurlp/${alias}/callback?amount=1`)).status).toBe(400);
    await call("/api/user/me", m.token, "DELETE");
    expect((await api(`/.well-known/lnurlp/${alias}`)).status).toBe(404);
    // The alias stays reserved: nobody else can claim it and receive the deleted member's payments.
    const other = await signUp({ lightningAddress: "other@wallet.test" });
    expect((await call("/api/user/me", other.token, "PATCH", { gigstrAlias: alias })).status).toBe(409);
  });

  it("never points at itself: an alias forwards to no address on this site (no Worker fetching itself)", async () => {
    // Claiming an alias while the address is on the alias domain: refused, nothing set.
    const looped = await signUp({ lightningAddress: `me${crypto.randomUUID().slice(0, 6)}@gigstr.test` });
    const claim = await call("/api/user/me", looped.token, "PATCH", { gigstrAlias: `loop${crypto.randomUUID().slice(0, 6)}` });
    expect(claim).toMatchObject({ status: 400, body: { error: "alias_loop", message: "Your Lightning address cannot be on gigstr.test: your Gigstr alias forwards to it." } });
    expect((await call("/api/user/me", looped.token)).body.gigstrAlias).toBeNull();

    // With an alias, moving the address onto the alias domain (another member's alias, or its own): refused.
    const { m, name, alias } = await memberWithAlias();
    const other = await memberWithAlias();
    for (const address of [`${other.alias}@gigstr.test`, `${alias}@GIGSTR.test`]) {
      expect(await call("/api/user/me", m.token, "PATCH", { lightningAddress: address })).toMatchObject({ status: 400, body: { error: "alias_loop" } });
    }
    // ALIAS_DOMAIN, when set, is the domain that counts.
    const onAliasDomain = await api("/api/user/me", { method: "PATCH", token: m.token, json: { lightningAddress: `${other.alias}@pay.gigstr.example` }, env: { ALIAS_DOMAIN: "pay.gigstr.example" } });
    expect(onAliasDomain.status).toBe(400);
    expect((await call("/api/user/me", m.token)).body.lightningAddress).toBe(`${name}@wallet.test`);

    // An old row that points at this site anyway is answered with a LUD-06 error, never fetched.
    await statement("UPDATE users SET lightning_address = ? WHERE id = ?", `${other.alias}@gigstr.test`, m.id).run();
    for (const path of [`/.well-known/lnurlp/${alias}`, `/.well-known/lnurlp/${alias}/callback?amount=21000`]) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ status: "ERROR", reason: "This alias forwards to another address on this site, which is not allowed" });
    }
  });

  it("refuses to forward when the owner's provider cannot be reached safely", async () => {
    const m = await signUp({ lightningAddress: "someone@localhost.localdomain" });
    const alias = `loc${crypto.randomUUID().slice(0, 6)}`;
    await call("/api/user/me", m.token, "PATCH", { gigstrAlias: alias });
    const res = await api(`/.well-known/lnurlp/${alias}`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { status: string }).status).toBe("ERROR");
  });
});

/** A client address (an IPv6 /64 of its own) no other test uses, so counts never leak between tests. */
function freshAddress(): string {
  const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${hex()}:${hex()}::1`;
}

describe("alias LNURL-pay requests, counted by the client's address", () => {
  it(`answers a LUD-06 429 with Retry-After past ${DOORS.aliasLnurl.limit} a minute, payRequests and callbacks together; another address is still served`, async () => {
    const { alias } = await memberWithAlias();
    const address = freshAddress();
    const from = (path: string, ip: string) => api(path, { headers: { "cf-connecting-ip": ip } });
    // Each of these makes the Worker fetch the owner's real address: an attacker's loop.
    await inOneRateWindow(DOORS.aliasLnurl.periodSeconds, 40);
    for (let i = 0; i < DOORS.aliasLnurl.limit; i++) expect((await from(`/.well-known/lnurlp/${alias}`, address)).status).toBe(200);
    for (const path of [`/.well-known/lnurlp/${alias}/callback?amount=21000`, `/.well-known/lnurlp/${alias}`, "/.well-known/lnurlp/nobody-here"]) {
      const refused = await from(path, address);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("60");
      expect(await refused.json()).toEqual({ status: "ERROR", reason: "Too many alias payment requests. Please wait a minute and try again." });
    }
    expect((await from(`/.well-known/lnurlp/${alias}/callback?amount=21000`, freshAddress())).status).toBe(200);
  });
});

describe("an owner's wallet that sends payments back to this site", () => {
  it("is refused with a LUD-06 error: the Worker never fetches its own alias callback", async () => {
    const other = await memberWithAlias();
    const owner = await signUp({ lightningAddress: "carol@provider.example" });
    const alias = `fw${crypto.randomUUID().slice(0, 6)}`;
    expect((await call("/api/user/me", owner.token, "PATCH", { gigstrAlias: alias })).status).toBe(200);
    const theirs = "https://provider.example/.well-known/lnurlp/carol";
    const fetched: string[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      fetched.push(url);
      if (url !== theirs) return Response.json({ status: "ERROR", reason: "this test serves nothing else" }, { status: 500 });
      // Carol's provider (or whoever controls it) names another alias's callback on this site.
      return Response.json({
        tag: "payRequest",
        callback: `https://gigstr.test/.well-known/lnurlp/${other.alias}/callback`,
        minSendable: 1000,
        maxSendable: 100_000_000,
        metadata: JSON.stringify([["text/plain", "Pay carol"]]),
      });
    });
    try {
      for (const path of [`/.well-known/lnurlp/${alias}`, `/.well-known/lnurlp/${alias}/callback?amount=21000`]) {
        const res = await api(path);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ status: "ERROR", reason: "This alias's wallet sends payments back to an alias on this site, which is not allowed" });
      }
    } finally {
      fetchSpy.mockRestore();
    }
    expect(fetched).toEqual([theirs, theirs]);
  });

  it("counts ALIAS_DOMAIN as this site too", async () => {
    const owner = await signUp({ lightningAddress: "dave@provider.example" });
    const alias = `fw${crypto.randomUUID().slice(0, 6)}`;
    expect((await call("/api/user/me", owner.token, "PATCH", { gigstrAlias: alias })).status).toBe(200);
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({
        tag: "payRequest",
        callback: "https://pay.gigstr.example/.well-known/lnurlp/someone/callback",
        minSendable: 1000,
        maxSendable: 100_000_000,
        metadata: JSON.stringify([["text/plain", "Pay dave"]]),
      }),
    );
    try {
      const res = await api(`/.well-known/lnurlp/${alias}/callback?amount=21000`, { env: { ALIAS_DOMAIN: "pay.gigstr.example" } });
      expect(res.status).toBe(404);
      expect(fetchSpy).toHaveBeenCalledTimes(1);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
