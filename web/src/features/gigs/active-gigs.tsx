// Placeholder for the signed-in Active tab; the gigs screens replace it (stats, active gigs, My Gigs),
// and take the gig to open from useGigIntent().
import { Card } from "../../components/ui/card";

export function ActiveGigs() {
  return (
    <section aria-labelledby="active-heading" className="flex flex-col gap-6">
      <h1 id="active-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
        Active Gigs
      </h1>
      <Card className="px-6 py-12 text-center">
        <h2 className="text-lg font-semibold">No active gigs yet</h2>
        <p className="mt-1 text-sm text-stone-600">Gigs you post or claim show up here.</p>
      </Card>
    </section>
  );
}
