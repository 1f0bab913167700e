import { Suspense } from "react";
import { Outlet } from "react-router";
import { LoginDialogProvider } from "../features/auth/login-dialog-context";
import { GigIntentProvider } from "../features/gigs/gig-intent";
import { Footer } from "../features/layout/footer";
import { OfflineBanner } from "../features/layout/offline-banner";
import { ScrollToTop } from "../features/layout/scroll-to-top";
import { TopBar } from "../features/layout/top-bar";
import { SUGGESTION_BUTTON_CLEARANCE, SUGGESTION_BUTTON_SIDE_ROOM, SuggestionBoxButton } from "../features/suggestions/suggestion-box-button";
import { SettingsDialogProvider } from "../features/profile/settings-context";
import { ReadAgainAsMember } from "../lib/server-page";

/** What every screen shares, the admin panel included: the app-wide dialogs, scroll-to-top and the offline banner. */
export function AppFrame() {
  return (
    <LoginDialogProvider>
      <SettingsDialogProvider>
        <GigIntentProvider>
          <ScrollToTop />
          <OfflineBanner />
          <Outlet />
        </GigIntentProvider>
      </SettingsDialogProvider>
    </LoginDialogProvider>
  );
}

/**
 * The member-facing layout: sticky top bar, page, footer, and the floating suggestion button. The page ends
 * with room the height of the button (white, under the footer), so at the bottom of any page the last content
 * scrolls clear of the button instead of staying under it.
 */
export function MainLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <TopBar />
      {/* At least a screen tall, so the footer starts below the fold: a page that fills in after its data arrives
          pushes nothing visible down (no layout shift). */}
      <main id="main" tabIndex={-1} className={`mx-auto min-h-dvh w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-10 ${SUGGESTION_BUTTON_SIDE_ROOM}`}>
        <Suspense fallback={<RouteLoading />}>
          <Outlet />
          <ReadAgainAsMember />
        </Suspense>
      </main>
      <Footer />
      <div aria-hidden="true" data-testid="suggestion-button-clearance" className={`shrink-0 bg-white ${SUGGESTION_BUTTON_CLEARANCE}`} />
      <SuggestionBoxButton />
    </div>
  );
}

/** Shown while the first screen's code loads. */
export function RouteLoading() {
  return (
    <p role="status" className="py-16 text-center text-stone-500">
      Loading
    </p>
  );
}
