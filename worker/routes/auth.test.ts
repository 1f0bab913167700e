import { describe, expect, it } from "vitest";
import { generateSecretKey } from "nostr-tools/pure";
import { api, getChallenge, loginEvent } from "../test/factories";

async function verify(body: unknown) {
  return api("/api/auth/nostr/verify", { method: "POST", json: body });
}

describe("Nostr sign-in", () => {
  it("gives a challenge and its id", async () => {
    const { challenge, challengeId } = await getChallenge();
    expect(challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challengeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("signs in with a kind 22242 event and creates the member named by npub", async () => {
    const sk = generateSecretKey();
    const { challenge, challengeId } = await getChallenge();
    const res = await verify({ event: loginEvent(sk, challenge), challengeId });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sessionToken: string; user: { username: string } };
    expect(body.sessionToken).toMatch(/^[0-9a-f]{64}$/);
    expect(body.user.username).toMatch(/^npub1/);
    const me = await api("/api/user/me", { token: body.sessionToken });
    expect(((await me.json()) as { username: string }).username).toBe(body.user.username);
  });
});
