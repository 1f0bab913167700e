// Public lists on a profile page, and the owner's portfolio editing.
import { Hono } from "hono";
import { portfolioEditSchema, portfolioItemSchema } from "../../domain/collaboration-schemas";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { findUserById } from "../services/users";
import { addPortfolioItem, editPortfolioItem, portfolioOf, removePortfolioItem } from "../services/portfolio";
import { reviewsOf } from "../services/reviews";
import { parseJson } from "./parse";
import { rateLimit } from "../rate-limits";
import { depsOf } from "./deps";

/** /api/portfolio */
export const portfolioRoutes = new Hono<AppEnv>()
  .get("/user/:userId", async (c) => {
    const user = await findUserById(depsOf(c), c.req.param("userId"));
    return c.json(await portfolioOf(depsOf(c), user.id));
  })
  .post("/", rateLimit("portfolio"), async (c) => {
    const me = requireMember(c);
    return c.json(await addPortfolioItem(depsOf(c), me, await parseJson(c, portfolioItemSchema)), 201);
  })
  .patch("/:id", rateLimit("portfolio"), async (c) => {
    const me = requireMember(c);
    return c.json(await editPortfolioItem(depsOf(c), me, c.req.param("id"), await parseJson(c, portfolioEditSchema)));
  })
  .delete("/:id", async (c) => {
    await removePortfolioItem(depsOf(c), requireMember(c), c.req.param("id"));
    return c.json({ success: true });
  });

/** /api/reviews */
export const reviewRoutes = new Hono<AppEnv>().get("/user/:userId", async (c) => {
  const user = await findUserById(depsOf(c), c.req.param("userId"));
  return c.json(await reviewsOf(depsOf(c), user.id));
});
