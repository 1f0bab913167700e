// What the signed-in member may do on a gig, from the shared state machine (domain/gig.ts: rolesOf, judge).
// The Worker enforces the same table; the web only decides which buttons to show.
import { editFundedOrOwner, judge, rolesOf, type GigAction, type GigRole } from "../../../../domain/gig";
import { amountInTermsOf, type PartyAmount } from "../../../../domain/gig-money";
import { ownerIdOf, type Gig } from "./types";

export interface GigPermissions {
  roles: GigRole[];
  isOwner: boolean;
  isHirer: boolean;
  isWorker: boolean;
  /** Hirer or worker of this gig. */
  isParty: boolean;
  can: (action: GigAction) => boolean;
}

export function gigPermissions(gig: Gig, userId: string | null | undefined): GigPermissions {
  const roles = rolesOf(
    { gigType: gig.gigType, posterId: ownerIdOf(gig) ?? "", hirerId: gig.hirerId, workerId: gig.workerId },
    userId ?? null,
  );
  const isHirer = roles.includes("hirer");
  const isWorker = roles.includes("worker");
  return {
    roles,
    isOwner: roles.includes("owner"),
    isHirer,
    isWorker,
    isParty: isHirer || isWorker,
    can: (action) => judge(action, gig.status, gig.gigType, roles).ok && (action !== "edit" || editFundedOrOwner(roles, gig.escrowStatus)),
  };
}

/** The chat is between the two parties, once both exist. */
export function canOpenChat(gig: Gig, permissions: GigPermissions): boolean {
  return permissions.isParty && !!gig.hirerId && !!gig.workerId;
}

/** The gig's amount in this reader's terms: "You receive 9,750 sats" (worker), "You pay 10,250 sats" (hirer), else the payment. */
export function amountFor(gig: Gig, userId: string | null | undefined): PartyAmount {
  return amountInTermsOf(gig.payment, gigPermissions(gig, userId).roles, gig.status);
}
