// The screens the Worker never renders (decision 030): a member's own profile, the admin panel, the texts (FAQ,
// terms, privacy) and the admin's profile links. Each loads when first visited. The route table (app.tsx) takes
// them from `#browser-only-routes` (package.json "imports"): the Worker's bundle (the "workerd" condition) gets
// browser-only.server.tsx instead, so none of their code is bundled into the Worker.
import { lazy, type ComponentType } from "react";

export const ProfileRoute: ComponentType = lazy(() => import("./profile").then((m) => ({ default: m.ProfileRoute })));
export const ProfileByIdRoute: ComponentType = lazy(() => import("./profile-by-id").then((m) => ({ default: m.ProfileByIdRoute })));
export const TermsRoute: ComponentType = lazy(() => import("./terms").then((m) => ({ default: m.TermsRoute })));
export const PrivacyRoute: ComponentType = lazy(() => import("./privacy").then((m) => ({ default: m.PrivacyRoute })));
export const FaqRoute: ComponentType = lazy(() => import("./faq").then((m) => ({ default: m.FaqRoute })));
export const AdminRoute: ComponentType = lazy(() => import("./admin").then((m) => ({ default: m.AdminRoute })));
