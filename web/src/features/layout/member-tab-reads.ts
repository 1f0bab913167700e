// A member opening one of their own tabs (Active, Post) from the address: the Worker's HTML already shows the
// tab's placeholder, and the app's first draw waits for the reads the tab draws from (started before the app's
// code ran, lib/start-early-reads.ts), put in the query cache first. The tab is then drawn once, whole, as one
// transition React renders a few milliseconds at a time. Drawn before its reads, it was drawn again as each one
// answered, and an answer landing while React was drawing made it draw the whole screen again in one go: on a
// phone, the Active screen's longest tasks (Lighthouse's Total Blocking Time), long or short by the answers' luck.
import type { QueryClient } from "@tanstack/react-query";
import { meQuery } from "../auth/auth-context";
import { myGigsQuery } from "../gigs/use-gigs";
import { myFailedPayoutsQuery } from "../payments/failed-payouts";
import type { MainTab } from "./main-tab";

/** The longest the first draw waits for the reads: then the tab draws its skeletons, and the reads go on. */
export const MEMBER_TAB_READS_WAIT_MS = 3_000;

/** Puts the reads of the member's `tab` in `client`'s cache; settles when they are in, failed, or after `waitMs`. */
export async function readMemberTab(client: QueryClient, tab: Exclude<MainTab, "browse">, waitMs = MEMBER_TAB_READS_WAIT_MS): Promise<void> {
  const reads = (async () => {
    const member = await client.fetchQuery(meQuery());
    if (!member || tab !== "active") return;
    await Promise.all([client.prefetchQuery(myGigsQuery(member.id)), client.prefetchQuery(myFailedPayoutsQuery())]);
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
  // A failed read is the screen's to show (its query is in the cache, failed): the draw just stops waiting.
  await Promise.race([reads.catch(() => undefined), waited]);
  clearTimeout(timer);
}
