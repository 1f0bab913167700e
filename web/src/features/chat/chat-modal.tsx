// The chat modal of one gig (SPEC.md §2 Chat modal): history, then live messages over /ws; a connection
// indicator and the admin-monitoring notice; each message with its sender's role (Hirer, Worker, You,
// Platform Admin) and a link to the sender's profile. Enter sends, Shift+Enter starts a new line.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { ADMIN_SENDER_ID, CHAT_MESSAGE_MAX_LENGTH, type ChatMessageView } from "../../../../domain/chat-protocol";
import { UserAvatar } from "../../components/ui/avatar";
import { Badge, type BadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { ShieldIcon } from "../../components/ui/icons";
import { Textarea } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { apiJson } from "../../lib/api";
import { cn } from "../../lib/cn";
import { timeAgo } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { gigKeys } from "../gigs/use-gigs";
import type { Gig } from "../gigs/types";
import { AttachmentItem } from "../files/attachment-list";
import { useChatMessages } from "./use-chat-messages";
import { useChatSocket, type ChatConnection } from "./use-chat-socket";

export type ChatRole = "Hirer" | "Worker" | "You" | "Platform Admin";

/** The role a message is shown with (SPEC.md §2: a senderId of ADMIN or empty is the Platform Admin). */
export function chatRoleOf(
  message: Pick<ChatMessageView, "senderId" | "senderType">,
  gig: Pick<Gig, "hirerId" | "workerId"> | undefined,
  myId: string | undefined,
): ChatRole | null {
  if (message.senderType === "admin" || !message.senderId || message.senderId === ADMIN_SENDER_ID) return "Platform Admin";
  if (myId && message.senderId === myId) return "You";
  if (gig?.hirerId && message.senderId === gig.hirerId) return "Hirer";
  if (gig?.workerId && message.senderId === gig.workerId) return "Worker";
  return null;
}

const ROLE_BADGES: Record<ChatRole, BadgeVariant> = { Hirer: "info", Worker: "success", You: "brand", "Platform Admin": "danger" };

const CONNECTION_TEXT: Record<ChatConnection, { label: string; dot: string }> = {
  connected: { label: "Connected", dot: "bg-green-500" },
  connecting: { label: "Connecting...", dot: "bg-amber-400 animate-pulse" },
  disconnected: { label: "Disconnected, reconnecting...", dot: "bg-red-500" },
  closed: { label: "Not connected", dot: "bg-stone-400" },
};

export interface ChatModalProps {
  gigId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ChatModal({ gigId, open, onOpenChange }: ChatModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl gap-0 p-0 sm:p-0">
        {open && <ChatPanel gigId={gigId} />}
      </DialogContent>
    </Dialog>
  );
}

function ChatPanel({ gigId }: { gigId: string }) {
  const { user } = useAuth();
  const { toast } = useToast();
  const gig = useQuery({ queryKey: gigKeys.detail(gigId), queryFn: () => apiJson<Gig>("GET", `/api/gigs/${gigId}`) });
  const signedIn = !!user;
  const { messages, receive, history } = useChatMessages(gigId, signedIn);
  const { status, problem, send } = useChatSocket(gigId, signedIn, {
    onMessage: receive,
    onSendError: (message) => toast({ title: "Failed to Send Message", description: message, variant: "destructive" }),
    onRejoined: () => void history.refetch(),
  });

  const [draft, setDraft] = useState("");
  const inputId = useId();
  const endRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length]);

  const submit = () => {
    const text = draft.trim();
    if (!text) return;
    if (send(text)) setDraft("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const connection = CONNECTION_TEXT[status];
  return (
    <div className="flex max-h-[calc(100dvh-2rem)] min-h-[min(36rem,calc(100dvh-2rem))] flex-col">
      <DialogHeader className="mb-0 border-b border-stone-200 p-4 sm:p-5">
        <DialogTitle>{gig.data ? `Chat: ${gig.data.title}` : "Gig Chat"}</DialogTitle>
        <p className="flex items-center gap-2 text-xs text-stone-600" role="status" aria-live="polite">
          <span className={cn("inline-block h-2 w-2 rounded-full", connection.dot)} aria-hidden />
          {connection.label}
        </p>
        <DialogDescription className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
          <ShieldIcon size={14} className="mt-0.5 shrink-0" />
          This chat is monitored by the platform admin, who may read it and post in it to keep trades safe and to settle disputes.
        </DialogDescription>
      </DialogHeader>

      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto bg-stone-50 p-4 sm:p-5" aria-label="Messages" role="log">
        {history.hasNextPage && (
          <Button variant="ghost" size="sm" className="self-center" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
            {history.isFetchingNextPage ? "Loading..." : "Load earlier messages"}
          </Button>
        )}
        {history.isPending && signedIn && <p className="text-center text-sm text-stone-500">Loading messages...</p>}
        {/* Refused or signed out, the reason says it all: no history error beside it, no invitation to say hello. */}
        {problem ? (
          <p className="text-center text-sm text-red-600">{problem}</p>
        ) : history.isError ? (
          <p className="text-center text-sm text-red-600">Could not load earlier messages.</p>
        ) : (
          !history.isPending && messages.length === 0 && <p className="text-center text-sm text-stone-500">No messages yet. Say hello!</p>
        )}
        {messages.map((m) => (
          <ChatBubble key={m.id} message={m} role={chatRoleOf(m, gig.data, user?.id)} />
        ))}
        <div ref={endRef} />
      </div>

      <form
        className="flex items-end gap-2 border-t border-stone-200 p-3 sm:p-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Message
        </label>
        <Textarea
          id={inputId}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Type a message... (Enter to send, Shift+Enter for a new line)"
          rows={2}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          className="min-h-12 flex-1 resize-none"
        />
        <Button type="submit" disabled={!draft.trim() || status !== "connected"}>
          Send
        </Button>
      </form>
    </div>
  );
}

function ChatBubble({ message, role }: { message: ChatMessageView; role: ChatRole | null }) {
  const mine = role === "You";
  const admin = role === "Platform Admin";
  const name = admin ? "Platform Admin" : message.sender.displayName || message.sender.username || "Unknown";
  return (
    <article className={cn("flex max-w-[85%] gap-2", mine ? "flex-row-reverse self-end" : "self-start")} aria-label={`Message from ${name}`}>
      {!admin && <UserAvatar user={message.sender} size="sm" />}
      <div className="flex min-w-0 flex-col gap-1">
        <div className={cn("flex flex-wrap items-center gap-1.5 text-xs text-stone-500", mine && "justify-end")}>
          {admin || !message.sender.username ? (
            <span className="font-semibold text-stone-800">{name}</span>
          ) : (
            <Link to={`/user/${message.sender.username}`} className="max-w-48 truncate font-semibold text-stone-800 hover:underline">
              {name}
            </Link>
          )}
          {role && <Badge variant={ROLE_BADGES[role]}>{role}</Badge>}
          <time dateTime={message.createdAt}>{timeAgo(message.createdAt)}</time>
        </div>
        <div
          className={cn(
            "rounded-2xl px-3 py-2 text-sm break-words whitespace-pre-wrap",
            mine ? "bg-brand-500 text-stone-950" : admin ? "border border-red-200 bg-red-50 text-red-950" : "bg-white text-stone-900 ring-1 ring-stone-200",
          )}
        >
          {message.message}
        </div>
        {message.fileAttachment && <AttachmentItem attachment={message.fileAttachment} />}
      </div>
    </article>
  );
}
