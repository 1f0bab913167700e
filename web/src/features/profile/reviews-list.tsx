import { Link } from "react-router";
import { UserAvatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { CheckIcon, ExternalLinkIcon, StarIcon } from "../../components/ui/icons";
import { formatDate, shorten } from "../../lib/format";
import { useLocalTime } from "../../lib/hydration";
import type { Review } from "./types";

export function Stars({ rating }: { rating: number }) {
  const whole = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span role="img" aria-label={`${whole} out of 5 stars`} className="flex text-brand-500">
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} size={14} filled={n <= whole} className={n <= whole ? undefined : "text-stone-300"} />
      ))}
    </span>
  );
}

/**
 * A review signed by its reviewer's Nostr key and checked by the server (docs/decisions/028): "Verified", and a
 * `nostr:` link to the event, so anyone can check the signature in a Nostr app. Unsigned reviews show nothing.
 */
export function SignedOnNostr({ nevent }: { nevent: string }) {
  return (
    <span className="flex items-center gap-2 text-xs">
      <Badge variant="success" title="Signed by the reviewer's Nostr key; the signature was checked">
        <CheckIcon size={12} />
        Verified
      </Badge>
      <a href={`nostr:${nevent}`} title="Open the signed review in a Nostr app" className="inline-flex items-center gap-1 font-medium text-stone-600 underline-offset-2 hover:text-brand-700 hover:underline">
        Signed on Nostr
        <ExternalLinkIcon size={12} />
      </a>
    </span>
  );
}

export function ReviewsList({ reviews }: { reviews: Review[] }) {
  // A member's public profile is rendered by the Worker: its dates first as rendered there, then local.
  const localTime = useLocalTime();
  if (reviews.length === 0) return <p className="rounded-xl border border-dashed border-stone-300 p-8 text-center text-stone-500">No reviews yet</p>;
  return (
    <ul className="flex flex-col gap-3">
      {reviews.map((review) => {
        const name = review.reviewerName || shorten(review.reviewerUsername, true);
        return (
          <li key={review.id} className="flex gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
            <UserAvatar user={{ username: review.reviewerUsername, displayName: review.reviewerName, profilePicture: review.reviewerPicture }} size="md" />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                {review.reviewerUsername ? (
                  <Link to={`/user/${review.reviewerUsername}`} className="font-medium hover:text-brand-700 hover:underline">
                    {name}
                  </Link>
                ) : (
                  <span className="font-medium">{name}</span>
                )}
                <time dateTime={review.createdAt} className="text-xs text-stone-500">
                  {formatDate(review.createdAt, { as: localTime ? "local" : "rendered" })}
                </time>
              </div>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Stars rating={review.rating} />
                {review.verified && review.nevent && <SignedOnNostr nevent={review.nevent} />}
              </div>
              {review.comment && <p className="text-sm text-stone-700 whitespace-pre-line">{review.comment}</p>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
