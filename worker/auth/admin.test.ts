// Admin sign-in: the PIN, the lockout (5 per client, 20 in all, 15 minutes), the second factor
// (optional on a local run; required on a deployed Worker, where failures count per admin key), and
// admin tokens (hashed at rest, 12 hours, ended by logout).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminApi, TEST_ADMIN_PIN } from "../test/admin";
import { signUp } from "../test/factories";
import { ADMIN_KEYS_REQUIRED, BLOCKED_MESSAGE, FAILURES_IN_ALL, FAILURES_PER_CLIENT, isAdminToken, signInAdmin } from "./admin";
import { findUserById } from "../services/users";
import { openDb } from "../db/client";
import { sha256Hex } from "./tokens";
import { statement } from "../db/test-statements";

const WRONG_PIN = "000000";
let ipCounter = 0;
const newIp = () => `192.0.2.${++ipCounter}`;
const minutes = (n: number) => n * 60_000;

const signIn = (pin: string, ip: string, extra: Parameters<typeof adminApi>[1] = {}) =>
  adminApi("/api/admin/auth", { method: "POST", json: { pin }, ip, ...extra });

describe("POST /api/admin/auth", () => {
  it("answers a token for the right PIN; only its SHA-256 is stored, valid for 12 hours", async () => {
    const res = await signIn(TEST_ADMIN_PIN, newIp());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    const token = res.body.adminToken as string;
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    const row = await statement("SELECT * FROM admin_sessions WHERE token_hash = ?", await sha256Hex(token)).first<Record<string, string>>();
    expect(row).not.toBeNull();
    const ttl = Date.parse(row!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(minutes(12 * 60 - 1));
    expect(ttl).toBeLessThanOrEqual(minutes(12 * 60));
    expect(await statement("SELECT COUNT(*) AS n FROM admin_sessions WHERE token_hash = ?", token).first("n")).toBe(0);

    expect((await adminApi("/api/admin/stats", { adminToken: token })).status).toBe(200);
  });

  it("answers 401 Incorrect PIN for a wrong PIN, and 400 without a PIN", async () => {
    const ip = newIp();
    expect(await signIn(WRONG_PIN, ip)).toMatchObject({ status: 401, body: { message: "Incorrect PIN", error: "incorrect_pin" } });
    expect(await signIn("12345", ip)).toMatchObject({ status: 401, body: { message: "Incorrect PIN" } });
    expect((await adminApi("/api/admin/auth", { method: "POST", json: {}, ip })).status).toBe(400);
  });

  it("blocks a client after 5 failures for 15 minutes, even with the right PIN; other clients are not blocked", async () => {
    const ip = newIp();
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) expect((await signIn(WRONG_PIN, ip)).status).toBe(401);
    const blocked = await signIn(TEST_ADMIN_PIN, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toContain("blocked");
    expect(blocked.body.message).toBe(BLOCKED_MESSAGE);
    // A blocked try is not a failure: the block does not grow.
    expect(await statement("SELECT COUNT(*) AS n FROM admin_login_failures WHERE client = ?", ip).first("n")).toBe(FAILURES_PER_CLIENT);

    expect((await signIn(TEST_ADMIN_PIN, newIp())).status).toBe(200);
  });

  it("keeps the block for 15 minutes after the failure that caused it, then lets the client try again", async () => {
    const client = "lockout-clock";
    const start = new Date(Date.now() - 2 * 86_400_000); // a day of its own, away from the other tests
    const at = (m: number) => new Date(start.getTime() + minutes(m));
    const attempt = (m: number, pin = WRONG_PIN) => signInAdmin({ db: openDb(env.DB) }, env, { pin, client, member: null }, at(m)).then(() => "ok", (e: { status: number }) => e.status);

    // Failures at minutes 0, 1, 2, 3 and 10: the fifth, at 10, blocks until 25.
    for (const m of [0, 1, 2, 3, 10]) expect(await attempt(m)).toBe(401);
    expect(await attempt(11, TEST_ADMIN_PIN)).toBe(429);
    expect(await attempt(24.9, TEST_ADMIN_PIN)).toBe(429);
    expect(await attempt(25.1, TEST_ADMIN_PIN)).toBe("ok");
    // A success clears the client's failures.
    expect(await attempt(26)).toBe(401);
    expect(await attempt(27, TEST_ADMIN_PIN)).toBe("ok");
  });

  it("blocks everybody after 20 failures in all within 15 minutes", async () => {
    const start = new Date(Date.now() - 5 * 86_400_000);
    const at = (m: number) => new Date(start.getTime() + minutes(m));
    const attempt = (client: string, m: number, pin = WRONG_PIN) =>
      signInAdmin({ db: openDb(env.DB) }, env, { pin, client, member: null }, at(m)).then(() => "ok", (e: { status: number; message: string }) => `${e.status} ${e.message}`);

    // 20 failures from 10 clients, 2 each: no client reaches its own limit.
    for (let i = 0; i < FAILURES_IN_ALL; i++) expect(await attempt(`spread-${i % 10}`, i * 0.5)).toBe("401 Incorrect PIN");
    expect(await attempt("fresh-client", 10, TEST_ADMIN_PIN)).toBe(`429 ${BLOCKED_MESSAGE}`);
    // The last failure was at 9.5: everybody may try again from 24.5.
    expect(await attempt("fresh-client", 24, TEST_ADMIN_PIN)).toContain("429");
    expect(await attempt("fresh-client", 25, TEST_ADMIN_PIN)).toBe("ok");
  });

  it("never lets concurrent guesses past the limit", async () => {
    const ip = newIp();
    const results = await Promise.all(Array.from({ length: 12 }, () => signIn(WRONG_PIN, ip)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FAILURES_PER_CLIENT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - FAILURES_PER_CLIENT);
  });

  it("refuses every PIN when ADMIN_PIN is not set (503), or is not 6 digits", async () => {
    for (const ADMIN_PIN of [undefined, "", "1234"]) {
      const res = await signIn(TEST_ADMIN_PIN, newIp(), { env: { ADMIN_PIN } });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/ADMIN_PIN/);
    }
    expect((await signIn("", newIp(), { env: { ADMIN_PIN: "" } })).status).toBe(503);
  });

  it("with ADMIN_PUBKEYS set also needs the session of one of those keys (npub or hex)", async () => {
    const admin = await signUp();
    const other = await signUp();
    for (const ADMIN_PUBKEYS of [admin.npub, `  ${other.pubkey} , ${admin.pubkey.toUpperCase()} `]) {
      const settings = { env: { ADMIN_PUBKEYS } };
      const ip = newIp();
      expect(await signIn(TEST_ADMIN_PIN, ip, settings)).toMatchObject({ status: 403, body: { error: "admin_key_required" } });
      expect(await signIn(TEST_ADMIN_PIN, ip, { ...settings, token: ADMIN_PUBKEYS === admin.npub ? other.token : "f".repeat(64) })).toMatchObject({ status: 403 });
      expect((await signIn(WRONG_PIN, ip, { ...settings, token: admin.token })).status).toBe(401);
      expect((await signIn(TEST_ADMIN_PIN, ip, { ...settings, token: admin.token })).status).toBe(200);
    }
    // The member session alone is not enough.
    expect((await signIn(WRONG_PIN, newIp(), { env: { ADMIN_PUBKEYS: admin.npub }, token: admin.token })).status).toBe(401);
    // A broken list refuses everybody rather than nobody.
    expect((await signIn(TEST_ADMIN_PIN, newIp(), { env: { ADMIN_PUBKEYS: "npub1nonsense" }, token: admin.token })).status).toBe(503);
    // Without the second factor the try is not counted as a PIN guess.
    const ip = newIp();
    for (let i = 0; i < FAILURES_PER_CLIENT + 2; i++) expect((await signIn(WRONG_PIN, ip, { env: { ADMIN_PUBKEYS: admin.npub } })).status).toBe(403);
    expect((await signIn(TEST_ADMIN_PIN, ip, { env: { ADMIN_PUBKEYS: admin.npub }, token: admin.token })).status).toBe(200);
  });
});

describe("POST /api/admin/auth on a deployed Worker (no LOCAL_DEV)", () => {
  const deployed = (ADMIN_PUBKEYS?: string) => ({ env: { LOCAL_DEV: undefined, ADMIN_PUBKEYS } });
  const failuresOf = (pubkey: string) => statement("SELECT COUNT(*) AS n FROM admin_login_failures WHERE instr(client, ?) > 0", pubkey).first<number>("n");

  it("is switched off without ADMIN_PUBKEYS: 503 naming the setting, even with the right PIN; the PIN alone is not a key", async () => {
    const member = await signUp();
    for (const ADMIN_PUBKEYS of [undefined, "", " , "]) {
      for (const token of [undefined, member.token]) {
        expect(await signIn(TEST_ADMIN_PIN, newIp(), { ...deployed(ADMIN_PUBKEYS), token })).toEqual({
          status: 503,
          body: { message: ADMIN_KEYS_REQUIRED, error: "admin_keys_required" },
        });
      }
    }
    expect(ADMIN_KEYS_REQUIRED).toContain("ADMIN_PUBKEYS must be set");
    // Everybody else is still served.
    expect((await adminApi("/api/gigs?status=open", deployed())).status).toBe(200);
  });

  it("signs in an admin key's session with the PIN; a stranger's session or none is 403 and counts nothing", async () => {
    const admin = await signUp();
    const stranger = await signUp();
    const settings = deployed(admin.npub);
    const allFailures = () => statement("SELECT COUNT(*) AS n FROM admin_login_failures").first<number>("n");
    const before = await allFailures();
    for (const token of [undefined, stranger.token]) {
      for (let i = 0; i < FAILURES_PER_CLIENT + 3; i++) {
        expect(await signIn(i === 0 ? TEST_ADMIN_PIN : WRONG_PIN, newIp(), { ...settings, token })).toMatchObject({ status: 403, body: { error: "admin_key_required" } });
      }
    }
    expect(await allFailures()).toBe(before);
    const res = await signIn(TEST_ADMIN_PIN, newIp(), { ...settings, token: admin.token });
    expect(res.status).toBe(200);
    expect((await adminApi("/api/admin/stats", { adminToken: res.body.adminToken as string, ...settings })).status).toBe(200);
  });

  it("counts an admin key's wrong PINs against that key, from any address, and against no other key", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const settings = deployed(`${alice.npub},${bob.pubkey}`);
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) expect((await signIn(WRONG_PIN, newIp(), { ...settings, token: alice.token })).status).toBe(401);
    expect(await failuresOf(alice.pubkey)).toBe(FAILURES_PER_CLIENT);
    // Blocked by key: a new address does not help, the right PIN neither.
    const blocked = await signIn(TEST_ADMIN_PIN, newIp(), { ...settings, token: alice.token });
    expect(blocked).toMatchObject({ status: 429, body: { message: BLOCKED_MESSAGE } });
    // The other admin key, from the very address alice used last, is not blocked.
    expect((await signIn(TEST_ADMIN_PIN, newIp(), { ...settings, token: bob.token })).status).toBe(200);
    expect(await failuresOf(bob.pubkey)).toBe(0);
  });

  it("strangers failing as often as they like never block the admin key, and there is no '20 in all' bucket", async () => {
    const keys = await Promise.all(Array.from({ length: 6 }, () => signUp()));
    const members = await Promise.all(keys.map((k) => findUserById({ db: openDb(env.DB) }, k.id)));
    const deployedEnv = { ...env, LOCAL_DEV: undefined, ADMIN_PUBKEYS: keys.map((k) => k.npub).join(",") };
    const start = new Date(Date.now() - 9 * 86_400_000); // a day of its own, away from the other tests
    const at = (m: number) => new Date(start.getTime() + minutes(m));
    const attempt = (member: (typeof members)[number] | null, m: number, pin = WRONG_PIN, client = `stranger-${m}`) =>
      signInAdmin({ db: openDb(env.DB) }, deployedEnv, { pin, client, member }, at(m)).then(() => "ok", (e: { status: number }) => e.status);

    // 200 strangers' tries (no session) from 200 addresses: all refused, none counted.
    for (let i = 0; i < 200; i++) expect(await attempt(null, i * 0.01)).toBe(403);
    // 4 failures for each of five admin keys: 20 in all within minutes, no key at its own limit.
    for (let i = 0; i < 20; i++) expect(await attempt(members[i % 5]!, 3 + i * 0.1)).toBe(401);
    expect(await attempt(members[5]!, 6, TEST_ADMIN_PIN)).toBe("ok");
    expect(await attempt(members[0]!, 6.1, TEST_ADMIN_PIN)).toBe("ok");
  });

  it("on a local run the PIN alone still signs in, and ADMIN_PUBKEYS when set is a second factor as before", async () => {
    expect(env.LOCAL_DEV).toBe("1");
    expect((await signIn(TEST_ADMIN_PIN, newIp())).status).toBe(200);
    const admin = await signUp();
    expect((await signIn(TEST_ADMIN_PIN, newIp(), { env: { ADMIN_PUBKEYS: admin.npub } })).status).toBe(403);
    expect((await signIn(TEST_ADMIN_PIN, newIp(), { env: { ADMIN_PUBKEYS: admin.npub }, token: admin.token })).status).toBe(200);
  });
});

