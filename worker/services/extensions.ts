// Deadline extensions: the worker asks (one pending request per gig), the hirer answers; the hirer
// may also move the deadline directly. Each change is one atomic compare-and-set.
import { asc, eq } from "drizzle-orm";
import { isParty } from "../../domain/gig";
import type { UserRow } from "../db/client";
import { AtomicChange, where } from "../db/atomic";
import { extensionRequests, gigs } from "../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { addGigEvent } from "./gig-events";
import { applyTransition, gigToAct } from "./gig-transitions";
import { loadGig, memberViewer } from "./gig-views";
import { notify } from "./notifications";
import type { Deps } from "./deps";

const DAY_MS = 86_400_000;
const plural = (n: number) => `${n} day${n === 1 ? "" : "s"}`;

export async function requestExtension(deps: Deps, me: UserRow, gigId: string, input: { daysToAdd: number; reason?: string | null }) {
  const gig = await gigToAct(deps, gigId, "request_extension", memberViewer(me));
  const id = crypto.randomUUID();
  const change = new AtomicChange(deps.db, deps.committed);
  const stillRunning = change.compareAndSet(gigs, gig.id, {}, where("status IN ('claimed', 'in_progress') AND worker_id = ?", me.id));
  change.insert(extensionRequests,
    { id, gigId: gig.id, requesterId: me.id, daysToAdd: input.daysToAdd, reason: input.reason ?? null, status: "pending", createdAt: change.at },
    stillRunning,
  );
  addGigEvent(change, stillRunning, { gigId: gig.id, type: "extension_requested", actorId: me.id, data: { daysToAdd: input.daysToAdd } });
  notify(change, stillRunning, {
    userId: gig.hirerId,
    gigId: gig.id,
    type: "extension_requested",
    title: "Extension Requested",
    message: `The worker asks for ${plural(input.daysToAdd)} more on "${gig.title}".`,
    actorId: me.id,
  });
  try {
    await change.commit();
  } catch (err) {
    if (/UNIQUE constraint failed/.test(String(err))) throw conflict("An extension request is already pending for this gig", "extension_pending");
    throw err;
  }
  if (!change.won(stillRunning)) throw conflict("This gig is no longer in progress", "invalid_state");
  return (await deps.db.query.extensionRequests.findFirst({ where: eq(extensionRequests.id, id) }))!;
}

export async function listExtensionRequests(deps: Deps, me: UserRow, gigId: string) {
  const gig = await loadGig(deps, gigId, memberViewer(me));
  if (!isParty(gig, me.id)) throw forbidden("Only the gig's hirer and worker can see this");
  const rows = await deps.db.select().from(extensionRequests).where(eq(extensionRequests.gigId, gig.id)).orderBy(asc(extensionRequests.createdAt));
  return rows.map((r) => ({ id: r.id, gigId: r.gigId, status: r.status, daysToAdd: r.daysToAdd, reason: r.reason, createdAt: r.createdAt, decidedAt: r.decidedAt }));
}

/** The hirer approves (the deadline moves by the days asked) or rejects a pending request. */
export async function answerExtension(deps: Deps, me: UserRow, gigId: string, requestId: string, answer: "approve" | "reject") {
  const gig = await gigToAct(deps, gigId, "extend_deadline", memberViewer(me));
  const request = await deps.db.query.extensionRequests.findFirst({ where: eq(extensionRequests.id, requestId) });
  if (!request || request.gigId !== gig.id) throw notFound("Extension request not found", "extension_not_found");
  if (request.status !== "pending") throw conflict("This extension request was already answered", "invalid_state");

  const pending = where("EXISTS (SELECT 1 FROM extension_requests WHERE id = ? AND status = 'pending')", request.id);
  const decided = { status: answer === "approve" ? ("approved" as const) : ("rejected" as const), decidedAt: new Date().toISOString() };
  const base = gig.deadline ? Date.parse(gig.deadline) : Date.now();
  const newDeadline = new Date(base + request.daysToAdd * DAY_MS).toISOString();
  await applyTransition(deps, gig, me.id, {
    set: answer === "approve" ? { deadline: newDeadline } : {},
    also: pending,
    event: { type: answer === "approve" ? "extension_approved" : "extension_rejected", data: { daysToAdd: request.daysToAdd, ...(answer === "approve" ? { deadline: newDeadline } : {}) } },
    rows: (change, won) => {
      change.update(extensionRequests, decided, where("id = ?", request.id), won);
    },
    notify: (g) => [
      {
        userId: g.workerId,
        type: answer === "approve" ? "extension_approved" : "extension_rejected",
        title: answer === "approve" ? "Extension Approved" : "Extension Rejected",
        message:
          answer === "approve"
            ? `Your request for ${plural(request.daysToAdd)} more on "${g.title}" was approved.`
            : `Your request for more time on "${g.title}" was not approved.`,
      },
    ],
  });
  return { ...request, ...decided };
}

/** The hirer moves the deadline directly; it must be later than the current one. */
export async function extendDeadline(deps: Deps, me: UserRow, gigId: string, newDeadline: string) {
  const gig = await gigToAct(deps, gigId, "extend_deadline", memberViewer(me));
  const next = new Date(newDeadline);
  if (gig.deadline && next.getTime() <= Date.parse(gig.deadline)) {
    throw badRequest("The new deadline must be later than the current one", "deadline_not_later");
  }
  if (next.getTime() <= Date.now()) throw badRequest("The new deadline must be in the future", "deadline_in_past");
  await applyTransition(deps, gig, me.id, {
    set: { deadline: next.toISOString() },
    event: { type: "deadline_extended", data: { deadline: next.toISOString() } },
    notify: (g) => [{ userId: g.workerId, type: "deadline_extended", title: "Deadline Extended", message: `The deadline of "${g.title}" is now ${next.toISOString().slice(0, 10)}.` }],
  });
  return { deadline: next.toISOString() };
}

