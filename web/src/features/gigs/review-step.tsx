// Reviewing the other party of a gig (SPEC.md §5, §6): offered as a step right after the worker submits
// and after the hirer approves, and later from the details modal while the gig is work_submitted,
// completed or disputed. One review per gig: a server answer that it was already submitted is not an
// error to the member, the form just goes away. The review is signed with the member's Nostr key as a kind 1985
// event (docs/decisions/028, review-signature.ts) by the app's signer (their extension or remote signer); with none
// here, the member may type their private key for this one signature, or send the review unsigned (not verified).
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { INVALID_RATING, reviewSchema } from "../../../../domain/collaboration-schemas";
import { Button } from "../../components/ui/button";
import { CheckIcon, KeyIcon, ShieldIcon, StarIcon } from "../../components/ui/icons";
import { describedBy, FormField, Label, Textarea } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { ApiError, errorText } from "../../lib/api";
import type { SignedNostrEvent } from "../../lib/nostr";
import { useAuth } from "../auth/auth-context";
import { PrivateKeyInput } from "../auth/private-key-input";
import { currentSigner, SIGNER_TEXTS } from "../auth/signer";
import { useConfig } from "../config/use-config";
import { profileKeys, useReviews } from "../profile/use-profile";
import { gigApi, type ReviewInput } from "./gig-api";
import { gigPermissions } from "./gig-roles";
import { REVIEW_SIGNATURE_TEXTS, signReview } from "./review-signature";
import type { Gig } from "./types";

export const DEFAULT_RATING = 5;
const RATING_WORDS = ["", "Poor", "Fair", "Good", "Very good", "Excellent"];

/** "Invalid Rating: Please select…" → a toast's title and text (SPEC.md §5 writes them as one line). */
export function splitMessage(text: string): { title: string; description: string } {
  const at = text.indexOf(": ");
  return at < 0 ? { title: text, description: "" } : { title: text.slice(0, at), description: text.slice(at + 2) };
}

/** The server's answer to a second review of the same gig (409, "…already submitted…"). */
export function isAlreadySubmitted(err: unknown): boolean {
  return /already submitted/i.test(errorText(err, ""));
}

/** Five stars as a radio group: arrow keys move the choice, each star is labelled "N stars". */
export function StarRatingInput({ value, onChange, legend }: { value: number; onChange: (rating: number) => void; legend: string }) {
  const name = useId();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value;
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1.5 text-sm font-medium text-stone-800">{legend}</legend>
      <div className="flex items-center gap-0.5" onMouseLeave={() => setHover(null)}>
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            onMouseEnter={() => setHover(n)}
            className="cursor-pointer rounded-md p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-500"
          >
            <input type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} className="sr-only" />
            <StarIcon size={28} filled={n <= shown} className={n <= shown ? "text-brand-500" : "text-stone-300"} />
            <span className="sr-only">
              {n} {n === 1 ? "star" : "stars"}
            </span>
          </label>
        ))}
        <span aria-hidden="true" className="ml-2 text-sm text-stone-600">
          {RATING_WORDS[shown] ?? ""}
        </span>
      </div>
    </fieldset>
  );
}

export type ReviewPrompt = "submitted" | "approved";

const PROMPT_TEXT: Record<ReviewPrompt, string> = {
  submitted: "Work submitted. While the hirer looks at it, how was working with them?",
  approved: "Work approved and payment released. How was working with the worker?",
};

/**
 * The review of the other party, for a party of a gig the state machine lets them review. With a
 * `prompt` it opens by itself after that action; otherwise it waits behind a button. It is not shown
 * once the member's review of this gig is among the other party's reviews.
 */
