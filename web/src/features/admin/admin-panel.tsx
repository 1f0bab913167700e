// The admin panel after sign-in (SPEC.md §2 /admin): header, then the tabs Dashboard, Gigs, Reports,
// Suggestions and Disputes (with their count), and one chat dialog for whichever gig is open.
import { useState } from "react";
import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { Tabs, TabsContent } from "../../components/ui/tabs";
import { AdminChatDialog, type ChatTarget } from "./admin-chat-dialog";
import { AdminHeader } from "./admin-header";
import { DashboardTab } from "./dashboard-tab";
import { DisputesTab } from "./disputes-tab";
import { GigsTab } from "./gigs-tab";
import { ReportsTab } from "./reports-tab";
import { SuggestionsTab } from "./suggestions-tab";
import { useDisputes } from "./use-admin";

/** A tab of the admin panel; the row scrolls sideways when five tabs do not fit (360 px). */
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

export function AdminPanel() {
  const [chat, setChat] = useState<ChatTarget | null>(null);
  const disputes = useDisputes();
  const openChat = (gigId: string, title: string) => setChat({ gigId, title });
  const count = disputes.data?.length;

  return (
    <div className="flex min-h-dvh flex-col bg-stone-50">
      <AdminHeader onOpenChat={openChat} />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 focus:outline-none px-3 py-5 sm:px-6 sm:py-8">
        <h1 className="mb-4 text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Admin Panel</h1>
        <Tabs defaultValue="dashboard">
          <TabsPrimitive.List className="flex gap-1 overflow-x-auto rounded-lg bg-stone-100 p-1" aria-label="Admin sections">
            <AdminTab value="dashboard">Dashboard</AdminTab>
            <AdminTab value="gigs">Gigs</AdminTab>
            <AdminTab value="reports">Reports</AdminTab>
            <AdminTab value="suggestions">Suggestions</AdminTab>
            <AdminTab value="disputes">Disputes{count !== undefined ? ` (${count})` : ""}</AdminTab>
          </TabsPrimitive.List>
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
