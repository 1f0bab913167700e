// What a shared link shows in a Nostr client or a chat app (Open Graph / Twitter tags on the app's HTML
// shell), robots.txt and the sitemap. Only what any visitor may see: a gig a visitor cannot open (an
// unpaid job request, a gig the admin removed) and an unknown or deleted member get the generic preview.
import { and, desc, eq, or, isNull, ne } from "drizzle-orm";
import { gigs } from "../db/schema";
import { AppError } from "../errors";
import { getGig, REMOVED_BY_ADMIN } from "./gig-views";
import { findUserByNpub } from "./users";
import type { Deps } from "./deps";

export interface LinkPreview {
  title: string;
  description: string;
}

export const GENERIC_PREVIEW: LinkPreview = {
  title: "Gigstr",
  description: "Gigstr: a Bitcoin-only gig marketplace. Small paid jobs in sats, escrow over Lightning, log in with Nostr.",
};

const DESCRIPTION_MAX = 200;

function clip(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Not found, or not for visitors: the generic preview. Anything else failing is a real error. */
async function orGeneric(read: () => Promise<LinkPreview>): Promise<LinkPreview> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return GENERIC_PREVIEW;
    throw err;
  }
}

export function gigPreview(deps: Pick<Deps, "db">, gigId: string): Promise<LinkPreview> {
  return orGeneric(async () => {
    const gig = await getGig(deps, gigId, { userId: null, isAdmin: false });
    const price = `${gig.payment.toLocaleString("en-US")} sats`;
    const kind = gig.gigType === "service_offering" ? "Service" : "Job";
    return { title: `${gig.title} · ${price} · Gigstr`, description: clip(`${kind} in ${gig.category}, ${price}. ${gig.description}`) };
  });
}

export function memberPreview(deps: Pick<Deps, "db">, npub: string): Promise<LinkPreview> {
  return orGeneric(async () => {
    const member = await findUserByNpub(deps, npub);
    const name = member.displayName || `${member.username.slice(0, 16)}…`;
    return { title: `${name} on Gigstr`, description: clip(member.bio || `${name}'s gigs, reviews and work on Gigstr, the Bitcoin-only gig marketplace.`) };
  });
}

/** At most this many gigs in the sitemap: the newest open ones. */
export const SITEMAP_GIGS = 1000;

/** The sitemap's pages: the public screens and the newest open gigs a visitor may open. */
export async function sitemapPaths(deps: Pick<Deps, "db">): Promise<{ path: string; lastModified?: string }[]> {
  const open = await deps.db
    .select({ id: gigs.id, createdAt: gigs.createdAt })
    .from(gigs)
    .where(and(eq(gigs.status, "open"), or(isNull(gigs.resolution), ne(gigs.resolution, REMOVED_BY_ADMIN))))
    .orderBy(desc(gigs.createdAt))
    .limit(SITEMAP_GIGS);
  return [
    { path: "/" },
    { path: "/faq" },
    { path: "/terms" },
    { path: "/privacy" },
    ...open.map((g) => ({ path: `/gig/${encodeURIComponent(g.id)}`, lastModified: g.createdAt.slice(0, 10) })),
  ];
}
