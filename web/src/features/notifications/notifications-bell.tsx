// The top bar's notifications bell (SPEC.md §2 Notifications dropdown), for signed-in members. The unread
// badge shows at once; the dropdown's code (and its menu primitives) loads in its own chunk.
import { Suspense } from "react";
import { BellFace, bellButtonClasses, bellLabel } from "./bell-face";
import { useUnreadCount } from "./use-notifications";
import { lazyPart } from "../../lib/lazy-part";

const NotificationsMenu = lazyPart(() => import("#browser-only/notifications-menu").then((m) => m.NotificationsMenu));

export function NotificationsBell() {
  const count = useUnreadCount().data ?? 0;
  return (
    <Suspense
      fallback={
        <button type="button" className={bellButtonClasses} aria-label={bellLabel(count)} disabled>
          <BellFace count={count} />
        </button>
      }
    >
      <NotificationsMenu count={count} />
    </Suspense>
  );
}
