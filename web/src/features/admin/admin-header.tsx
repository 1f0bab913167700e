// The admin panel's header (SPEC.md §2 /admin): brand, the notifications popover with the unread
// chats (polled every 5 s, badge count) and Logout.
import * as Popover from "@radix-ui/react-popover";
import { useMutation } from "@tanstack/react-query";
import { unreadBadge } from "../../../../domain/format";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { BellIcon, LogOutIcon, MessageIcon } from "../../components/ui/icons";
import { timeAgo } from "../../lib/format";
import { LogoMark } from "../layout/logo";
import { adminRequest, useAdminSession } from "./admin-session";
import { useUnreadChats } from "./use-admin";

export function AdminHeader({ onOpenChat }: { onOpenChat: (gigId: string, title: string) => void }) {
  const { token, end } = useAdminSession();
  const unread = useUnreadChats();
  const chats = unread.data ?? [];
  const badge = unreadBadge(chats.length);
  const logout = useMutation({
    // The session ends here whatever the server answers.
    mutationFn: () => adminRequest(token, "POST", "/api/admin/logout").catch(() => undefined),
    onSettled: () => end(),
  });

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:h-16 sm:px-6">
        <span className="flex min-w-0 items-center gap-2 text-lg font-bold tracking-tight text-stone-900">
          <LogoMark />
          <span className="truncate">
            Gigstr <span className="font-medium text-stone-500">Admin</span>
          </span>
        </span>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <Popover.Root>
            <Popover.Trigger
              className="relative inline-flex h-10 w-10 cursor-pointer items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-500"
              aria-label={chats.length ? `Unread chats: ${chats.length}` : "Unread chats"}
            >
              <BellIcon size={20} />
              {badge && (
                <span
                  data-testid="unread-chats-badge"
                  className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold text-white"
                >
                  {badge}
                </span>
              )}
            </Popover.Trigger>
            <Popover.Portal>
              <Popover.Content
                align="end"
                sideOffset={6}
                collisionPadding={8}
                className="z-50 w-[min(22rem,calc(100vw-1rem))] rounded-xl border border-stone-200 bg-white p-0 shadow-lg focus:outline-none"
              >
                <h2 className="border-b border-stone-200 px-3 py-2 text-sm font-semibold text-stone-900">Unread Chats</h2>
                <div className="max-h-[400px] overflow-y-auto p-1">
                  {chats.length === 0 ? (
                    <p className="flex flex-col items-center gap-2 px-3 py-8 text-center text-sm text-stone-500">
                      <MessageIcon size={22} className="text-stone-300" />
                      No unread chats
                    </p>
                  ) : (
                    <ul>
                      {chats.map((chat) => (
                        <li key={chat.gigId}>
                          <Popover.Close asChild>
                            <button
                              type="button"
                              onClick={() => onOpenChat(chat.gigId, chat.gigTitle)}
                              className="flex w-full cursor-pointer flex-col items-start gap-1 rounded-md px-3 py-2.5 text-left hover:bg-stone-100"
                            >
                              <span className="flex w-full items-center gap-2">
                                <span className="min-w-0 flex-1 truncate text-sm font-semibold text-stone-900">{chat.gigTitle}</span>
                                <Badge variant={chat.reason === "disputed" ? "danger" : "info"}>{chat.reason === "disputed" ? "Disputed" : "Mention"}</Badge>
                              </span>
                              <span className="text-xs text-stone-600">
                                {chat.messageCount} new {chat.messageCount === 1 ? "message" : "messages"} · {timeAgo(chat.lastMessageTime)}
                              </span>
                            </button>
                          </Popover.Close>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </Popover.Content>
            </Popover.Portal>
          </Popover.Root>
          <Button variant="outline" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOutIcon size={16} /> Logout
          </Button>
        </div>
      </div>
    </header>
  );
}
