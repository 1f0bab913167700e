// `npm run demo`'s market, made against the Worker itself: every state of a gig's life is there, the demo keys
// sign in, reviews and a dispute exist, and the books balance.
import { describe, expect, it } from "vitest";
import { finalizeEvent } from "nostr-tools/pure";
import { nip19 } from "nostr-tools";
import { seedMarket, type Caller } from "../scripts/demo/market";
import { adminSignIn, asAdmin } from "./test/admin";
import { api, BASE, statusAndBody } from "./test/factories";
import { expectLedgerBalanced } from "./test/money";

const call: Caller = async (method, path, { token, json, address }) =>
  statusAndBody(await api(path, { method, token, json, headers: { "cf-connecting-ip": address } }));

describe("the demo market", () => {
  it("has gigs in every state, reviews, a dispute and keys that sign in; the ledger balances", async () => {
    const market = await seedMarket(call, BASE);
    const states = new Set(market.gigs.map((g) => g.status));
    for (const status of ["open", "claimed", "in_progress", "work_submitted", "completed", "disputed", "cancelled"]) expect(states).toContain(status);
    const offers = await call("GET", `/api/gigs?gigType=service_offering&status=open&limit=100`, { address: "198.51.100.1" });
    expect(offers.body.length).toBeGreaterThanOrEqual(3);

    const reviews = await call("GET", `/api/reviews/user/${market.worker.id}`, { address: "198.51.100.1" });
    expect(reviews.body[0]).toMatchObject({ rating: 5 });
    const admin = await adminSignIn();
    const disputes = await asAdmin(admin, "/api/admin/disputes");
    expect(disputes.body.some((d: { title?: string; gig?: { title: string } }) => (d.title ?? d.gig?.title) === "Photos of twelve pastries")).toBe(true);

    // The printed keys sign in as the demo's hirer and worker.
    for (const who of [market.hirer, market.worker]) {
      const decoded = nip19.decode(who.nsec);
      if (decoded.type !== "nsec") throw new Error("not an nsec");
      const { challenge, challengeId } = (await call("POST", "/api/auth/nostr/challenge", { address: "198.51.100.2" })).body;
      const event = finalizeEvent({ kind: 22242, created_at: Math.floor(Date.now() / 1000), tags: [["challenge", challenge], ["relay", BASE]], content: "" }, decoded.data);
      const signedIn = await call("POST", "/api/auth/nostr/verify", { address: "198.51.100.2", json: { event, challengeId } });
      expect(signedIn).toMatchObject({ status: 200, body: { user: { id: who.id, displayName: who.name } } });
    }
    await expectLedgerBalanced();
  });
});
