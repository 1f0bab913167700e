import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { isRecord, nostrEventSchema, plainLoginEvent, siteOrigins } from "../auth/nostr-login";
import { bearerToken, requireMember } from "../auth/middleware";
import { createLoginChallenge, endAllSessions, endSession, endSessionById, listSessions, signInWithNostr, type SignInDeps } from "../services/auth";
import { ownUser } from "../services/users";
import { aliasDomainOf } from "./config";
import { jsonBody, parseWith } from "./parse";
import { rateLimit } from "../rate-limits";
import { storesLoginChallenges } from "../auth/login-challenges";
import { depsOf } from "./deps";
import { dbOf } from "../d1-sessions";
import type { AppContext } from "../context";

const verifyBody = z.object({
  event: nostrEventSchema,
  challengeId: z.string().min(1, "challengeId is required"),
});

/** A verify body as `verifyBody` parses it: checked by hand when it is well formed, else by the schema, which says what is wrong. */
function verifyRequest(body: unknown): z.output<typeof verifyBody> {
  if (isRecord(body)) {
    const { event, challengeId } = body;
    const plain = typeof challengeId === "string" && challengeId.length > 0 ? plainLoginEvent(event) : null;
    if (plain) return { event: plain, challengeId: challengeId as string };
  }
  return parseWith(verifyBody, body);
}

/** What a sign-in's two requests need: the request's D1 session, and its drizzle handle only if a path asks for one. */
const signInDepsOf = (c: AppContext): SignInDeps => ({ client: c.get("d1"), db: () => dbOf(c), env: c.env });

export const authRoutes = new Hono<AppEnv>()
  // Sign-in needs only the request's database and the bindings (no Lightning, no LNURL): not the whole of depsOf,
  // which a sign-in would build for nothing.
  // Counted when asked for only where challenges are stored; a signed one's use is counted at the verify (docs/decisions/036).
  .post("/nostr/challenge", rateLimit("loginChallenge", { when: storesLoginChallenges }), async (c) => c.json(await createLoginChallenge(signInDepsOf(c))))
  .post("/nostr/verify", rateLimit("loginVerify"), async (c) => {
    const { event, challengeId } = verifyRequest(await jsonBody(c));
    const { sessionToken, user } = await signInWithNostr(
      signInDepsOf(c),
      event,
      challengeId,
      siteOrigins(c.req.url, c.env.ALIAS_DOMAIN),
      c.req.header("user-agent"),
    );
    return c.json({ sessionToken, user: ownUser(user, aliasDomainOf(c)) });
  })
  // Beyond the spec: logging out ends the session here too, so a copy of the token is no use afterwards.
  // Members only (the access table): the session is the caller's own.
  .post("/logout", async (c) => {
    await endSession(depsOf(c), bearerToken(c.req.header("authorization"))!);
    return c.json({ success: true });
  })
  // Sessions their owner controls (issue 14): see where one is signed in, end one, or end them all.
  // The session asking is named from this request's browser when its stored label is unknown (services/auth.ts).
  .get("/sessions", async (c) =>
    c.json(await listSessions(depsOf(c), requireMember(c).id, c.var.sessionId ?? "", c.req.header("user-agent"))),
  )
  .delete("/sessions/:id", async (c) => {
    await endSessionById(depsOf(c), requireMember(c).id, c.req.param("id"));
    return c.json({ success: true });
  })
  .post("/logout-all", async (c) => c.json({ success: true, ended: await endAllSessions(depsOf(c), requireMember(c).id) }));
