// Who may see a gig's private parts (events, chat, files, receipt): its parties and the admin; and from
// when on, for the hirer of a service offering.
import { isParty } from "../../domain/gig";
import { forbidden } from "../errors";
import { loadGig, type Viewer } from "./gig-views";
import type { Deps } from "./deps";
import type { GigRow } from "./gig-views";

export async function gigForParty(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<GigRow> {
  const gig = await loadGig(deps, gigId, viewer);
  if (!viewer.isAdmin && !isParty(gig, viewer.userId)) throw forbidden("Only the gig's hirer and worker can see this");
  return gig;
}

/**
 * The gig, for a party or the admin, and the moment from which they see its chat, files and events (null:
 * all of them). A service offering whose hire was withdrawn or expired is hired again under the same id:
 * its hirer sees what happened from their own hire on, never the earlier hirer's conversation with the
 * worker. The worker (the owner) and the admin see all of it.
 */
export async function gigHistoryForParty(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<{ gig: GigRow; since: string | null }> {
  const gig = await gigForParty(deps, gigId, viewer);
  const laterHirer = !viewer.isAdmin && gig.gigType === "service_offering" && gig.hirerId === viewer.userId && gig.posterId !== viewer.userId;
  return { gig, since: laterHirer ? gig.hiredAt : null };
}
