// A member's public profile (SPEC.md §2 /user/:npub).
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { PublicUser } from "../../../../domain/profile";
import { buttonClasses } from "../../components/ui/button";
import { ArrowLeftIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { PostedGigCard } from "../gigs/posted-gig-card";
import { usePostedGigs } from "../gigs/use-gigs";
import { PortfolioGrid } from "./portfolio-grid";
import { ProfileHeader } from "./profile-header";
import { ReviewsList } from "./reviews-list";
import { RatingCard, StatCard, StatGrid, SuccessRateCard } from "./stat-card";
import { usePortfolio, usePublicUser, useReviews } from "./use-profile";

function BackToHome() {
  return (
    <Link to="/" className={buttonClasses("ghost", "md", "-ml-3 self-start")}>
      <ArrowLeftIcon />
      Back to Home
    </Link>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((n) => (
        <Skeleton key={n} className="h-36 rounded-xl" />
      ))}
    </div>
  );
}

export function PublicProfile({ npub }: { npub: string }) {
  const profile = usePublicUser(npub);

  if (profile.isPending) {
    return (
      <p role="status" className="py-16 text-center text-stone-500">
        Loading profile...
      </p>
    );
  }
  if (profile.isError || !profile.data) {
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <h1 className="text-xl font-semibold">User not found</h1>
        <p className="text-sm text-stone-600">No Gigstr member has this public key.</p>
        <Link to="/" className={buttonClasses("primary")}>
          Back to Home
        </Link>
      </div>
    );
  }
  return <PublicProfileBody user={profile.data} />;
}

function PublicProfileBody({ user }: { user: PublicUser }) {
  const gigs = usePostedGigs(user.id);
  const portfolio = usePortfolio(user.id);
  const reviews = useReviews(user.id);

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8">
      <BackToHome />
      <ProfileHeader user={user} copyNpub />
      <StatGrid label="Reputation">
        <SuccessRateCard completedGigs={user.completedGigs} successRate={user.successRate} />
        <StatCard label="Completed" value={user.completedGigs} />
        <RatingCard averageRating={user.averageRating} totalReviews={user.totalReviews} />
        <StatCard label="Reviews" value={user.totalReviews} />
      </StatGrid>
      <Section title="Posted Gigs">
        {gigs.isPending ? (
          <ListSkeleton />
        ) : gigs.data && gigs.data.length > 0 ? (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {gigs.data.map((gig) => (
              <PostedGigCard key={gig.id} gig={gig} />
            ))}
          </div>
        ) : (
          <p className="rounded-xl border border-dashed border-stone-300 p-8 text-center text-stone-500">No gigs posted yet</p>
        )}
      </Section>
      <Section title="Portfolio">{portfolio.isPending ? <ListSkeleton /> : <PortfolioGrid items={portfolio.data ?? []} />}</Section>
      <Section title="Reviews">{reviews.isPending ? <Skeleton className="h-24 rounded-xl" /> : <ReviewsList reviews={reviews.data ?? []} />}</Section>
    </div>
  );
}
