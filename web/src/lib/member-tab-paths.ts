// The reads a member's first screen draws from, named once: the early reads start them before the app's code
// runs (start-early-reads.ts) and the screens' queries ask for them (auth-context's meQuery, use-gigs'
// myGigsQuery, failed-payouts' myFailedPayoutsQuery). An early read is taken only by a request for its exact
// path, so the two sides must ask for the same one.
import type { MainTab } from "../features/layout/main-tab";

/** The session check. */
export const ME_PATH = "/api/user/me";
/** The member's gigs on the Active tab, the first page of them. */
export const MY_GIGS_PARAMS: Readonly<Record<string, string>> = { participant: "me", limit: "100" };
/** The member's payouts that failed (the Active tab's banner). */
export const MY_FAILED_PAYOUTS_PATH = "/api/user/payouts";

/** The path of a page of the gig list with these parameters, as use-gigs' fetchGigPage asks for it. */
export function gigListPath(params: Readonly<Record<string, string>>, cursor?: string | null): string {
  const query = new URLSearchParams(params);
  if (cursor) query.set("cursor", cursor);
  return `/api/gigs?${query.toString()}`;
}

/** What a member's own tab reads first, in order: the session check, then on Active their gigs and failed payouts. */
export function memberTabPaths(tab: Exclude<MainTab, "browse">): string[] {
  return tab === "active" ? [ME_PATH, gigListPath(MY_GIGS_PARAMS), MY_FAILED_PAYOUTS_PATH] : [ME_PATH];
}
