// Disputes settled by the admin (DESIGN.md §4): refund_hirer, pay_worker, or split with the worker's
// share in percent. Each is one compare-and-set from `disputed` (so a dispute is settled once), with
// its ledger rows, payouts, reputation, event and notifications; the payouts are attempted at once.
import { alias } from "drizzle-orm/sqlite-core";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { DisputeResolutionInput } from "../../domain/admin";
import { platformFee, refundAmount, splitPayouts, totalCharge, workerPayout } from "../../domain/fees";
import type { AtomicChange, Cas, SetColumns } from "../db/atomic";
import { gigEvents, gigs, users } from "../db/schema";
import {
  currentMilestoneOf,
  fundedFrom,
  loadMilestones,
  namedMilestone,
  nextMilestoneSet,
  refundFundedFrom,
  refundMilestone,
  releaseCurrentMilestone,
  splitMilestone,
  milestoneTitle,
  type MilestoneRow,
} from "./escrow";
import { balanceOf } from "./ledger";
import { applyTransition, gigToAct } from "./gig-transitions";
import { PLATFORM } from "./gig-views";
import type { GigRow } from "./gig-views";
import type { Deps } from "./deps";
import type { DisputedMilestone, DisputeView, GigEditChange, GigEditRecord, Party } from "../../domain/admin-views";

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
  const disputed = await Promise.all(rows.map(({ gig }) => disputedMilestone(deps, gig)));
  return rows.map(({ gig, hirer, worker, disputer }, i) => {
    const milestone = disputed[i]!;
    const amount = milestone?.amount ?? gig.payment;
    return {
    gigId: gig.id,
    title: gig.title,
    description: gig.description,
    gigType: gig.gigType,
    milestone,
    payment: amount,
    totalCharge: totalCharge(amount),
    workerPayout: workerPayout(amount),
    platformFee: platformFee(amount),
    disputeReason: gig.disputeReason,
    disputedBy: party(disputer),
    workSubmission: gig.workSubmission,
    submittedAt: gig.submittedAt,
    hirer: party(hirer),
    worker: party(worker),
    createdAt: gig.createdAt,
    edits: edits.get(gig.id) ?? [],
  };
  });
}

/** The milestone a gig's dispute concerns, with what its escrow holds and what ending the gig would refund. */
async function disputedMilestone(deps: Pick<Deps, "db">, gig: GigRow): Promise<DisputedMilestone | null> {
  if (gig.milestoneCount <= 1) return null;
  const milestones = await loadMilestones(deps, gig);
  const m = currentMilestoneOf(gig, milestones);
  return {
    number: m.number,
    count: gig.milestoneCount,
    title: milestoneTitle(gig, m),
    amount: m.amount,
    escrow: await balanceOf(deps.db, m.escrowAccount),
    laterFunded: fundedFrom(milestones, m.number + 1).reduce((sum, x) => sum + refundAmount(x.amount), 0),
  };
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
  /** The gig after the settlement: ended (completed or cancelled), or back to work on its next milestone. */
  status: "cancelled" | "completed" | "claimed";
  /** The milestone settled (1 for a gig without a plan). */
  milestone: number;
  /** Sats owed to each party by this resolution (paid out over Lightning right after), later funded milestones' refunds included. */
  payouts: { worker: number; hirer: number };
  /** Sats the platform keeps. */
  platformFee: number;
}

/** A resolution: what it answers, the gig's columns it sets, the rows that go with it, what each party is told. */
interface Settlement {
  outcome: Omit<DisputeOutcome, "gigId" | "resolution" | "milestone">;
  set: SetColumns<typeof gigs>;
  rows: (change: AtomicChange, won: Cas) => string[];
  tell: { hirer: string; worker: string };
}

/**
 * How the disputed milestone is settled, and what becomes of the gig. The dispute concerns the current milestone
 * only: earlier ones stay paid, unfunded ones unfunded. The gig goes on with its next milestone unless this was
 * the last or the admin ends it, refunding every later funded milestone in full. An ended gig is completed when
 * the worker was paid for any of it, cancelled otherwise. Reputation (when the gig ends): the hirer's counts as
 * successful in every case, the worker's unless refunded or given under half.
 */
