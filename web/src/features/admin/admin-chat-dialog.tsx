// The admin's chat dialog for one gig (SPEC.md §2 /admin, §5 Admin message, §7): the messages, polled
// every 2 s while open (reading marks the chat read), and a box that sends as the platform admin;
// Enter without Shift sends, blank messages are not sent.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { Textarea } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";
import { shortId } from "../../lib/format";
import { useAdminChat, useSendAdminMessage } from "./use-admin";

export interface ChatTarget {
  gigId: string;
  title: string;
}

export function AdminChatDialog({ target, onClose }: { target: ChatTarget | null; onClose: () => void }) {
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl">{target && <ChatBody key={target.gigId} target={target} />}</DialogContent>
    </Dialog>
  );
}

function time(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function ChatBody({ target }: { target: ChatTarget }) {
  const id = useId();
  const chat = useAdminChat(target.gigId);
  const send = useSendAdminMessage(target.gigId);
  const [draft, setDraft] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const messages = chat.data ?? [];
  const last = messages[messages.length - 1]?.id;

  // Keep the newest message in view as messages arrive.
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [last]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = draft.trim();
    if (!message || send.isPending) return;
    send.mutate(message, { onSuccess: () => setDraft("") });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle className="break-words">{target.title}</DialogTitle>
        <DialogDescription>
          Gig #{shortId(target.gigId)} · You write as the Platform Admin; both parties see it.
        </DialogDescription>
      </DialogHeader>
      <ol ref={listRef} aria-label="Messages" className="flex max-h-[50dvh] min-h-40 flex-col gap-2 overflow-y-auto rounded-lg bg-stone-50 p-3">
        {chat.isPending ? (
          <>
            <Skeleton className="h-12 w-2/3" />
            <Skeleton className="ml-auto h-12 w-2/3" />
          </>
        ) : messages.length === 0 ? (
          <li className="m-auto text-sm text-stone-500">No messages yet.</li>
        ) : (
          messages.map((m) => {
            const admin = m.senderType === "admin";
            return (
              <li
                key={m.id}
                className={cn(
                  "flex max-w-[85%] flex-col gap-0.5 rounded-xl px-3 py-2 text-sm shadow-sm",
                  admin ? "ml-auto bg-brand-500 text-stone-950" : "bg-white text-stone-900",
                )}
              >
                <span className={cn("text-xs font-semibold", admin ? "text-brand-50" : "text-stone-600")}>
                  {admin ? "Platform Admin" : m.sender.displayName || m.sender.username || "Member"}
                </span>
                <span className="break-words whitespace-pre-wrap">{m.message}</span>
                <span className={cn("text-[11px]", admin ? "text-stone-800" : "text-stone-500")}>{time(m.createdAt)}</span>
              </li>
            );
          })
        )}
      </ol>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <label htmlFor={`${id}-message`} className="sr-only">
          Message as admin
        </label>
        <Textarea
          id={`${id}-message`}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Write to both parties (Enter sends, Shift+Enter for a new line)"
          className="min-h-16 flex-1"
          maxLength={5000}
        />
        <Button type="submit" disabled={!draft.trim() || send.isPending}>
          {send.isPending ? "Sending..." : "Send"}
        </Button>
      </form>
    </>
  );
}
