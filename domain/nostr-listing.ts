// Gigstr on Nostr: the events the platform's key signs (docs/decisions/025). Each gig that is open is a
// NIP-99 classified listing (kind 30402, addressable by its `d` = the gig's id), replaced when the gig changes
// and deleted (NIP-09, kind 5) when the admin removes it; one NIP-89 handler announcement (kind 31990) tells
// clients that Gigstr's gig page opens those listings. Pure: the Worker's outbox (worker/services/nostr-outbox.ts)
// signs and sends them. A listing's `naddr` is built in domain/nostr-naddr.ts, apart: the web app loads that
// encoder only for a gig whose line it shows.
import { REMOVED_BY_ADMIN, type GigType } from "./gig";

export const LISTING_KIND = 30402;
export const DELETION_KIND = 5;
export const HANDLER_KIND = 31990;

/** The `d` of the platform's one handler announcement (NIP-89). */
export const HANDLER_ID = "gigstr-gig-listings";

/** NIP-99's `price` currency for sats: what Nostr markets (Shopstr, Plebeian Market) write. */
export const PRICE_CURRENCY = "SATS";

/** A listing's `summary`: the description's first line, cut to this many characters. */
export const SUMMARY_MAX_CHARS = 140;

/** An event before it is signed (nostr-tools' EventTemplate). */
export interface NostrEventTemplate {
  kind: number;
  created_at: number;
  tags: string[][];
  content: string;
}

/** What a listing says about its gig. */
export interface ListedGig {
  id: string;
  gigType: GigType;
  title: string;
  description: string;
  category: string;
  /** Sats. */
  payment: number;
  /** `open` is the one status a listing is active in. */
  status: string;
  /** The poster's Nostr key (hex), when their account still has one. */
  posterPubkey: string | null;
  /** When the gig was first listed (ISO): a job request when its escrow was funded, a service offering when posted. */
  listedAt: string;
}

/** The one gig status whose listing says `active`: open, claimable or hireable. */
export const ACTIVE_LISTING_STATUS = "open";

/** A gig is offered on Nostr (listing status `active`) only while it is open: claimable, or hireable. */
export const isActiveListing = (status: string) => status === ACTIVE_LISTING_STATUS;

/** What says whether a gig is on Nostr: fields of the API's gig (GigView) and of the Worker's row alike. */
export interface ListingState {
  gigType: GigType;
  status: string;
  /** `pending` until a job request's escrow is funded; funded, released or refunded after. */
  escrowStatus: string;
  resolution: string | null;
}

/**
 * Whether a gig is (or was) listed on Nostr: the one rule, for the outbox (which writes a gig's first listing
 * when this holds) and the gig page ("Also on Nostr" while it holds). A gig is listed once it has been open: a
 * service offering from its posting on, a job request once its escrow was funded (it is no longer `pending`,
 * whatever came after: claimed, completed, refunded). An unpaid job request, or one cancelled before it was
 * funded, never is; nor is a gig the admin removed (its listing was deleted). The cron's sweep reads it as SQL
 * (LISTED_ON_NOSTR in worker/services/nostr-outbox.ts, from the same constants; a test holds the two equal).
 */
export function isListedOnNostr(gig: ListingState): boolean {
  if (gig.resolution === REMOVED_BY_ADMIN) return false;
  return isActiveListing(gig.status) || gig.gigType === "service_offering" || gig.escrowStatus !== "pending";
}

/** The listing's address: `30402:<platform pubkey>:<gig id>` (NIP-01 `a` tag form). */
export const listingAddress = (platformPubkey: string, gigId: string) => `${LISTING_KIND}:${platformPubkey}:${gigId}`;

/** The gig page's URL on the public origin. */
export const gigPageUrl = (origin: string, gigId: string) => `${origin.replace(/\/+$/, "")}/gig/${encodeURIComponent(gigId)}`;

