import { describe, expect, it } from "vitest";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { api, call, getChallenge, loginEvent, signUp } from "../test/factories";
import { anotherSession } from "../test/sockets";
import { statement } from "../db/test-statements";
import { env } from "cloudflare:test";
import { challengeKeyOf, signedChallenge } from "../auth/login-challenges";
import { CHALLENGE_TTL_MS } from "../services/auth";

async function verify(body: unknown) {
  return api("/api/auth/nostr/verify", { method: "POST", json: body });
}

async function expectRefused(res: Response, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { message: string; error: string };
  expect(body.message).toMatch(message);
  expect(body.error).toEqual(expect.any(String));
}

const now = () => Math.floor(Date.now() / 1000);

/** Whether a challenge's use was recorded (a signed challenge has a row only once used; a stored one, its consumed_at). */
async function challengeUsed(challengeId: string) {
  const row = await statement("SELECT count(*) AS n FROM auth_challenges WHERE id = ? AND consumed_at IS NOT NULL", challengeId).first<{ n: number }>();
  return row?.n !== 0;
}

/** A challenge as this Worker signs them, issued at `issuedAt` (ms), or signed with another key (another deployment's). */
async function challengeIssuedAt(issuedAt: number, nostrSecretKey = env.NOSTR_SECRET_KEY) {
  const key = await challengeKeyOf({ NOSTR_SECRET_KEY: nostrSecretKey });
  return signedChallenge(key!, CHALLENGE_TTL_MS, issuedAt);
}

