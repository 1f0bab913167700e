// "Also on Nostr" (issue 27, docs/decisions/025): a listed gig is also a NIP-99 listing (kind 30402) signed by
// the platform's key, so any Nostr client can show it. The gig's details name that listing by its `naddr`,
// to copy or to open in a Nostr app (a `nostr:` link). Shown only for a gig that is (or was) listed, by the
// one rule the outbox follows too (isListedOnNostr), and not while publishing is off (no platform key in
// GET /api/config). One line on a phone: the naddr is shortened in the middle.
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { isListedOnNostr } from "../../../../domain/nostr-listing";
import { CopyButton } from "../../components/ui/copy-button";
import { ExternalLinkIcon } from "../../components/ui/icons";
import { useConfig } from "../config/use-config";
import type { Gig } from "./types";

/** Relay hints the naddr carries (the first of the platform's relays): a few keep it short enough to paste. */
export const NADDR_RELAY_HINTS = 2;

/** The naddr's end, always shown whole (its checksum tells one naddr from another); the rest gives way with "…". */
export const NADDR_TAIL_CHARS = 8;

/** The listing's naddr of this gig, or null when it is not on Nostr (never listed, removed, or publishing off). */
export function useListingNaddr(gig: Pick<Gig, "id" | "gigType" | "status" | "escrowStatus" | "resolution">): string | null {
  const { data: config } = useConfig();
  const platformPubkey = config?.nostr?.platformPubkey ?? null;
  const relays = config?.nostr?.relays;
  const shown = !!platformPubkey && isListedOnNostr(gig);
  const hints = (relays ?? []).slice(0, NADDR_RELAY_HINTS);
  // The encoder (nostr-tools' NIP-19) is loaded for a gig this line is shown for, not with every gig's details.
  const { data: naddr } = useQuery({
    queryKey: ["listing-naddr", platformPubkey, gig.id, hints],
    queryFn: async () => (await import("../../../../domain/nostr-naddr")).listingNaddr(platformPubkey!, gig.id, hints),
    enabled: shown,
    staleTime: Infinity,
  });
  return shown ? (naddr ?? null) : null;
}

export function AlsoOnNostr({ gig }: { gig: Gig }) {
  const naddr = useListingNaddr(gig);
  const titleId = useId();
  if (!naddr) return null;
  return (
    <section aria-labelledby={titleId} className="flex items-center gap-2 rounded-lg border border-stone-200 py-1 pr-1 pl-3 text-sm">
      <h3 id={titleId} className="shrink-0 font-semibold text-stone-900">
        Also on Nostr
      </h3>
      {/* Shortened in the middle, as wide as there is room for: the start gives way with "…", the end stays. A
          screen reader is spared the 150 characters: the copy button and the link carry it. Selecting it takes it whole. */}
      <code aria-hidden="true" title={naddr} className="flex min-w-0 flex-1 font-mono text-xs text-stone-600 select-all">
        <span className="truncate">{naddr.slice(0, -NADDR_TAIL_CHARS)}</span>
        <span className="shrink-0">{naddr.slice(-NADDR_TAIL_CHARS)}</span>
      </code>
      <div className="flex shrink-0 items-center">
        <CopyButton value={naddr} label="Copy Nostr address" copiedDescription="Nostr address copied to clipboard" className="h-8 w-8" />
        <a
          href={`nostr:${naddr}`}
          aria-label="Open in a Nostr app"
          title="Open in a Nostr app"
          className="inline-flex h-8 min-w-8 items-center justify-center gap-1.5 rounded-md text-stone-600 hover:bg-stone-100 hover:text-stone-900 sm:px-2"
        >
          <ExternalLinkIcon size={16} />
          <span className="hidden text-xs font-medium sm:inline">Open in a Nostr app</span>
        </a>
      </div>
    </section>
  );
}
