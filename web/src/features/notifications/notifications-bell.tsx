// Slot for the notifications bell of the top bar (SPEC.md §2 Notifications dropdown). Rendered only for
// signed-in members; the notifications feature fills it in (bell, unread badge, dropdown).
export function NotificationsBell() {
  return null;
}
