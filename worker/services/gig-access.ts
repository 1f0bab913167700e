// Who may see a gig's private parts (events, chat, files, receipt): its parties and the admin.
import { isParty } from "../../domain/gig";
import { forbidden } from "../errors";
import { loadGig, type Viewer } from "./gigs";
import type { Deps } from "./deps";
import type { GigRow } from "./gig-views";

export async function gigForParty(deps: Pick<Deps, "db">, gigId: string, viewer: Viewer): Promise<GigRow> {
  const gig = await loadGig(deps, gigId);
  if (!viewer.isAdmin && !isParty(gig, viewer.userId)) throw forbidden("Only the gig's hirer and worker can see this");
  return gig;
}