export function GigReviewPanel({
  gig,
  prompt,
  onPromptClosed,
  onFinished,
}: {
  gig: Gig;
  prompt: ReviewPrompt | null;
  /** Skipped: the step closes, and the review waits behind its button. */
  onPromptClosed: () => void;
  /** Sent, or already on record: nothing more to offer. */
  onFinished: () => void;
}) {
  const id = useId();
  const { user } = useAuth();
  const p = gigPermissions(gig, user?.id);
  const revieweeId = p.isHirer ? gig.workerId : gig.hirerId;
  const other = p.isHirer ? "worker" : "hirer";
  const reviews = useReviews(revieweeId ?? undefined);
  const [open, setOpen] = useState(false);

  const already = reviews.data?.some((r) => (r as { gigId?: string }).gigId === gig.id && !!user && r.reviewerUsername === user.username);
  if (!revieweeId || !p.can("review") || already) return null;
  // Asked later, the button waits for the list; right after an action the form shows at once.
  if (!prompt && reviews.isPending) return null;

  if (!prompt && !open) {
    return (
      <section aria-labelledby={`${id}-title`} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-stone-200 p-3">
        <div className="flex flex-col gap-0.5">
          <h3 id={`${id}-title`} className="text-sm font-semibold">
            Review the {other}
          </h3>
          <p className="text-xs text-stone-500">Your rating appears on their public profile. One review per gig.</p>
        </div>
        <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
          <StarIcon />
          Leave a Review
        </Button>
      </section>
    );
  }

  return (
    <ReviewForm
      gig={gig}
      revieweeId={revieweeId}
      other={other}
      intro={prompt ? PROMPT_TEXT[prompt] : null}
      onFinished={() => {
        onFinished();
        onPromptClosed();
      }}
      onSkip={() => {
        setOpen(false);
        onPromptClosed();
      }}
    />
  );
}

/** The server refused the signed event (it does not match the review, or its signature is wrong): 400 review_event_refused. */
function isSignatureRefused(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 400) return false;
  try {
    return (JSON.parse(err.body) as { error?: unknown }).error === "review_event_refused";
  } catch {
    return false;
  }
}

type Phase = "idle" | "signing" | "sending" | "sending-unsigned";

