// Imported first by main.tsx, so it runs before the rest of the app's code is evaluated: with a session held,
// the reads the member's first screen will make go out at once (lib/early-reads.ts), and the code the top bar
// draws a member with (their menus, their robot avatar) is fetched meanwhile. The session check on every page;
// on the Active tab also the member's gigs and failed payouts, the reads that screen draws from: the paths of
// member-tab-paths.ts, which the screens' queries ask for too.
import { apiRequest, getSessionToken } from "./api";
import { startEarlyRead } from "./early-reads";
import { ME_PATH, memberTabPaths } from "./member-tab-paths";
import { parseMainTab, readMainPageParams, type MainTab } from "../features/layout/main-tab";

/** The main page's tab in the address (as the main page reads it) or, on a reload, the one react-router kept in the history entry (under `usr`). */
function mainPageTab(): MainTab | null {
  if (location.pathname !== "/") return null;
  const fromState = (history.state as { usr?: { tab?: unknown } } | null)?.usr?.tab;
  return readMainPageParams(new URLSearchParams(location.search)).tab ?? parseMainTab(fromState);
}

function heldSession(): string | null {
  try {
    return getSessionToken();
  } catch {
    return null; // storage off: no session
  }
}

/** The session this page starts with, read once (the first storage read is part of the page's start-up). */
const startToken = heldSession();

/**
 * A member opening one of their own tabs (Active, Post): the Worker's HTML holds only the tab's placeholder (it
 * renders every page as a visitor's), so there is nothing of the tab to take over.
 */
export const openedMemberTab: Exclude<MainTab, "browse"> | null = (() => {
  const tab = mainPageTab();
  return startToken !== null && tab !== null && tab !== "browse" ? tab : null;
})();

function startEarlyReads(token: string | null) {
  if (!token) return;
  const read = (path: string) => startEarlyRead(path, token, () => apiRequest("GET", path));
  for (const path of openedMemberTab ? memberTabPaths(openedMemberTab) : [ME_PATH]) read(path);
  // The top bar's member menus and avatar, loaded in a task of their own rather than in the one that draws the member once
  // the session check answers (each lazy import also adds its files' preload links to the document).
  setTimeout(() => {
    void import("#browser-only/user-menu").catch(() => undefined);
    void import("#browser-only/notifications-menu").catch(() => undefined);
    // A member without a picture is drawn a robot (components/ui/avatar.tsx).
    void import("#browser-only/robot-avatar").catch(() => undefined);
  }, 0);
}

startEarlyReads(startToken);
