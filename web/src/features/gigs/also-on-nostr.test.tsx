import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { decode } from "nostr-tools/nip19";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { useEffect } from "react";
import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { useConfig, type AppConfig } from "../config/use-config";
import { NADDR_TAIL_CHARS } from "./also-on-nostr";
import { makeGig } from "./gig-factories";
import { GigDialogsProvider } from "./gig-dialogs";
import { useGigDialogs } from "./gig-dialogs-context";
import type { Gig } from "./types";

const platformPubkey = getPublicKey(generateSecretKey());
const relays = ["wss://relay.one.test", "wss://relay.two.test", "wss://relay.three.test"];
const publishing: AppConfig = { aliasDomain: "gigstr.test", lightningBackend: "dev", platformFeePercent: 2.5, nostr: { platformPubkey, relays } };

function OpenDetails({ gigId }: { gigId: string }) {
  const { openDetails } = useGigDialogs();
  useEffect(() => openDetails(gigId), [gigId, openDetails]);
  return null;
}

/** Says when the config has arrived: every reader of it renders with it in the same pass. */
function ConfigProbe() {
  const { data } = useConfig();
  return data ? <output>config read</output> : null;
}

/** Opens the details of `gig` as its poster, with this config. */
async function renderDetails(gig: Gig, config: AppConfig = publishing) {
  const api = mockApi({
    "GET /api/config": () => config,
    [`GET /api/gigs/${gig.id}`]: () => gig,
    [`GET /api/gigs/${gig.id}/pre-claim-messages`]: () => [],
  });
  renderWithApp(
    <GigDialogsProvider>
      <OpenDetails gigId={gig.id} />
      <ConfigProbe />
    </GigDialogsProvider>,
    { user: makeUser({ id: gig.posterId, lightningAddress: "me@wallet.test" }) },
  );
  const dialog = await screen.findByRole("dialog", { name: gig.title });
  return { api, dialog, user: userEvent.setup() };
}

const job = (over: Partial<Gig> = {}) => makeGig({ id: "3f1c2a9e-1111-4222-8333-444455556666", title: "Bakery website", posterId: "hirer", hirerId: "hirer", ...over });

/** The naddr the "Open in a Nostr app" link names, decoded. */
function linkedListing(dialog: HTMLElement) {
  const region = within(dialog).getByRole("region", { name: "Also on Nostr" });
  const href = within(region).getByRole("link", { name: "Open in a Nostr app" }).getAttribute("href")!;
  expect(href).toMatch(/^nostr:naddr1[a-z0-9]+$/);
  const naddr = href.slice("nostr:".length);
  const decoded = decode(naddr);
  if (decoded.type !== "naddr") throw new Error(`not an naddr: ${decoded.type}`);
  return { region, naddr, listing: decoded.data };
}

describe("Also on Nostr, in the gig's details", () => {
  it("a funded job request names its NIP-99 listing: kind 30402 by the platform's key, d = the gig's id, with two relay hints", async () => {
    const gig = job({ status: "open", escrowStatus: "funded" });
    const { dialog } = await renderDetails(gig);
    const { region, naddr, listing } = linkedListing(await waitForRegion(dialog));
    expect(listing).toEqual({ kind: 30402, pubkey: platformPubkey, identifier: gig.id, relays: relays.slice(0, 2) });
    // One short line: the naddr shortened in the middle (its start gives way, its end stays; the whole of it in
    // the title; a screen reader is spared it), a copy button, the link.
    const shown = within(region).getByTitle(naddr);
    expect(shown).toHaveAttribute("aria-hidden", "true");
    expect(shown.firstElementChild).toHaveClass("truncate");
    expect(shown.firstElementChild).toHaveTextContent(naddr.slice(0, -NADDR_TAIL_CHARS), { normalizeWhitespace: false });
    expect(shown.lastElementChild?.textContent).toBe(naddr.slice(-NADDR_TAIL_CHARS));
    expect(shown.lastElementChild).toHaveClass("shrink-0");
    expect(within(region).getByRole("button", { name: "Copy Nostr address" })).toBeInTheDocument();
  });

  it("copies the naddr", async () => {
    const gig = job({ status: "open", escrowStatus: "funded" });
    const { dialog, user } = await renderDetails(gig);
    const { region, naddr } = linkedListing(await waitForRegion(dialog));
    await user.click(within(region).getByRole("button", { name: "Copy Nostr address" }));
    expect(await navigator.clipboard.readText()).toBe(naddr);
    expect(await findToast("Nostr address copied to clipboard")).toBeInTheDocument();
  });

  it.each<[string, Partial<Gig>]>([
    ["a service offering once posted", { gigType: "service_offering", status: "open", escrowStatus: "pending", hirerId: null, workerId: "hirer" }],
    ["a service offering whose hirer has not paid yet", { gigType: "service_offering", status: "pending_payment", escrowStatus: "pending", workerId: "hirer", hirerId: "h2" }],
    ["a claimed job (its listing says sold)", { status: "claimed", escrowStatus: "funded", workerId: "w1" }],
    ["a completed job", { status: "completed", escrowStatus: "released", workerId: "w1" }],
    ["a job cancelled after it was funded", { status: "cancelled", escrowStatus: "refunded" }],
  ])("is shown for %s", async (_, over) => {
    const gig = job(over);
    const { dialog } = await renderDetails(gig);
    expect(linkedListing(await waitForRegion(dialog)).listing.identifier).toBe(gig.id);
  });

  it.each<[string, Partial<Gig>, AppConfig?]>([
    ["an unpaid job request", { status: "pending_payment", escrowStatus: "pending" }],
    ["a job request cancelled before it was funded", { status: "cancelled", escrowStatus: "pending" }],
    ["a gig the admin removed", { status: "cancelled", escrowStatus: "refunded", resolution: "deleted_by_admin" }],
    ["any gig while publishing is off (no platform key)", { status: "open", escrowStatus: "funded" }, { ...publishing, nostr: { platformPubkey: null, relays } }],
    ["any gig when the config names no Nostr at all", { status: "open", escrowStatus: "funded" }, { ...publishing, nostr: undefined }],
  ])("is not shown for %s", async (_, over, config) => {
    const gig = job(over);
    const { dialog } = await renderDetails(gig, config);
    await screen.findByText("config read");
    expect(within(dialog).queryByRole("region", { name: "Also on Nostr" })).toBeNull();
    expect(dialog).not.toHaveTextContent("Also on Nostr");
    expect(within(dialog).queryByRole("link", { name: "Open in a Nostr app" })).toBeNull();
  });
});

/** The Also on Nostr region, once the config has arrived. */
async function waitForRegion(dialog: HTMLElement): Promise<HTMLElement> {
  await within(dialog).findByRole("region", { name: "Also on Nostr" });
  return dialog;
}
