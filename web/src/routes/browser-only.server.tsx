// The Worker's stand-ins for the screens only the browser renders (browser-only.tsx): the Worker renders `/`,
// `/gig/:id`, `/gigs/:id` and `/user/:npub` alone (worker/routes/previews.ts), so these are never drawn.
import type * as InBrowser from "./browser-only";

const notRenderedByTheWorker = () => null;

export const ProfileRoute: typeof InBrowser.ProfileRoute = notRenderedByTheWorker;
export const ProfileByIdRoute: typeof InBrowser.ProfileByIdRoute = notRenderedByTheWorker;
export const TermsRoute: typeof InBrowser.TermsRoute = notRenderedByTheWorker;
export const PrivacyRoute: typeof InBrowser.PrivacyRoute = notRenderedByTheWorker;
export const FaqRoute: typeof InBrowser.FaqRoute = notRenderedByTheWorker;
export const AdminRoute: typeof InBrowser.AdminRoute = notRenderedByTheWorker;
