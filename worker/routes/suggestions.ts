// /api/suggestions: the suggestion box (members). The admin reads them under /api/admin/suggestions.
import { Hono } from "hono";
import { suggestionSchema } from "../../domain/admin";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { sendSuggestion } from "../services/suggestions";
import { parseJson } from "./parse";
import { rateLimit } from "../rate-limits";
import { depsOf } from "./deps";

export const suggestionRoutes = new Hono<AppEnv>().post("/", rateLimit("suggestion"), async (c) => {
  const me = requireMember(c);
  const { suggestion } = await parseJson(c, suggestionSchema);
  return c.json(await sendSuggestion(depsOf(c), me, suggestion), 201);
});