/** Unix seconds of an ISO time. */
export const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The description's first non-empty line, whitespace collapsed, cut at a word to SUMMARY_MAX_CHARS with "…". */
export function summaryOf(description: string): string {
  const line = description.split(/\r?\n/).map((l) => l.replace(/\s+/g, " ").trim()).find((l) => l.length > 0) ?? "";
  const chars = [...line];
  if (chars.length <= SUMMARY_MAX_CHARS) return line;
  const cut = chars.slice(0, SUMMARY_MAX_CHARS - 1).join("");
  const atWord = cut.replace(/\s+\S*$/, "");
  return `${(atWord.length >= SUMMARY_MAX_CHARS / 2 ? atWord : cut).trimEnd()}…`;
}

/**
 * The NIP-99 listing of a gig: `d` = its id, title, summary, `published_at` (first listed), price in sats, the
 * category as a `t` hashtag (and `gigstr`), the poster as `p`, the gig page as `r`, `status` active while open
 * and sold after (NIP-99 knows only these two), the kind of gig as a NIP-32 label; the description is the content.
 */
export function listingTemplate(gig: ListedGig, opts: { createdAt: number; gigUrl: string | null }): NostrEventTemplate {
  const tags: string[][] = [
    ["d", gig.id],
    ["title", gig.title],
    ["summary", summaryOf(gig.description)],
    ["published_at", String(unixSeconds(gig.listedAt))],
    ["price", String(gig.payment), PRICE_CURRENCY],
    ["location", "Online"],
    ["status", isActiveListing(gig.status) ? "active" : "sold"],
    ["t", gig.category.toLowerCase()],
    ["t", "gigstr"],
    ["L", "gigstr"],
    ["l", gig.gigType, "gigstr"],
  ];
  if (gig.posterPubkey) tags.push(["p", gig.posterPubkey]);
  if (opts.gigUrl) tags.push(["r", opts.gigUrl]);
  const offer = gig.gigType === "job_request" ? "Job" : "Service";
  tags.push(["alt", `${offer} on Gigstr, paid in sats with escrow: ${gig.title}${opts.gigUrl ? ` (${opts.gigUrl})` : ""}`]);
  return { kind: LISTING_KIND, created_at: opts.createdAt, tags, content: gig.description };
}

/**
 * The NIP-09 deletion request of a listing: the `a` tag names every version of it up to this event's
 * created_at, the `e` tags the versions that were sent, `k` their kind.
 */
export function deletionTemplate(address: string, eventIds: readonly string[], opts: { createdAt: number; reason?: string }): NostrEventTemplate {
  return {
    kind: DELETION_KIND,
    created_at: opts.createdAt,
    tags: [["a", address], ...eventIds.map((id) => ["e", id]), ["k", String(LISTING_KIND)]],
    content: opts.reason ?? "",
  };
}

/**
 * The NIP-89 handler announcement: Gigstr's gig page opens kind-30402 listings. Gigstr's own listings have
 * `d` = the gig's id, so `/gig/<naddr>` names the gig; the Worker sends it on to `/gig/<id>`.
 */
export function handlerTemplate(origin: string, opts: { createdAt: number }): NostrEventTemplate {
  const site = origin.replace(/\/+$/, "");
  return {
    kind: HANDLER_KIND,
    created_at: opts.createdAt,
    tags: [
      ["d", HANDLER_ID],
      ["k", String(LISTING_KIND)],
      ["web", `${site}/gig/<bech32>`, "naddr"],
      ["alt", `Gigstr opens its own gig listings (kind ${LISTING_KIND}) at ${site}/gig/<naddr>`],
    ],
    content: JSON.stringify({
      name: "Gigstr",
      about: `A Bitcoin-only gig marketplace with Lightning escrow. Opens the gig listings (kind ${LISTING_KIND}) this key publishes.`,
      website: site,
    }),
  };
}

/** Whether two events say the same (kind, tags, content): a listing that did not change is not sent again. */
export const sameContent = (a: Pick<NostrEventTemplate, "kind" | "tags" | "content">, b: Pick<NostrEventTemplate, "kind" | "tags" | "content">) =>
  a.kind === b.kind && a.content === b.content && JSON.stringify(a.tags) === JSON.stringify(b.tags);

/** The origin of a listing's `r` tag, or null (the gig page's URL is `<origin>/gig/<id>`). */
export function originOfListing(tags: readonly string[][]): string | null {
  const url = tags.find((t) => t[0] === "r")?.[1];
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
