// Visitors' public reads from the edge cache: a hit runs no query; a member's or the admin's read is never
// stored nor served from it; a gig's change makes its own page fresh at once; a browse page is at most the
// stated freshness old, then served stale once while a fresh one is made.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INBOX_PROTOCOL, INBOX_TOKEN_PREFIX } from "../domain/notifications";
import { adminSignIn } from "./test/admin";
import { api, claimedJob, postGig, signUp, type Json } from "./test/factories";
import { publicCacheKey } from "./services/public-cache";

const CACHED = { PUBLIC_CACHE_SECONDS: "30" };

async function visitorRead(path: string, headers: Record<string, string> = {}) {
  const res = await api(path, { headers, env: CACHED });
  return { status: res.status, cache: res.headers.get("X-Cache"), rowsRead: res.headers.get("X-Rows-Read"), body: (await res.json()) as Json };
}

afterEach(() => vi.useRealTimers());

describe("a visitor's read of a gig", () => {
  it("is stored on the first read and answered from the cache after, with no query run", async () => {
    const job = await claimedJob();
    const first = await visitorRead(`/api/gigs/${job.gigId}`);
    expect(first).toMatchObject({ status: 200, cache: "miss" });
    const second = await visitorRead(`/api/gigs/${job.gigId}`);
    expect(second).toMatchObject({ status: 200, cache: "hit", rowsRead: "0" });
    expect(second.body).toEqual(first.body);
  });

  it("is fresh at once after the gig changes: the change purges its page", async () => {
    const job = await claimedJob();
    expect((await visitorRead(`/api/gigs/${job.gigId}`)).body.status).toBe("claimed");
    expect((await visitorRead(`/api/gigs/${job.gigId}`)).cache).toBe("hit");
    expect((await api(`/api/gigs/${job.gigId}/start-work`, { method: "POST", token: job.worker.token, env: CACHED })).status).toBe(200);
    const after = await visitorRead(`/api/gigs/${job.gigId}`);
    expect(after).toMatchObject({ cache: "miss", body: { status: "in_progress" } });
  });

  it("asked for with a percent-escape in its path, is answered but never stored: the admin's removal reaches it at once", async () => {
    const job = await claimedJob();
    // The router reads `%` + the first character's hex code as that character: the same gig at another key.
    const escaped = `/api/gigs/%${job.gigId.charCodeAt(0).toString(16)}${job.gigId.slice(1)}`;
    const first = await visitorRead(escaped);
    expect(first).toMatchObject({ status: 200, cache: null, body: { id: job.gigId } });
    expect(await visitorRead(escaped)).toMatchObject({ status: 200, cache: null });
    const admin = await adminSignIn();
    expect((await api(`/api/admin/gigs/${job.gigId}`, { method: "DELETE", headers: { "x-admin-token": admin }, env: CACHED })).status).toBe(200);
    expect(await visitorRead(escaped)).toMatchObject({ status: 404, cache: null });
    expect(await visitorRead(`/api/gigs/${job.gigId}`)).toMatchObject({ status: 404, cache: null });
  });

  it("has one key per page, the one its purge deletes", () => {
    const id = "0846eb6a-1111-4222-8333-944445555666";
    for (const path of [`/api/gigs/${id}`, `/gig/${id}`, `/gigs/${id}`]) {
      expect(publicCacheKey(new URL(`https://gigstr.test${path}`))).toBe(`https://public-cache.gigstr.invalid${path}`);
      expect(publicCacheKey(new URL(`https://gigstr.test${path.replace(id, `%30${id.slice(1)}`)}`))).toBeNull();
    }
  });
});

describe("members and the admin", () => {
  it("are never answered from the cache, and what they read is never stored for visitors", async () => {
    const job = await claimedJob();
    await api(`/api/gigs/${job.gigId}/start-work`, { method: "POST", token: job.worker.token, env: CACHED });
    await api(`/api/gigs/${job.gigId}/submit`, { method: "POST", token: job.worker.token, json: { workSubmission: "Only for the parties" }, env: CACHED });
    const party = await api(`/api/gigs/${job.gigId}`, { token: job.hirer.token, env: CACHED });
    expect(party.headers.get("X-Cache")).toBeNull();
    expect(((await party.json()) as Json).workSubmission).toBe("Only for the parties");

    const visitor = await visitorRead(`/api/gigs/${job.gigId}`);
    expect(visitor).toMatchObject({ cache: "miss", body: { workSubmission: null } });
    const again = await api(`/api/gigs/${job.gigId}`, { token: job.hirer.token, env: CACHED });
    expect(again.headers.get("X-Cache")).toBeNull();
    expect(((await again.json()) as Json).workSubmission).toBe("Only for the parties");

    const admin = await adminSignIn();
    const asAdmin = await api(`/api/gigs/${job.gigId}`, { headers: { "x-admin-token": admin }, env: CACHED });
    expect(asAdmin.headers.get("X-Cache")).toBeNull();
    expect(((await asAdmin.json()) as Json).workSubmission).toBe("Only for the parties");
  });
});

