// The administrator in a real browser: signs in with the PIN, sees a disputed gig's chat among the
// unread chats, reads it, writes to both parties, and settles the dispute with a split, confirmed in a dialog
// that says where the sats go; the settled card keeps showing its outcome; the parties' sats land where the
// split says. At the mobile and the desktop size.
import type { Locator, Page } from "playwright-core";
import { generateSecretKey } from "nostr-tools";
import { describe, expect, inject, it } from "vitest";
import { apiJson, createSignedInUser, type SignedInUser } from "./support/api";
import { type ViewportName, useBrowser, screenshot } from "./support/browser";
import { say } from "./support/seed";
import { adminLogIn } from "./support/gigs";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");
const openPage = useBrowser();

async function member(name: string): Promise<SignedInUser> {
  const m = await createSignedInUser(baseUrl, generateSecretKey());
  await apiJson(baseUrl, "PATCH", "/api/user/me", {
    sessionToken: m.sessionToken,
    body: { lightningAddress: `${name.toLowerCase()}${Date.now()}@wallet.test`, displayName: name },
  });
  return m;
}

/** A 10,000 sat job with work submitted, disputed by the hirer, with both parties' words in the chat. */
async function disputedGig(title: string) {
  const hirer = await member("Hana");
  const worker = await member("Wes");
  const posted = await apiJson<{ gig: { id: string }; paymentRequest: string }>(baseUrl, "POST", "/api/gigs", {
    sessionToken: hirer.sessionToken,
    body: { gigType: "job_request", title, description: "Translate the landing page into Spanish.", category: "Writing", payment: 10_000, timeframe: 7 },
  });
  await apiJson(baseUrl, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest } });
  const gigId = posted.gig.id;
  const interest = await apiJson<{ id: string }>(baseUrl, "POST", `/api/gigs/${gigId}/pre-claim-messages`, { sessionToken: worker.sessionToken, body: { message: "Me!" } });
  for (const step of ["approve", "enable-claim"]) await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
  await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/claim`, { sessionToken: worker.sessionToken });
  await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/start-work`, { sessionToken: worker.sessionToken });
  await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/submit`, { sessionToken: worker.sessionToken, body: { workSubmission: "Done: https://example.com/es", attachments: [] } });
  await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/dispute`, { sessionToken: hirer.sessionToken, body: { reason: "The pricing section is missing." } });
  await say(baseUrl, gigId, hirer, "The pricing section is missing.");
  await say(baseUrl, gigId, worker, "It was not in the brief.");
  return { hirer, worker, gigId };
}


describe.each<ViewportName>(["mobile", "desktop"])("the admin at the %s size", (viewport) => {
  it("signs in, reads a disputed gig's chat, writes to the parties and settles the dispute with a split", async () => {
    const title = `Dispute e2e ${viewport}`;
    const { hirer, worker, gigId } = await disputedGig(title);
    const { page, pageErrors } = await openPage(baseUrl, { viewport });
    const shot = (step: string) => screenshot(page, `admin-${viewport}-${step}`);
    // Every confirmation is the app's own dialog: no browser confirm() pops up.
    const nativeDialogs: string[] = [];
    page.on("dialog", (d) => {
      nativeDialogs.push(d.message());
      void d.dismiss();
    });

    await page.goto("/admin");
    await page.getByRole("button", { name: "OK" }).waitFor();
    await shot("1-pin");
    await adminLogIn(page, adminPin);
    await page.getByText("Access Granted").first().waitFor();
    await page.getByText("Total Escrow").waitFor();
    await shot("2-dashboard");

    // The bell lists the disputed chat as unread; opening it shows both parties' messages.
    await page.getByRole("button", { name: /Unread chats: \d+/ }).click();
    await page.getByRole("button", { name: new RegExp(title) }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("The pricing section is missing.").waitFor();
    await dialog.getByText("It was not in the brief.").waitFor();
    await dialog.getByLabel("Message as admin").fill("Hello both: I am reviewing this dispute today.");
    await page.keyboard.press("Enter");
    await page.getByText("Message Sent").first().waitFor();
    await dialog.getByText("I am reviewing this dispute today.").waitFor();
    await shot("3-chat");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });

    // The parties see the admin's message in their history.
    const history = await apiJson<{ senderType: string; message: string }[]>(baseUrl, "GET", `/api/gigs/${gigId}/messages`, { sessionToken: worker.sessionToken });
    expect(history.at(-1)).toMatchObject({ senderType: "admin", message: "Hello both: I am reviewing this dispute today." });

    // Split 40 %: payment − fee = 9,750; worker 3,900, hirer 5,850, platform 500.
    await page.getByRole("tab", { name: /Disputes \(\d+\)/ }).click();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    await card.getByLabel("Worker's share (%)").fill("40");
    await card.getByText("Worker gets 3,900 sats, hirer gets 5,850 sats, platform keeps 500 sats.").waitFor();
    await card.getByRole("button", { name: "Split" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Split 40% to Wes?" });
    await confirm.waitFor();
    const sent = (d: Locator, who: string) => d.locator("dt", { hasText: who }).locator("xpath=following-sibling::dd");
    expect(await sent(confirm, "Wes (worker)").textContent()).toBe("3,900 sats");
    expect(await sent(confirm, "Hana (hirer)").textContent()).toBe("5,850 sats");
    expect(await sent(confirm, "Platform fees").textContent()).toBe("500 sats");
    await shot("4-confirm-split");
    await confirm.getByRole("button", { name: "Split" }).click();
    await page.getByText("Dispute Resolved").first().waitFor();
    await confirm.waitFor({ state: "detached" });
    // The card stays, now showing who got what, until the admin dismisses it.
    const settled = page.getByRole("group", { name: title });
    await settled.getByText("Resolved: Split").waitFor();
    expect(await sent(settled, "Wes (worker)").textContent()).toBe("3,900 sats");
    expect(await sent(settled, "Hana (hirer)").textContent()).toBe("5,850 sats");
    await shot("5-resolved");
    await settled.getByRole("button", { name: "Dismiss" }).click();
    await settled.waitFor({ state: "detached" });
    expect(nativeDialogs).toEqual([]);

    const gig = await apiJson<{ status: string; resolution: string }>(baseUrl, "GET", `/api/gigs/${gigId}`, { sessionToken: hirer.sessionToken });
    expect(gig).toMatchObject({ status: "completed", resolution: "split" });
    // Each party is told what reached their Lightning address.
    const paid = async (who: SignedInUser) => {
      for (let i = 0; i < 20; i++) {
        const list = await apiJson<{ gigId: string; type: string; message: string }[]>(baseUrl, "GET", "/api/notifications", { sessionToken: who.sessionToken });
        const sent = list.find((n) => n.gigId === gigId && n.type === "payout_sent");
        if (sent) return sent.message;
        await new Promise((r) => setTimeout(r, 250));
      }
      return null;
    };
    expect(await paid(worker)).toMatch(/^3,900 sats were sent/);
    expect(await paid(hirer)).toMatch(/^5,850 sats were sent/);

    // Logout returns to the keypad.
    await page.getByRole("button", { name: /logout/i }).click();
    await page.getByRole("button", { name: "OK" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem("adminToken"))).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
