// The signed-in Post tab (SPEC.md §2 Post tab). The form and its rules (zod) load in their own chunk,
// off the first page.
import { Suspense } from "react";
import { Skeleton } from "../../components/ui/skeleton";
import { lazyPart } from "../../lib/lazy-part";

const PostGigForm = lazyPart(() => import("#browser-only/post-gig-form").then((m) => m.PostGigForm));

export function PostGig() {
  return (
    <section aria-labelledby="post-heading" className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <div>
        <h1 id="post-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Post New Gig
        </h1>
        <p className="mt-1 text-stone-600">Describe the work, set a price in sats (at once or in milestones) and a timeframe. Payment is held in escrow.</p>
      </div>
      <Suspense fallback={<Skeleton className="h-[32rem] rounded-xl" />}>
        <PostGigForm />
      </Suspense>
    </section>
  );
}
