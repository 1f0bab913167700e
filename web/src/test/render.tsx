// Renders UI inside the app's providers, with a fresh query cache and an in-memory router.
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter, useLocation } from "react-router";
import type { OwnUser } from "../../../domain/profile";
import { ToastProvider } from "../components/ui/toast";
import { AuthProvider, authKeys } from "../features/auth/auth-context";
import { LoginDialogProvider } from "../features/auth/login-dialog-context";
import { GigIntentProvider } from "../features/gigs/gig-intent";
import { SettingsDialogProvider } from "../features/profile/settings-context";
import { SESSION_TOKEN_KEY } from "../lib/api";
import { createQueryClient } from "../lib/query-client";

export interface RenderOptions {
  route?: string;
  /** Signed in as this user (a stored token and the session already resolved). */
  user?: OwnUser;
}

export function renderWithApp(ui: ReactElement, { route = "/", user }: RenderOptions = {}) {
  const queryClient = createQueryClient();
  if (user) {
    localStorage.setItem(SESSION_TOKEN_KEY, "test-session-token");
    queryClient.setQueryData(authKeys.me(), user);
  }
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <AuthProvider>
          <MemoryRouter initialEntries={[route]}>
            <LoginDialogProvider>
              <SettingsDialogProvider>
                <GigIntentProvider>{ui}</GigIntentProvider>
              </SettingsDialogProvider>
            </LoginDialogProvider>
          </MemoryRouter>
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

/** Shows the router's current location, for asserting navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/**
 * The toast region (Radix also copies toast text into a transient screen-reader announcement, so text
 * queries look inside the region). An open modal dialog hides it from the accessibility tree.
 */
export function toastRegion() {
  return within(screen.getByRole("region", { name: /notifications/i, hidden: true }));
}

export async function findToast(text: string | RegExp) {
  return toastRegion().findByText(text);
}
