// Disputes settled by the admin (DESIGN.md §4): refund_hirer, pay_worker, or split with the worker's
// share in percent. Each is one compare-and-set from `disputed` (so a dispute is settled once), with
// its ledger rows, payouts, reputation, event and notifications; the payouts are attempted at once.
import { alias } from "drizzle-orm/sqlite-core";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { DisputeResolutionInput } from "../../domain/admin";
import { platformFee, refundAmount, splitPayouts, totalCharge, workerPayout } from "../../domain/fees";
import type { AtomicChange, Cas, SetColumns } from "../db/atomic";
import { gigEvents, gigs, users } from "../db/schema";
import { completionRows, refundEscrow, splitEscrow } from "./escrow";
import { applyTransition, authorise } from "./gig-transitions";
import { loadGig } from "./gig-views";
import type { GigRow } from "./gig-views";
import type { Deps } from "./deps";
import type { DisputeView, GigEditChange, GigEditRecord, Party } from "../../domain/admin-views";

export type { DisputeView };

const hirers = alias(users, "hirer");
const workers = alias(users, "worker");
const disputers = alias(users, "disputer");
const editors = alias(users, "editor");

const partyColumns = (t: typeof hirers | typeof workers | typeof disputers | typeof editors) => ({ id: t.id, username: t.username, displayName: t.displayName });

const party = (p: { id: string | null; username: string | null; displayName: string | null } | null): Party | null =>
  p?.id && p.username ? { id: p.id, username: p.username, displayName: p.displayName } : null;

/** Every disputed gig with its reason and parties, newest first. */
export async function listDisputes(deps: Pick<Deps, "db">, limit = 100): Promise<DisputeView[]> {
  const rows = await deps.db
    .select({ gig: gigs, hirer: partyColumns(hirers), worker: partyColumns(workers), disputer: partyColumns(disputers) })
    .from(gigs)
    .leftJoin(hirers, eq(hirers.id, gigs.hirerId))
    .leftJoin(workers, eq(workers.id, gigs.workerId))
    .leftJoin(disputers, eq(disputers.id, gigs.disputedBy))
    .where(eq(gigs.status, "disputed"))
    .orderBy(desc(gigs.createdAt), desc(gigs.id))
    .limit(limit);
  const edits = await editsOf(deps, rows.map((r) => r.gig));
  return rows.map(({ gig, hirer, worker, disputer }) => ({
    gigId: gig.id,
    title: gig.title,
    description: gig.description,
    gigType: gig.gigType,
    payment: gig.payment,
    totalCharge: totalCharge(gig.payment),
    workerPayout: workerPayout(gig.payment),
    platformFee: platformFee(gig.payment),
    disputeReason: gig.disputeReason,
    disputedBy: party(disputer),
    workSubmission: gig.workSubmission,
    submittedAt: gig.submittedAt,
    hirer: party(hirer),
    worker: party(worker),
    createdAt: gig.createdAt,
    edits: edits.get(gig.id) ?? [],
  }));
}

/** The edits that changed something on each of these gigs (their `edited` events), oldest first. */
async function editsOf(deps: Pick<Deps, "db">, list: GigRow[]): Promise<Map<string, GigEditRecord[]>> {
  const byGig = new Map<string, GigEditRecord[]>();
  if (list.length === 0) return byGig;
  const fundedAt = new Map(list.map((g) => [g.id, g.fundedAt]));
  const rows = await deps.db
    .select({ event: gigEvents, editor: partyColumns(editors) })
    .from(gigEvents)
    .leftJoin(editors, eq(editors.id, gigEvents.actorId))
    .where(and(eq(gigEvents.type, "edited"), inArray(gigEvents.gigId, [...fundedAt.keys()])))
    .orderBy(asc(gigEvents.createdAt), asc(gigEvents.id));
  for (const { event, editor } of rows) {
    const changes = editChangesOf(event.data);
    if (changes.length === 0) continue;
    const funded = fundedAt.get(event.gigId);
    const record: GigEditRecord = { at: event.createdAt, by: party(editor), afterFunding: Boolean(funded && funded <= event.createdAt), changes };
    byGig.set(event.gigId, [...(byGig.get(event.gigId) ?? []), record]);
  }
  return byGig;
}

/** The changes an `edited` event recorded (edits logged before changes were kept have none). */
function editChangesOf(data: string): GigEditChange[] {
  try {
    const parsed = JSON.parse(data) as { changes?: unknown };
    if (!Array.isArray(parsed.changes)) return [];
    return parsed.changes.filter(
      (c): c is GigEditChange =>
        typeof c === "object" && c !== null && ["title", "description", "payment"].includes((c as GigEditChange).field) && "from" in c && "to" in c,
    );
  } catch {
    return [];
  }
}

