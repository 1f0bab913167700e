// The transition engine (DESIGN.md §4): who may take an action in which state (authorise), and one
// transition applied as a compare-and-set on (id, status, version) with every row that belongs to it
// (applyTransition). The actions (gig-actions.ts, interest, extensions, the admin's) import this; it imports
// none of them.
import { judge, rolesOf, statusLabel, type GigAction } from "../../domain/gig";
import { AtomicChange, allOf, where, type Cas, type Guard, type SetColumns } from "../db/atomic";
import { gigs } from "../db/schema";
import { conflict, forbidden } from "../errors";
import { addGigEvent } from "./gig-events";
import { notify, type NotificationDraft } from "./notifications";
import { attemptPayout } from "./payouts";
import { forgetCachedGig } from "./public-cache";
import { loadGig, type GigRow, type Viewer } from "./gig-views";
import type { Deps } from "./deps";

export const STALE_GIG = "This gig was just changed by someone else. Please reload and try again.";

const ACTION_VERBS: Record<GigAction, string> = {
  claim: "claim",
  start_work: "start work on",
  submit_work: "submit work for",
  request_revision: "request a revision of",
  approve: "approve",
  dispute: "dispute",
  cancel: "cancel",
  edit: "edit",
  change_budget: "change the budget of",
  request_extension: "request an extension for",
  extend_deadline: "extend the deadline of",
  resolve_dispute: "resolve",
  send_interest: "send interest in",
  review_interest: "review interest in",
  review: "review",
  receipt: "get a receipt for",
};

/** Refuses with 403 when the actor may never take this action here, 409 when the gig is in the wrong state. */
export function authorise(gig: GigRow, action: GigAction, actor: Viewer): void {
  const verdict = judge(action, gig.status, gig.gigType, rolesOf(gig, actor.userId, actor.isAdmin));
  if (verdict.ok) return;
  if (verdict.reason === "forbidden") throw forbidden(`You are not allowed to ${ACTION_VERBS[action]} this gig`);
  throw conflict(`You cannot ${ACTION_VERBS[action]} a gig that is ${statusLabel(gig.status)}`, "invalid_state");
}

/** The gig, loaded as this actor may see it (404 when hidden from them: loadGig) and authorised for the action. */
export async function gigToAct(deps: Pick<Deps, "db">, gigId: string, action: GigAction, actor: Viewer): Promise<GigRow> {
  const gig = await loadGig(deps, gigId, actor);
  authorise(gig, action, actor);
  return gig;
}

interface Transition {
  set: SetColumns<typeof gigs>;
  /** Extra condition the compare-and-set must meet (e.g. an approved interest message). */
  also?: Guard;
  event: { type: string; data?: Record<string, unknown> };
  notify?: (gig: GigRow) => NotificationDraft[];
  /** Money and other rows that belong to the change. Returns payouts to attempt once committed. */
  rows?: (change: AtomicChange, won: Cas) => string[] | void;
}

/** Applies one transition as a compare-and-set; answers 409 when another request changed the gig first. */
export async function applyTransition(deps: Deps, gig: GigRow, actorId: string | null, t: Transition): Promise<void> {
  const change = new AtomicChange(deps.db, deps.committed);
  const guard = where("status = ? AND version = ?", gig.status, gig.version);
  const won = change.compareAndSet(gigs, gig.id, t.set, t.also ? allOf(guard, t.also) : guard, { bumpVersion: true });
  addGigEvent(change, won, { gigId: gig.id, type: t.event.type, actorId, data: t.event.data });
  const payoutIds = t.rows?.(change, won) ?? [];
  if (t.notify) notify(change, won, ...t.notify(gig).map((n) => ({ ...n, gigId: gig.id, actorId })));
  await change.commit();
  if (!change.won(won)) throw conflict(STALE_GIG, "stale_gig");
  await forgetCachedGig(gig.id);
  for (const id of payoutIds) deps.defer(() => attemptPayout(deps, id));
}

