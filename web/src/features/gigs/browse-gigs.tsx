// Placeholder for the Browse tab; the gigs screens replace it (search, filters, gig cards).
import { Link } from "react-router";
import { buttonClasses } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { BriefcaseIcon } from "../../components/ui/icons";
import { mainTabHref } from "../layout/main-tab";

export function BrowseGigs() {
  return (
    <section aria-labelledby="browse-heading" className="flex flex-col gap-6">
      <div>
        <h1 id="browse-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Browse Gigs
        </h1>
        <p className="mt-1 text-stone-600">Small paid jobs in sats. Payment waits in escrow until the work is approved.</p>
      </div>
      <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-stone-100 text-stone-500">
          <BriefcaseIcon size={22} />
        </span>
        <h2 className="text-lg font-semibold">No gigs available</h2>
        <p className="max-w-sm text-sm text-stone-600">Check back soon, or post the first gig yourself.</p>
        <Link to={mainTabHref("post")} className={buttonClasses("primary", "md", "mt-1")}>
          Post a Gig
        </Link>
      </Card>
    </section>
  );
}