export interface DisputeOutcome {
  gigId: string;
  resolution: DisputeResolutionInput["resolution"];
  status: "cancelled" | "completed";
  /** Sats owed to each party by this resolution (paid out over Lightning right after). */
  payouts: { worker: number; hirer: number };
  /** Sats the platform keeps. */
  platformFee: number;
}

/** A resolution: what it answers, the gig's columns it sets, the rows that go with it, what each party is told. */
interface Settlement {
  outcome: Omit<DisputeOutcome, "gigId" | "resolution">;
  set: SetColumns<typeof gigs>;
  rows: (change: AtomicChange, won: Cas) => string[];
  tell: { hirer: string; worker: string };
}

/** What each party gets; reputation: the hirer's counts as successful in every case, the worker's unless refunded or given under half. */
function settlementOf(gig: GigRow, input: DisputeResolutionInput): Settlement {
  switch (input.resolution) {
    case "refund_hirer":
      return {
        outcome: { status: "cancelled" as const, payouts: { worker: 0, hirer: refundAmount(gig.payment) }, platformFee: 0 },
        set: { status: "cancelled", escrowStatus: "refunded", resolution: "refund_hirer", cancelledAt: new Date().toISOString() },
        rows: (change: AtomicChange, won: Cas) => {
          const payoutId = refundEscrow(change, won, gig);
          change.increment(users, gig.workerId!, { completedGigs: 1 }, won);
          change.increment(users, gig.hirerId!, { completedGigs: 1, successfulGigs: 1 }, won);
          return [payoutId];
        },
        tell: { hirer: `the escrow of ${refundAmount(gig.payment).toLocaleString("en-US")} sats is refunded to you`, worker: "the escrow is refunded to the hirer" },
      };
    case "pay_worker":
      return {
        outcome: { status: "completed" as const, payouts: { worker: workerPayout(gig.payment), hirer: 0 }, platformFee: 2 * platformFee(gig.payment) },
        set: { status: "completed", escrowStatus: "released", resolution: "pay_worker", completedAt: new Date().toISOString() },
        rows: completionRows(gig),
        tell: { hirer: "the payment is released to the worker", worker: `${workerPayout(gig.payment).toLocaleString("en-US")} sats are on their way to you` },
      };
    case "split": {
      const split = splitPayouts(gig.payment, input.workerSharePercent);
      return {
        outcome: { status: "completed" as const, payouts: { worker: split.worker, hirer: split.hirer }, platformFee: split.platform },
        set: { status: "completed", escrowStatus: "released", resolution: "split", completedAt: new Date().toISOString() },
        rows: (change: AtomicChange, won: Cas) => {
          const payoutIds = splitEscrow(change, won, gig, split.worker, split.hirer);
          change.increment(users, gig.workerId!, { completedGigs: 1, successfulGigs: input.workerSharePercent >= 50 ? 1 : 0 }, won);
          change.increment(users, gig.hirerId!, { completedGigs: 1, successfulGigs: 1 }, won);
          return payoutIds;
        },
        tell: {
          hirer: `the escrow is split: ${split.hirer.toLocaleString("en-US")} sats come back to you`,
          worker: `the escrow is split: ${split.worker.toLocaleString("en-US")} sats are on their way to you`,
        },
      };
    }
  }
}

/** Settles a dispute once; a second try (or a race lost) answers 409 and writes nothing. */
export async function resolveDispute(deps: Deps, gigId: string, input: DisputeResolutionInput): Promise<DisputeOutcome> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "resolve_dispute", { userId: null, isAdmin: true });
  const s = settlementOf(gig, input);
  await applyTransition(deps, gig, null, {
    set: s.set,
    event: {
      type: "dispute_resolved",
      data: { resolution: input.resolution, ...(input.resolution === "split" ? { workerSharePercent: input.workerSharePercent } : {}), payouts: s.outcome.payouts },
    },
    rows: s.rows,
    notify: (g) => [
      { userId: g.hirerId, type: "dispute_resolved", title: "Dispute Resolved", message: `The admin settled the dispute on "${g.title}": ${s.tell.hirer}.` },
      { userId: g.workerId, type: "dispute_resolved", title: "Dispute Resolved", message: `The admin settled the dispute on "${g.title}": ${s.tell.worker}.` },
    ],
  });
  return { gigId: gig.id, resolution: input.resolution, ...s.outcome };
}
