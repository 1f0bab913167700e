// Sessions checked at the member's inbox, not in the database (docs/decisions/032): each test is what someone
// holding a token would try after the session should have ended, or with a token they changed.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { meteredD1, type D1Meter } from "../db/test-statements";
import { createSession } from "../services/auth";
import { api, call, getChallenge, loginEvent, signUp, type Member } from "../test/factories";
import { endMemberAccess } from "./member-sessions";
import { sealSessionToken } from "./signed-sessions";
import { parseMemberSessionToken, randomHex, sha256Hex } from "./tokens";
import { derivedKeyOf } from "./derived-keys";

/** The member signs in once more (another device), through the real sign-in: a token their inbox holds. */
async function signInAgain(member: Member): Promise<string> {
  const { challenge, challengeId } = await getChallenge();
  const res = await api("/api/auth/nostr/verify", { method: "POST", json: { event: loginEvent(member.secretKey, challenge), challengeId } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sessionToken: string }).sessionToken;
}

/** A route that knows the member from their session alone (the bell's count), and one that reads the account. */
const bell = (token: string) => call("/api/notifications/unread-count", token);
const account = (token: string) => call("/api/user/me", token);

describe("a session ends at once, for whoever holds its token", () => {
  it("after sign-out, the same token is refused at once; the member's other devices go on", async () => {
    const member = await signUp();
    const phone = await signInAgain(member);
    expect((await bell(member.token)).status).toBe(200);
    expect(await call("/api/auth/logout", member.token, "POST")).toEqual({ status: 200, body: { success: true } });
    expect((await bell(member.token)).status).toBe(401);
    expect((await account(member.token)).status).toBe(401);
    expect((await bell(phone)).status).toBe(200);
  });

  it("after signing out everywhere, every other token of the member is refused at once; another member's is not", async () => {
    const member = await signUp();
    const phone = await signInAgain(member);
    const laptop = await signInAgain(member);
    const stranger = await signUp();
    for (const token of [phone, laptop]) expect((await bell(token)).status).toBe(200);
    expect(await call("/api/auth/logout-all", member.token, "POST")).toEqual({ status: 200, body: { success: true, ended: 3 } });
    for (const token of [member.token, phone, laptop]) {
      expect((await bell(token)).status).toBe(401);
      expect((await account(token)).status).toBe(401);
    }
    expect((await bell(stranger.token)).status).toBe(200);
    // Signing in afterwards gives a working session again.
    expect((await bell(await signInAgain(member))).status).toBe(200);
  });

  it("after one device is signed out from the sessions list, its token is refused at once", async () => {
    const member = await signUp();
    const laptop = await signInAgain(member);
    const list = (await call("/api/auth/sessions", member.token)).body as unknown as Array<{ id: string; current: boolean }>;
    const laptopId = list.find((s) => !s.current)!.id;
    expect((await call(`/api/auth/sessions/${laptopId}`, member.token, "DELETE")).status).toBe(200);
    expect((await bell(laptop)).status).toBe(401);
    expect((await bell(member.token)).status).toBe(200);
  });

  it("after the member deletes their account, every token of it is refused at once", async () => {
    const member = await signUp();
    const phone = await signInAgain(member);
    expect(await call("/api/user/me", member.token, "DELETE")).toEqual({ status: 200, body: { success: true } });
    for (const token of [member.token, phone]) {
      expect((await bell(token)).status).toBe(401);
      expect((await account(token)).status).toBe(401);
    }
  });

  it("after an account is removed (as a removal by the admin tells its inbox), every token of it is refused at once", async () => {
    const member = await signUp();
    const phone = await signInAgain(member);
    await endMemberAccess(env, member.id);
    for (const token of [member.token, phone]) expect((await bell(token)).status).toBe(401);
  });

  it("an account deleted without its inbox hearing of it is refused where the account is read, and then everywhere", async () => {
    const member = await signUp();
    await openDb(env.DB).$client.prepare("UPDATE users SET deleted_at = ? WHERE id = ?").bind(new Date().toISOString(), member.id).run();
    expect((await account(member.token)).status).toBe(401);
    expect((await bell(member.token)).status).toBe(401);
  });
});

