// Sticky top navigation (SPEC.md §2): brand, the main page tabs, and the member's corner.
import { Suspense } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";
import { useAuth } from "../auth/auth-context";
import { useLoginDialog } from "../auth/login-dialog-context";
import { NotificationsBell } from "#browser-only/notifications-bell";
import { LogoMark } from "./logo";
import { mainTabHref, useMainTab, type MainTab } from "./main-tab";
import { UserAvatar } from "../../components/ui/avatar";
import { lazyPart } from "../../lib/lazy-part";

// The menu (and its popper code) only matters to members: it loads once someone is signed in.
const UserMenu = lazyPart(() => import("#browser-only/user-menu").then((m) => m.UserMenu));

const TAB_LABELS: Record<MainTab, string> = { browse: "Browse", active: "Active", post: "Post" };

function MainTabs({ className }: { className?: string }) {
  const { user } = useAuth();
  const current = useMainTab();
  const tabs: MainTab[] = user ? ["browse", "active", "post"] : ["browse", "post"];
  return (
    <ul className={cn("gap-1", className)}>
      {tabs.map((tab) => {
        const selected = current === tab;
        return (
          <li key={tab} className="flex-1 md:flex-none">
            <Link
              to={mainTabHref(tab)}
              aria-current={selected ? "page" : undefined}
              className={cn(
                "flex h-9 items-center justify-center rounded-lg px-4 text-sm font-medium transition-colors",
                selected ? "bg-brand-50 text-brand-800 ring-1 ring-brand-200" : "text-stone-600 hover:bg-stone-100 hover:text-stone-900",
              )}
            >
              {TAB_LABELS[tab]}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

export function TopBar() {
  const { user, isLoading, unreachable, retry } = useAuth();
  const { openLogin } = useLoginDialog();
  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-col px-3 sm:px-6">
        <div className="flex h-14 items-center gap-3 sm:h-16">
          <Link to="/" className="flex shrink-0 items-center gap-2 rounded-lg pr-1 text-lg font-bold tracking-tight text-stone-900">
            <LogoMark />
            Gigstr
          </Link>
          <MainTabs className="ml-4 hidden md:flex" />
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            {isLoading ? (
              <Skeleton className="h-9 w-28 rounded-full" />
            ) : user ? (
              <>
                <NotificationsBell />
                <Suspense fallback={<UserAvatar user={user} size="sm" className="m-1" />}>
                  <UserMenu user={user} />
                </Suspense>
              </>
            ) : unreachable ? (
              // Still signed in on this device: the account could not be loaded, not refused.
              <div role="alert" className="flex items-center gap-2 text-sm text-stone-600">
                <span className="hidden sm:inline">Could not load your account.</span>
                <Button onClick={retry} size="md" variant="outline">
                  Retry
                </Button>
              </div>
            ) : (
              <Button onClick={() => openLogin()} size="md">
                Login with Nostr
              </Button>
            )}
          </div>
        </div>
        <MainTabs className="flex pb-2 md:hidden" />
      </nav>
    </header>
  );
}
