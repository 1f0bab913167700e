// A gig's chat history (GET /api/gigs/{id}/messages, oldest first, paged back by X-Next-Cursor) merged
// with what arrives live, de-duplicated by id.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { chatMessageViewSchema, type ChatMessageView } from "../../../../domain/chat-protocol";
import { apiRequest } from "../../lib/api";

export const chatKeys = {
  /** Paged (useInfiniteQuery) data lives under its own key part, apart from any plain read of the same path. */
  messages: (gigId: string) => ["/api/gigs", gigId, "messages", { paged: true }] as const,
};

interface HistoryPage {
  messages: ChatMessageView[];
  nextCursor: string | null;
}

async function fetchHistory(gigId: string, before: string | null): Promise<HistoryPage> {
  const query = before ? `?before=${encodeURIComponent(before)}` : "";
  const res = await apiRequest("GET", `/api/gigs/${gigId}/messages${query}`);
  const messages = chatMessageViewSchema.array().parse(await res.json());
  return { messages, nextCursor: res.headers.get("X-Next-Cursor") };
}

/** Messages in order with no id twice: the later copy of a message replaces nothing. */
export function mergeMessages(...lists: readonly (readonly ChatMessageView[])[]): ChatMessageView[] {
  const byId = new Map<string, ChatMessageView>();
  for (const list of lists) for (const m of list) if (!byId.has(m.id)) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
}

export function useChatMessages(gigId: string, enabled: boolean) {
  const history = useInfiniteQuery({
    queryKey: chatKeys.messages(gigId),
    queryFn: ({ pageParam }) => fetchHistory(gigId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled,
    // Reopened, the chat asks again: what was said live last time, or since, is not in the cached pages.
    refetchOnMount: "always",
  });
  const [live, setLive] = useState<ChatMessageView[]>([]);
  const receive = useCallback((message: ChatMessageView) => {
    setLive((current) => (current.some((m) => m.id === message.id) ? current : [...current, message]));
  }, []);
  // Pages run newest to oldest; each page is oldest first.
  const pages = history.data?.pages;
  const messages = useMemo(() => mergeMessages(...[...(pages ?? [])].reverse().map((p) => p.messages), live), [pages, live]);
  return { messages, receive, history };
}
