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

/** /api/portfolio */
export const portfolioRoutes = new Hono<AppEnv>()
  .get("/user/:userId", async (c) => {
    const user = await findUserById(c.var.db, c.req.param("userId"));
    return c.json(await portfolioOf(c.var.db, user.id));
  })
  .post("/", rateLimit("portfolio"), async (c) => {
    const me = requireMember(c);
    return c.json(await addPortfolioItem(c.var.db, me, await parseJson(c, portfolioItemSchema)), 201);
  })
  .patch("/:id", rateLimit("portfolio"), async (c) => {
    const me = requireMember(c);
    return c.json(await editPortfolioItem(c.var.db, me, c.req.param("id"), await parseJson(c, portfolioEditSchema)));
  })
  .delete("/:id", async (c) => {
    await removePortfolioItem(c.var.db, requireMember(c), c.req.param("id"));
    return c.json({ success: true });
  });

/** /api/reviews */
export const reviewRoutes = new Hono<AppEnv>().get("/user/:userId", async (c) => {
  const user = await findUserById(c.var.db, c.req.param("userId"));
  return c.json(await reviewsOf(c.var.db, user.id));
});
