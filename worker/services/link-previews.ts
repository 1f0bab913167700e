// What a shared link shows in a Nostr client or a chat app (Open Graph / Twitter tags in the page's head),
// robots.txt and the sitemap. Only what any visitor may see: the preview is made from the page's own reads as
// a visitor (worker/pages/sources.ts), so a gig a visitor cannot open (an unpaid job request, a gig the admin
// removed) and an unknown or deleted member get the generic preview.
import { and, desc, eq, or, isNull, ne } from "drizzle-orm";
import type { GigView } from "../../domain/gig-view";
import type { PublicUser } from "../../domain/profile";
import { gigs } from "../db/schema";
import { REMOVED_BY_ADMIN } from "./gig-views";
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

/** A gig's preview from what a visitor reads of it (null: not for visitors, so the generic one). */
export function gigPreview(gig: Pick<GigView, "title" | "payment" | "gigType" | "category" | "description"> | null): LinkPreview {
  if (!gig) return GENERIC_PREVIEW;
  const price = `${gig.payment.toLocaleString("en-US")} sats`;
  const kind = gig.gigType === "service_offering" ? "Service" : "Job";
  return { title: `${gig.title} · ${price} · Gigstr`, description: clip(`${kind} in ${gig.category}, ${price}. ${gig.description}`) };
}

/** A member's preview from their public profile (null: unknown or deleted, so the generic one). */
export function memberPreview(member: Pick<PublicUser, "displayName" | "username" | "bio"> | null): LinkPreview {
  if (!member) return GENERIC_PREVIEW;
  const name = member.displayName || `${member.username.slice(0, 16)}…`;
  return { title: `${name} on Gigstr`, description: clip(member.bio || `${name}'s gigs, reviews and work on Gigstr, the Bitcoin-only gig marketplace.`) };
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