function ReviewForm({
  gig,
  revieweeId,
  other,
  intro,
  onFinished,
  onSkip,
}: {
  gig: Gig;
  revieweeId: string;
  other: "hirer" | "worker";
  intro: string | null;
  onFinished: () => void;
  onSkip: () => void;
}) {
  const id = useId();
  const { toast } = useToast();
  const { user } = useAuth();
  const { data: config } = useConfig();
  const queryClient = useQueryClient();
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [comment, setComment] = useState("");
  const [phase, setPhase] = useState<Phase>("idle");
  // Why the review cannot be signed by the app's signer (it failed, or the server refused what it signed): the form
  // then offers a private key for this one signature, or sending it unsigned.
  const [signFailure, setSignFailure] = useState<string | null>(null);
  const [typedKey, setTypedKey] = useState("");
  const [keyError, setKeyError] = useState<string | null>(null);
  const signing = useRef<AbortController | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Right after the action the step may sit below the fold of the modal: bring it into view.
  useEffect(() => {
    if (intro) formRef.current?.scrollIntoView?.({ behavior: "smooth", block: "nearest" });
  }, [intro]);
  // A signature still awaited when the form goes away is given up.
  useEffect(() => () => signing.current?.abort(), []);

  const signer = currentSigner();
  const askForKey = !signer || signFailure !== null;
  const busy = phase !== "idle";

  /** The review as the rules read it, or null after telling the member what is wrong. */
  const checked = (): ReviewInput | null => {
    const check = reviewSchema.safeParse({ rating, comment, revieweeId });
    if (!check.success) {
      const message = check.error.issues[0]?.message ?? INVALID_RATING;
      const { title, description } = splitMessage(message);
      toast({ title, description, variant: "destructive" });
      return null;
    }
    const review: ReviewInput = { rating: check.data.rating, revieweeId };
    if (check.data.comment) review.comment = check.data.comment;
    return review;
  };

  const send = async (review: ReviewInput) => {
    setPhase(review.event ? "sending" : "sending-unsigned");
    try {
      await gigApi.review(gig.id, review);
      toast({
        title: "Review Submitted",
        description: review.event
          ? `Thank you for rating the ${other}. Your review is signed with your Nostr key, so anyone can verify it.`
          : `Thank you for rating the ${other}.`,
      });
      onFinished();
    } catch (err) {
      if (isAlreadySubmitted(err)) {
        // SPEC.md §5: a review already on record is not the member's problem; the flow goes on.
        onFinished();
      } else {
        const text = errorText(err);
        const invalid = text.startsWith("Invalid Rating");
        toast({
          title: invalid ? "Invalid Rating" : "Failed to Submit Review",
          description: invalid ? splitMessage(text).description : text,
          variant: "destructive",
        });
        if (review.event && isSignatureRefused(err)) setSignFailure(text);
      }
    } finally {
      setPhase("idle");
      void queryClient.invalidateQueries({ queryKey: profileKeys.reviews(revieweeId) });
      void queryClient.invalidateQueries({ queryKey: profileKeys.byNpubAll() });
    }
  };

  /** Signs the review (the app's signer, or the typed key), then sends it with its event. */
  const signAndSend = async (how: "current" | "key") => {
    const review = checked();
    if (!review || !user) return;
    const controller = new AbortController();
    signing.current = controller;
    setKeyError(null);
    setPhase("signing");
    let event: SignedNostrEvent;
    try {
      event = await signReview(
        {
          gig,
          revieweeId,
          revieweeRole: other,
          rating: review.rating,
          comment: review.comment ?? null,
          platformPubkey: config?.nostr?.platformPubkey ?? null,
        },
        user,
        how === "key" ? { kind: "key", typed: typedKey } : { kind: "current", signal: controller.signal },
      );
    } catch (err) {
      setPhase("idle");
      if (controller.signal.aborted) return; // Cancelled: the form waits as it was.
      const text = errorText(err, "Your review could not be signed.");
      if (how === "key") setKeyError(text);
      else setSignFailure(text);
      return;
    } finally {
      if (signing.current === controller) signing.current = null;
    }
    if (controller.signal.aborted) {
      setPhase("idle");
      return;
    }
    setTypedKey("");
    await send({ ...review, event });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void signAndSend(askForKey ? "key" : "current");
  };

  const sendUnsigned = () => {
    const review = checked();
    if (review) void send(review);
  };

  const keyId = `${id}-key`;
  const keyHint = "Used only in your browser for this one signature; never stored or sent.";
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-lg border border-brand-200 bg-brand-50/40 p-3">
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-title`} className="flex items-center gap-1.5 text-sm font-semibold">
          {intro && <CheckIcon className="text-green-700" />}
          Review the {other}
        </h3>
        {intro && <p className="text-sm text-stone-700">{intro}</p>}
      </div>
      <StarRatingInput value={rating} onChange={setRating} legend={`Your rating of the ${other}`} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-comment`}>
          Comment <span className="font-normal text-stone-500">(optional)</span>
        </Label>
        <Textarea
          id={`${id}-comment`}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          rows={3}
          maxLength={2000}
          className="min-h-20 bg-white"
          placeholder={other === "hirer" ? "Clear brief, quick answers..." : "Delivered on time, great communication..."}
        />
      </div>
      {askForKey ? (
        <div role="group" aria-labelledby={`${id}-sign-title`} className="flex flex-col gap-2 rounded-md border border-stone-200 bg-white p-3">
          <h4 id={`${id}-sign-title`} className="flex items-center gap-1.5 text-sm font-semibold">
            <KeyIcon size={16} />
            Sign your review
          </h4>
          {signFailure ? (
            <p role="alert" className="text-sm text-stone-700">
              {signFailure} {REVIEW_SIGNATURE_TEXTS.signFailed}
            </p>
          ) : (
            <p className="text-sm text-stone-700">{REVIEW_SIGNATURE_TEXTS.noSigner}</p>
          )}
          <FormField id={keyId} label="Your private key (nsec or hex)" hint={keyHint} error={keyError}>
            <PrivateKeyInput
              id={keyId}
              value={typedKey}
              onChange={(value) => {
                setTypedKey(value);
                setKeyError(null);
              }}
              invalid={!!keyError}
              describedBy={describedBy(keyId, keyHint, keyError)}
            />
          </FormField>
        </div>
      ) : (
        <p className="flex items-center gap-1.5 text-xs text-stone-600">
          <ShieldIcon size={14} className="shrink-0 text-green-700" />
          Your {SIGNER_TEXTS.name[signer.kind]} signs this review with your Nostr key, so anyone can verify it.
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {phase === "signing" && !askForKey ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              signing.current?.abort();
              setPhase("idle");
            }}
          >
            Cancel
          </Button>
        ) : (
          <Button size="sm" variant="ghost" onClick={onSkip} disabled={busy}>
            {intro ? "Skip for Now" : "Cancel"}
          </Button>
        )}
        {askForKey && (
          <Button size="sm" variant="outline" onClick={sendUnsigned} disabled={busy}>
            {phase === "sending-unsigned" ? "Submitting..." : "Submit Unsigned"}
          </Button>
        )}
        <Button type="submit" size="sm" disabled={busy}>
          {phase === "signing" ? "Signing..." : phase === "sending" ? "Submitting..." : askForKey ? "Sign & Submit" : "Submit Review"}
        </Button>
      </div>
    </form>
  );
}
