// The admin panel after sign-in (SPEC.md §2 /admin): header, then the tabs Dashboard, Gigs, Reports,
// Suggestions and Disputes (with their count), and one chat dialog for whichever gig is open.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { ChevronDownIcon } from "../../components/ui/icons";
import { Tabs, TabsContent } from "../../components/ui/tabs";
import { cn } from "../../lib/cn";
import { AdminChatDialog, type ChatTarget } from "./admin-chat-dialog";
import { AdminHeader } from "./admin-header";
import { DashboardTab } from "./dashboard-tab";
import { DisputesTab } from "./disputes-tab";
import { GigsTab } from "./gigs-tab";
import { ReportsTab } from "./reports-tab";
import { SuggestionsTab } from "./suggestions-tab";
import { useDisputes } from "./use-admin";

/** A tab of the admin panel; the row scrolls sideways when five tabs do not fit (360 px, see AdminTabStrip). */
function AdminTab({ value, children }: { value: string; children: ReactNode }) {
  return (
    <TabsPrimitive.Trigger
      value={value}
      className="inline-flex h-9 shrink-0 cursor-pointer items-center justify-center rounded-md px-3 text-sm font-medium whitespace-nowrap text-stone-600 transition-colors hover:text-stone-900 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm sm:flex-1 sm:px-4"
    >
      {children}
    </TabsPrimitive.Trigger>
  );
}

/** Room kept beside a tab scrolled into view, so the fade at the edge does not cover it. */
const EDGE_ROOM_PX = 32;

/**
 * The row of tabs. On a phone the five tabs do not fit: the row scrolls sideways, and says so with a fade and
 * a chevron at each edge that has more beyond it (SPEC.md §2 lists Suggestions and Disputes last, the ones
 * hidden at 360 px). The active tab is scrolled fully into view whenever it changes.
 */
function AdminTabStrip({ active, children }: { active: string; children: ReactNode }) {
  const listRef = useRef<HTMLDivElement | null>(null);
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const hidden = list.scrollWidth - list.clientWidth;
    const next = { before: list.scrollLeft > 1, after: list.scrollLeft < hidden - 1 };
    setMore((was) => (was.before === next.before && was.after === next.after ? was : next));
  }, []);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    measure();
    window.addEventListener("resize", measure);
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    // The list's own box, and each tab's (a count arriving widens "Disputes" without resizing the list).
    observer?.observe(list);
    for (const tab of list.children) observer?.observe(tab);
    return () => {
      window.removeEventListener("resize", measure);
      observer?.disconnect();
    };
  }, [measure]);

  useLayoutEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
    if (!list || !tab) return;
    let left: number | null = null;
    if (tab.offsetLeft - EDGE_ROOM_PX < list.scrollLeft) left = Math.max(0, tab.offsetLeft - EDGE_ROOM_PX);
    else if (tab.offsetLeft + tab.offsetWidth + EDGE_ROOM_PX > list.scrollLeft + list.clientWidth)
      left = tab.offsetLeft + tab.offsetWidth + EDGE_ROOM_PX - list.clientWidth;
    if (left === null) return measure();
    if (typeof list.scrollTo === "function") list.scrollTo({ left, behavior: "smooth" });
    else list.scrollLeft = left;
    measure();
  }, [active, measure]);

  const fade = "pointer-events-none absolute inset-y-0 flex w-10 items-center text-stone-500 transition-opacity";
  return (
    <div className="relative">
      <TabsPrimitive.List
        ref={listRef}
        onScroll={measure}
        className="relative flex [scrollbar-width:none] gap-1 overflow-x-auto rounded-lg bg-stone-100 p-1 [&::-webkit-scrollbar]:hidden"
        aria-label="Admin sections"
      >
        {children}
      </TabsPrimitive.List>
      <div
        aria-hidden
        data-testid="tabs-more-before"
        data-shown={more.before}
        className={cn(fade, "left-0 justify-start rounded-l-lg bg-linear-to-r from-stone-100 from-40% to-transparent pl-0.5", more.before ? "opacity-100" : "opacity-0")}
      >
        <ChevronDownIcon size={16} className="rotate-90" />
      </div>
      <div
        aria-hidden
        data-testid="tabs-more-after"
        data-shown={more.after}
        className={cn(fade, "right-0 justify-end rounded-r-lg bg-linear-to-l from-stone-100 from-40% to-transparent pr-0.5", more.after ? "opacity-100" : "opacity-0")}
      >
        <ChevronDownIcon size={16} className="-rotate-90" />
      </div>
    </div>
  );
}

export function AdminPanel() {
  const [chat, setChat] = useState<ChatTarget | null>(null);
  const [tab, setTab] = useState("dashboard");
  const disputes = useDisputes();
  const openChat = (gigId: string, title: string) => setChat({ gigId, title });
  const count = disputes.data?.length;

  return (
    <div className="flex min-h-dvh flex-col bg-stone-50">
      <AdminHeader onOpenChat={openChat} />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 focus:outline-none px-3 py-5 sm:px-6 sm:py-8">
        <h1 className="mb-4 text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Admin Panel</h1>
        <Tabs value={tab} onValueChange={setTab}>
          <AdminTabStrip active={tab}>
            <AdminTab value="dashboard">Dashboard</AdminTab>
            <AdminTab value="gigs">Gigs</AdminTab>
            <AdminTab value="reports">Reports</AdminTab>
            <AdminTab value="suggestions">Suggestions</AdminTab>
            <AdminTab value="disputes">Disputes{count !== undefined ? ` (${count})` : ""}</AdminTab>
          </AdminTabStrip>
          <TabsContent value="dashboard">
            <DashboardTab />
          </TabsContent>
          <TabsContent value="gigs">
            <GigsTab onOpenChat={openChat} />
          </TabsContent>
          <TabsContent value="reports">
            <ReportsTab />
          </TabsContent>
          <TabsContent value="suggestions">
            <SuggestionsTab />
          </TabsContent>
          <TabsContent value="disputes">
            <DisputesTab onOpenChat={openChat} />
          </TabsContent>
        </Tabs>
      </main>
      <AdminChatDialog target={chat} onClose={() => setChat(null)} />
    </div>
  );
}
