// The batched session checks answer what memberForToken / isAdminToken answer, token by token.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { createSession, endSession, memberForToken } from "../services/auth";
import { adminSignIn } from "../test/admin";
import { signUp } from "../test/factories";
import { isAdminToken, signOutAdmin } from "./admin";
import { liveAdminTokens, MAX_PER_QUERY, membersForTokens } from "./live-sessions";
import { randomHex, sha256Hex } from "./tokens";
import { statement } from "../db/test-statements";

describe("membersForTokens", () => {
  it("answers the member of each live session token, as memberForToken does, and leaves out the others", async () => {
    const db = openDb(env.DB);
    const alice = await signUp();
    const bob = await signUp();
    const carol = await signUp();
    const aliceAgain = await createSession(db, alice.id);
    const ended = await createSession(db, bob.id);
    await endSession({ db }, ended);
    const expired = await createSession(db, bob.id);
    await statement("UPDATE sessions SET expires_at = ? WHERE token_hash = ?", new Date(Date.now() - 1000).toISOString(), await sha256Hex(expired)).run();
    await statement("UPDATE users SET deleted_at = ? WHERE id = ?", new Date().toISOString(), carol.id).run();
    const unknown = randomHex(32);

    const tokens = [alice.token, aliceAgain, bob.token, ended, expired, carol.token, unknown, alice.token];
    const found = await membersForTokens(db, tokens);
    expect(new Map([...found].map(([token, user]) => [token, user.id]))).toEqual(
      new Map([
        [alice.token, alice.id],
        [aliceAgain, alice.id],
        [bob.token, bob.id],
      ]),
    );
    for (const token of new Set(tokens)) expect(found.get(token) ?? null, token).toEqual(await memberForToken(db, token));
    expect(await membersForTokens(db, [])).toEqual(new Map());
  });

  it("checks more tokens than one query may bind", async () => {
    const db = openDb(env.DB);
    const member = await signUp();
    const tokens = [member.token];
    for (let i = 0; i < MAX_PER_QUERY + 5; i++) tokens.push(await createSession(db, member.id));
    tokens.push(randomHex(32));
    const found = await membersForTokens(db, tokens);
    expect(found.size).toBe(MAX_PER_QUERY + 6);
    expect([...found.values()].every((u) => u.id === member.id)).toBe(true);
  });
});

describe("liveAdminTokens", () => {
  it("answers the tokens that are live admin sessions, as isAdminToken does", async () => {
    const live = await adminSignIn();
    const signedOut = await adminSignIn();
    await signOutAdmin({ db: openDb(env.DB) }, signedOut);
    const expired = await adminSignIn();
    await statement("UPDATE admin_sessions SET expires_at = ? WHERE token_hash = ?", new Date(Date.now() - 1000).toISOString(), await sha256Hex(expired)).run();
    const tokens = [live, signedOut, expired, randomHex(32), "", "x".repeat(201), live];
    const found = await liveAdminTokens(openDb(env.DB), tokens);
    expect(found).toEqual(new Set([live]));
    for (const token of new Set(tokens)) expect(found.has(token)).toBe(await isAdminToken(openDb(env.DB), token));
    expect(await liveAdminTokens(openDb(env.DB), [])).toEqual(new Set());
  });
});
