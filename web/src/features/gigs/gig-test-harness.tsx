// Test harness for the gig modals: opens the details (or management) modal of a gig as a given member,
// with the API mocked. Used by the *.test.tsx files next to it.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect } from "react";
import type { OwnUser } from "../../../../domain/profile";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { renderWithApp } from "../../test/render";
import { GigDialogsProvider } from "./gig-dialogs";
import { useGigDialogs } from "./gig-dialogs-context";
import type { Gig } from "./types";

function Open({ gigId, manage }: { gigId: string; manage: boolean }) {
  const { openDetails, openManage } = useGigDialogs();
  useEffect(() => (manage ? openManage(gigId) : openDetails(gigId)), [gigId, manage, openDetails, openManage]);
  return null;
}

export type Routes = Parameters<typeof mockApi>[0];

/** The member's username in these tests (reviews name their reviewer by it). */
export const MY_USERNAME = "npub1me";

export async function openGigModal(gig: Gig, userId: string | undefined, routes: Routes = {}, { manage = false, me = {} }: { manage?: boolean; me?: Partial<OwnUser> } = {}) {
  const api = mockApi({
    "GET /api/config": () => ({ aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5 }),
    [`GET /api/gigs/${gig.id}`]: () => gig,
    [`GET /api/gigs/${gig.id}/pre-claim-messages`]: () => [],
    [`GET /api/gigs/${gig.id}/extension-requests`]: () => [],
    [`GET /api/gigs/${gig.id}/events`]: () => [],
    ...routes,
  });
  renderWithApp(
    <GigDialogsProvider>
      <Open gigId={gig.id} manage={manage} />
    </GigDialogsProvider>,
    { user: userId ? makeUser({ id: userId, username: MY_USERNAME, lightningAddress: "me@wallet.test", ...me }) : undefined },
  );
  const dialog = await screen.findByRole("dialog", { name: manage ? "Manage Gig" : gig.title }, { timeout: 5000 });
  return { api, dialog, user: userEvent.setup() };
}
