// The bell itself (icon, unread badge, accessible name): shared by the bell's placeholder and its dropdown.
import { BellIcon } from "../../components/ui/icons";
import { unreadBadge } from "../../../../domain/format";

export function bellLabel(count: number): string {
  // The name contains the badge's visible text (WCAG 2.5.3, label in name): "9+" above 9. Not in
  // parentheses: checkers (axe) read a parenthetical as an aside, not as part of the name.
  return count > 0 ? `Notifications, ${unreadBadge(count)} unread` : "Notifications";
}

export function BellFace({ count }: { count: number }) {
  const badge = unreadBadge(count);
  return (
    <>
      <BellIcon size={20} />
      {badge && (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-none font-bold text-white ring-2 ring-white"
        >
          {badge}
        </span>
      )}
    </>
  );
}

export const bellButtonClasses =
  "relative inline-flex h-10 w-10 cursor-pointer items-center justify-center rounded-full text-stone-600 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 data-[state=open]:bg-stone-100";
