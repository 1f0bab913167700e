// Stories (issue 3, issue 7), at the mobile size: a funded job cancelled by its hirer is refunded in
// full (Gig Cancelled, the refund text, the sats back at their Lightning address); and a job whose
// escrow invoice expired unpaid is cancelled by the cron, which the payment modal, the Active tab and
// the bell all show.
//
// No API makes an invoice expire, and the shared app uses the default INVOICE_EXPIRY_SECONDS (an hour),
// so the expiry half runs against a second instance of the app started by this file with
// INVOICE_EXPIRY_SECONDS=10, whose cron it fires itself through /cdn-cgi/local/scheduled.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import { useBrowser } from "./support/browser";
import { type ExtraApp, startExtraApp } from "./support/extra-app";
import {
  bell,
  closeDialog,
  dialog,
  expectToast,
  fundedJob,
  getGig,
  mainTab,
  member,
  myGigByTitle,
  shotsOnFailure,
  storyShot,
  toast,
  uniqueTitle,
  waitForNotification,
  searchBrowse,
} from "./support/gigs";

const baseUrl = inject("baseUrl");
const INVOICE_EXPIRY_SECONDS = 10;
const openPage = useBrowser();
let shortExpiryApp: Promise<ExtraApp>;

beforeAll(async () => {
  // Boots while the first story runs; awaited by the second.
  shortExpiryApp = startExtraApp("short-expiry", { INVOICE_EXPIRY_SECONDS: String(INVOICE_EXPIRY_SECONDS) });
  shortExpiryApp.catch(() => undefined); // reported by the test that awaits it
});
afterAll(async () => {
  await shortExpiryApp?.then((app) => app.stop()).catch(() => undefined);
}, 60_000);

