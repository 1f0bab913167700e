// Interest (pre-claim) messages (SPEC.md §2 Gig details modal, §4): a member writes once to say why they
// want the gig; its owner (the hirer of a job, the worker of a service offering) approves or rejects, then
// enables claiming for an approved one.
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { UserAvatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { CheckIcon, XIcon } from "../../components/ui/icons";
import { Label, Textarea } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { shorten, timeAgo } from "../../lib/format";
import { gigApi, useGigMutation, type InterestDecision } from "./gig-api";
import type { Gig, InterestMessage } from "./types";

const STATUS_BADGE: Record<string, { label: string; variant: "warning" | "success" | "danger" }> = {
  pending: { label: "Pending review", variant: "warning" },
  approved: { label: "Approved", variant: "success" },
  rejected: { label: "Rejected", variant: "danger" },
};

export function InterestStatusBadge({ message }: { message: InterestMessage }) {
  const s = STATUS_BADGE[message.status] ?? { label: message.status, variant: "warning" as const };
  return <Badge variant={s.variant}>{s.label}</Badge>;
}

/** Who answers a member's interest message: the gig's owner, the hirer of a job or the worker of a service offering. */
const ownerWord = (gig: Pick<Gig, "gigType">) => (gig.gigType === "service_offering" ? "the worker" : "the hirer");

/** A member's own interest message: the form to send one, or the one sent and where it stands. */
export function MyInterestPanel({ gig, mine, loading }: { gig: Pick<Gig, "id" | "gigType">; mine: InterestMessage | undefined; loading: boolean }) {
  const id = useId();
  const gigId = gig.id;
  const owner = ownerWord(gig);
  const Owner = owner.charAt(0).toUpperCase() + owner.slice(1);
  const { toast } = useToast();
  const [message, setMessage] = useState("");
  const send = useGigMutation((text: string) => gigApi.sendInterest(gigId, text));

  if (loading) return <Skeleton className="h-28 rounded-lg" />;

  if (mine) {
    return (
      <section aria-labelledby={`${id}-mine`} className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={`${id}-mine`} className="text-sm font-semibold">
            Your interest message
          </h3>
          <InterestStatusBadge message={mine} />
        </div>
        <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{mine.message}</p>
        <p className="text-xs text-stone-500">
          {mine.status === "pending" && `${Owner} has not answered yet.`}
          {mine.status === "rejected" && `${Owner} chose someone else for this gig.`}
          {mine.status === "approved" && (mine.claimEnabled ? "Claiming is enabled for you." : `Approved. Waiting for ${owner} to enable claiming.`)}
        </p>
      </section>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) {
      toast({ title: "Message Required", description: "Please write a message to express your interest.", variant: "destructive" });
      return;
    }
    send.mutate(text, {
      onSuccess: () => {
        setMessage("");
        toast({ title: "Interest Sent!", description: `${Owner} will review your message.` });
      },
      onError: (err) => toast({ title: "Failed to Send Message", description: errorText(err), variant: "destructive" }),
    });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3">
      <Label htmlFor={`${id}-interest`}>Express interest</Label>
      <p id={`${id}-interest-hint`} className="text-xs text-stone-500">
        {gig.gigType === "service_offering"
          ? "Tell the worker what you need. Once they approve and enable hiring, you can hire them. You can send one message."
          : "Tell the hirer why you are a good fit. Once they approve and enable claiming, you can claim the gig. You can send one message."}
      </p>
      <Textarea
        id={`${id}-interest`}
        aria-describedby={`${id}-interest-hint`}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        rows={3}
        maxLength={2000}
        placeholder="Hi! I have done similar work before..."
      />
      <Button type="submit" size="sm" className="self-end" disabled={send.isPending}>
        {send.isPending ? "Sending..." : "Send Interest"}
      </Button>
    </form>
  );
}

const DECISION_TOASTS: Record<InterestDecision, { ok: string; okText: string; fail: string }> = {
  approve: { ok: "Interest Approved", okText: "Enable claiming when you want them to take the gig.", fail: "Failed to Approve" },
  reject: { ok: "Interest Rejected", okText: "The member has been told.", fail: "Failed to Reject" },
  "enable-claim": { ok: "Claim Enabled", okText: "They can now claim this gig.", fail: "Failed to Enable Claim" },
};

/** The owner's review of every interest message on an open gig (the hirer of a job, the worker of an offering). */
export function InterestReviewPanel({ messages, loading }: { messages: InterestMessage[]; loading: boolean }) {
  const id = useId();
  const { toast } = useToast();
  const decide = useGigMutation(({ messageId, decision }: { messageId: string; decision: InterestDecision }) =>
    gigApi.decideInterest(messageId, decision),
  );
  const run = (messageId: string, decision: InterestDecision) => {
    const texts = DECISION_TOASTS[decision];
    decide.mutate(
      { messageId, decision },
      {
        onSuccess: () => toast({ title: texts.ok, description: texts.okText }),
        onError: (err) => toast({ title: texts.fail, description: errorText(err), variant: "destructive" }),
      },
    );
  };
  // One decision at a time: a second press elsewhere would leave the first message's buttons live while it is sent.
  const busy = decide.isPending;

  return (
    <section aria-labelledby={`${id}-review`} className="flex flex-col gap-2">
      <h3 id={`${id}-review`} className="text-sm font-semibold">
        Interest messages {messages.length > 0 && <span className="font-normal text-stone-500">({messages.length})</span>}
      </h3>
      {loading ? (
        // The empty list's box, to the pixel: most gigs have no interest message yet, and the buttons below stay put.
        <Skeleton className="rounded-lg border border-transparent p-4 text-sm">{"\u00a0"}</Skeleton>
      ) : messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 p-4 text-center text-sm text-stone-500">No interest messages yet</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {messages.map((m) => {
            const name = m.sender.displayName || shorten(m.sender.username, true);
            return (
              <li key={m.id} className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div className="flex min-w-0 items-center gap-2">
                    <UserAvatar user={m.sender} size="xs" />
                    <Link to={`/user/${encodeURIComponent(m.sender.username)}`} className="truncate text-sm font-medium hover:underline">
                      {name}
                    </Link>
                    <span className="shrink-0 text-xs text-stone-500">{timeAgo(m.createdAt)}</span>
                  </div>
                  <div className="flex items-center gap-1">
                    <InterestStatusBadge message={m} />
                    {m.claimEnabled && <Badge variant="brand">Claim enabled</Badge>}
                  </div>
                </div>
                <p className="text-sm break-words whitespace-pre-wrap text-stone-700">{m.message}</p>
                {m.status === "pending" && (
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" onClick={() => run(m.id, "approve")} disabled={busy} aria-label={`Approve ${name}`}>
                      <CheckIcon />
                      Approve
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => run(m.id, "reject")} disabled={busy} aria-label={`Reject ${name}`}>
                      <XIcon />
                      Reject
                    </Button>
                  </div>
                )}
                {m.status === "approved" && !m.claimEnabled && (
                  <Button size="sm" className="self-start" onClick={() => run(m.id, "enable-claim")} disabled={busy} aria-label={`Enable Claim for ${name}`}>
                    Enable Claim
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
