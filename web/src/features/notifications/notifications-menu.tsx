// The notifications dropdown (SPEC.md §2, §4 Notification click): title, Mark all read only while something
// is unread, the list (at most 400px high) or 'No notifications yet'. Choosing one marks it read when
// unread and, with a gig, goes to the Active tab for that gig (its chat for a message). The list is read when
// the member points at the bell or opens it, not with every page: the badge's count is what each page shows.
import { useState } from "react";
import { useNavigate } from "react-router";
import { UserAvatar } from "../../components/ui/avatar";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { BellIcon, CheckIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";
import { timeAgo } from "../../lib/format";
import { BellFace, bellButtonClasses, bellLabel } from "./bell-face";
import { notificationHref, useMarkRead, useNotifications, type AppNotification } from "./use-notifications";

export function NotificationsMenu({ count }: { count: number }) {
  const navigate = useNavigate();
  // Asked for once the member reaches for the bell (a pointer over it, focus, or opening it), and read again at
  // each later opening unless that read is still under way.
  const [wanted, setWanted] = useState(false);
  const list = useNotifications(wanted);
  const want = () => setWanted(true);
  const { markRead, markAllRead } = useMarkRead();
  const items = list.data ?? [];
  const hasUnread = count > 0 || items.some((n) => !n.isRead);

  const choose = (n: AppNotification) => {
    if (!n.isRead) markRead.mutate(n.id);
    const href = notificationHref(n);
    if (href) navigate(href);
  };

  return (
    <DropdownMenu
      onOpenChange={(open) => {
        if (!open) return;
        if (!wanted) want();
        else if (!list.isFetching) void list.refetch();
      }}
    >
      <DropdownMenuTrigger className={bellButtonClasses} aria-label={bellLabel(count)} onPointerEnter={want} onFocus={want}>
        <BellFace count={count} />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-[min(22rem,calc(100vw-1rem))] p-0" collisionPadding={8}>
        <div className="flex items-center justify-between gap-2 px-3 py-2">
          <DropdownMenuLabel className="p-0 text-sm font-semibold text-stone-900">Notifications</DropdownMenuLabel>
          {hasUnread && (
            <DropdownMenuItem
              className="px-2 py-1 text-xs font-medium text-brand-700"
              onSelect={(event) => {
                event.preventDefault();
                markAllRead.mutate();
              }}
            >
              <CheckIcon size={14} />
              Mark all read
            </DropdownMenuItem>
          )}
        </div>
        <DropdownMenuSeparator className="my-0" />
        <div className="max-h-[400px] overflow-y-auto p-1" data-testid="notifications-list">
          {list.isPending ? (
            <div className="flex flex-col gap-2 p-2">
              <Skeleton className="h-12" />
              <Skeleton className="h-12" />
            </div>
          ) : items.length === 0 ? (
            <p className="flex flex-col items-center gap-2 px-3 py-8 text-center text-sm text-stone-500">
              <BellIcon size={22} className="text-stone-300" />
              No notifications yet
            </p>
          ) : (
            items.map((n) => (
              <DropdownMenuItem key={n.id} onSelect={() => choose(n)} className={cn("items-start gap-3 py-2.5", !n.isRead && "bg-brand-50/60")}>
                <UserAvatar user={{ displayName: n.actorName, username: n.actorName, profilePicture: n.actorPicture }} size="sm" />
                <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <span className={cn("text-sm", n.isRead ? "text-stone-700" : "font-semibold text-stone-900")}>{n.title}</span>
                  <span className="line-clamp-2 text-xs break-words text-stone-600">{n.message}</span>
                  <span className="text-[11px] text-stone-500">{timeAgo(n.createdAt)}</span>
                </span>
                {!n.isRead && (
                  <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-brand-500">
                    <span className="sr-only">Unread</span>
                  </span>
                )}
              </DropdownMenuItem>
            ))
          )}
        </div>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
