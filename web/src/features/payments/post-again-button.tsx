// "Post again" (issue 26): a gig whose escrow invoice lapsed, or that was cancelled, is not a dead end. Its
// owner posts a new gig with the same title, description and terms (what POST /api/gigs takes, SPEC.md §3:
// gig type, category, payment, timeframe), which gets a new invoice: the payment dialog opens for it.
//
// A service offering's hire whose invoice lapsed is a different thing: the offer is the worker's, and it is
// open again. "Again" there means hiring again (POST /api/gigs/{id}/claim, a new invoice) — which the server
// allows only once the worker has enabled hiring for this member again; until then the button says so and
// opens the offer.
import { useRef, useState } from "react";
import { Button } from "../../components/ui/button";
import { BoltIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { formatSats } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { gigApi, useGigMutation, type NewGig } from "../gigs/gig-api";
import { paymentOfAnswer } from "./payment-types";
import { useGigDialogs } from "../gigs/gig-dialogs-context";
import { isLightningAddressRequired, useLightningAddressRequired } from "../gigs/lightning-address-required";
import { useClaimGig } from "../gigs/use-claim-gig";
import { useInterestMessages } from "../gigs/use-gigs";
import type { Gig, GigWithInvoice } from "../gigs/types";

/** What POST /api/gigs takes, copied from the gig: the same title, description and terms. */
export function repostOf(gig: Gig): NewGig {
  // A plan is posted again as it was (the details answer carries it; a list's gig has none to give).
  const plan = gig.milestoneCount > 1 && gig.milestones?.length === gig.milestoneCount ? gig.milestones.map((m) => ({ title: m.title, amount: m.amount, days: m.days })) : undefined;
  return {
    gigType: gig.gigType,
    title: gig.title,
    description: gig.description,
    category: gig.category,
    payment: gig.payment,
    timeframe: gig.timeframe,
    ...(plan ? { milestones: plan } : {}),
  };
}

/**
 * Posts the gig again (its owner), or hires a lapsed service offering again (the member whose hire lapsed).
 * Renders nothing for anyone else. `onPosted` runs once the new gig (or hire) exists, before its payment opens.
 */
export function PostAgainButton({ gig, onPosted }: { gig: Gig; onPosted?: () => void }) {
  const { user } = useAuth();
  if (!user) return null;
  if (gig.posterId === user.id) return <RepostButton gig={gig} hasLightningAddress={!!user.lightningAddress} onPosted={onPosted} />;
  if (gig.gigType === "service_offering" && gig.status === "open") return <HireAgainButton gig={gig} memberId={user.id} onPosted={onPosted} />;
  return null;
}

/**
 * One run at a time, and none after one succeeded: a second click (or a double tap) while the first is on its
 * way, or after it, never makes a second gig. A failed run may be tried again.
 */
function useOnce() {
  const started = useRef(false);
  const [done, setDone] = useState(false);
  return {
    done,
    /** True when this call may go ahead. */
    start: () => {
      if (started.current) return false;
      started.current = true;
      return true;
    },
    succeeded: () => setDone(true),
    failed: () => {
      started.current = false;
    },
  };
}

function RepostButton({ gig, hasLightningAddress, onPosted }: { gig: Gig; hasLightningAddress: boolean; onPosted?: () => void }) {
  const { toast } = useToast();
  const { openPayment, openDetails } = useGigDialogs();
  const lightningAddressRequired = useLightningAddressRequired("posting");
  const post = useGigMutation(gigApi.post);
  const once = useOnce();

  const run = () => {
    if (!hasLightningAddress) return lightningAddressRequired();
    if (!once.start()) return;
    post.mutate(repostOf(gig), {
      onSuccess: (answer: GigWithInvoice) => {
        once.succeeded();
        onPosted?.();
        if (answer.paymentRequest) {
          openPayment(paymentOfAnswer({ ...answer, paymentRequest: answer.paymentRequest }));
        } else {
          toast({ title: "Gig Posted", description: "Your service offering is live again. Hirers can now find it on Browse." });
          openDetails(answer.gig.id);
        }
      },
      onError: (err) => {
        once.failed();
        if (isLightningAddressRequired(err)) lightningAddressRequired();
        else toast({ title: "Failed to Post Gig", description: errorText(err, "Please check your input and try again."), variant: "destructive" });
      },
    });
  };

  const busy = post.isPending || once.done;
  return (
    <div className="flex flex-col gap-1.5">
      <Button onClick={run} disabled={busy} className="w-full sm:w-auto sm:self-center">
        {gig.gigType === "job_request" && <BoltIcon />}
        {post.isPending ? "Posting..." : "Post again"}
      </Button>
      <p className="text-center text-xs text-stone-600">
        {gig.gigType === "job_request"
          ? `A new gig with the same title, description and terms (${formatSats(gig.payment)}, ${gig.timeframe} ${gig.timeframe === 1 ? "day" : "days"}), and a new invoice.`
          : "A new offering with the same title, description and price."}
      </p>
    </div>
  );
}

function HireAgainButton({ gig, memberId, onPosted }: { gig: Gig; memberId: string; onPosted?: () => void }) {
  const { openDetails } = useGigDialogs();
  const interest = useInterestMessages(gig.id, true);
  const mine = interest.data?.find((m) => m.senderId === memberId);
  const enabled = mine?.status === "approved" && mine.claimEnabled;
  const claim = useClaimGig(gig);
  const once = useOnce();

  if (interest.isPending) return null;
  if (!enabled) {
    return (
      <div className="flex flex-col items-center gap-2 text-center">
        <p className="text-sm text-stone-700">To hire again, the worker needs to enable hiring for you again. You are told when they do.</p>
        <Button variant="outline" onClick={() => openDetails(gig.id)}>
          View the offer
        </Button>
      </div>
    );
  }

  const run = () => {
    if (!once.start()) return;
    claim.run({
      onSuccess: () => {
        once.succeeded();
        onPosted?.();
      },
      onError: () => once.failed(),
    });
  };
  return (
    <div className="flex flex-col gap-1.5">
      <Button onClick={run} disabled={claim.isPending || once.done} className="w-full sm:w-auto sm:self-center">
        <BoltIcon />
        {claim.isPending ? "Hiring..." : "Hire again"}
      </Button>
      <p className="text-center text-xs text-stone-600">The same offer for {formatSats(gig.totalCharge)}, with a new invoice.</p>
    </div>
  );
}
