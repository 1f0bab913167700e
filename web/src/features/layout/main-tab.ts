// The main page's tabs (SPEC.md §2): /?tab=browse|active|post. The main page honours the query
// (tab, gigId, openChat) and then resets the URL to /, keeping the tab in the history entry's state.
import { useLocation } from "react-router";
import { useHydrated } from "../../lib/hydration";
import type { GigIntent } from "../gigs/gig-intent";

export const MAIN_TABS = ["browse", "active", "post"] as const;
export type MainTab = (typeof MAIN_TABS)[number];

export function parseMainTab(value: unknown): MainTab | null {
  return typeof value === "string" && (MAIN_TABS as readonly string[]).includes(value) ? (value as MainTab) : null;
}

export function mainTabHref(tab: MainTab): string {
  return `/?tab=${tab}`;
}

export interface MainPageParams {
  tab: MainTab | null;
  intent: GigIntent | null;
}

export function readMainPageParams(search: URLSearchParams): MainPageParams {
  const gigId = search.get("gigId")?.trim() || null;
  const intent = gigId ? { gigId, openChat: search.get("openChat") === "true" } : null;
  // A gig to open lives on the Active tab (notification links carry tab=active anyway).
  const tab = parseMainTab(search.get("tab")) ?? (intent ? "active" : null);
  return { tab, intent };
}

/**
 * The tab the main page shows, or null away from the main page. The history entry's tab (a reload after
 * switching tabs) is the browser's alone: the Worker rendered Browse, so it counts only after hydrating.
 */
export function useMainTab(): MainTab | null {
  const location = useLocation();
  const hydrated = useHydrated();
  if (location.pathname !== "/") return null;
  const fromQuery = parseMainTab(new URLSearchParams(location.search).get("tab"));
  const fromState = hydrated ? parseMainTab((location.state as { tab?: unknown } | null)?.tab) : null;
  return fromQuery ?? fromState ?? "browse";
}
