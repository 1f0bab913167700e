import { hydrate, QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { Suspense, useState, type ReactNode } from "react";
import { BrowserRouter, createRoutesFromElements, Route, useRoutes } from "react-router";
import { ToastProvider } from "./components/ui/toast";
import { AuthProvider } from "./features/auth/auth-context";
import { HydrationProvider } from "./lib/hydration";
import { lazyPart } from "./lib/lazy-part";
import { createQueryClient } from "./lib/query-client";
import { ServerPageContext, type ServerPage } from "./lib/server-page";
import { HomeRoute } from "./routes/home";
import { AppFrame, MainLayout, RouteLoading } from "./routes/root-layout";
// The screens only the browser renders (each loaded when first visited); the Worker's bundle gets stand-ins.
import { AdminRoute, FaqRoute, PrivacyRoute, ProfileByIdRoute, ProfileRoute, TermsRoute } from "#browser-only-routes";

// The main page ships with the first bundle; every other screen loads when first visited.
// (Declarative routes: the data router's extra code would cost ~15 KB gzipped on the first page.)
const UserRoute = lazyPart(() => import("./routes/user").then((m) => m.UserRoute));
const GigRoute = lazyPart(() => import("./routes/gig").then((m) => m.GigRoute));
const NotFoundRoute = lazyPart(() => import("./routes/not-found").then((m) => m.NotFoundRoute));

/** The paths of the pages the Worker renders (decision 030): its page reads (ssr/render.tsx) are keyed by them. */
export const PAGE_PATHS = { gig: "gig/:id", gigs: "gigs/:id", user: "user/:npub" } as const;

/** The one route table: the browser's router and the Worker's render (ssr/render.tsx) both read it. */
export const appRoutes = (
  <Route element={<AppFrame />}>
    <Route element={<MainLayout />}>
      <Route index element={<HomeRoute />} />
      <Route path="profile" element={<ProfileRoute />} />
      {/* The admin Reports tab links to /profile/{reporterId} and /gig/{gigId} (SPEC.md §2). */}
      <Route path="profile/:userId" element={<ProfileByIdRoute />} />
      <Route path={PAGE_PATHS.user} element={<UserRoute />} />
      <Route path={PAGE_PATHS.gigs} element={<GigRoute />} />
      <Route path={PAGE_PATHS.gig} element={<GigRoute />} />
      <Route path="terms" element={<TermsRoute />} />
      <Route path="privacy" element={<PrivacyRoute />} />
      <Route path="faq" element={<FaqRoute />} />
      <Route path="*" element={<NotFoundRoute />} />
    </Route>
    <Route path="admin" element={<AdminRoute />} />
  </Route>
);

/**
 * The same table as route objects, made once: `<Routes>` would make them from the elements on every render, and
 * the Worker renders a page per request. The Worker also finds the page a URL names in it (ssr/render.tsx).
 */
export const appRouteObjects = createRoutesFromElements(appRoutes);

function RouteTable() {
  return useRoutes(appRouteObjects);
}

export function AppRoutes() {
  return (
    <Suspense fallback={<RouteLoading />}>
      <RouteTable />
    </Suspense>
  );
}

/** Everything around the router, the same on the server and in the browser (so the trees hydrate alike). */
export function AppProviders({ queryClient, renderedAt, children }: { queryClient: QueryClient; renderedAt: number | null; children: ReactNode }) {
  return (
    <HydrationProvider renderedAt={renderedAt}>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <AuthProvider>{children}</AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    </HydrationProvider>
  );
}

/**
 * The browser's app; `page`: the Worker rendered this document, and its data seeds the query cache; `client`: a
 * query cache already holding the first screen's reads (features/layout/member-tab-reads.ts).
 */
export function App({ page, client: given }: { page?: ServerPage; client?: QueryClient }) {
  const [queryClient] = useState(() => {
    const client = given ?? createQueryClient();
    if (page) hydrate(client, page.state);
    return client;
  });
  return (
    <ServerPageContext.Provider value={page ?? null}>
      <AppProviders queryClient={queryClient} renderedAt={page?.renderedAt ?? null}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </ServerPageContext.Provider>
  );
}
