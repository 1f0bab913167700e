// Public lists on a profile page. Portfolio items and reviews are written by their own features;
// until a member has any, these answer an empty list for every existing member.
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { findUserById } from "../services/users";

export const portfolioRoutes = new Hono<AppEnv>().get("/user/:userId", async (c) => {
  await findUserById(c.var.db, c.req.param("userId"));
  return c.json([]);
});

export const reviewRoutes = new Hono<AppEnv>().get("/user/:userId", async (c) => {
  await findUserById(c.var.db, c.req.param("userId"));
  return c.json([]);
});
