import type { ReactNode } from "react";
import { NO_COMPLETED_GIGS, ratingText } from "../../../../domain/reputation";
import { Card } from "../../components/ui/card";

/**
 * One figure of a profile. `empty` is for a sentence standing in for a figure ("No reviews yet"): it is
 * set smaller and quieter, so it neither overflows its card at 360 px nor reads like a score.
 */
export function StatCard({ label, value, icon, empty = false }: { label: string; value: ReactNode; icon?: ReactNode; empty?: boolean }) {
  return (
    <Card className="flex flex-col gap-1 p-4">
      <span className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-stone-500 uppercase">
        {icon}
        {label}
      </span>
      <span className={empty ? "text-sm font-medium text-stone-600" : "text-2xl font-bold text-stone-900 tabular-nums"}>{value}</span>
    </Card>
  );
}

/** Success Rate: the percent, or "No completed gigs yet" (never N/A), as the rest of the app says it. */
export function SuccessRateCard({ completedGigs, successRate }: { completedGigs: number; successRate: number }) {
  const none = !(completedGigs > 0);
  return <StatCard label="Success Rate" value={none ? NO_COMPLETED_GIGS : `${successRate}%`} empty={none} />;
}

/** Rating: "★ 4.5" or "No reviews yet" (domain/reputation.ts ratingText), on the own and the public profile alike (decision 024). */
export function RatingCard({ averageRating, totalReviews }: { averageRating: number; totalReviews: number }) {
  const none = totalReviews <= 0;
  return <StatCard label="Rating" value={ratingText(averageRating, totalReviews)} empty={none} />;
}

export function StatGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <section aria-label={label} className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {children}
    </section>
  );
}
