import { describe, expect, it } from "vitest";
import { api, getChallenge, loginEvent, signUp, inOneRateWindow } from "../test/factories";

type Json = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Json;

async function patchMe(token: string, body: unknown) {
  return api("/api/user/me", { method: "PATCH", token, json: body });
}

describe("GET /api/user/me", () => {
  it("answers 401 {message, error} to a visitor and to an unknown token", async () => {
    for (const token of [undefined, "f".repeat(64)]) {
      const res = await api("/api/user/me", { token });
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ message: "Authentication required", error: "unauthorized" });
    }
  });

  it("shows the member their own profile including the Lightning address", async () => {
    const m = await signUp({ lightningAddress: "alice@wallet.test", displayName: "Alice" });
    const me = await json(await api("/api/user/me", { token: m.token }));
    expect(me).toMatchObject({ id: m.id, username: m.npub, displayName: "Alice", lightningAddress: "alice@wallet.test" });
    expect(me).toMatchObject({ completedGigs: 0, successfulGigs: 0, successRate: 100, averageRating: 0, totalReviews: 0 });
  });
});

describe("PATCH /api/user/me", () => {
  it("saves every profile field and answers the updated profile", async () => {
    const m = await signUp();
    const res = await patchMe(m.token, {
      displayName: "Bob Builder",
      profilePicture: "https://example.com/bob.png",
      bio: "I build things",
      nip05: "bob@example.com",
      lightningAddress: "bob@getalby.com",
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      displayName: "Bob Builder",
      profilePicture: "https://example.com/bob.png",
      picture: "https://example.com/bob.png",
      bio: "I build things",
      nip05: "bob@example.com",
      lightningAddress: "bob@getalby.com",
    });
  });

  it("stores empty values as absent", async () => {
    const m = await signUp({ displayName: "Carol" });
    const body = await json(await patchMe(m.token, { displayName: "", bio: "  " }));
    expect(body.displayName).toBeNull();
    expect(body.bio).toBeNull();
  });

  it("accepts an LNURL and refuses malformed addresses and email providers with the spec's message", async () => {
    const m = await signUp();
    expect((await patchMe(m.token, { lightningAddress: "LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS" })).status).toBe(200);
    for (const bad of ["alice@gmail.com", "bob@ProtonMail.com", "not-an-address", "a@b@c.com", "lnurl123", "x y@wallet.test", "bob@domain.c0m"]) {
      const res = await patchMe(m.token, { lightningAddress: bad });
      expect(res.status, bad).toBe(400);
      expect(await json(res)).toEqual({
        message: "Invalid Lightning Address - Please enter a valid Lightning address (not a regular email) or LNURL.",
        error: "invalid_input",
      });
    }
  });

  it("refuses a picture URL that is not http(s), and changes nothing", async () => {
    const m = await signUp({ displayName: "Dave" });
    const res = await patchMe(m.token, { displayName: "Eve", profilePicture: "javascript:alert(1)" });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe("Profile picture must be an http(s) URL");
    expect((await json(await api("/api/user/me", { token: m.token }))).displayName).toBe("Dave");
  });

  it("never changes the username", async () => {
    const m = await signUp();
    expect((await patchMe(m.token, { username: m.npub, displayName: "Same" })).status).toBe(200);
    const res = await patchMe(m.token, { username: "npub1somebodyelse" });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe("Username cannot be changed");
  });

  it("refuses a visitor", async () => {
    expect((await patchMe("", { displayName: "x" })).status).toBe(401);
  });
});

