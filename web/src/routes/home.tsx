// / : the main page with the tabs browse, active and post (SPEC.md §2).
import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Skeleton } from "../components/ui/skeleton";
import { useAuth } from "../features/auth/auth-context";
import { LoginRequiredCard } from "../features/auth/login-required-card";
import { ActiveGigs } from "#browser-only/active-gigs";
import { BrowseGigs } from "../features/gigs/browse-gigs";
import { GigDialogsProvider } from "../features/gigs/gig-dialogs";
import { useGigIntent } from "../features/gigs/gig-intent";
import { PostGig } from "../features/gigs/post-gig";
import { readMainPageParams, useMainTab } from "../features/layout/main-tab";
import { useHydrated } from "../lib/hydration";

/**
 * Honours ?tab=, ?gigId= and ?openChat=true: the gig to open is handed to the gig screens, the tab is kept
 * in the history entry's state, and the URL is reset to the root (SPEC.md §2 Routes).
 */
function useMainPageParams() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { openGig } = useGigIntent();
  useEffect(() => {
    if (search.toString() === "") return;
    const { tab, intent } = readMainPageParams(search);
    if (intent) openGig(intent);
    navigate("/", { replace: true, state: tab ? { tab } : null });
  }, [search, navigate, openGig]);
}

function MembersOnly({ action, children }: { action: string; children: React.ReactNode }) {
  const { user, isLoading } = useAuth();
  // Whether this browser holds a session is known only once hydrated (the Worker's HTML is a visitor's): until
  // then the tab's placeholder, so a member's reload does not flash the visitor's Login Required card.
  const hydrated = useHydrated();
  if (isLoading || !hydrated) return <Skeleton className="mx-auto h-48 max-w-md rounded-xl" />;
  if (!user) return <LoginRequiredCard action={action} />;
  return children;
}

export function HomeRoute() {
  useMainPageParams();
  // Every tab opens the same gig modals (details, manage, payment, chat).
  return (
    <GigDialogsProvider>
      <MainTabContent />
    </GigDialogsProvider>
  );
}

function MainTabContent() {
  const tab = useMainTab() ?? "browse";
  switch (tab) {
    case "browse":
      return <BrowseGigs />;
    case "active":
      return (
        <MembersOnly action="view your active gigs">
          <ActiveGigs />
        </MembersOnly>
      );
    case "post":
      return (
        <MembersOnly action="post gigs">
          <PostGig />
        </MembersOnly>
      );
  }
}
