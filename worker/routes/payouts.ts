// /api/user/payouts: the signed-in member's own failed payouts, and their Retry.
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { assertPaymentsOn } from "../lightning";
import { myFailedPayouts, retryMyPayout } from "../services/my-payouts";
import { depsOf } from "./deps";
import { rateLimit } from "../rate-limits";

export const myPayoutRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await myFailedPayouts(depsOf(c), requireMember(c))))
  .post("/:id/retry", rateLimit("payoutRetry"), async (c) => {
    const me = requireMember(c);
    assertPaymentsOn(c.env);
    return c.json(await retryMyPayout(depsOf(c), me, c.req.param("id")));
  });
