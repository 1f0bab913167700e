import { Hono } from "hono";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { decideInterest, pendingInterestCount } from "../services/interest";
import { depsOf } from "./deps";

/** /api/pre-claim-messages */
export const interestRoutes = new Hono<AppEnv>()
  .get("/pending-count", async (c) => c.json({ count: await pendingInterestCount(depsOf(c), requireMember(c)) }))
  .patch("/:id/approve", async (c) => c.json(await decideInterest(depsOf(c), requireMember(c), c.req.param("id"), "approve")))
  .patch("/:id/reject", async (c) => c.json(await decideInterest(depsOf(c), requireMember(c), c.req.param("id"), "reject")))
  .patch("/:id/enable-claim", async (c) => c.json(await decideInterest(depsOf(c), requireMember(c), c.req.param("id"), "enable-claim")));