describe("cancellation and expiry (mobile)", () => {
  it("refunds a funded job in full when the hirer cancels it", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const title = uniqueTitle("Cancelled translation");
    const gig = await fundedJob(baseUrl, hirer, title);
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const shot = (step: string) => storyShot(page, `cancel-mobile-${step}`);
    shotsOnFailure("cancel-mobile", { hirer: page });

    await page.goto("/");
    await mainTab(page, "Active").click();
    await page.getByRole("button", { name: `View Details: ${title}` }).click();
    const details = dialog(page, title);
    await details.getByText(/10,250 sats is held in escrow/).waitFor();
    await details.getByRole("button", { name: "Cancel Gig" }).click();
    const confirm = details.getByRole("group", { name: "Confirm cancellation" });
    await confirm.getByText("The escrow (10,250 sats) is refunded to the hirer.").waitFor();
    await shot("01-confirm");
    await confirm.getByRole("button", { name: "Yes, Cancel Gig" }).click();

    await expectToast(page, "Gig Cancelled");
    const refundText = toast(page, "Refunded: 10,250 sats are being sent to your Lightning address.");
    expect.soft(await refundText.isVisible(), "the refund text in the Gig Cancelled toast").toBe(true);
    await details.getByText("This gig was cancelled.").waitFor();
    await details.getByText("The escrow (10,250 sats) was refunded to the hirer.").waitFor();
    await details.getByText("Cancelled", { exact: true }).first().waitFor();
    await shot("02-cancelled");
    await closeDialog(details);

    // The money: refunded in full, fee included, to the hirer's Lightning address.
    expect(await getGig(baseUrl, hirer, gig.id)).toMatchObject({ status: "cancelled", escrowStatus: "refunded" });
    const refund = await waitForNotification(baseUrl, hirer, (n) => n.gigId === gig.id && n.type === "payout_sent");
    expect(refund.message).toMatch(/^10,250 sats were sent/);

    // My Gigs shows it cancelled; Browse no longer offers it.
    await page.reload();
    await mainTab(page, "Active").click();
    await page.getByRole("heading", { name: "My Gigs" }).waitFor();
    const row = page.getByRole("listitem").filter({ has: page.getByRole("button", { name: `View Details: ${title}` }) });
    await row.getByText("Cancelled", { exact: true }).waitFor();
    await shot("03-my-gigs");
    await mainTab(page, "Browse").click();
    await searchBrowse(page, title);
    await page.getByRole("heading", { name: `No results for “${title}”` }).waitFor();

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("cancels a job whose escrow invoice expired unpaid", async () => {
    const app = await shortExpiryApp;
    const hirer = await member(app.baseUrl, "Hal Hirer");
    const title = uniqueTitle("Never paid");
    const { page, context, pageErrors } = await openPage(app.baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const shot = (step: string) => storyShot(page, `expiry-mobile-${step}`);
    shotsOnFailure("expiry-mobile", { hirer: page });

    // Posts a job through the Post tab; the payment modal waits for the invoice.
    await page.goto("/");
    await mainTab(page, "Post").click();
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("A job whose hirer never pays the escrow invoice.");
    await page.getByLabel("Category").selectOption("Other");
    await page.getByLabel("Payment (sats)").fill("5000");
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByRole("button", { name: "Post & Pay" }).click();
    const pay = dialog(page, "Fund Escrow");
    await pay.getByText("Waiting for payment...").waitFor();
    await pay.getByRole("timer").filter({ hasText: /^Expires in 0:\d\d$/ }).waitFor();
    const posted = await myGigByTitle(app.baseUrl, hirer, title);
    const invoice = (await pay.getByRole("link", { name: "Open in Wallet" }).getAttribute("href"))!.replace(/^lightning:/, "");
    expect(posted.status).toBe("pending_payment");
    await shot("01-waiting-for-payment");

    // The invoice runs out: the dialog's countdown reaches zero and says so (its time, read from the invoice;
    // the gig room may have expired it on the server by then too).
    await pay.getByText("Its time ran out. Nothing was charged.").waitFor({ timeout: (INVOICE_EXPIRY_SECONDS + 15) * 1000 });
    expect(await pay.getByRole("link", { name: "Open in Wallet" }).count()).toBe(0);
    // The cron (fired here) expires it and cancels the job.
    await app.runCron();
    expect(await getGig(app.baseUrl, hirer, posted.id)).toMatchObject({ status: "cancelled" });

    // The open payment modal (still polling, in case a payment in flight settles) says so, and offers to post
    // the gig again.
    await pay.getByText("This invoice can no longer be paid").waitFor();
    await pay.getByText("Its time ran out. Nothing was charged.").waitFor();
    await pay.getByRole("button", { name: "Post again" }).waitFor();
    expect(await pay.getByRole("button", { name: "Pay with dev wallet" }).count()).toBe(0);
    await shot("02-invoice-expired");
    await closeDialog(pay);

    // The dev wallet refuses the expired invoice.
    const late = await fetch(new URL("/api/dev/invoices/pay", app.baseUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ paymentRequest: invoice }),
    });
    expect(late.status).toBe(409);

    // My Gigs says Cancelled, and the bell tells why.
    await page.reload();
    await mainTab(page, "Active").click();
    const row = page.getByRole("listitem").filter({ has: page.getByRole("button", { name: `View Details: ${title}` }) });
    await row.getByText("Cancelled", { exact: true }).waitFor();
    await bell(page).and(page.getByRole("button", { name: /unread/ })).waitFor();
    await bell(page).click();
    const expired = page.getByRole("menu").getByRole("menuitem", { name: /Payment Window Expired/ });
    await expired.getByText(`The invoice for "${title}" expired unpaid, so the gig was cancelled. No sats were taken.`).waitFor();
    await shot("03-notification");
    await expired.click();
    const details = dialog(page, title);
    await details.getByText("This gig was cancelled.").waitFor();
    expect(await details.getByRole("button", { name: "Pay Invoice" }).count()).toBe(0);
    await shot("04-details");

    const events = await apiJson<{ type: string }[]>(app.baseUrl, "GET", `/api/gigs/${posted.id}/events`, { sessionToken: hirer.sessionToken });
    expect(events.map((e) => e.type)).toContain("payment_expired");
    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});