describe("a changed Lightning address", () => {
  async function addressNotices(token: string) {
    const res = await api("/api/notifications", { token });
    const list = (await res.json()) as Array<{ type: string; title: string; message: string }>;
    return list.filter((n) => n.type === "lightning_address_changed");
  }

  it("tells the member in-app, so a change they did not make (a hijacked session) is seen", async () => {
    const member = await signUp({ lightningAddress: "mine@wallet.test" });
    const hijacker = { token: member.token };
    const before = (await addressNotices(member.token)).length;
    expect((await patchMe(hijacker.token, { lightningAddress: "thief@wallet.test" })).status).toBe(200);
    const notices = await addressNotices(member.token);
    expect(notices).toHaveLength(before + 1);
    expect(notices[0]).toMatchObject({
      title: "Lightning Address Changed",
      message: expect.stringMatching(/is now thief@wallet\.test.*If this was not you, log out everywhere/),
    });
  });

  it("says nothing about a member's first address: a newcomer's notifications stay empty", async () => {
    const member = await signUp();
    expect((await patchMe(member.token, { lightningAddress: "first@wallet.test" })).status).toBe(200);
    expect(await addressNotices(member.token)).toEqual([]);
    expect((await patchMe(member.token, { lightningAddress: "second@wallet.test" })).status).toBe(200);
    expect(await addressNotices(member.token)).toHaveLength(1);
  });

  it("says nothing when the address stays the same or another field changes", async () => {
    const member = await signUp({ lightningAddress: "same@wallet.test" });
    const before = (await addressNotices(member.token)).length;
    expect((await patchMe(member.token, { lightningAddress: "same@wallet.test", displayName: "Same" })).status).toBe(200);
    expect((await patchMe(member.token, { bio: "Hello" })).status).toBe(200);
    expect(await addressNotices(member.token)).toHaveLength(before);
  });

  it("a refused change leaves no notice", async () => {
    const member = await signUp({ lightningAddress: "kept@wallet.test" });
    const before = (await addressNotices(member.token)).length;
    expect((await patchMe(member.token, { lightningAddress: "not an address" })).status).toBe(400);
    expect(await addressNotices(member.token)).toHaveLength(before);
  });
});

