// The gig details modal (SPEC.md §2) on Browse and Active. What a gig shows is gig-details-body.tsx, the same
// body the gig's own page (/gig/:id, routes/gig.tsx) renders; the dialog gives it its title and adds the loading
// and "not found" states. On a phone the dialog fills the screen and each fact takes one line.
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { Skeleton } from "../../components/ui/skeleton";
import { ApiError, errorText } from "../../lib/api";
import { useAuth } from "../auth/auth-context";
import { LoginButton } from "../auth/login-required-card";
import { GigDetailsBody } from "./gig-details-body";
import { useGig } from "./use-gigs";

export function GigDetailsModal({ gigId, open, onOpenChange }: { gigId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const gig = useGig(gigId);
  const { user } = useAuth();
  // A copy from the cache gives way when the gig turns out to be gone (removed, or no longer visible).
  const gone = gig.isError && gig.error instanceof ApiError && gig.error.status === 404;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent phoneFullScreen className="sm:max-w-2xl" aria-describedby={undefined}>
        {gig.data && !gone ? (
          <GigDetailsBody gig={gig.data} Title={DialogTitle} sectionHeading="h3" titleClassName="pr-8" />
        ) : gig.isError ? (
          <>
            <DialogHeader>
              <DialogTitle>{gone ? "Gig not found" : "Could not load the gig"}</DialogTitle>
              <DialogDescription>
                {gone
                  ? "It may have been removed, or it is not visible to you."
                  : errorText(gig.error, "Please try again.")}
              </DialogDescription>
            </DialogHeader>
            {gone && !user && (
              // A link to someone's own gig, opened while signed out: it may be theirs to see once signed in.
              <LoginButton className="self-start" leaving={() => onOpenChange(false)} />
            )}
          </>
        ) : (
          <div className="flex flex-col gap-4" role="status" aria-label="Loading gig">
            <DialogTitle className="sr-only">Loading gig</DialogTitle>
            <Skeleton className="h-7 w-2/3" />
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-32 w-full" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

