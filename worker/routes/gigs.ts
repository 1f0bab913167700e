import { Hono } from "hono";
import { z } from "zod";
import {
  disputeReasonText,
  gigEditSchema,
  gigFormSchema,
  interestMessageText,
  milestoneProposalSchema,
  revisionNoteText,
  workSubmissionText,
} from "../../domain/gig-schemas";
import { GIG_STATUSES, GIG_TYPES } from "../../domain/gig";
import { submissionAttachmentsSchema } from "../../domain/file-schemas";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { depsOf } from "./deps";
import { parseJson, parseQuery } from "./parse";
import { listGigs, postGig } from "../services/gigs";
import { getGig } from "../services/gig-views";
import { approveWork, cancelGig, claimGig, editGig, raiseDispute, requestRevision, startWork, submitWork } from "../services/gig-actions";
import { listGigEvents } from "../services/gig-events";
import { listInterest, sendInterest } from "../services/interest";
import { gigHistoryForParty } from "../services/gig-access";
import { extendDeadlineSchema, extensionRequestSchema, reviewSchema } from "../../domain/collaboration-schemas";
import { answerExtension, extendDeadline, listExtensionRequests, requestExtension } from "../services/extensions";
import { reviewGig } from "../services/reviews";
import { attachmentRaceAsConflict, insertAttachments, prepareAttachments } from "../services/files";
import { rateLimit } from "../rate-limits";
import { answerPlan, fundMilestone, proposePlan } from "../services/milestones";
import { notFound } from "../errors";
import type { Context } from "hono";

/** The `{n}` of `/milestones/{n}/...`: a milestone number, or 404 as for a milestone that does not exist. */
function milestoneParam(c: Context<AppEnv>): number {
  const n = Number(c.req.param("n"));
  if (!Number.isSafeInteger(n) || n < 1) throw notFound("Milestone not found", "milestone_not_found");
  return n;
}

const intParam = (label: string) => z.coerce.number({ error: `${label} must be a number` }).int(`${label} must be a whole number`).min(0, `${label} must not be negative`);

const listQuery = z.object({
  status: z.enum([...GIG_STATUSES, "submitted"], { error: "Unknown status" }).transform((s) => (s === "submitted" ? "work_submitted" : s)).optional(),
  gigType: z.enum([...GIG_TYPES, "all", "hiring-now"], { error: "gigType must be job_request or service_offering" })
    .transform((t) => (t === "all" ? undefined : t === "hiring-now" ? "job_request" : t))
    .optional(),
  category: z.string().trim().max(50).transform((c) => (c === "" || c === "All" ? undefined : c)).optional(),
  hirerId: z.string().max(64).optional(),
  posterId: z.string().max(64).optional(),
  participant: z.literal("me", { error: "participant must be me" }).optional(),
  minPayment: intParam("minPayment").optional(),
  maxPayment: intParam("maxPayment").optional(),
  q: z.string().trim().max(200).transform((q) => (q === "" ? undefined : q)).optional(),
  limit: z.coerce.number().int().min(1, "limit must be between 1 and 100").max(100, "limit must be between 1 and 100").default(50),
  cursor: z.string().max(500).optional(),
});

const submitBody = z.object({
  workSubmission: workSubmissionText,
  attachments: submissionAttachmentsSchema,
});

