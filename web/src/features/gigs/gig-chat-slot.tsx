// Where the gig's chat opens (SPEC.md §2 Chat modal): the chat feature's modal, loaded on first use.
import { lazyPart } from "../../lib/lazy-part";

const ChatModal = lazyPart(() => import("#browser-only/chat-modal").then((m) => m.ChatModal));

export function GigChatSlot({ gigId, onOpenChange }: { gigId: string; onOpenChange: (open: boolean) => void }) {
  return <ChatModal key={gigId} gigId={gigId} open onOpenChange={onOpenChange} />;
}
