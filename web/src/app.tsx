import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { ToastProvider } from "./components/ui/toast";
import { AuthProvider } from "./features/auth/auth-context";
import { createQueryClient } from "./lib/query-client";
import { HomeRoute } from "./routes/home";
import { AppFrame, MainLayout, RouteLoading } from "./routes/root-layout";

// The main page ships with the first bundle; every other screen loads when first visited.
// (Declarative routes: the data router's extra code would cost ~15 KB gzipped on the first page.)
const ProfileRoute = lazy(() => import("./routes/profile").then((m) => ({ default: m.ProfileRoute })));
const ProfileByIdRoute = lazy(() => import("./routes/profile-by-id").then((m) => ({ default: m.ProfileByIdRoute })));
const UserRoute = lazy(() => import("./routes/user").then((m) => ({ default: m.UserRoute })));
const GigRoute = lazy(() => import("./routes/gig").then((m) => ({ default: m.GigRoute })));
const TermsRoute = lazy(() => import("./routes/terms").then((m) => ({ default: m.TermsRoute })));
const PrivacyRoute = lazy(() => import("./routes/privacy").then((m) => ({ default: m.PrivacyRoute })));
const FaqRoute = lazy(() => import("./routes/faq").then((m) => ({ default: m.FaqRoute })));
const AdminRoute = lazy(() => import("./routes/admin").then((m) => ({ default: m.AdminRoute })));
const NotFoundRoute = lazy(() => import("./routes/not-found").then((m) => ({ default: m.NotFoundRoute })));

export function AppRoutes() {
  return (
    <Suspense fallback={<RouteLoading />}>
      <Routes>
        <Route element={<AppFrame />}>
          <Route element={<MainLayout />}>
            <Route index element={<HomeRoute />} />
            <Route path="profile" element={<ProfileRoute />} />
            {/* The admin Reports tab links to /profile/{reporterId} and /gig/{gigId} (SPEC.md §2). */}
            <Route path="profile/:userId" element={<ProfileByIdRoute />} />
            <Route path="user/:npub" element={<UserRoute />} />
            <Route path="gigs/:id" element={<GigRoute />} />
            <Route path="gig/:id" element={<GigRoute />} />
            <Route path="terms" element={<TermsRoute />} />
            <Route path="privacy" element={<PrivacyRoute />} />
            <Route path="faq" element={<FaqRoute />} />
            <Route path="*" element={<NotFoundRoute />} />
          </Route>
          <Route path="admin" element={<AdminRoute />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <AuthProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}
