// Claiming a gig (or hiring a service offering): the claim, then the new invoice's payment dialog when the
// hirer pays now, else the gig's details; a missing Lightning address or a refusal said as the claim button
// says it. The Claim button and a lapsed hire's "Hire again" both claim through this.
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { gigApi, useGigMutation } from "./gig-api";
import { useGigDialogs } from "./gig-dialogs-context";
import { isLightningAddressRequired, useLightningAddressRequired } from "./lightning-address-required";
import type { Gig } from "./types";
import { paymentOfAnswer } from "../payments/payment-types";

export function useClaimGig(gig: Gig) {
  const { toast } = useToast();
  const { openPayment, openDetails } = useGigDialogs();
  const lightningAddressRequired = useLightningAddressRequired("claiming");
  const claim = useGigMutation(() => gigApi.claim(gig.id));
  const run = (also: { onSuccess?: () => void; onError?: () => void } = {}) =>
    claim.mutate(undefined, {
      onSuccess: (answer) => {
        also.onSuccess?.();
        if (answer.paymentRequest) {
          openPayment(paymentOfAnswer({ ...answer, paymentRequest: answer.paymentRequest }));
        } else {
          toast({ title: "Gig Claimed", description: "It is yours. Start work when you are ready." });
          openDetails(gig.id);
        }
      },
      onError: (err) => {
        also.onError?.();
        if (isLightningAddressRequired(err)) lightningAddressRequired();
        else toast({ title: "Failed to Claim Gig", description: errorText(err), variant: "destructive" });
      },
    });
  return { run, isPending: claim.isPending };
}
