// Limits on every door (issue 14): each counted door answers 429 with Retry-After past its limit, for
// that client only; the portfolio also has a hard cap per member.
import { describe, expect, it } from "vitest";
import { DOORS, clientAddressKey } from "./rate-limits";
import { api, getChallenge, loginEvent, payWithDevWallet, postGig, signUp, statusAndBody, type Member, inOneRateWindow } from "./test/factories";
import { statement, batch } from "./db/test-statements";
import { generateSecretKey } from "nostr-tools/pure";
import type { Env } from "./env";

const GIG = { gigType: "job_request", title: "Design a logo", description: "A clean logo for a bitcoin meetup, SVG please.", category: "Design", payment: 10_000, timeframe: 7 };
const PORTFOLIO_ITEM = { title: "Meetup poster", description: "A poster for our local meetup." };

/** A deployment without the platform key: its login challenges are stored, each one a write, and counted when asked for. */
const STORED_CHALLENGES: Partial<Env> = { NOSTR_SECRET_KEY: undefined };

let addressCounter = 0;
/** A client address no other test uses, so counts never leak between tests. */
function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(Math.random() * 200)}.${(addressCounter % 250) + 1}`;
}

async function countRows(sql: string, ...params: unknown[]): Promise<number> {
  const row = await statement(sql, ...params).first<{ n: number }>();
  return row!.n;
}

describe("login challenges, counted by the client's address where each is a write (docs/decisions/036)", () => {
  const ask = (from: string, env?: Partial<Env>) => api("/api/auth/nostr/challenge", { method: "POST", headers: { "cf-connecting-ip": from }, env });

  it(`stored challenges (no platform key): 429 with Retry-After after ${DOORS.loginChallenge.limit} a minute, none stored past it; another address still gets one`, async () => {
    const address = freshAddress();
    await inOneRateWindow(DOORS.loginChallenge.periodSeconds);
    const before = await countRows("SELECT COUNT(*) AS n FROM auth_challenges");
    for (let i = 0; i < DOORS.loginChallenge.limit; i++) expect((await ask(address, STORED_CHALLENGES)).status).toBe(200);
    const refused = await ask(address, STORED_CHALLENGES);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toEqual({ message: "Too many login challenges. Please wait a minute and try again.", error: "rate_limited" });
    expect(await countRows("SELECT COUNT(*) AS n FROM auth_challenges")).toBe(before + DOORS.loginChallenge.limit);
    expect((await ask(freshAddress(), STORED_CHALLENGES)).status).toBe(200);
  });

  it("signed challenges are not counted when asked for (they write nothing); each one used is a sign-in attempt, and the attempt past the limit is refused", async () => {
    const address = freshAddress();
    await inOneRateWindow(DOORS.loginVerify.periodSeconds);
    const before = await countRows("SELECT COUNT(*) AS n FROM auth_challenges");
    const challenges = [];
    for (let i = 0; i <= DOORS.loginVerify.limit; i++) {
      const res = await ask(address);
      expect(res.status).toBe(200);
      challenges.push((await res.json()) as { challenge: string; challengeId: string });
    }
    expect(await countRows("SELECT COUNT(*) AS n FROM auth_challenges")).toBe(before);
    // The attacker's way round a limit on asking: ask freely, then use them all. Each use is counted.
    const use = ({ challenge, challengeId }: { challenge: string; challengeId: string }) =>
      api("/api/auth/nostr/verify", { method: "POST", headers: { "cf-connecting-ip": address }, json: { event: loginEvent(generateSecretKey(), challenge), challengeId } });
    for (const challenge of challenges.slice(0, DOORS.loginVerify.limit)) expect((await use(challenge)).status).toBe(200);
    const refused = await use(challenges[DOORS.loginVerify.limit]!);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: "Too many sign-in attempts. Please wait a minute and try again.", error: "rate_limited" });
    expect(await countRows("SELECT COUNT(*) AS n FROM auth_challenges")).toBe(before + DOORS.loginVerify.limit);
  });
});

describe("gig posts, counted by member", () => {
  it("refuses the post past the limit without making a gig or an invoice; another member still posts", async () => {
    const poster = await signUp({ lightningAddress: "busy@wallet.test" });
    const post = (member: Member) => api("/api/gigs", { method: "POST", token: member.token, json: GIG });
    await inOneRateWindow(DOORS.gigPost.periodSeconds);
    for (let i = 0; i < DOORS.gigPost.limit; i++) expect((await post(poster)).status).toBe(201);
    const refused = await statusAndBody(await post(poster));
    expect(refused).toEqual({ status: 429, body: { message: "Too many gig posts. Please wait a minute and try again.", error: "rate_limited" } });
    expect(await countRows("SELECT COUNT(*) AS n FROM gigs WHERE poster_id = ?", poster.id)).toBe(DOORS.gigPost.limit);
    const other = await signUp({ lightningAddress: "calm@wallet.test" });
    expect((await post(other)).status).toBe(201);
  });

  it("counts a member by their account, not their address: a new address does not reset it", async () => {
    const poster = await signUp({ lightningAddress: "roamer@wallet.test" });
    await inOneRateWindow(DOORS.gigPost.periodSeconds);
    for (let i = 0; i < DOORS.gigPost.limit; i++) {
      const res = await api("/api/gigs", { method: "POST", token: poster.token, json: GIG, headers: { "cf-connecting-ip": freshAddress() } });
      expect(res.status).toBe(201);
    }
    const refused = await api("/api/gigs", { method: "POST", token: poster.token, json: GIG, headers: { "cf-connecting-ip": freshAddress() } });
    expect(refused.status).toBe(429);
  });
});

describe("reports and suggestions", () => {
  it(`answers 429 on the ${DOORS.suggestion.limit + 1}th suggestion in a minute and stores only ${DOORS.suggestion.limit}`, async () => {
    const member = await signUp();
    const send = (i: number) => api("/api/suggestions", { method: "POST", token: member.token, json: { suggestion: `Please add dark mode, idea number ${i}.` } });
    await inOneRateWindow(DOORS.suggestion.periodSeconds);
    for (let i = 0; i < DOORS.suggestion.limit; i++) expect((await send(i)).status).toBe(201);
    const refused = await send(99);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await countRows("SELECT COUNT(*) AS n FROM suggestions WHERE user_id = ?", member.id)).toBe(DOORS.suggestion.limit);
  });

  it("refuses the report past the limit", async () => {
    const poster = await signUp({ lightningAddress: "poster@wallet.test" });
    const { gig, paymentRequest } = await postGig(poster);
    await payWithDevWallet(paymentRequest!);
    const member = await signUp();
    const send = () => api("/api/gig-reports", { method: "POST", token: member.token, json: { gigId: gig.id, reason: "spam", details: "Looks like spam." } });
    await inOneRateWindow(DOORS.report.periodSeconds);
    expect((await send()).status).toBe(201);
    for (let i = 1; i < DOORS.report.limit; i++) expect((await send()).status).not.toBe(429);
    const refused = await statusAndBody(await send());
    expect(refused).toEqual({ status: 429, body: { message: "Too many reports. Please wait a minute and try again.", error: "rate_limited" } });
  });
});

describe("upload URLs", () => {
  it("refuses the upload URL past the limit", async () => {
    const member = await signUp();
    const ask = () => api("/api/objects/upload", { method: "POST", token: member.token, json: { filename: "a.png", contentType: "image/png", size: 100 } });
    await inOneRateWindow(DOORS.uploadUrl.periodSeconds);
    for (let i = 0; i < DOORS.uploadUrl.limit; i++) expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(429);
  });
});

describe("portfolio", () => {
  it("refuses portfolio changes past the rate limit", async () => {
    const member = await signUp();
    const add = () => api("/api/portfolio", { method: "POST", token: member.token, json: PORTFOLIO_ITEM });
    await inOneRateWindow(DOORS.portfolio.periodSeconds);
    for (let i = 0; i < DOORS.portfolio.limit; i++) expect((await add()).status).toBe(201);
    expect((await add()).status).toBe(429);
    expect(await countRows("SELECT COUNT(*) AS n FROM portfolio_items WHERE user_id = ?", member.id)).toBe(DOORS.portfolio.limit);
  });
});

describe("portfolio hard cap", () => {
  it("keeps a member at 50 items: the 51st add is 409 portfolio_full and stores nothing; removing one makes room", async () => {
    const member = await signUp();
    const rows = Array.from({ length: 49 }, (_, i) =>
      statement("INSERT INTO portfolio_items (id, user_id, title) VALUES (?, ?, ?)", crypto.randomUUID(), member.id, `Older work ${i}`),
    );
    await batch(rows);
    const add = () => api("/api/portfolio", { method: "POST", token: member.token, json: PORTFOLIO_ITEM });
    const fiftieth = await statusAndBody(await add());
    expect(fiftieth.status).toBe(201);
    const refused = await statusAndBody(await add());
    expect(refused).toEqual({ status: 409, body: { message: "You can have at most 50 portfolio items. Remove one to add another.", error: "portfolio_full" } });
    expect(await countRows("SELECT COUNT(*) AS n FROM portfolio_items WHERE user_id = ?", member.id)).toBe(50);
    expect((await api(`/api/portfolio/${fiftieth.body.id}`, { method: "DELETE", token: member.token })).status).toBe(200);
    expect((await add()).status).toBe(201);
  });

  it("holds the cap when adds race: two adds at 49 items leave 50", async () => {
    const member = await signUp();
    await batch(
      Array.from({ length: 49 }, (_, i) => statement("INSERT INTO portfolio_items (id, user_id, title) VALUES (?, ?, ?)", crypto.randomUUID(), member.id, `Older work ${i}`)),
    );
    const answers = await Promise.all([1, 2].map(() => api("/api/portfolio", { method: "POST", token: member.token, json: PORTFOLIO_ITEM })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await countRows("SELECT COUNT(*) AS n FROM portfolio_items WHERE user_id = ?", member.id)).toBe(50);
  });
});

describe("sign-in attempts (POST /api/auth/nostr/verify), counted by the client's address", () => {
  it(`answers 429 after ${DOORS.loginVerify.limit} a minute, before the signature is checked; another address is still heard`, async () => {
    const address = freshAddress();
    // One challenge, and signed answers to it by ever new keys: each costs a signature check and a database round.
    const { challenge, challengeId } = await getChallenge();
    const verify = (from: string) =>
      api("/api/auth/nostr/verify", {
        method: "POST",
        headers: { "cf-connecting-ip": from },
        json: { event: { ...loginEvent(generateSecretKey(), challenge), content: "tampered" }, challengeId },
      });
    await inOneRateWindow(DOORS.loginVerify.periodSeconds);
    for (let i = 0; i < DOORS.loginVerify.limit; i++) expect((await verify(address)).status).not.toBe(429);
    const refused = await verify(address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toEqual({ message: "Too many sign-in attempts. Please wait a minute and try again.", error: "rate_limited" });
    expect((await verify(freshAddress())).status).not.toBe(429);
  });
});

describe("an IPv6 client is counted by its /64", () => {
  it("keys an IPv6 address by its /64 prefix, whatever its spelling; IPv4 as it is", () => {
    expect(clientAddressKey("2001:db8::1")).toBe("2001:db8:0:0");
    expect(clientAddressKey("2001:db8:0:0:ffff::2")).toBe("2001:db8:0:0");
    expect(clientAddressKey("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8:0:0");
    expect(clientAddressKey("2001:db8:0:1::1")).toBe("2001:db8:0:1");
    expect(clientAddressKey("::1")).toBe("0:0:0:0");
    expect(clientAddressKey("fe80::1%eth0")).toBe("fe80:0:0:0");
    expect(clientAddressKey("2001:db8:1:2:3:4:1.2.3.4")).toBe("2001:db8:1:2");
    expect(clientAddressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientAddressKey("198.51.100.7")).toBe("198.51.100.7");
  });

  it("login challenges: two addresses in one /64 share one budget; the next /64 has its own", async () => {
    const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
    const prefix = `2001:db8:${hex()}:${hex()}`;
    // Stored challenges: the ones counted when asked for.
    const ask = (from: string) => api("/api/auth/nostr/challenge", { method: "POST", headers: { "cf-connecting-ip": from }, env: STORED_CHALLENGES });
    // One attacker with a /64 takes turns between its addresses (compressed and not).
    const mine = [`${prefix}::1`, `${prefix}:ffff:0:0:2`];
    await inOneRateWindow(DOORS.loginChallenge.periodSeconds);
    for (let i = 0; i < DOORS.loginChallenge.limit; i++) expect((await ask(mine[i % 2]!)).status).toBe(200);
    expect((await ask(`${prefix}:1234:5678:9abc:def0`)).status).toBe(429);
    expect((await ask(mine[0]!)).status).toBe(429);
    expect((await ask(`2001:db8:${hex()}:${hex()}::1`)).status).toBe(200);
  });
});