describe("who is a visitor", () => {
  const socketLike = (token: string) => ({ Upgrade: "websocket", "Sec-WebSocket-Protocol": `${INBOX_PROTOCOL}, ${INBOX_TOKEN_PREFIX}${token}` });

  it("a session offered as a sub-protocol is read only by the inbox socket: a gig read carrying one neither sees the member's view nor stores it", async () => {
    // The attack: an unpaid job (its invoice is the poster's alone) read with the poster's token as a sub-protocol.
    const poster = await signUp({ lightningAddress: `inv${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    const { gig } = await postGig(poster);
    const attack = await api(`/api/gigs/${gig.id}`, { headers: socketLike(poster.token), env: CACHED });
    const answer = (await attack.json()) as Json;
    expect(attack.status).toBe(400);
    expect(answer).toMatchObject({ error: "misplaced_session" });
    expect(JSON.stringify(answer)).not.toContain("lnbc");
    expect(attack.headers.get("X-Cache")).toBeNull();
    // Nothing was stored as the visitor's answer: a visitor still gets 404, from the app.
    const visitor = await visitorRead(`/api/gigs/${gig.id}`);
    expect(visitor).toMatchObject({ status: 404, cache: null });
    expect(JSON.stringify(visitor.body)).not.toContain("lnbc");

    // Nor a removed gig as the admin (or a party) sees it.
    const job = await claimedJob();
    await env.DB.prepare("UPDATE gigs SET resolution = 'deleted_by_admin' WHERE id = ?").bind(job.gigId).run();
    expect((await api(`/api/gigs/${job.gigId}`, { headers: socketLike(job.hirer.token), env: CACHED })).status).toBe(400);
    expect(await visitorRead(`/api/gigs/${job.gigId}`)).toMatchObject({ status: 404, cache: null });
  });

  it("a request with an upgrade, a sub-protocol or a cookie is neither answered from the cache nor stored", async () => {
    const job = await claimedJob();
    const page = `/api/gigs/${job.gigId}`;
    const others: Record<string, string>[] = [{ Upgrade: "websocket" }, { "Sec-WebSocket-Protocol": INBOX_PROTOCOL }, { Cookie: "session=1" }, { Authorization: "Basic eDp5" }];
    for (const headers of others) {
      const res = await api(page, { headers, env: CACHED });
      expect(res.headers.get("X-Cache")).toBeNull();
    }
    // None of them stored anything: the first visitor's read is a miss, then a hit; the others still skip it.
    expect((await visitorRead(page)).cache).toBe("miss");
    expect((await visitorRead(page)).cache).toBe("hit");
    for (const headers of others) {
      expect((await api(page, { headers, env: CACHED })).headers.get("X-Cache")).toBeNull();
    }
  });
});

describe("a refresh that finds the page gone", () => {
  it("deletes the stored answer: a gig removed without a purge is served stale once, then not again", async () => {
    const job = await claimedJob();
    const page = `/api/gigs/${job.gigId}`;
    expect((await visitorRead(page)).cache).toBe("miss");
    // Removed behind the cache's back (no purge reaches it): only the refresh can find out.
    await env.DB.prepare("UPDATE gigs SET resolution = 'deleted_by_admin' WHERE id = ?").bind(job.gigId).run();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    expect((await visitorRead(page)).cache).toBe("stale");
    // The refresh answered 404: the entry is gone, not served stale again.
    expect(await visitorRead(page)).toMatchObject({ status: 404, cache: null });
    expect(await visitorRead(page)).toMatchObject({ status: 404, cache: null });
  });
});

describe("a visitor's browse page", () => {
  it("stays as stored while fresh, is served stale once after, and is fresh again from the next read", async () => {
    const category = "Consulting";
    const poster = await signUp({ lightningAddress: `cache${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    const page = `/api/gigs?category=${category}&gigType=service_offering&limit=100&posterId=${poster.id}`;
    await postGig(poster, { gigType: "service_offering", category, title: "First offer in the cache test" });
    const first = await visitorRead(page);
    expect(first.cache).toBe("miss");
    expect(first.body).toHaveLength(1);

    await postGig(poster, { gigType: "service_offering", category, title: "Second offer in the cache test" });
    expect(await visitorRead(page)).toMatchObject({ cache: "hit", rowsRead: "0" });
    expect((await visitorRead(page)).body).toHaveLength(1);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    const stale = await visitorRead(page);
    expect(stale.cache).toBe("stale");
    expect(stale.body).toHaveLength(1);
    const refreshed = await visitorRead(page);
    expect(refreshed.cache).toBe("hit");
    expect(refreshed.body.map((g: Json) => g.title).sort()).toEqual(["First offer in the cache test", "Second offer in the cache test"]);
  });

  it("keys a list by its whole query, whatever the order of its parameters", async () => {
    const poster = await signUp({ lightningAddress: `order${crypto.randomUUID().slice(0, 8)}@wallet.test` });
    await postGig(poster, { gigType: "service_offering", category: "Writing" });
    expect((await visitorRead(`/api/gigs?posterId=${poster.id}&category=Writing`)).cache).toBe("miss");
    expect((await visitorRead(`/api/gigs?category=Writing&posterId=${poster.id}`)).cache).toBe("hit");
    expect((await visitorRead(`/api/gigs?category=Design&posterId=${poster.id}`)).cache).toBe("miss");
  });
});

describe("switched off", () => {
  it("with PUBLIC_CACHE_SECONDS=0 every read runs its query", async () => {
    const job = await claimedJob();
    for (let i = 0; i < 2; i++) {
      const res = await api(`/api/gigs/${job.gigId}`, { env: { PUBLIC_CACHE_SECONDS: "0" } });
      expect(res.headers.get("X-Cache")).toBeNull();
    }
  });
});
