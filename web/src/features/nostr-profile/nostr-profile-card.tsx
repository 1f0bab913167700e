// "Publish to Nostr" and "Refresh from Nostr": on /profile as a card, in the settings dialog as a section.
import type { SVGProps } from "react";
import type { OwnUser } from "../../../../domain/profile";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { cn } from "../../lib/cn";
import { useNostrProfile } from "./use-nostr-profile";

function Glyph({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...props}>
      {children}
    </svg>
  );
}

const UploadGlyph = (p: SVGProps<SVGSVGElement>) => (
  <Glyph {...p}>
    <path d="M12 15V3M7 8l5-5 5 5M5 21h14" />
  </Glyph>
);

const RefreshGlyph = ({ className, ...p }: SVGProps<SVGSVGElement>) => (
  <Glyph className={className} {...p}>
    <path d="M21 12a9 9 0 0 1-15.5 6.2L3 16M3 12a9 9 0 0 1 15.5-6.2L21 8M21 3v5h-5M3 21v-5h5" />
  </Glyph>
);

const GlobeGlyph = (p: SVGProps<SVGSVGElement>) => (
  <Glyph {...p}>
    <circle cx="12" cy="12" r="10" />
    <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
  </Glyph>
);

const DESCRIPTION =
  "Share your name, bio, picture, NIP-05 and Lightning address with the Nostr network, or copy your Nostr profile into Gigstr.";

function Actions({
  user,
  onRefreshed,
  quiet = false,
  className,
}: {
  user: OwnUser;
  onRefreshed?: (user: OwnUser) => void;
  /** Both buttons as outlines, where another button (Save) is the primary action. */
  quiet?: boolean;
  className?: string;
}) {
  const { publish, refresh, publishing, refreshing } = useNostrProfile(user, { onRefreshed });
  const busy = publishing || refreshing;
  return (
    <div className={cn("flex flex-col gap-2 sm:flex-row", className)}>
      <Button variant={quiet ? "outline" : "primary"} onClick={publish} disabled={busy} aria-busy={publishing || undefined}>
        <UploadGlyph />
        {publishing ? "Publishing..." : "Publish to Nostr"}
      </Button>
      <Button variant="outline" onClick={refresh} disabled={busy} aria-busy={refreshing || undefined}>
        <RefreshGlyph className={refreshing ? "animate-spin" : undefined} />
        {refreshing ? "Refreshing..." : "Refresh from Nostr"}
      </Button>
    </div>
  );
}

/** The card on /profile. */
export function NostrProfileCard({ user }: { user: OwnUser }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <GlobeGlyph className="text-brand-600" />
          Nostr Profile
        </CardTitle>
        <CardDescription>{DESCRIPTION}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Actions user={user} />
        <p className="text-xs text-stone-500">Publishing needs a Nostr extension (Alby, nos2x) to sign. It goes to five public relays.</p>
      </CardContent>
    </Card>
  );
}

/** The same actions inside the profile and settings dialog; `onRefreshed` lets the dialog show the new values. */
export function NostrProfileSection({ user, onRefreshed }: { user: OwnUser; onRefreshed?: (user: OwnUser) => void }) {
  return (
    <section aria-labelledby="nostr-profile-section" className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-4">
      <div className="flex flex-col gap-1">
        <h3 id="nostr-profile-section" className="flex items-center gap-2 text-sm font-semibold text-stone-900">
          <GlobeGlyph className="text-brand-600" />
          Nostr Profile
        </h3>
        <p className="text-xs text-stone-600">{DESCRIPTION} Publishing uses your saved profile and needs a Nostr extension.</p>
      </div>
      <Actions user={user} onRefreshed={onRefreshed} quiet className="sm:[&>button]:flex-1" />
    </section>
  );
}