function settlementOf(gig: GigRow, milestones: readonly MilestoneRow[], input: DisputeResolutionInput): Settlement {
  const m = currentMilestoneOf(gig, milestones);
  const next = milestones.find((x) => x.number === m.number + 1);
  const ends = !next || input.endGig === true;
  const later = ends ? fundedFrom(milestones, m.number + 1) : [];
  const laterRefund = later.reduce((sum, x) => sum + refundAmount(x.amount), 0);
  const paidBefore = milestones.some((x) => x.number < m.number && (x.escrow === "released" || x.escrow === "split"));
  const now = new Date().toISOString();
  const endRows = (change: AtomicChange, won: Cas, workerSuccess: boolean): string[] => {
    if (!ends) return [];
    change.increment(users, gig.workerId!, { completedGigs: 1, successfulGigs: workerSuccess ? 1 : 0 }, won);
    change.increment(users, gig.hirerId!, { completedGigs: 1, successfulGigs: 1 }, won);
    return refundFundedFrom(change, won, gig, milestones, m.number + 1).payoutIds;
  };
  const ended = (workerPaid: boolean): SetColumns<typeof gigs> =>
    workerPaid || paidBefore
      ? { status: "completed", escrowStatus: "released", resolution: input.resolution, completedAt: now }
      : { status: "cancelled", escrowStatus: "refunded", resolution: input.resolution, cancelledAt: now };
  const goOn = next ? nextMilestoneSet(gig, next, now) : {};
  const status = (workerPaid: boolean) => (ends ? (workerPaid || paidBefore ? "completed" : "cancelled") : "claimed") as DisputeOutcome["status"];
  const alsoEnded = ends && later.length ? ` The gig ends here: ${laterRefund.toLocaleString("en-US")} sats of later funded milestones come back to the hirer.` : "";
  const named = namedMilestone(gig, m);

  switch (input.resolution) {
    case "refund_hirer":
      return {
        outcome: { status: status(false), payouts: { worker: 0, hirer: refundAmount(m.amount) + laterRefund }, platformFee: 0 },
        set: ends ? ended(false) : goOn,
        rows: (change, won) => [refundMilestone(change, won, gig, m, "refund_hirer"), ...endRows(change, won, false)],
        tell: { hirer: `the escrow${named} of ${refundAmount(m.amount).toLocaleString("en-US")} sats is refunded to you.${alsoEnded}`, worker: `the escrow${named} is refunded to the hirer.${alsoEnded}` },
      };
    case "pay_worker": {
      const release = releaseCurrentMilestone(gig, milestones, "pay_worker");
      return {
        outcome: { status: status(true), payouts: { worker: workerPayout(m.amount), hirer: laterRefund }, platformFee: 2 * platformFee(m.amount) },
        // The last milestone: the release completes the gig (and counts both records) exactly as an approval.
        set: ends ? (release.last ? { ...release.set, resolution: "pay_worker" } : ended(true)) : release.set,
        rows: (change, won) => (release.last ? release.rows(change, won) : [...release.rows(change, won), ...endRows(change, won, true)]),
        tell: { hirer: `the payment${named} is released to the worker.${alsoEnded}`, worker: `${workerPayout(m.amount).toLocaleString("en-US")} sats are on their way to you.${alsoEnded}` },
      };
    }
    case "split": {
      const split = splitPayouts(m.amount, input.workerSharePercent);
      // A split keeps the platform's fees as a release does: the gig counts as completed (as without a plan).
      const workerPaid = true;
      return {
        outcome: { status: status(workerPaid), payouts: { worker: split.worker, hirer: split.hirer + laterRefund }, platformFee: split.platform },
        set: ends ? ended(workerPaid) : goOn,
        rows: (change, won) => [...splitMilestone(change, won, gig, m, split.worker, split.hirer), ...endRows(change, won, input.workerSharePercent >= 50)],
        tell: {
          hirer: `the escrow${named} is split: ${split.hirer.toLocaleString("en-US")} sats come back to you.${alsoEnded}`,
          worker: `the escrow${named} is split: ${split.worker.toLocaleString("en-US")} sats are on their way to you.${alsoEnded}`,
        },
      };
    }
  }
}

/** Settles a dispute once; a second try (or a race lost) answers 409 and writes nothing. */
export async function resolveDispute(deps: Deps, gigId: string, input: DisputeResolutionInput): Promise<DisputeOutcome> {
  const gig = await gigToAct(deps, gigId, "resolve_dispute", PLATFORM);
  const milestones = await loadMilestones(deps, gig);
  const m = currentMilestoneOf(gig, milestones);
  const s = settlementOf(gig, milestones, input);
  await applyTransition(deps, gig, null, {
    set: s.set,
    event: {
      type: "dispute_resolved",
      data: {
        resolution: input.resolution,
        ...(input.resolution === "split" ? { workerSharePercent: input.workerSharePercent } : {}),
        payouts: s.outcome.payouts,
        milestone: m.number,
        ...(input.endGig ? { endGig: true } : {}),
      },
    },
    rows: s.rows,
    notify: (g) => [
      { userId: g.hirerId, type: "dispute_resolved", title: "Dispute Resolved", message: `The admin settled the dispute on "${g.title}": ${s.tell.hirer}` },
      { userId: g.workerId, type: "dispute_resolved", title: "Dispute Resolved", message: `The admin settled the dispute on "${g.title}": ${s.tell.worker}` },
    ],
  });
  return { gigId: gig.id, resolution: input.resolution, milestone: m.number, ...s.outcome };
}