describe("a changed token opens nothing", () => {
  it("refuses a token whose secret was changed, one naming another member, and the bare secret of another's session", async () => {
    const member = await signUp();
    const other = await signUp();
    const [id, secret] = [member.id, member.token.slice(member.id.length + 1)];
    const flipped = `${id}.${(secret[0] === "a" ? "b" : "a") + secret.slice(1)}`;
    expect((await bell(flipped)).status).toBe(401);
    expect((await bell(`${other.id}.${secret}`)).status).toBe(401);
    expect((await account(`${other.id}.${secret}`)).status).toBe(401);
    expect((await bell(`${id}.${randomHex(32)}`)).status).toBe(401);
    expect((await bell(`${id}.`)).status).toBe(401);
    // The genuine token still works.
    expect((await bell(member.token)).status).toBe(200);
  });

  it("refuses a session past its expiry", async () => {
    const member = await signUp();
    const secret = randomHex(32);
    const inbox = env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(member.id));
    const now = Date.now();
    expect(await inbox.openSession(await sha256Hex(secret), { id: crypto.randomUUID(), expiresAt: now - 1000, nostrPubkey: member.pubkey, openedAt: now })).toBe(true);
    expect((await bell(`${member.id}.${secret}`)).status).toBe(401);
  });

  it("drops a member's expired sessions as a new one opens, and keeps the live ones", async () => {
    const member = await signUp();
    const inbox = env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(member.id));
    const now = Date.now();
    const expired = randomHex(32);
    expect(await inbox.openSession(await sha256Hex(expired), { id: crypto.randomUUID(), expiresAt: now - 1000, nostrPubkey: member.pubkey, openedAt: now })).toBe(true);
    const later = await signInAgain(member);
    // A sealed token's session reaches the inbox with its first request (docs/decisions/035).
    expect((await bell(later)).status).toBe(200);
    expect((await bell(member.token)).status).toBe(200);
    const held = await runInDurableObject(inbox, async (_, state) => [...(await state.storage.list({ prefix: "session:" })).keys()]);
    expect(held).not.toContain(`session:${await sha256Hex(expired)}`);
    expect(held).toHaveLength(2);
  });

  it("refuses a sign-in's session that \"sign out everywhere\" overtook", async () => {
    const member = await signUp();
    const inbox = env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(member.id));
    const begun = Date.now() - 1000;
    await inbox.endAllSessions(Date.now());
    expect(await inbox.openSession(await sha256Hex(randomHex(32)), { id: crypto.randomUUID(), expiresAt: Date.now() + 60_000, nostrPubkey: member.pubkey, openedAt: begun })).toBe(false);
  });
});

describe("what a member's request asks of the database", () => {
  /** The bell's count asked with `token`, every D1 statement of the request counted (as `npm run scale` meters routes). */
  async function meteredBell(token: string): Promise<D1Meter> {
    const meter: D1Meter = { statements: 0, rowsRead: 0, rowsWritten: 0, sizeAfter: 0 };
    const res = await api("/api/notifications/unread-count", { token, env: { DB: meteredD1(env.DB, meter) } });
    expect(res.status).toBe(200);
    return meter;
  }

  it("reads no session from the database: the bell's count is its only statement", async () => {
    const member = await signUp();
    // The first request writes "last used" to the sessions list; the ones after it, within minutes, write nothing.
    expect((await meteredBell(member.token)).statements).toBe(2);
    expect(await meteredBell(member.token)).toMatchObject({ statements: 1, rowsWritten: 0 });
  });

  it("reads only the member's account, by id, on a route that shows it", async () => {
    const member = await signUp();
    expect((await bell(member.token)).status).toBe(200);
    const meter: D1Meter = { statements: 0, rowsRead: 0, rowsWritten: 0, sizeAfter: 0 };
    const res = await api("/api/user/me", { token: member.token, env: { DB: meteredD1(env.DB, meter) } });
    expect(((await res.json()) as { id: string }).id).toBe(member.id);
    expect(meter).toMatchObject({ statements: 1, rowsRead: 1, rowsWritten: 0 });
  });

  it("reads the session from the database for a token from before (the bare secret), until it expires", async () => {
    const member = await signUp();
    const before = await createSession(openDb(env.DB), member.id);
    expect(await meteredBell(before)).toMatchObject({ statements: 2, rowsWritten: 0 });
  });
});