describe("admin tokens", () => {
  it("logout ends the admin session; logout without a token is harmless", async () => {
    const token = (await signIn(TEST_ADMIN_PIN, newIp())).body.adminToken as string;
    expect(await adminApi("/api/admin/logout", { method: "POST", adminToken: token })).toMatchObject({ status: 200, body: { success: true } });
    expect(await adminApi("/api/admin/stats", { adminToken: token })).toMatchObject({ status: 401, body: { error: "admin_required" } });
    expect((await adminApi("/api/admin/logout", { method: "POST" })).status).toBe(200);
  });

  it("an expired or unknown token is no admin", async () => {
    const token = "ab".repeat(32);
    await statement("INSERT INTO admin_sessions (token_hash, expires_at) VALUES (?, ?)", await sha256Hex(token), new Date(Date.now() - 1000).toISOString()).run();
    expect(await isAdminToken(openDb(env.DB), token)).toBe(false);
    expect((await adminApi("/api/admin/stats", { adminToken: token })).status).toBe(401);
    expect((await adminApi("/api/admin/stats", { adminToken: "cd".repeat(32) })).status).toBe(401);
  });

  it("a member session is no admin token", async () => {
    const member = await signUp();
    expect((await adminApi("/api/admin/stats", { token: member.token })).status).toBe(401);
    expect((await adminApi("/api/admin/stats", { adminToken: member.token })).status).toBe(401);
  });
});