export const gigRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const query = parseQuery(c, listQuery);
    const me = c.var.user;
    if (query.participant === "me") requireMember(c);
    const page = await listGigs(depsOf(c), query, { userId: me?.id ?? null, isAdmin: c.var.isAdmin });
    if (page.nextCursor) c.header("X-Next-Cursor", page.nextCursor);
    c.header("X-Rows-Read", String(page.rowsRead));
    return c.json(page.gigs);
  })
  .post("/", rateLimit("gigPost"), async (c) => {
    const me = requireMember(c);
    const form = await parseJson(c, gigFormSchema);
    return c.json(await postGig(depsOf(c), me, form), 201);
  })
  .get("/:id", async (c) => c.json(await getGig(depsOf(c), c.req.param("id"), { userId: c.var.user?.id ?? null, isAdmin: c.var.isAdmin })))
  .patch("/:id", async (c) => {
    const edit = await parseJson(c, gigEditSchema);
    return c.json(await editGig(depsOf(c), requireMember(c), c.req.param("id"), edit));
  })
  .get("/:id/events", async (c) => {
    const { gig, since } = await gigHistoryForParty(depsOf(c), c.req.param("id"), { userId: c.var.user?.id ?? null, isAdmin: c.var.isAdmin });
    return c.json(await listGigEvents(depsOf(c), gig.id, since, gig.archivedAt));
  })
  .post("/:id/claim", rateLimit("hire"), async (c) => c.json(await claimGig(depsOf(c), requireMember(c), c.req.param("id"))))
  .post("/:id/cancel", async (c) => c.json({ success: true, ...(await cancelGig(depsOf(c), requireMember(c), c.req.param("id"))) }))
  .post("/:id/start-work", async (c) => {
    await startWork(depsOf(c), requireMember(c), c.req.param("id"));
    return c.json({ success: true });
  })
  // The work on a gig's current milestone: without `/milestones/{n}` (SPEC.md's routes) whichever is current,
  // with it only that one (a stale screen never acts on the wrong step).
  .post("/:id/submit", async (c) => submit(c))
  .post("/:id/milestones/:n/submit", async (c) => submit(c, milestoneParam(c)))
  .post("/:id/request-revision", async (c) => revise(c))
  .post("/:id/milestones/:n/request-revision", async (c) => revise(c, milestoneParam(c)))
  .post("/:id/approve", async (c) => {
    await approveWork(depsOf(c), requireMember(c), c.req.param("id"));
    return c.json({ success: true });
  })
  .post("/:id/milestones/:n/approve", async (c) => {
    await approveWork(depsOf(c), requireMember(c), c.req.param("id"), milestoneParam(c));
    return c.json({ success: true });
  })
  .post("/:id/dispute", async (c) => dispute(c))
  .post("/:id/milestones/:n/dispute", async (c) => dispute(c, milestoneParam(c)))
  .post("/:id/milestones/:n/start-work", async (c) => {
    await startWork(depsOf(c), requireMember(c), c.req.param("id"), milestoneParam(c));
    return c.json({ success: true });
  })
  .post("/:id/milestones/:n/fund", rateLimit("hire"), async (c) => c.json(await fundMilestone(depsOf(c), requireMember(c), c.req.param("id"), milestoneParam(c))))
  .post("/:id/milestone-proposals", async (c) => {
    const me = requireMember(c);
    const { milestones, fromNumber } = await parseJson(c, milestoneProposalSchema);
    return c.json(await proposePlan(depsOf(c), me, c.req.param("id"), milestones, fromNumber), 201);
  })
  .post("/:id/milestone-proposals/:proposalId/accept", async (c) => c.json(await answerPlan(depsOf(c), requireMember(c), c.req.param("id"), c.req.param("proposalId"), "accept")))
  .post("/:id/milestone-proposals/:proposalId/reject", async (c) => c.json(await answerPlan(depsOf(c), requireMember(c), c.req.param("id"), c.req.param("proposalId"), "reject")))
  .post("/:id/milestone-proposals/:proposalId/withdraw", async (c) =>
    c.json(await answerPlan(depsOf(c), requireMember(c), c.req.param("id"), c.req.param("proposalId"), "withdraw")),
  )
  .get("/:id/receipt", async (c) => {
    // Loaded when a receipt is asked for: pdf-lib, its fonts and pako are not evaluated when an isolate starts.
    const { gigReceiptPdf } = await import("../services/receipts");
    const pdf = await gigReceiptPdf(depsOf(c), requireMember(c), c.req.param("id"));
    return new Response(pdf, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="gigstr-receipt-${c.req.param("id").slice(0, 8)}.pdf"`,
        "Cache-Control": "no-store",
      },
    });
  })
  .post("/:id/pre-claim-messages", rateLimit("interest"), async (c) => {
    const me = requireMember(c);
    const { message } = await parseJson(c, z.object({ message: interestMessageText }));
    return c.json(await sendInterest(depsOf(c), me, c.req.param("id"), message), 201);
  })
  .get("/:id/pre-claim-messages", async (c) => c.json(await listInterest(depsOf(c), requireMember(c), c.req.param("id"))))
  .post("/:id/request-extension", async (c) => {
    const me = requireMember(c);
    const body = await parseJson(c, extensionRequestSchema);
    return c.json(await requestExtension(depsOf(c), me, c.req.param("id"), body), 201);
  })
  .get("/:id/extension-requests", async (c) => c.json(await listExtensionRequests(depsOf(c), requireMember(c), c.req.param("id"))))
  .post("/:id/extension-request/:requestId/approve", async (c) =>
    c.json(await answerExtension(depsOf(c), requireMember(c), c.req.param("id"), c.req.param("requestId"), "approve")),
  )
  .post("/:id/extension-request/:requestId/reject", async (c) =>
    c.json(await answerExtension(depsOf(c), requireMember(c), c.req.param("id"), c.req.param("requestId"), "reject")),
  )
  .patch("/:id/extend-deadline", async (c) => {
    const me = requireMember(c);
    const { newDeadline } = await parseJson(c, extendDeadlineSchema);
    return c.json(await extendDeadline(depsOf(c), me, c.req.param("id"), newDeadline));
  })
  .post("/:id/review", async (c) => {
    const me = requireMember(c);
    const body = await parseJson(c, reviewSchema);
    return c.json(await reviewGig(depsOf(c), me, c.req.param("id"), body), 201);
  });

async function submit(c: Context<AppEnv>, milestone?: number) {
  const me = requireMember(c);
  const body = await parseJson(c, submitBody);
  const files = await prepareAttachments(depsOf(c), me.id, c.req.param("id")!, body.attachments);
  try {
    await submitWork(depsOf(c), me, c.req.param("id")!, body.workSubmission, files.map((f) => f.view), (change, won) => insertAttachments(change, won, files), milestone);
  } catch (err) {
    // Another submission or message took one of these uploads after the check above.
    throw attachmentRaceAsConflict(err);
  }
  return c.json({ success: true });
}

async function revise(c: Context<AppEnv>, milestone?: number) {
  const me = requireMember(c);
  const { note } = await parseJson(c, z.object({ note: revisionNoteText }));
  await requestRevision(depsOf(c), me, c.req.param("id")!, note, milestone);
  return c.json({ success: true });
}

async function dispute(c: Context<AppEnv>, milestone?: number) {
  const me = requireMember(c);
  const { reason } = await parseJson(c, z.object({ reason: disputeReasonText }));
  await raiseDispute(depsOf(c), me, c.req.param("id")!, reason, milestone);
  return c.json({ success: true });
}
