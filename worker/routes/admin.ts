// /api/admin/*: the administrator's API (SPEC.md §7 Admin). The access table lets only a valid
// x-admin-token through, except sign-in and logout (worker/auth/access.ts).
import { Hono } from "hono";
import { z } from "zod";
import {
  adminMessageSchema,
  adminPinSchema,
  ADMIN_TOKEN_HEADER,
  disputeResolutionSchema,
  markPayoutFailedSchema,
  suggestionUpdateSchema,
} from "../../domain/admin";
import { GIG_STATUSES, GIG_TYPES } from "../../domain/gig";
import type { AppEnv } from "../context";
import { adminClientOf, signInAdmin, signOutAdmin } from "../auth/admin";
import { assertPaymentsOn } from "../lightning";
import { adminStats, deleteGigAsAdmin, deleteGigsAsAdmin, listAdminGigs } from "../services/admin";
import { postAsAdmin, readChatAsAdmin, unreadChats } from "../services/admin-chat";
import { listDisputes, resolveDispute } from "../services/admin-disputes";
import { moneyHealth, retryPayoutAsAdmin } from "../services/admin-money";
import { markPayoutFailed } from "../services/payouts";
import { listSuggestions, updateSuggestion } from "../services/suggestions";
import { depsOf } from "./deps";
import { parseJson, parseQuery } from "./parse";

const gigListQuery = z.object({
  status: z
    .enum([...GIG_STATUSES, "submitted", "all"], { error: "Unknown status" })
    .transform((s) => (s === "all" ? undefined : s === "submitted" ? "work_submitted" : s))
    .optional(),
  type: z.enum([...GIG_TYPES, "all"], { error: "type must be all, job_request or service_offering" }).transform((t) => (t === "all" ? undefined : t)).optional(),
  limit: z.coerce.number().int().min(1, "limit must be between 1 and 100").max(100, "limit must be between 1 and 100").default(100),
  cursor: z.string().max(500).optional(),
});

const bulkDelete = z.object({
  ids: z.array(z.string().min(1).max(64), { error: "ids must be a list of gig ids" }).min(1, "Select at least one gig").max(100, "At most 100 gigs at a time"),
});

export const adminRoutes = new Hono<AppEnv>()
  .post("/auth", async (c) => {
    const { pin } = await parseJson(c, adminPinSchema);
    const { adminToken, expiresAt } = await signInAdmin(depsOf(c), c.env, {
      pin,
      client: adminClientOf(c.req.header("cf-connecting-ip")),
      member: c.var.user,
    });
    return c.json({ success: true, adminToken, expiresAt });
  })
  .post("/logout", async (c) => {
    const token = c.req.header(ADMIN_TOKEN_HEADER);
    if (token) await signOutAdmin(depsOf(c), token);
    return c.json({ success: true });
  })
  .get("/stats", async (c) => c.json(await adminStats(depsOf(c))))
  .get("/money", async (c) => c.json(await moneyHealth(depsOf(c))))
  .post("/payouts/:id/retry", async (c) => {
    // A retry claims the payout before it reaches the wallet: with payments off it must not start.
    assertPaymentsOn(c.env);
    return c.json(await retryPayoutAsAdmin(depsOf(c), c.req.param("id")));
  })
  .post("/payouts/:id/mark-failed", async (c) => {
    // After checking the node: the payments in doubt were never sent, so a new invoice may be paid.
    const { paymentHashes } = await parseJson(c, markPayoutFailedSchema);
    return c.json(await markPayoutFailed(depsOf(c), c.req.param("id"), paymentHashes));
  })
  .get("/gigs", async (c) => {
    const q = parseQuery(c, gigListQuery);
    const page = await listAdminGigs(depsOf(c), { status: q.status, gigType: q.type, limit: q.limit, cursor: q.cursor });
    if (page.nextCursor) c.header("X-Next-Cursor", page.nextCursor);
    return c.json(page.gigs);
  })
  .delete("/gigs", async (c) => {
    const { ids } = await parseJson(c, bulkDelete);
    return c.json({ success: true, ...(await deleteGigsAsAdmin(depsOf(c), ids)) });
  })
  .post("/gigs/bulk-delete", async (c) => {
    const { ids } = await parseJson(c, bulkDelete);
    return c.json({ success: true, ...(await deleteGigsAsAdmin(depsOf(c), ids)) });
  })
  .delete("/gigs/:id", async (c) => c.json({ success: true, ...(await deleteGigAsAdmin(depsOf(c), c.req.param("id"))) }))
  .get("/suggestions", async (c) => c.json(await listSuggestions(depsOf(c))))
  .patch("/suggestions/:id", async (c) => {
    const { status } = await parseJson(c, suggestionUpdateSchema);
    return c.json(await updateSuggestion(depsOf(c), c.req.param("id"), status));
  })
  .get("/disputes", async (c) => c.json(await listDisputes(depsOf(c))))
  .post("/disputes/:gigId/resolve", async (c) => {
    const input = await parseJson(c, disputeResolutionSchema);
    return c.json({ success: true, ...(await resolveDispute(depsOf(c), c.req.param("gigId"), input)) });
  })
  .get("/unread-chats", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await unreadChats(depsOf(c)));
  })
  .get("/chat/:gigId", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await readChatAsAdmin(depsOf(c), c.req.param("gigId")));
  })
  .post("/chat/:gigId", async (c) => {
    const { message } = await parseJson(c, adminMessageSchema);
    return c.json(await postAsAdmin(depsOf(c), c.req.param("gigId"), message), 201);
  });