describe("admin tokens end with their key (decision 023)", () => {
  const deployed = (ADMIN_PUBKEYS?: string) => ({ env: { LOCAL_DEV: undefined, ADMIN_PUBKEYS } });
  const adminTokenOf = async (member: { token: string }, ADMIN_PUBKEYS: string) => {
    const res = await signIn(TEST_ADMIN_PIN, newIp(), { ...deployed(ADMIN_PUBKEYS), token: member.token });
    expect(res.status).toBe(200);
    return res.body.adminToken as string;
  };
  const stats = (adminToken: string, ADMIN_PUBKEYS?: string) => adminApi("/api/admin/stats", { adminToken, ...deployed(ADMIN_PUBKEYS) });

  it("remembers the admin key that opened the token", async () => {
    const admin = await signUp();
    const token = await adminTokenOf(admin, admin.npub);
    expect(await statement("SELECT pubkey FROM admin_sessions WHERE token_hash = ?", await sha256Hex(token)).first("pubkey")).toBe(admin.pubkey);
  });

  it("'Sign out everywhere' by the admin key's member ends its admin tokens at once; another admin's and other members' stay", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const keys = `${alice.npub},${bob.npub}`;
    const aliceLaptop = await adminTokenOf(alice, keys);
    const alicePhone = await adminTokenOf(alice, keys);
    const bobs = await adminTokenOf(bob, keys);
    expect((await stats(aliceLaptop, keys)).status).toBe(200);

    // Another member signing out everywhere ends nobody's admin token.
    const stranger = await signUp();
    expect((await adminApi("/api/auth/logout-all", { method: "POST", token: stranger.token, ...deployed(keys) })).status).toBe(200);
    expect((await stats(aliceLaptop, keys)).status).toBe(200);

    // Alice fears her key's session was stolen and signs out everywhere.
    expect(await adminApi("/api/auth/logout-all", { method: "POST", token: alice.token, ...deployed(keys) })).toEqual({ status: 200, body: { success: true, ended: 1 } });
    for (const token of [aliceLaptop, alicePhone]) {
      expect(await stats(token, keys)).toMatchObject({ status: 401, body: { error: "admin_required" } });
      expect(await isAdminToken(openDb(env.DB), token)).toBe(false); // the chat room's check too
    }
    expect((await stats(bobs, keys)).status).toBe(200);
  });

  it("removing a key from ADMIN_PUBKEYS ends its admin tokens at the next request, for good; the other key's stay", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const both = `${alice.npub},${bob.pubkey}`;
    const alices = await adminTokenOf(alice, both);
    const bobs = await adminTokenOf(bob, both);
    expect((await stats(alices, both)).status).toBe(200);

    // The operator takes alice's key out of ADMIN_PUBKEYS.
    expect(await stats(alices, bob.npub)).toMatchObject({ status: 401, body: { error: "admin_required" } });
    expect((await adminApi("/api/admin/gigs", { adminToken: alices, ...deployed(bob.npub) })).status).toBe(401);
    expect((await stats(bobs, bob.npub)).status).toBe(200);
    // Ended, not paused: putting the key back does not revive the token, and the chat room sees it gone.
    expect((await stats(alices, both)).status).toBe(401);
    expect(await isAdminToken(openDb(env.DB), alices)).toBe(false);
    // Alice's member session is untouched; she may sign in as admin again once her key is listed.
    expect((await adminApi("/api/user/me", { token: alice.token, ...deployed(bob.npub) })).status).toBe(200);
  });

  it("with ADMIN_PUBKEYS unset or broken a deployed Worker honours no admin token; a PIN-only token never holds there", async () => {
    const admin = await signUp();
    const keyed = await adminTokenOf(admin, admin.npub);
    expect((await stats(keyed, "npub1nonsense")).status).toBe(401);
    const again = await adminTokenOf(admin, admin.npub);
    expect((await stats(again, undefined)).status).toBe(401);

    // A token from a local run (the PIN alone, no key) is no admin token on a deployed Worker.
    const pinOnly = (await signIn(TEST_ADMIN_PIN, newIp())).body.adminToken as string;
    expect((await adminApi("/api/admin/stats", { adminToken: pinOnly, ...deployed(admin.npub) })).status).toBe(401);
  });

  it("on a local run a PIN-only token holds without ADMIN_PUBKEYS, and a key's token ends when its key is removed", async () => {
    const pinOnly = (await signIn(TEST_ADMIN_PIN, newIp())).body.adminToken as string;
    expect((await adminApi("/api/admin/stats", { adminToken: pinOnly })).status).toBe(200);
    const admin = await signUp();
    const keyed = (await signIn(TEST_ADMIN_PIN, newIp(), { env: { ADMIN_PUBKEYS: admin.npub }, token: admin.token })).body.adminToken as string;
    expect((await adminApi("/api/admin/stats", { adminToken: keyed, env: { ADMIN_PUBKEYS: admin.npub } })).status).toBe(200);
    expect((await adminApi("/api/admin/stats", { adminToken: keyed })).status).toBe(401);
  });
});
