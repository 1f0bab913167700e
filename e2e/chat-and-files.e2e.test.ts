// Story (issue 5): the hirer (desktop) and the worker (phone) of a claimed gig open its chat from the
// Active tab's Open Chat; each sees the other's messages arrive live, with roles (You, Hirer, Worker)
// and the admin-monitoring notice. A file the worker sends in the chat from another client (the web
// chat has no file picker; SPEC.md §7 lets a chat message carry a fileAttachment) shows up live for the
// hirer, who downloads it.
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson, type SignedInUser } from "./support/api";
import { useBrowser } from "./support/browser";
import { claimedJob, closeDialog, dialog, expectToast, gigCard, mainTab, member, shotsOnFailure, storyShot, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/** Active tab -> the gig's card -> Open Chat; answers the chat dialog once it says Connected. */
async function openChat(page: Page, title: string): Promise<Locator> {
  await page.goto("/");
  await mainTab(page, "Active").click();
  await gigCard(page, title).getByRole("button", { name: `Open Chat: ${title}` }).click();
  const chat = dialog(page, `Chat: ${title}`);
  await chat.getByRole("status").filter({ hasText: "Connected" }).waitFor();
  return chat;
}

/** A message bubble in the chat log, by its sender's name and a piece of its text. */
function bubble(chat: Locator, sender: string, text: string): Locator {
  return chat.getByRole("log", { name: "Messages" }).getByRole("article", { name: `Message from ${sender}` }).filter({ hasText: text });
}

/** Sends one chat message over /ws as `who`, the way SPEC.md §7 describes, with an optional file. */
async function sendOverSocket(gigId: string, who: SignedInUser, message: string, fileAttachment?: unknown) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/ws?gigId=${gigId}`);
  const frames: { type: string }[] = [];
  ws.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", () => reject(new Error("socket failed")));
  });
  const expectFrame = async (type: string) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const i = frames.findIndex((f) => f.type === type);
      if (i >= 0) return frames.splice(i, 1)[0];
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${type} frame; got ${JSON.stringify(frames)}`);
  };
  ws.send(JSON.stringify({ type: "auth", sessionToken: who.sessionToken }));
  await expectFrame("auth_success");
  ws.send(JSON.stringify({ type: "join_gig", gigId }));
  await expectFrame("join_success");
  ws.send(JSON.stringify({ type: "chat_message", gigId, message, ...(fileAttachment ? { fileAttachment } : {}) }));
  await expectFrame("new_message");
  ws.close();
}

describe("chat between hirer (desktop) and worker (mobile)", () => {
  it("exchanges messages live, shows roles and the monitoring notice, and delivers a file in the chat", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Podcast intro jingle");
    const gig = await claimedJob(baseUrl, hirer, worker, title);
    const H = await openPage(baseUrl, { viewport: "desktop", sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport: "mobile", sessionToken: worker.sessionToken });
    const hp = H.page;
    const wp = W.page;
    shotsOnFailure("chat-and-files", { hirer: hp, worker: wp });

    const hChat = await openChat(hp, title);
    const wChat = await openChat(wp, title);
    for (const chat of [hChat, wChat]) {
      await chat.getByText("This chat is monitored by the platform admin").waitFor();
      await chat.getByText("No messages yet. Say hello!").waitFor();
    }
    await storyShot(hp, "chat-and-files-desktop-01-hirer-chat-empty");
    await storyShot(wp, "chat-and-files-mobile-01-worker-chat-empty");

    // Hirer writes (Enter sends); the worker sees it arrive without reloading, marked Hirer.
    await hChat.getByRole("textbox", { name: "Message" }).fill("Hi Wes! Please keep it under 10 seconds.");
    await hp.keyboard.press("Enter");
    const hirerLine = "Please keep it under 10 seconds.";
    await bubble(hChat, "Hana Hirer", hirerLine).getByText("You", { exact: true }).waitFor();
    await bubble(wChat, "Hana Hirer", hirerLine).getByText("Hirer", { exact: true }).waitFor();
    await expect(hChat.getByRole("textbox", { name: "Message" }).inputValue()).resolves.toBe("");

    // Worker answers with the Send button; the hirer sees it live, marked Worker.
    const workerLine = "Sure, 8 seconds with a soft fade-out.";
    await wChat.getByRole("textbox", { name: "Message" }).fill(workerLine);
    await wChat.getByRole("button", { name: "Send" }).click();
    await bubble(wChat, "Wes Worker", workerLine).getByText("You", { exact: true }).waitFor();
    await bubble(hChat, "Wes Worker", workerLine).getByText("Worker", { exact: true }).waitFor();
    // Sender names link to their public profiles.
    await expect(bubble(hChat, "Wes Worker", workerLine).getByRole("link", { name: "Wes Worker" }).getAttribute("href")).resolves.toBe(
      `/user/${worker.user.username}`,
    );
    await storyShot(hp, "chat-and-files-desktop-02-hirer-conversation");
    await storyShot(wp, "chat-and-files-mobile-02-worker-conversation");

    // A file in the chat, sent by the worker from another client: upload, then a message carrying it.
    const content = "jingle-v1: C major, 8 s, fade-out\n";
    const ticket = await apiJson<{ uploadURL: string; objectPath: string }>(baseUrl, "POST", "/api/objects/upload", {
      sessionToken: worker.sessionToken,
      body: { filename: "jingle-notes.txt", contentType: "text/plain", size: Buffer.byteLength(content) },
    });
    const put = await fetch(new URL(ticket.uploadURL, baseUrl), { method: "PUT", body: content, headers: { "Content-Type": "text/plain" } });
    expect(put.status).toBe(200);
    await sendOverSocket(gig.id, worker, "Notes for the first take attached.", {
      url: ticket.objectPath,
      filename: "jingle-notes.txt",
      fileSize: Buffer.byteLength(content),
      mimeType: "text/plain",
    });
    const fileBubble = bubble(hChat, "Wes Worker", "Notes for the first take attached.");
    await fileBubble.getByText("jingle-notes.txt").waitFor();
    await fileBubble.getByText(`${(Buffer.byteLength(content) / 1024).toFixed(1)} KB`).waitFor();
    await bubble(wChat, "Wes Worker", "Notes for the first take attached.").getByText("You", { exact: true }).waitFor();
    await storyShot(hp, "chat-and-files-desktop-03-hirer-file-in-chat");
    const download = hp.waitForEvent("download");
    await fileBubble.getByRole("button", { name: "Download jingle-notes.txt" }).click();
    const got = await download;
    expect(got.suggestedFilename()).toBe("jingle-notes.txt");
    expect(await readFile(await got.path(), "utf8")).toBe(content);
    await expectToast(hp, "Download Started");

    // The history is kept: reopening the chat shows the whole conversation in order.
    await closeDialog(hChat);
    const again = await openChat(hp, title); // a fresh page load
    const texts = await again.getByRole("log", { name: "Messages" }).getByRole("article").allTextContents();
    expect(texts.map((t) => (t.includes(hirerLine) ? "hirer" : t.includes(workerLine) ? "worker" : t.includes("first take") ? "file" : t))).toEqual([
      "hirer",
      "worker",
      "file",
    ]);

    expect(H.pageErrors.map(String)).toEqual([]);
    expect(W.pageErrors.map(String)).toEqual([]);
    await H.context.close();
    await W.context.close();
  });
});