describe("POST /api/auth/nostr/challenge", () => {
  it("gives a fresh random challenge and its id each time", async () => {
    const a = await getChallenge();
    const b = await getChallenge();
    expect(a.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(a.challengeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.challenge).not.toBe(b.challenge);
  });
});

describe("POST /api/auth/nostr/verify", () => {
  it("signs in with a kind 22242 event and creates the member named by npub", async () => {
    const sk = generateSecretKey();
    const { challenge, challengeId } = await getChallenge();
    const res = await verify({ event: loginEvent(sk, challenge), challengeId });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sessionToken: string; user: { id: string; username: string } };
    // The member's id first (docs/decisions/032), then the session's facts, its secret and their seal (035).
    expect(body.sessionToken).toMatch(new RegExp(`^${body.user.id}\\.[0-9a-f-]{36}\\.[0-9a-z]+\\.[0-9a-z]+\\.[0-9a-f]{64}\\.[0-9a-f]{64}\\.[0-9a-f]{64}$`));
    expect(body.user.username).toMatch(/^npub1/);
    const me = await api("/api/user/me", { token: body.sessionToken });
    expect(((await me.json()) as { username: string }).username).toBe(body.user.username);
  });

  it("finds the same member at the next sign-in", async () => {
    const sk = generateSecretKey();
    const first = await getChallenge();
    const r1 = await verify({ event: loginEvent(sk, first.challenge), challengeId: first.challengeId });
    const second = await getChallenge();
    const r2 = await verify({ event: loginEvent(sk, second.challenge), challengeId: second.challengeId });
    const u1 = ((await r1.json()) as { user: { id: string } }).user;
    const u2 = ((await r2.json()) as { user: { id: string } }).user;
    expect(u1.id).toBe(u2.id);
  });

  it("leaves a returning member's account as they made it, and answers it as it is", async () => {
    const sk = generateSecretKey();
    const first = await getChallenge();
    const r1 = await verify({ event: loginEvent(sk, first.challenge), challengeId: first.challengeId });
    const { id } = ((await r1.json()) as { user: { id: string } }).user;
    await statement("UPDATE users SET username = 'ada_lovelace', display_name = 'Ada', bio = 'Writes engines' WHERE id = ?", id).run();
    const before = await statement("SELECT * FROM users WHERE id = ?", id).first();

    const second = await getChallenge();
    const r2 = await verify({ event: loginEvent(sk, second.challenge), challengeId: second.challengeId });
    expect(r2.status).toBe(200);
    const user = ((await r2.json()) as { user: { id: string; username: string; displayName: string; bio: string } }).user;
    expect(user).toMatchObject({ id, username: "ada_lovelace", displayName: "Ada", bio: "Writes engines" });
    expect(await statement("SELECT * FROM users WHERE id = ?", id).first()).toEqual(before);
    expect((await statement("SELECT count(*) AS n FROM users WHERE nostr_pubkey = ?", getPublicKey(sk)).first<{ n: number }>())?.n).toBe(1);
  });

  it("refuses a kind 1 note carrying the challenge (what a client with 'sign notes' signs unprompted): 401, no session, nothing consumed", async () => {
    // The victim is a member whose payouts go to their Lightning address.
    const victim = await signUp({ lightningAddress: "victim@wallet.test" });
    // The attacker asks us for a challenge; a hostile client (or site) holding a standing "sign notes"
    // permission has the victim's signer sign a kind 1 note whose content is that challenge.
    const { challenge, challengeId } = await getChallenge();
    const note = finalizeEvent({ kind: 1, created_at: now(), tags: [], content: challenge }, victim.secretKey);
    const res = await verify({ event: note, challengeId });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { message: string; error: string; sessionToken?: string };
    expect(body.message).toBe(
      "Sign-in needs a kind 22242 event naming this site (or NIP-98 kind 27235); kind 1 notes are not accepted",
    );
    expect(body.sessionToken).toBeUndefined();
    expect(await challengeUsed(challengeId)).toBe(false);
    // The same note with the challenge in tags too (as a 22242 would carry it) is no better.
    const tagged = finalizeEvent({ kind: 1, created_at: now(), tags: [["challenge", challenge], ["relay", "https://gigstr.test"]], content: challenge }, victim.secretKey);
    await expectRefused(await verify({ event: tagged, challengeId }), 401, /kind 1 notes are not accepted/);
    expect((await call("/api/auth/sessions", victim.token)).body).toHaveLength(1);
  });

  it("refuses any kind but 22242 and 27235", async () => {
    for (const kind of [0, 4, 7, 22241, 24242, 27236]) {
      const { challenge, challengeId } = await getChallenge();
      const event = finalizeEvent(
        { kind, created_at: now(), tags: [["challenge", challenge], ["relay", "https://gigstr.test"], ["u", "https://gigstr.test/api/auth/nostr/verify"], ["method", "POST"]], content: challenge },
        generateSecretKey(),
      );
      await expectRefused(await verify({ event, challengeId }), 401, new RegExp(`kind 22242 .*27235.*kind ${kind} events are not accepted`));
    }
  });

  it("refuses an event that carries another challenge", async () => {
    const { challengeId } = await getChallenge();
    const other = await getChallenge();
    await expectRefused(await verify({ event: loginEvent(generateSecretKey(), other.challenge), challengeId }), 401, /challenge/);
  });

  it("refuses events signed more than 10 minutes in the past or the future", async () => {
    // A minute past the window on either side, so that the clock ticking during the test cannot matter.
    for (const createdAt of [now() - 660, now() + 660]) {
      const { challenge, challengeId } = await getChallenge();
      const event = loginEvent(generateSecretKey(), challenge, { createdAt });
      await expectRefused(await verify({ event, challengeId }), 401, /too old or in the future/);
    }
  });

  it("accepts an event signed 9 minutes ago or 9 minutes ahead (clock skew)", async () => {
    for (const createdAt of [now() - 540, now() + 540]) {
      const { challenge, challengeId } = await getChallenge();
      expect((await verify({ event: loginEvent(generateSecretKey(), challenge, { createdAt }), challengeId })).status).toBe(200);
    }
  });

  it("refuses a forged signature and an event whose content was changed after signing", async () => {
    const { challenge, challengeId } = await getChallenge();
    const event = loginEvent(generateSecretKey(), challenge);
    const forged = { ...event, sig: event.sig.replace(/^./, event.sig[0] === "a" ? "b" : "a") };
    await expectRefused(await verify({ event: forged, challengeId }), 401, /Invalid signature/);
    const tampered = { ...event, tags: [...event.tags, ["x", "y"]] };
    await expectRefused(await verify({ event: tampered, challengeId }), 401, /Invalid signature/);
  });

  it("uses a challenge once: a second event for it is refused", async () => {
    const { challenge, challengeId } = await getChallenge();
    expect((await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId })).status).toBe(200);
    await expectRefused(await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId }), 401, /already used/);
  });

  it("of two racing sign-ins with one challenge, exactly one wins", async () => {
    const { challenge, challengeId } = await getChallenge();
    const results = await Promise.all([
      verify({ event: loginEvent(generateSecretKey(), challenge), challengeId }),
      verify({ event: loginEvent(generateSecretKey(), challenge), challengeId }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("two sign-ins with one challenge at once give one session: the same event twice, or two events of one key", async () => {
    const sk = generateSecretKey();
    const pubkey = getPublicKey(sk);
    const sessionsOf = async () =>
      (await statement("SELECT count(*) AS n FROM sessions JOIN users ON users.id = sessions.user_id WHERE users.nostr_pubkey = ?", pubkey).first<{ n: number }>())?.n;
    // The same signed event sent twice at once (a double click, a retry).
    const first = await getChallenge();
    const event = loginEvent(sk, first.challenge);
    const twice = await Promise.all([verify({ event, challengeId: first.challengeId }), verify({ event, challengeId: first.challengeId })]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(await sessionsOf()).toBe(1);
    // Two events of the same key for one challenge (two tabs signing in at once).
    const second = await getChallenge();
    const tabs = await Promise.all([
      verify({ event: loginEvent(sk, second.challenge), challengeId: second.challengeId }),
      verify({ event: loginEvent(sk, second.challenge, { createdAt: now() - 1 }), challengeId: second.challengeId }),
    ]);
    expect(tabs.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(await sessionsOf()).toBe(2);
    const loser = tabs.find((r) => r.status === 401)!;
    expect(((await loser.json()) as { message: string }).message).toMatch(/already used/);
    // One member all along; the challenge remembers the event that won it.
    expect((await statement("SELECT count(*) AS n FROM users WHERE nostr_pubkey = ?", pubkey).first<{ n: number }>())?.n).toBe(1);
    expect(await statement("SELECT event_id FROM auth_challenges WHERE id = ?", first.challengeId).first()).toEqual({ event_id: event.id });
  });

  it("a sign-in that loses the race for a challenge creates no member", async () => {
    const { challenge, challengeId } = await getChallenge();
    const keys = [generateSecretKey(), generateSecretKey()];
    const results = await Promise.all(keys.map((sk) => verify({ event: loginEvent(sk, challenge), challengeId })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const members = await Promise.all(
      keys.map(async (sk) => (await statement("SELECT count(*) AS n FROM users WHERE nostr_pubkey = ?", getPublicKey(sk)).first<{ n: number }>())?.n),
    );
    expect(members.sort()).toEqual([0, 1]);
  });

  it("refuses an expired challenge and an unknown one", async () => {
    // A challenge this Worker signed five minutes and a second ago: its id says it expired.
    const { challenge, challengeId } = await challengeIssuedAt(Date.now() - CHALLENGE_TTL_MS - 1000);
    await expectRefused(await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId }), 401, /expired/);
    await expectRefused(
      await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId: crypto.randomUUID() }),
      401,
      /expired/,
    );
    expect(await challengeUsed(challengeId)).toBe(false);
  });

  describe("a signed challenge (docs/decisions/034)", () => {
    it("is one the challenge request wrote nothing for, and used once it signs someone in", async () => {
      const { challenge, challengeId } = await getChallenge();
      expect(await statement("SELECT count(*) AS n FROM auth_challenges WHERE id = ?", challengeId).first()).toEqual({ n: 0 });
      expect((await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId })).status).toBe(200);
      expect(await challengeUsed(challengeId)).toBe(true);
    });

    it("refuses a replayed challenge: the same signed event again, and a new event for it by the same key", async () => {
      const sk = generateSecretKey();
      const { challenge, challengeId } = await getChallenge();
      const event = loginEvent(sk, challenge);
      expect((await verify({ event, challengeId })).status).toBe(200);
      await expectRefused(await verify({ event, challengeId }), 401, /already used/);
      await expectRefused(await verify({ event: loginEvent(sk, challenge, { createdAt: now() - 1 }), challengeId }), 401, /already used/);
      expect((await statement("SELECT count(*) AS n FROM sessions JOIN users ON users.id = sessions.user_id WHERE users.nostr_pubkey = ?", getPublicKey(sk)).first<{ n: number }>())?.n).toBe(1);
    });

    it("refuses a signed event used before with another challenge (the event id is remembered)", async () => {
      const sk = generateSecretKey();
      const first = await getChallenge();
      const event = loginEvent(sk, first.challenge);
      expect((await verify({ event, challengeId: first.challengeId })).status).toBe(200);
      const second = await getChallenge();
      // The old event does not carry the new challenge: refused before the database is written.
      await expectRefused(await verify({ event, challengeId: second.challengeId }), 401, /challenge/);
      expect(await challengeUsed(second.challengeId)).toBe(false);
    });

    it("refuses a forged challenge: an id made up with a later expiry, or a challenge text made up for a real id", async () => {
      const { challenge, challengeId } = await getChallenge();
      // The id's expiry moved a day on (its first 8 hex digits): the challenge it was signed with no longer matches.
      const later = (parseInt(challengeId.slice(0, 8), 16) + 86_400).toString(16).padStart(8, "0");
      const forgedId = `${later}${challengeId.slice(8)}`;
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId: forgedId }), 401, /challenge/);
      // A challenge text of the attacker's own for a real id.
      const madeUp = "ab".repeat(32);
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), madeUp), challengeId }), 401, /challenge/);
      // An id in the signed form nobody issued, with a made-up text.
      const nobodys = `${later}-0000-0000-0000-000000000000`;
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), madeUp), challengeId: nobodys }), 401, /challenge/);
      for (const id of [forgedId, challengeId, nobodys]) expect(await challengeUsed(id)).toBe(false);
      // The real challenge still signs in.
      expect((await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId })).status).toBe(200);
    });

    it("refuses a challenge from another site: signed by another deployment's key, or used in an event naming another site", async () => {
      const otherSite = await challengeIssuedAt(Date.now(), "11".repeat(32));
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), otherSite.challenge), challengeId: otherSite.challengeId }), 401, /challenge/);
      const { challenge, challengeId } = await getChallenge();
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), challenge, { relay: "https://other-site.example" }), challengeId }), 401, /relay tag/);
      expect(await challengeUsed(challengeId)).toBe(false);
    });

    it("refuses a challenge that expired a second ago, and takes one with a second left", async () => {
      const justExpired = await challengeIssuedAt(Date.now() - CHALLENGE_TTL_MS - 1000);
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), justExpired.challenge), challengeId: justExpired.challengeId }), 401, /expired/);
      const lastSecond = await challengeIssuedAt(Date.now() - CHALLENGE_TTL_MS + 3000);
      expect((await verify({ event: loginEvent(generateSecretKey(), lastSecond.challenge), challengeId: lastSecond.challengeId })).status).toBe(200);
    });

    it("a used challenge is refused as used, before what is wrong with the event", async () => {
      const { challenge, challengeId } = await getChallenge();
      expect((await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId })).status).toBe(200);
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), challenge, { relay: "wss://evil.relay.example" }), challengeId }), 401, /already used/);
    });
  });

  describe("a stored challenge (no NOSTR_SECRET_KEY to sign challenges with)", () => {
    const unsigned = { NOSTR_SECRET_KEY: undefined };
    const storedChallenge = async () => (await (await api("/api/auth/nostr/challenge", { method: "POST", env: unsigned })).json()) as { challenge: string; challengeId: string };
    const verifyStored = (body: unknown) => api("/api/auth/nostr/verify", { method: "POST", json: body, env: unsigned });

    it("is stored, signs in once, and is refused once used or expired", async () => {
      const { challenge, challengeId } = await storedChallenge();
      expect(await statement("SELECT consumed_at FROM auth_challenges WHERE id = ?", challengeId).first()).toEqual({ consumed_at: null });
      expect((await verifyStored({ event: loginEvent(generateSecretKey(), challenge), challengeId })).status).toBe(200);
      await expectRefused(await verifyStored({ event: loginEvent(generateSecretKey(), challenge), challengeId }), 401, /already used/);
      const late = await storedChallenge();
      await statement("UPDATE auth_challenges SET expires_at = ? WHERE id = ?", new Date(Date.now() - 1000).toISOString(), late.challengeId).run();
      await expectRefused(await verifyStored({ event: loginEvent(generateSecretKey(), late.challenge), challengeId: late.challengeId }), 401, /expired/);
    });

    it("asked for just before challenges were signed, it still signs in after (a deploy that adds the key)", async () => {
      const { challenge, challengeId } = await storedChallenge();
      expect((await verify({ event: loginEvent(generateSecretKey(), challenge), challengeId })).status).toBe(200);
    });

    it("a signed challenge is refused where no key can check it", async () => {
      const { challenge, challengeId } = await getChallenge();
      await expectRefused(await verifyStored({ event: loginEvent(generateSecretKey(), challenge), challengeId }), 401, /expired/);
    });
  });

  it("refuses a login a hostile relay got signed for it (NIP-42 AUTH): no session, the victim's address stays", async () => {
    // The victim is a member with a Lightning address where their payouts go.
    const victim = await signUp({ lightningAddress: "victim@wallet.test" });
    const victimKey = victim.secretKey;
    // The attacker asks us for a challenge and, as a relay, sends ["AUTH", <our challenge>] to the
    // victim's client, which answers relay AUTH on its own: kind 22242 naming the attacker's relay.
    const { challenge, challengeId } = await getChallenge();
    const signedForRelay = loginEvent(victimKey, challenge, { relay: "wss://evil.relay.example" });
    const res = await verify({ event: signedForRelay, challengeId });
    await expectRefused(res, 401, /must name this site \(https:\/\/gigstr\.test\) in its relay tag/);
    // No session came of it; the challenge is still unused, so nothing was consumed either.
    expect(await challengeUsed(challengeId)).toBe(false);
    expect(await call("/api/user/me", victim.token)).toMatchObject({ status: 200, body: { lightningAddress: "victim@wallet.test" } });
  });

  it("refuses a kind 22242 login with no relay tag, or one naming another site", async () => {
    for (const relay of [null, "https://gigstr.test.evil.example", "wss://gigstr.test", "https://gigstr.test/other", "not a url"]) {
      const { challenge, challengeId } = await getChallenge();
      await expectRefused(await verify({ event: loginEvent(generateSecretKey(), challenge, { relay }), challengeId }), 401, /relay tag/);
    }
  });

  it("accepts this site's origin with a trailing slash, and the public https://ALIAS_DOMAIN", async () => {
    const { challenge, challengeId } = await getChallenge();
    expect((await verify({ event: loginEvent(generateSecretKey(), challenge, { relay: "https://gigstr.test/" }), challengeId })).status).toBe(200);
    const second = await getChallenge();
    const event = loginEvent(generateSecretKey(), second.challenge, { relay: "https://gigstr.example" });
    const res = await api("/api/auth/nostr/verify", { method: "POST", json: { event, challengeId: second.challengeId }, env: { ALIAS_DOMAIN: "gigstr.example" } });
    expect(res.status).toBe(200);
  });

  it("refuses an oversized login event before looking at it (400, nothing consumed)", async () => {
    const { challenge, challengeId } = await getChallenge();
    const sk = generateSecretKey();
    const tooManyTags = finalizeEvent(
      { kind: 22242, created_at: now(), tags: [["challenge", challenge], ["relay", "https://gigstr.test"], ...Array.from({ length: 9 }, (_, i) => ["t", String(i)])], content: "" },
      sk,
    );
    await expectRefused(await verify({ event: tooManyTags, challengeId }), 400, /at most 10 tags/);
    const longValue = finalizeEvent({ kind: 22242, created_at: now(), tags: [["challenge", challenge], ["relay", "https://gigstr.test"], ["x", "y".repeat(257)]], content: "" }, sk);
    await expectRefused(await verify({ event: longValue, challengeId }), 400, /at most 256 characters/);
    const longContent = finalizeEvent({ kind: 22242, created_at: now(), tags: [["challenge", challenge], ["relay", "https://gigstr.test"]], content: "x".repeat(1001) }, sk);
    await expectRefused(await verify({ event: longContent, challengeId }), 400, /at most 1000 characters/);
    // The challenge was never consumed: the honest login still works.
    expect((await verify({ event: loginEvent(sk, challenge), challengeId })).status).toBe(200);
  });

  describe("NIP-98 (kind 27235) for scripts and agents", () => {
    const VERIFY_URL = "https://gigstr.test/api/auth/nostr/verify";
    const httpAuth = (sk: Uint8Array, challenge: string, opts: { u?: string | null; method?: string | null; challengeTag?: boolean; createdAt?: number } = {}) =>
      finalizeEvent(
        {
          kind: 27235,
          created_at: opts.createdAt ?? now(),
          tags: [
            ...(opts.u === null ? [] : [["u", opts.u ?? VERIFY_URL]]),
            ...(opts.method === null ? [] : [["method", opts.method ?? "POST"]]),
            ...(opts.challengeTag === false ? [] : [["challenge", challenge]]),
          ],
          content: "",
        },
        sk,
      );

    it("signs in with u = this site's verify URL, method POST and the challenge in a tag; the same member as with 22242", async () => {
      const sk = generateSecretKey();
      const first = await getChallenge();
      const res = await verify({ event: httpAuth(sk, first.challenge), challengeId: first.challengeId });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { sessionToken: string; user: { id: string } };
      expect((await call("/api/user/me", body.sessionToken)).status).toBe(200);
      const second = await getChallenge();
      const again = await verify({ event: loginEvent(sk, second.challenge), challengeId: second.challengeId });
      expect(((await again.json()) as { user: { id: string } }).user.id).toBe(body.user.id);
    });

    it("accepts the verify URL at the public https://ALIAS_DOMAIN", async () => {
      const { challenge, challengeId } = await getChallenge();
      const event = httpAuth(generateSecretKey(), challenge, { u: "https://gigstr.example/api/auth/nostr/verify" });
      const res = await api("/api/auth/nostr/verify", { method: "POST", json: { event, challengeId }, env: { ALIAS_DOMAIN: "gigstr.example" } });
      expect(res.status).toBe(200);
    });

    it("refuses a NIP-98 event signed for another URL (another service's, another path, a query, no u)", async () => {
      for (const u of [
        "https://evil.example/api/auth/nostr/verify",
        "https://gigstr.test.evil.example/api/auth/nostr/verify",
        "https://gigstr.test/api/auth/nostr/challenge",
        "https://gigstr.test/api/auth/nostr/verify?x=1",
        "https://gigstr.test/",
        "/api/auth/nostr/verify",
        null,
      ]) {
        const { challenge, challengeId } = await getChallenge();
        await expectRefused(await verify({ event: httpAuth(generateSecretKey(), challenge, { u }), challengeId }), 401, /verify URL .* in its u tag/);
      }
    });

    it("refuses a method other than POST, no challenge tag, and a stale event", async () => {
      for (const method of ["GET", "post", null]) {
        const { challenge, challengeId } = await getChallenge();
        await expectRefused(await verify({ event: httpAuth(generateSecretKey(), challenge, { method }), challengeId }), 401, /POST method/);
      }
      const a = await getChallenge();
      const noChallenge = finalizeEvent({ kind: 27235, created_at: now(), tags: [["u", VERIFY_URL], ["method", "POST"]], content: a.challenge }, generateSecretKey());
      await expectRefused(await verify({ event: noChallenge, challengeId: a.challengeId }), 401, /does not carry the challenge/);
      for (const createdAt of [now() - 660, now() + 660]) {
        const { challenge, challengeId } = await getChallenge();
        await expectRefused(await verify({ event: httpAuth(generateSecretKey(), challenge, { createdAt }), challengeId }), 401, /too old or in the future/);
      }
    });
  });

  it("answers 400 with a message for a malformed body", async () => {
    await expectRefused(await verify({ challengeId: "x" }), 400, /.+/);
    const res = await api("/api/auth/nostr/verify", { method: "POST", body: "not json", headers: { "content-type": "application/json" } });
    await expectRefused(res, 400, /JSON/);
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the caller's session only: that token is refused afterwards, the member's other sessions go on", async () => {
    const member = await signUp();
    const phone = await anotherSession(member);
    expect(await call("/api/auth/logout", member.token, "POST")).toEqual({ status: 200, body: { success: true } });
    expect((await call("/api/user/me", member.token)).status).toBe(401);
    expect((await call("/api/auth/logout", member.token, "POST")).status).toBe(401);
    expect(await call("/api/user/me", phone.token)).toMatchObject({ status: 200, body: { id: member.id } });
  });
});

