// Story (issue 4): the hirer has the app open when the worker claims their gig; the bell gets an
// unread badge without a reload (pushed over the inbox socket, issue 17); choosing the notification marks it read and opens the Active tab
// with that gig's details. A chat message's notification ('message') opens the gig's chat. Desktop.
import { describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import { useBrowser } from "./support/browser";
import { bell, dialog, fundedJob, mainTab, member, shotsOnFailure, storyShot, uniqueTitle, waitForNotification } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/**
 * A new notification reaches the open tab over its inbox socket (web/src/features/notifications/use-inbox-socket.ts)
 * within moments; the 30 s poll is only the fallback while the socket is down, so it cannot pass this wait.
 */
const PUSHED_WAIT_MS = 10_000;

describe("notifications (desktop)", () => {
  it("shows an unread badge for the worker's claim, opens the gig from it, and opens the chat for a message", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Proofread whitepaper");
    const gig = await fundedJob(baseUrl, hirer, title);
    const interest = await apiJson<{ id: string }>(baseUrl, "POST", `/api/gigs/${gig.id}/pre-claim-messages`, {
      sessionToken: worker.sessionToken,
      body: { message: "Happy to proofread it." },
    });
    for (const step of ["approve", "enable-claim"]) {
      await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
    }
    await apiJson(baseUrl, "PATCH", "/api/notifications/mark-all-read", { sessionToken: hirer.sessionToken });

    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "desktop", sessionToken: hirer.sessionToken, timeout: 15_000 });
    const shot = (step: string) => storyShot(page, `notifications-desktop-${step}`);
    shotsOnFailure("notifications-desktop", { hirer: page });

    // Nothing unread yet: the bell has no count, and its list says so once everything is read.
    await page.goto("/");
    await bell(page).waitFor();
    expect(await bell(page).getAttribute("aria-label")).toBe("Notifications");

    // The worker claims while the hirer's page stays open: the badge appears on its own.
    await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/claim`, { sessionToken: worker.sessionToken });
    await waitForNotification(baseUrl, hirer, (n) => n.gigId === gig.id && n.type === "claimed" && !n.isRead);
    await bell(page).and(page.getByRole("button", { name: "Notifications, 1 unread" })).waitFor({ timeout: PUSHED_WAIT_MS });
    await expect(bell(page).getByText("1", { exact: true }).isVisible()).resolves.toBe(true); // the red badge
    await shot("01-badge");

    // The dropdown: title, Mark all read (something is unread), the claim as an unread item.
    await bell(page).click();
    const menu = page.getByRole("menu");
    await menu.getByText("Notifications", { exact: true }).waitFor();
    await menu.getByRole("menuitem", { name: "Mark all read" }).waitFor();
    const claimed = menu.getByRole("menuitem", { name: /Gig Claimed/ });
    await claimed.getByText(`A worker claimed "${title}".`).waitFor();
    await claimed.getByText("Unread").waitFor();
    await shot("02-dropdown");

    // Choosing it: read, and the Active tab with the gig's details open; the URL goes back to /.
    await claimed.click();
    const details = dialog(page, title);
    await details.getByText("Worker Claimed").first().waitFor();
    await page.waitForURL((url) => url.pathname === "/" && url.search === "");
    await shot("03-details-from-notification");
    await details.getByRole("button", { name: "Close", exact: true }).click();
    await expect(mainTab(page, "Active").getAttribute("aria-current")).resolves.toBe("page");
    await bell(page).and(page.getByRole("button", { name: "Notifications", exact: true })).waitFor();
    const afterClick = await waitForNotification(baseUrl, hirer, (n) => n.gigId === gig.id && n.type === "claimed");
    expect(afterClick.isRead).toBe(true);

    // A chat message from the worker: a 'message' notification, which opens the chat.
    await sendChat(gig.id, worker.sessionToken, "I have a question about the glossary.");
    await waitForNotification(baseUrl, hirer, (n) => n.gigId === gig.id && n.type === "message");
    await page.reload(); // no need to wait 30 s for the poll this time
    await bell(page).and(page.getByRole("button", { name: "Notifications, 1 unread" })).waitFor();
    await bell(page).click();
    const message = page.getByRole("menu").getByRole("menuitem", { name: /New Message/ });
    await message.getByText(/Wes Worker about ".*": I have a question about the glossary\./).waitFor();
    await shot("04-message-notification");
    await message.click();
    const chat = dialog(page, `Chat: ${title}`);
    await chat.getByRole("article", { name: "Message from Wes Worker" }).getByText("I have a question about the glossary.").waitFor();
    await shot("05-chat-from-notification");
    await chat.getByRole("button", { name: "Close", exact: true }).click();

    // Everything read: no badge; Mark all read is gone.
    await bell(page).and(page.getByRole("button", { name: "Notifications", exact: true })).waitFor();
    await bell(page).click();
    await page.getByRole("menu").getByRole("menuitem", { name: /New Message/ }).waitFor();
    expect(await page.getByRole("menu").getByRole("menuitem", { name: "Mark all read" }).count()).toBe(0);
    await shot("06-all-read");

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("says 'No notifications yet' to a new member", async () => {
    const newcomer = await member(baseUrl, "Nell Newcomer");
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: newcomer.sessionToken });
    await page.goto("/");
    await bell(page).click();
    await page.getByRole("menu").getByText("No notifications yet").waitFor();
    await storyShot(page, "notifications-mobile-01-empty");
    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});

/** One chat message over /ws (SPEC.md §7 Real-time chat). */
async function sendChat(gigId: string, sessionToken: string, message: string) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/ws?gigId=${gigId}`);
  const seen: string[] = [];
  ws.addEventListener("message", (e) => seen.push((JSON.parse(String(e.data)) as { type: string }).type));
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", () => reject(new Error("socket failed")));
  });
  const until = async (type: string) => {
    for (let i = 0; i < 200 && !seen.includes(type); i++) await new Promise((r) => setTimeout(r, 50));
    if (!seen.includes(type)) throw new Error(`no ${type}; saw ${seen.join(", ")}`);
  };
  ws.send(JSON.stringify({ type: "auth", sessionToken }));
  await until("auth_success");
  ws.send(JSON.stringify({ type: "join_gig", gigId }));
  await until("join_success");
  ws.send(JSON.stringify({ type: "chat_message", gigId, message }));
  await until("new_message");
  ws.close();
}
