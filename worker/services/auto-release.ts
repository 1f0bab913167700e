// Auto-release: a hirer who says nothing for AUTO_RELEASE_DAYS after a submission is taken to
// approve it. Reminders go out 3 days and 1 day before. Safe to run twice: each step is a
// compare-and-set (the release on status + version, each reminder on its bit in reminders_sent).
import { and, eq, lte, sql } from "drizzle-orm";
import { AtomicChange, where } from "../db/atomic";
import { gigs } from "../db/schema";
import { applyTransition } from "./gig-transitions";
import { currentMilestoneOf, loadMilestones, namedMilestone, releaseCurrentMilestone } from "./escrow";
import { notify } from "./notifications";
import { autoReleaseDays, type Deps } from "./deps";
import type { GigRow } from "./gig-views";

const DAY_MS = 86_400_000;
export const REMINDERS = [
  { bit: 1, daysBefore: 3 },
  { bit: 2, daysBefore: 1 },
] as const;

export async function autoReleaseDue(deps: Deps, limit = 50): Promise<{ released: number; reminded: number }> {
  const days = autoReleaseDays(deps.env);
  const now = Date.now();
  const earliestReminder = new Date(now - (days - REMINDERS[0].daysBefore) * DAY_MS).toISOString();
  const candidates = await deps.db
    .select()
    .from(gigs)
    .where(and(eq(gigs.status, "work_submitted"), lte(gigs.submittedAt, earliestReminder)))
    .limit(limit);

  let released = 0;
  let reminded = 0;
  for (const gig of candidates) {
    const releaseAt = Date.parse(gig.submittedAt!) + days * DAY_MS;
    if (releaseAt <= now) {
      if (await releaseSilently(deps, gig)) released++;
      continue;
    }
    for (const r of REMINDERS) {
      if (releaseAt - r.daysBefore * DAY_MS <= now && (gig.remindersSent & r.bit) === 0) {
        if (await remind(deps, gig, r.bit, Math.ceil((releaseAt - now) / DAY_MS))) reminded++;
      }
    }
  }
  return { released, reminded };
}

async function releaseSilently(deps: Deps, gig: GigRow): Promise<boolean> {
  try {
    // The current milestone is released (the gig's only one without a plan), exactly as the hirer's approval would.
    const release = releaseCurrentMilestone(gig, await loadMilestones(deps, gig), "auto_released");
    const named = namedMilestone(gig, release.milestone);
    await applyTransition(deps, gig, null, {
      set: release.set,
      event: { type: "auto_released", data: { afterDays: autoReleaseDays(deps.env), milestone: release.milestone.number } },
      rows: release.rows,
      notify: (g) => [
        { userId: g.workerId, type: "approved", title: "Payment Released", message: `"${g.title}"${named} was released automatically. Payment is on its way.` },
        { userId: g.hirerId, type: "auto_released", title: "Payment Released", message: `You did not answer the submission for "${g.title}"${named}, so payment was released to the worker.` },
      ],
    });
    return true;
  } catch {
    return false; // someone else (the hirer, a parallel cron run) changed the gig first
  }
}

async function remind(deps: Deps, gig: GigRow, bit: number, daysLeft: number): Promise<boolean> {
  // The milestone whose payment this is (nothing for a gig without a plan).
  const named = gig.milestoneCount > 1 ? namedMilestone(gig, currentMilestoneOf(gig, await loadMilestones(deps, gig))) : "";
  const change = new AtomicChange(deps.db, deps.committed);
  const cas = change.compareAndSet(
    gigs,
    gig.id,
    { remindersSent: sql`${gigs.remindersSent} | ${bit}` },
    where("status = 'work_submitted' AND version = ? AND (reminders_sent & ?) = 0", gig.version, bit),
  );
  notify(change, cas, {
    userId: gig.hirerId,
    gigId: gig.id,
    type: "auto_release_reminder",
    title: "Review the Submitted Work",
    message: `Payment for "${gig.title}"${named} will be released automatically in ${daysLeft} day${daysLeft === 1 ? "" : "s"} unless you approve, ask for a revision or raise a dispute.`,
  });
  await change.commit();
  return change.won(cas);
}
