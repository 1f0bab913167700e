// Where the gig's chat opens (SPEC.md §2 Chat modal): the chat feature's modal, loaded on first use.
import { lazy } from "react";

const ChatModal = lazy(() => import("#browser-only/chat-modal").then((m) => ({ default: m.ChatModal })));

export function GigChatSlot({ gigId, onOpenChange }: { gigId: string; onOpenChange: (open: boolean) => void }) {
  return <ChatModal key={gigId} gigId={gigId} open onOpenChange={onOpenChange} />;
}