describe("sessions their owner controls", () => {
  const FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";

  async function signInFrom(member: { secretKey: Uint8Array }, userAgent: string) {
    const { challenge, challengeId } = await getChallenge();
    const res = await api("/api/auth/nostr/verify", {
      method: "POST",
      json: { event: loginEvent(member.secretKey, challenge), challengeId },
      headers: { "user-agent": userAgent },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { sessionToken: string }).sessionToken;
  }

  it("lists the caller's sessions with their client, times and which one is this", async () => {
    const member = await signUp();
    const phone = await signInFrom(member, FIREFOX_ANDROID);
    const stranger = await signUp();
    const { status, body } = await call("/api/auth/sessions", phone);
    expect(status).toBe(200);
    const list = body as unknown as Array<{ id: string; client: string; createdAt: string; lastUsedAt: string; current: boolean }>;
    expect(list).toHaveLength(2);
    const current = list.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ client: "Firefox on Android", id: expect.any(String) });
    expect(list.find((s) => !s.current)).toMatchObject({ client: "Unknown device" });
    for (const s of list) {
      expect(Date.parse(s.createdAt)).not.toBeNaN();
      expect(Date.parse(s.lastUsedAt)).not.toBeNaN();
    }
    // Nobody else's sessions are in it.
    const strangers = (await call("/api/auth/sessions", stranger.token)).body as unknown as unknown[];
    expect(strangers).toHaveLength(1);
  });

  it("names the device asking from its browser when its session was created without a User-Agent; other unknown sessions stay unknown", async () => {
    const CHROME_ANDROID =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
    const member = await signUp(); // no User-Agent at sign-in: stored as "Unknown device"
    const laptop = await anotherSession(member);
    const listFrom = async (token: string, userAgent?: string) => {
      const res = await api("/api/auth/sessions", { token, headers: userAgent ? { "user-agent": userAgent } : {} });
      expect(res.status).toBe(200);
      return (await res.json()) as Array<{ client: string; current: boolean }>;
    };
    const here = await listFrom(member.token, CHROME_ANDROID);
    // This device comes first.
    expect(here[0]).toMatchObject({ current: true, client: "Chrome on Android" });
    expect(here.find((s) => !s.current)).toMatchObject({ client: "Unknown device" });
    // The better label is kept: asked later without a User-Agent, this device is still named.
    const later = await listFrom(member.token);
    expect(later.find((s) => s.current)).toMatchObject({ client: "Chrome on Android" });
    // Seen from the other session, the phone keeps its name and the laptop (no usable User-Agent) stays unknown.
    const fromLaptop = await listFrom(laptop.token, "curl/8.5.0");
    expect(fromLaptop.find((s) => s.current)).toMatchObject({ client: "Unknown device" });
    expect(fromLaptop.find((s) => !s.current)).toMatchObject({ client: "Chrome on Android" });
  });

  it("keeps a known label: the device asking from another browser does not rename its session", async () => {
    const member = await signUp();
    const phone = await signInFrom(member, FIREFOX_ANDROID);
    const res = await api("/api/auth/sessions", {
      token: phone,
      headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" },
    });
    const list = (await res.json()) as Array<{ client: string; current: boolean }>;
    expect(list.find((s) => s.current)).toMatchObject({ client: "Firefox on Android" });
  });

  it("ends one of the caller's own sessions; another member's id is 404 and ends nothing", async () => {
    const member = await signUp();
    const laptop = await anotherSession(member);
    const other = await signUp();
    const list = (await call("/api/auth/sessions", member.token)).body as unknown as Array<{ id: string; current: boolean }>;
    const laptopId = list.find((s) => !s.current)!.id;
    // A stranger cannot end it, even knowing its id.
    expect(await call(`/api/auth/sessions/${laptopId}`, other.token, "DELETE")).toMatchObject({ status: 404 });
    expect((await call("/api/user/me", laptop.token)).status).toBe(200);
    // Its owner can.
    expect(await call(`/api/auth/sessions/${laptopId}`, member.token, "DELETE")).toEqual({ status: 200, body: { success: true } });
    expect((await call("/api/user/me", laptop.token)).status).toBe(401);
    expect((await call("/api/user/me", member.token)).status).toBe(200);
    expect((await call("/api/user/me", other.token)).status).toBe(200);
  });

  it("logs out everywhere: every session of the caller ends, this one too; other members stay", async () => {
    const member = await signUp();
    const phone = await anotherSession(member);
    const other = await signUp();
    expect(await call("/api/auth/logout-all", member.token, "POST")).toEqual({ status: 200, body: { success: true, ended: 2 } });
    expect((await call("/api/user/me", member.token)).status).toBe(401);
    expect((await call("/api/user/me", phone.token)).status).toBe(401);
    expect((await call("/api/user/me", other.token)).status).toBe(200);
  });

  it("needs a session: a visitor can neither list nor end sessions", async () => {
    expect((await api("/api/auth/sessions")).status).toBe(401);
    expect((await api("/api/auth/logout-all", { method: "POST" })).status).toBe(401);
    expect((await api(`/api/auth/sessions/${crypto.randomUUID()}`, { method: "DELETE" })).status).toBe(401);
  });

  it("records when a session was last used, at most every five minutes", async () => {
    const member = await signUp();
    const old = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await statement("UPDATE sessions SET last_used_at = ? WHERE user_id = ?", old, member.id).run();
    await call("/api/user/me", member.token);
    const [session] = (await call("/api/auth/sessions", member.token)).body as unknown as Array<{ lastUsedAt: string }>;
    expect(Date.parse(session!.lastUsedAt)).toBeGreaterThan(Date.parse(old));
  });
});
