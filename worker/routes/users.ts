import { Hono } from "hono";
import { z } from "zod";
import { aliasSchema, profileUpdateSchema } from "../../domain/profile";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import {
  deleteAccount,
  findUserById,
  findUserByNpub,
  isAliasAvailable,
  ownUser,
  publicUser,
  updateProfile,
} from "../services/users";
import { aliasDomainOf } from "./config";
import { depsOf } from "./deps";
import { retryFailedPayoutsOf } from "../services/payouts";
import { parseJson, parseQuery } from "./parse";
import { rateLimit } from "../rate-limits";

/** /api/user/me: the signed-in member's own account. */
export const meRoutes = new Hono<AppEnv>()
  .get("/", (c) => c.json(ownUser(requireMember(c), aliasDomainOf(c))))
  .patch("/", rateLimit("profileEdit"), async (c) => {
    const me = requireMember(c);
    const edit = await parseJson(c, profileUpdateSchema);
    const aliasDomain = aliasDomainOf(c);
    const updated = await updateProfile(depsOf(c), me, edit, aliasDomain);
    // A new Lightning address is where failed payouts can go now: tried again at once, after the answer.
    if (updated.lightningAddress && updated.lightningAddress !== me.lightningAddress) {
      const deps = depsOf(c);
      deps.defer(() => retryFailedPayoutsOf(deps, me.id).catch((err) => console.error("payout retry after an address change failed", err)));
    }
    return c.json(ownUser(updated, aliasDomain));
  })
  .delete("/", async (c) => {
    await deleteAccount(depsOf(c), requireMember(c));
    return c.json({ success: true });
  });

/** /api/users: public profiles. */
export const userRoutes = new Hono<AppEnv>()
  .get("/by-npub/:npub", async (c) => c.json(publicUser(await findUserByNpub(depsOf(c), c.req.param("npub")))))
  .get("/:id", async (c) => c.json(publicUser(await findUserById(depsOf(c), c.req.param("id")))));

const aliasQuery = z.object({ alias: z.string().trim().toLowerCase().pipe(aliasSchema) });

/** /api/check-gigstr-alias?alias= */
export const aliasCheckRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { alias } = parseQuery(c, aliasQuery);
  return c.json({ alias, available: await isAliasAvailable(depsOf(c), alias) });
});