describe("sealed tokens: the session reaches the inbox with its first request (docs/decisions/035)", () => {
  const inboxOf = (member: Member) => env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(member.id));
  const heldKeys = (member: Member) => runInDurableObject(inboxOf(member), async (_, state) => [...(await state.storage.list({ prefix: "session:" })).keys()]);
  const sessionRow = (id: string) => openDb(env.DB).$client.prepare("SELECT id FROM sessions WHERE id = ?").bind(id).first();
  const claimsOf = (token: string) => parseMemberSessionToken(token)!.claims!;

  it("the sign-in hands its inbox nothing; the first request takes the session in, and later ones find it held", async () => {
    const member = await signUp();
    const phone = await signInAgain(member);
    const key = `session:${await sha256Hex(parseMemberSessionToken(phone)!.secret)}`;
    expect(await heldKeys(member)).not.toContain(key);
    expect((await bell(phone)).status).toBe(200);
    expect(await heldKeys(member)).toContain(key);
    expect((await bell(phone)).status).toBe(200);
  });

  it("refuses a sealed token whose facts were changed: a later opening (to escape \"sign out everywhere\"), a later expiry, another Nostr key, another member", async () => {
    const member = await signUp();
    const other = await signUp();
    const fresh = await signInAgain(member);
    const c = claimsOf(fresh);
    const secret = parseMemberSessionToken(fresh)!.secret;
    const forged = (userId: string, f: Partial<typeof c>) => {
      const x = { ...c, ...f };
      return `${userId}.${x.sessionId}.${x.openedAt.toString(36)}.${x.expiresAt.toString(36)}.${x.nostrPubkey}.${secret}.${c.seal}`;
    };
    for (const token of [
      forged(member.id, { openedAt: c.openedAt + 60_000 }),
      forged(member.id, { expiresAt: c.expiresAt + 86_400_000 }),
      forged(member.id, { nostrPubkey: other.pubkey }),
      forged(other.id, {}),
      forged(member.id, { sessionId: crypto.randomUUID() }),
    ]) {
      expect((await bell(token)).status).toBe(401);
      expect((await account(token)).status).toBe(401);
    }
    // Unchanged, it opens.
    expect(forged(member.id, {})).toBe(fresh);
    expect((await bell(fresh)).status).toBe(200);
  });

  it("refuses a token sealed under another deployment's key, and a sealed token past its expiry", async () => {
    const member = await signUp();
    const c = claimsOf(member.token);
    const elsewhere = (await derivedKeyOf({ NOSTR_SECRET_KEY: "1".repeat(64) }, "sessionToken"))!;
    const secret = randomHex(32);
    const foreign = await sealSessionToken(elsewhere, member.id, secret, { id: c.sessionId, openedAt: c.openedAt, expiresAt: c.expiresAt, nostrPubkey: member.pubkey });
    expect((await bell(foreign)).status).toBe(401);
    const ours = (await derivedKeyOf(env, "sessionToken"))!;
    const expired = await sealSessionToken(ours, member.id, secret, { id: c.sessionId, openedAt: Date.now() - 10_000, expiresAt: Date.now() - 1, nostrPubkey: member.pubkey });
    expect((await bell(expired)).status).toBe(401);
  });

  it("a token never used before \"sign out everywhere\" is refused at its first request", async () => {
    const member = await signUp();
    const unused = await signInAgain(member);
    expect((await call("/api/auth/logout-all", member.token, "POST")).status).toBe(200);
    expect((await bell(unused)).status).toBe(401);
    expect(await heldKeys(member)).toHaveLength(0);
  });

  it("a device signed out from the sessions list before its token's first request is refused then", async () => {
    const member = await signUp();
    const laptop = await signInAgain(member);
    const laptopId = claimsOf(laptop).sessionId;
    expect((await call(`/api/auth/sessions/${laptopId}`, member.token, "DELETE")).status).toBe(200);
    expect((await bell(laptop)).status).toBe(401);
    expect((await bell(member.token)).status).toBe(200);
  });

  it("signed out, a sealed token stays refused: its seal does not take the session in again", async () => {
    const member = await signUp();
    const phone = await signInAgain(member);
    expect((await call("/api/auth/logout", phone, "POST")).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await bell(phone)).status).toBe(401);
    expect((await bell(member.token)).status).toBe(200);
  });

  it("an account deleted before a token's first request: refused then", async () => {
    const member = await signUp();
    const unused = await signInAgain(member);
    expect((await call("/api/user/me", member.token, "DELETE")).status).toBe(200);
    expect((await bell(unused)).status).toBe(401);
  });

  it("a sign-in whose session row outlived \"sign out everywhere\" (the two raced) is refused at its first request, and its row goes", async () => {
    const member = await signUp();
    const raced = await signInAgain(member);
    // As if the sign-in's batch committed after "sign out everywhere" deleted the rows: its row is still there.
    await inboxOf(member).endAllSessions(Date.now());
    expect(await sessionRow(claimsOf(raced).sessionId)).not.toBeNull();
    expect((await bell(raced)).status).toBe(401);
    expect(await sessionRow(claimsOf(raced).sessionId)).toBeNull();
  });
});
