// /api/gig-reports: members report gigs (POST); the admin reads and updates reports (GET, PATCH are
// admin-only in the access table).
import { Hono } from "hono";
import { z } from "zod";
import { gigReportSchema, REPORT_STATUSES, reportUpdateSchema } from "../../domain/admin";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { listReports, reportGig, updateReport } from "../services/reports";
import { parseJson, parseQuery } from "./parse";
import { rateLimit } from "../rate-limits";
import { depsOf } from "./deps";

const listQuery = z.object({
  status: z.enum([...REPORT_STATUSES, "all"], { error: "Unknown status" }).transform((s) => (s === "all" ? undefined : s)).optional(),
  limit: z.coerce.number().int().min(1, "limit must be between 1 and 100").max(100, "limit must be between 1 and 100").default(100),
  cursor: z.string().max(500).optional(),
});

export const reportRoutes = new Hono<AppEnv>()
  .post("/", rateLimit("report"), async (c) => {
    const me = requireMember(c);
    const input = await parseJson(c, gigReportSchema);
    return c.json(await reportGig(depsOf(c), me, input), 201);
  })
  .get("/", async (c) => {
    const page = await listReports(depsOf(c), parseQuery(c, listQuery));
    if (page.nextCursor) c.header("X-Next-Cursor", page.nextCursor);
    return c.json(page.reports);
  })
  .patch("/:id", async (c) => {
    const update = await parseJson(c, reportUpdateSchema);
    return c.json(await updateReport(depsOf(c), c.req.param("id"), update));
  });