describe("alias", () => {
  it("needs a Lightning address, is set once, and is then taken for everybody", async () => {
    const m = await signUp();
    const noAddress = await patchMe(m.token, { gigstrAlias: "satoshi" });
    expect(noAddress.status).toBe(400);
    expect((await json(noAddress)).message).toBe("Set a Lightning address before claiming an alias");

    await patchMe(m.token, { lightningAddress: "sat@wallet.test" });
    const alias = `sat${crypto.randomUUID().slice(0, 6)}`;
    expect((await json(await api(`/api/check-gigstr-alias?alias=${alias}`))).available).toBe(true);
    const claimed = await json(await patchMe(m.token, { gigstrAlias: alias.toUpperCase() }));
    expect(claimed.gigstrAlias).toBe(alias);
    expect(claimed.gigstrAliasAddress).toBe(`${alias}@gigstr.test`);
    expect((await json(await api(`/api/check-gigstr-alias?alias=${alias}`))).available).toBe(false);

    const again = await patchMe(m.token, { gigstrAlias: `${alias}x` });
    expect(again.status).toBe(409);
    const other = await signUp({ lightningAddress: "other@wallet.test" });
    const taken = await patchMe(other.token, { gigstrAlias: alias });
    expect(taken.status).toBe(409);
    expect((await json(taken)).message).toBe("This alias is already taken");
  });

  it("a NIP-05 identifier on the alias domain is the member's own alias: another member's or the platform's is refused and changes nothing", async () => {
    const owner = await signUp({ lightningAddress: "owner@wallet.test" });
    const alias = `own${crypto.randomUUID().slice(0, 6)}`;
    expect((await patchMe(owner.token, { gigstrAlias: alias })).status).toBe(200);
    const nip05Of = async (token: string) => (await json(await api("/api/user/me", { token }))).nip05;

    const impostor = await signUp({ lightningAddress: "impostor@wallet.test", displayName: "Impostor" });
    expect((await patchMe(impostor.token, { nip05: "me@example.com" })).status).toBe(200);
    for (const claim of [`${alias}@gigstr.test`, `${alias.toUpperCase()}@GIGSTR.test`, "_@gigstr.test", "gigstr.test", "admin@gigstr.test"]) {
      const refused = await patchMe(impostor.token, { nip05: claim, displayName: "Renamed" });
      expect({ claim, status: refused.status, body: await json(refused) }).toEqual({
        claim,
        status: 400,
        body: { message: "NIP-05 identifiers on gigstr.test are Gigstr aliases: claim yours first, then use it here", error: "nip05_not_yours" },
      });
    }
    expect(await json(await api("/api/user/me", { token: impostor.token }))).toMatchObject({ nip05: "me@example.com", displayName: "Impostor" });

    // With an alias of their own, that alias is the one name they may show there.
    const theirs = `imp${crypto.randomUUID().slice(0, 6)}`;
    const claimedBoth = await patchMe(impostor.token, { gigstrAlias: theirs, nip05: `${theirs}@gigstr.test` });
    expect(claimedBoth.status).toBe(200);
    const other = await patchMe(impostor.token, { nip05: `${alias}@gigstr.test` });
    expect(await json(other)).toEqual({ message: `Your NIP-05 identifier on gigstr.test is your alias, ${theirs}@gigstr.test`, error: "nip05_not_yours" });
    expect(await nip05Of(impostor.token)).toBe(`${theirs}@gigstr.test`);
    expect((await patchMe(owner.token, { nip05: `${alias.toUpperCase()}@gigstr.test` })).status).toBe(200);
  });

  it("checks availability only for valid aliases of 3 or more characters", async () => {
    const short = await api("/api/check-gigstr-alias?alias=ab");
    expect(short.status).toBe(400);
    expect((await json(short)).message).toBe("Alias must be at least 3 characters");
    const bad = await api("/api/check-gigstr-alias?alias=a%20b%21c");
    expect(bad.status).toBe(400);
  });

  it("of two members racing for one alias, exactly one gets it", async () => {
    const [a, b] = await Promise.all([signUp({ lightningAddress: "a@wallet.test" }), signUp({ lightningAddress: "b@wallet.test" })]);
    const alias = `race${crypto.randomUUID().slice(0, 6)}`;
    const results = await Promise.all([patchMe(a.token, { gigstrAlias: alias }), patchMe(b.token, { gigstrAlias: alias })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe("public profiles", () => {
  it("GET /api/users/:id and /by-npub/:npub show public fields only", async () => {
    const m = await signUp({ lightningAddress: "pub@wallet.test", displayName: "Publius" });
    for (const path of [`/api/users/${m.id}`, `/api/users/by-npub/${m.npub}`]) {
      const res = await api(path);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({ id: m.id, username: m.npub, displayName: "Publius", successRate: 100 });
      expect(body).not.toHaveProperty("lightningAddress");
    }
  });

  it("answers 404 'User not found' for unknown ids and bad npubs", async () => {
    for (const path of [`/api/users/${crypto.randomUUID()}`, "/api/users/by-npub/npub1nothing", "/api/users/by-npub/nsec1abc"]) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect((await json(res)).message).toBe("User not found");
    }
  });

  it("lists portfolio and reviews of a member (empty at first), 404 for nobody", async () => {
    const m = await signUp();
    expect(await (await api(`/api/portfolio/user/${m.id}`)).json()).toEqual([]);
    expect(await (await api(`/api/reviews/user/${m.id}`)).json()).toEqual([]);
    expect((await api(`/api/reviews/user/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("DELETE /api/user/me", () => {
  it("ends every session, hides the profile, and a later login with the key starts afresh", async () => {
    const m = await signUp({ displayName: "Gone", lightningAddress: "gone@wallet.test" });
    expect((await api("/api/user/me", { method: "DELETE", token: m.token })).status).toBe(200);
    expect((await api("/api/user/me", { token: m.token })).status).toBe(401);
    expect((await api(`/api/users/${m.id}`)).status).toBe(404);
    expect((await api(`/api/users/by-npub/${m.npub}`)).status).toBe(404);

    const { challenge, challengeId } = await getChallenge();
    const res = await api("/api/auth/nostr/verify", { method: "POST", json: { event: loginEvent(m.secretKey, challenge), challengeId } });
    const fresh = (await json(res)).user as Json;
    expect(fresh.id).not.toBe(m.id);
    expect(fresh.displayName).toBeNull();
  });
});

describe("every answer", () => {
  it("carries a strict Content-Security-Policy and nosniff", async () => {
    const res = await api("/api/config");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.json()).toMatchObject({ aliasDomain: "gigstr.test", lightningBackend: "dev" });
  });

  it("unknown API paths answer 404 as JSON", async () => {
    const res = await api("/api/nothing-here", { token: (await signUp()).token });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: "Not found", error: "not_found" });
  });
});

describe("DELETE /api/user/me with money in play", () => {
  it("is refused with the 'active escrow' message while a funded gig is running, and allowed after", async () => {
    const { claimedJob, call } = await import("../test/factories");
    const job = await claimedJob();
    const refused = await call("/api/user/me", job.worker.token, "DELETE");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("active escrow");
    expect((await call("/api/user/me", job.worker.token)).status).toBe(200);
    await call(`/api/gigs/${job.gigId}/cancel`, job.hirer.token, "POST");
    expect((await call("/api/user/me", job.worker.token, "DELETE")).status).toBe(200);
  });
});

describe("DELETE /api/user/me while an invoice of the member's gig is open", () => {
  /** The 409 a deletion answers while `invoiceId` is open, naming until when it can be paid. */
  async function refusedUntil(member: { token: string }, invoiceId: string) {
    const { call } = await import("../test/factories");
    const { statement } = await import("../db/test-statements");
    const expiresAt = String(await statement("SELECT expires_at FROM invoices WHERE id = ?", invoiceId).first("expires_at"));
    const refused = await call("/api/user/me", member.token, "DELETE");
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: {
        message: `A Lightning invoice for one of your gigs is still open, so a payment could still arrive. You can delete your account once it is paid or has expired (${expiresAt.slice(0, 16).replace("T", " ")} UTC).`,
        error: "open_invoice",
      },
    });
    expect((await call("/api/user/me", member.token)).status).toBe(200);
  }

  it("a later milestone's invoice keeps both parties' accounts: paid, it funds that milestone for them", async () => {
    const { call, payWithDevWallet } = await import("../test/factories");
    const { approve, deliver, fundInvoice, gigOf, ok, plannedJob } = await import("../test/milestones");
    const job = await plannedJob();
    await deliver(job, 1);
    await approve(job, 1);
    // Milestone 1 is paid and milestone 2 not funded: no escrow is held, but its invoice is out.
    const invoice = ok(await fundInvoice(job, 2), "fund 2");
    const { statement } = await import("../db/test-statements");
    const id = String(await statement("SELECT id FROM invoices WHERE gig_id = ? AND milestone = 2 AND status = 'pending'", job.gigId).first("id"));
    await refusedUntil(job.hirer, id);
    await refusedUntil(job.worker, id);

    expect(ok(await payWithDevWallet(invoice.paymentRequest as string), "pay")).toMatchObject({ outcome: "funded" });
    expect((await gigOf(job)).milestones).toMatchObject([{ escrow: "released" }, { escrow: "funded" }, { escrow: "unfunded" }]);
    expect((await call("/api/user/me", job.hirer.token, "DELETE")).body).toMatchObject({ error: "active_escrow" });
  });

  it("a withdrawn hire's invoice keeps its payer's account, whom a late payment is refunded to; the worker may go", async () => {
    const { approveInterest, call, payWithDevWallet, postGig } = await import("../test/factories");
    const { receivedBy } = await import("../test/money");
    const { statement } = await import("../db/test-statements");
    const tag = crypto.randomUUID().slice(0, 6);
    const worker = await signUp({ lightningAddress: `offers${tag}@wallet.test` });
    const hirer = await signUp({ lightningAddress: `withdrew${tag}@wallet.test` });
    const gigId = (await postGig(worker, { gigType: "service_offering", title: "I draw logos" })).gig.id as string;
    await approveInterest(gigId, worker, hirer);
    const hire = await call(`/api/gigs/${gigId}/claim`, hirer.token, "POST");
    expect((await call(`/api/gigs/${gigId}/cancel`, hirer.token, "POST")).status).toBe(200);

    await refusedUntil(hirer, String(await statement("SELECT id FROM invoices WHERE gig_id = ? AND status = 'pending'", gigId).first("id")));
    expect((await call("/api/user/me", worker.token, "DELETE")).status).toBe(200);

    expect(await payWithDevWallet(hire.body.paymentRequest as string)).toMatchObject({ status: 200, body: { outcome: "refunding_late_payment" } });
    expect(await receivedBy(`withdrew${tag}@wallet.test`)).toBe(hire.body.totalCharge);
  });
});

describe("DELETE /api/user/me as the worker of a service offering", () => {
  async function offerWithApprovedHirer() {
    const { approveInterest, postGig } = await import("../test/factories");
    const worker = await signUp({ lightningAddress: `leaver${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const hirer = await signUp({ lightningAddress: `stayer${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const gigId = (await postGig(worker, { gigType: "service_offering", title: "I draw logos" })).gig.id as string;
    await approveInterest(gigId, worker, hirer);
    return { worker, hirer, gigId };
  }

  it("is refused while someone is hiring the offering (their invoice is out), and allowed once they withdraw", async () => {
    const { call } = await import("../test/factories");
    const { worker, hirer, gigId } = await offerWithApprovedHirer();
    expect((await call(`/api/gigs/${gigId}/claim`, hirer.token, "POST")).body.gig).toMatchObject({ status: "pending_payment" });

    const refused = await call("/api/user/me", worker.token, "DELETE");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("active escrow");
    expect((await call("/api/user/me", worker.token)).status).toBe(200);

    expect((await call(`/api/gigs/${gigId}/cancel`, hirer.token, "POST")).status).toBe(200);
    expect((await call("/api/user/me", worker.token, "DELETE")).status).toBe(200);
  });

  it("cancels the member's open offerings with the account, so nobody hires and funds someone who is gone", async () => {
    const { call } = await import("../test/factories");
    const { worker, hirer, gigId } = await offerWithApprovedHirer();
    expect((await call("/api/user/me", worker.token, "DELETE")).status).toBe(200);

    expect((await call(`/api/gigs/${gigId}`, hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "pending" });
    const hire = await call(`/api/gigs/${gigId}/claim`, hirer.token, "POST");
    expect(hire.status).toBe(409);
    const listed = (await call("/api/gigs?status=open&gigType=service_offering", hirer.token)).body as unknown as { id: string }[];
    expect(listed.map((g) => g.id)).not.toContain(gigId);
  });
});

describe("PATCH /api/user/me, counted by member", () => {
  it("answers 429 with Retry-After past the limit, from any address, and changes nothing more; another member still edits", async () => {
    const { DOORS } = await import("../rate-limits");
    const member = await signUp();
    // Every change of address also retries the member's failed payouts (outbound fetches) and writes a notice.
    const edit = (token: string, i: number) =>
      api("/api/user/me", { method: "PATCH", token, json: { lightningAddress: `edits${i}@wallet.test` }, headers: { "cf-connecting-ip": `198.18.${i % 250}.${Math.floor(Math.random() * 250) + 1}` } });
    await inOneRateWindow(DOORS.profileEdit.periodSeconds);
    for (let i = 0; i < DOORS.profileEdit.limit; i++) expect((await edit(member.token, i)).status).toBe(200);
    const refused = await edit(member.token, 999);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await json(refused)).toEqual({ message: "Too many profile changes. Please wait a minute and try again.", error: "rate_limited" });
    expect(await json(await api("/api/user/me", { token: member.token }))).toMatchObject({ lightningAddress: `edits${DOORS.profileEdit.limit - 1}@wallet.test` });
    const other = await signUp();
    expect((await edit(other.token, 1)).status).toBe(200);
  });
});
