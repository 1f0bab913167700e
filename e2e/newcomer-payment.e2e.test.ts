// Story (issue 26, "Paying from the same phone"): a newcomer posts a job on a phone and pays from that
// same phone. The payment dialog puts the amount first, then a full-width "Open in Wallet" (the lightning:
// link) and "Copy Invoice"; the QR code waits under "Pay from another device". The invoice's time left
// counts down, no "Payment Required" toast sits over the dialog, and the dev wallet is a quiet test-only
// button at the bottom. On a desktop the QR code is the natural path and shows at once. An invoice whose
// time ran out offers "Post again": a new gig with the same title and terms, and a new invoice.
//
// The expiry story needs an invoice that runs out while the test watches: a second instance of the app
// with a short INVOICE_EXPIRY_SECONDS (no API changes it), as in cancel-and-expiry.e2e.test.ts.
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import { axeViolations, formatViolations } from "./support/axe";
import { VIEWPORTS, useBrowser } from "./support/browser";
import { type ExtraApp, startExtraApp } from "./support/extra-app";
import { type GigView, closeDialog, dialog, expectToast, mainTab, member, shotsOnFailure, storyShot, toast, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const INVOICE_EXPIRY_SECONDS = 20;
const openPage = useBrowser();
let shortExpiryApp: Promise<ExtraApp>;

beforeAll(async () => {
  // Boots while the first stories run; awaited by the expiry story.
  shortExpiryApp = startExtraApp("newcomer-short-expiry", { INVOICE_EXPIRY_SECONDS: String(INVOICE_EXPIRY_SECONDS) });
  shortExpiryApp.catch(() => undefined); // reported by the test that awaits it
});
afterAll(async () => {
  await shortExpiryApp?.then((app) => app.stop()).catch(() => undefined);
}, 60_000);

const DESCRIPTION = "Water the plants on my balcony twice while I am away this week.";

/** Posts a job through the Post tab (form, Preview, Post & Pay); the payment dialog opens. */
async function postJob(page: Page, title: string, payment: string): Promise<Locator> {
  await page.goto("/");
  await mainTab(page, "Post").click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill(DESCRIPTION);
  await page.getByLabel("Category").selectOption("Other");
  await page.getByLabel("Payment (sats)").fill(payment);
  await page.getByLabel("Timeframe (days)").fill("4");
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: "Post & Pay" }).click();
  const pay = dialog(page, "Fund Escrow");
  await pay.waitFor();
  return pay;
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator} is not shown`);
  return b;
}

/** The short id of the gig whose escrow the payment dialog asks for (its description names it). */
async function dialogGigId(pay: Locator): Promise<string> {
  const text = await pay.getByText(/^Pay this Lightning invoice to fund the escrow of gig/).textContent();
  const id = /of gig (\S+)\./.exec(text ?? "")?.[1];
  if (!id) throw new Error(`no gig id in: ${text}`);
  return id;
}

/** "Expires in 59:41" → 3581; "Expires in 1:00:00" → 3600. */
function secondsLeft(text: string | null): number {
  const clock = /^Expires in ((?:\d+:)?\d+:\d\d)$/.exec(text ?? "")?.[1];
  if (!clock) throw new Error(`not a countdown: ${text}`);
  return clock.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/** The whole dialog, however long: the viewport stretched to its height for one shot, then put back. */
async function fullDialogShot(page: Page, d: Locator, name: string) {
  const viewport = page.viewportSize()!;
  const height = await d.evaluate((el) => el.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await storyShot(page, name);
  await page.setViewportSize(viewport);
}

describe("paying from the same phone (issue 26)", () => {
  it("on a phone: the amount, then Open in Wallet and Copy, the QR code under Pay from another device, a countdown, no toast over it", async () => {
    const hirer = await member(baseUrl, "Nora Newcomer");
    const title = uniqueTitle("Balcony plants");
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const shot = (step: string) => storyShot(page, `newcomer-payment-mobile-${step}`);
    shotsOnFailure("newcomer-payment-mobile", { hirer: page });

    const pay = await postJob(page, title, "10000");
    await pay.getByText("Waiting for payment...").waitFor();
    const amount = pay.getByText("10,250 sats", { exact: true });
    const wallet = pay.getByRole("link", { name: "Open in Wallet" });
    const copy = pay.getByRole("button", { name: "Copy Invoice" });
    const other = pay.getByText("Pay from another device", { exact: true });
    const qr = pay.getByRole("link", { name: /Lightning invoice QR code/ });
    const devWallet = pay.getByRole("button", { name: "Pay with dev wallet" });
    await pay.getByText("You pay").waitFor();
    await devWallet.waitFor();

    // The wallet link carries the invoice.
    expect(await wallet.getAttribute("href")).toMatch(/^lightning:lnbcrt/);

    // Top to bottom: amount, Open in Wallet, Copy Invoice, Pay from another device, the dev wallet last.
    const [a, w, c, o, dw, d] = await Promise.all([amount, wallet, copy, other, devWallet, pay].map(box));
    expect(a.y).toBeLessThan(w.y);
    expect(w.y).toBeLessThan(c.y);
    expect(c.y).toBeLessThan(o.y);
    expect(o.y).toBeLessThan(dw.y);
    // Full width on the full-screen dialog; the wallet link a big, easy target.
    expect(d.width).toBe(VIEWPORTS.mobile.width);
    expect(w.width).toBeGreaterThan(d.width - 60);
    expect(c.width).toBeGreaterThan(d.width - 60);
    expect(w.height).toBeGreaterThanOrEqual(44);
    // The QR code waits, folded, under "Pay from another device"; the dev wallet is a quiet one (no fill).
    expect(await qr.isVisible()).toBe(false);
    expect(await devWallet.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
    await pay.getByText(/^Test only:/).waitFor();

    // The invoice's time left counts down (an hour for this app's invoices).
    const timer = pay.getByRole("timer");
    const first = await timer.textContent();
    expect(secondsLeft(first)).toBeGreaterThan(55 * 60);
    expect(secondsLeft(first)).toBeLessThanOrEqual(60 * 60);
    await expect.poll(() => timer.textContent(), { timeout: 10_000 }).not.toBe(first);
    expect(secondsLeft(await timer.textContent())).toBeLessThan(secondsLeft(first));

    // Over a second after it opened, no "Payment Required" toast sits over the dialog.
    expect(await toast(page, "Payment Required").count()).toBe(0);
    await shot("01-dialog");
    await fullDialogShot(page, pay, "newcomer-payment-mobile-01-dialog-full");

    // Paying from another device: the QR code, drawn here.
    await other.click();
    await qr.waitFor();
    await expect.poll(() => qr.locator("img").getAttribute("src")).toMatch(/^data:image\/png/);
    expect(await qr.getAttribute("href")).toBe(await wallet.getAttribute("href"));
    expect((await box(qr)).y).toBeGreaterThan(o.y);
    await fullDialogShot(page, pay, "newcomer-payment-mobile-02-other-device");
    const violations = await axeViolations(page, '[role="dialog"]');
    expect(violations, formatViolations(violations)).toEqual([]);

    // Closed unpaid, the gig still waits: now the toast says so.
    await closeDialog(pay);
    await expectToast(page, "Payment Required");
    await shot("03-closed-unpaid");

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("on a desktop: the amount, then the QR code at once, then the wallet link and Copy", async () => {
    const hirer = await member(baseUrl, "Dana Desktop");
    const title = uniqueTitle("Proofread a flyer");
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "desktop", sessionToken: hirer.sessionToken });
    shotsOnFailure("newcomer-payment-desktop", { hirer: page });

    const pay = await postJob(page, title, "10000");
    const qr = pay.getByRole("link", { name: /Lightning invoice QR code/ });
    await qr.waitFor();
    await expect.poll(() => qr.locator("img").getAttribute("src")).toMatch(/^data:image\/png/);
    await pay.getByRole("heading", { name: "Scan with the Lightning wallet on your phone" }).waitFor();
    expect(await pay.getByText("Pay from another device").count()).toBe(0);
    const [a, q, w, c] = await Promise.all([pay.getByText("10,250 sats", { exact: true }), qr, pay.getByRole("link", { name: "Open in Wallet" }), pay.getByRole("button", { name: "Copy Invoice" })].map(box));
    expect(a.y).toBeLessThan(q.y);
    expect(q.y).toBeLessThan(w.y);
    expect(Math.abs(w.y - c.y)).toBeLessThan(2); // side by side
    expect(secondsLeft(await pay.getByRole("timer").textContent())).toBeGreaterThan(55 * 60);
    expect(await toast(page, "Payment Required").count()).toBe(0);
    await storyShot(page, "newcomer-payment-desktop-01-dialog");

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("an invoice whose time ran out offers Post again, which opens a new invoice for a gig with the same title", async () => {
    const app = await shortExpiryApp;
    const hirer = await member(app.baseUrl, "Olga Overdue");
    const title = uniqueTitle("Hang three shelves");
    const { page, context, pageErrors } = await openPage(app.baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const shot = (step: string) => storyShot(page, `newcomer-payment-expiry-mobile-${step}`);
    shotsOnFailure("newcomer-payment-expiry-mobile", { hirer: page });

    const pay = await postJob(page, title, "5000");
    const firstInvoice = await pay.getByRole("link", { name: "Open in Wallet" }).getAttribute("href");
    const firstGigId = await dialogGigId(pay);
    expect(secondsLeft(await pay.getByRole("timer").textContent())).toBeLessThanOrEqual(INVOICE_EXPIRY_SECONDS);

    // The countdown reaches zero: the dialog says the invoice can no longer be paid, and offers Post again.
    await pay.getByText("Its time ran out. Nothing was charged.").waitFor({ timeout: (INVOICE_EXPIRY_SECONDS + 15) * 1000 });
    await pay.getByText("This invoice can no longer be paid").waitFor();
    expect(await pay.getByRole("link", { name: "Open in Wallet" }).count()).toBe(0);
    expect(await pay.getByRole("button", { name: "Pay with dev wallet" }).count()).toBe(0);
    const again = pay.getByRole("button", { name: "Post again" });
    await again.waitFor();
    await pay.getByText(/same title, description and terms \(5,000 sats, 4 days\)/).waitFor();
    await shot("01-expired");
    await fullDialogShot(page, pay, "newcomer-payment-expiry-mobile-01-expired-full");
    const violations = await axeViolations(page, '[role="dialog"]');
    expect(violations, formatViolations(violations)).toEqual([]);

    // A double tap makes one new gig, and its payment dialog opens with a new invoice that counts down.
    await again.dblclick();
    const fresh = pay.getByRole("link", { name: "Open in Wallet" });
    await fresh.waitFor();
    expect(await fresh.getAttribute("href")).toMatch(/^lightning:lnbcrt/);
    expect(await fresh.getAttribute("href")).not.toBe(firstInvoice);
    await pay.getByText("5,125 sats", { exact: true }).waitFor();
    expect(secondsLeft(await pay.getByRole("timer").textContent())).toBeGreaterThan(0);
    await shot("02-posted-again");

    const mine = await apiJson<GigView[]>(app.baseUrl, "GET", "/api/gigs?participant=me&limit=100", { sessionToken: hirer.sessionToken });
    const sameTitle = mine.filter((g) => g.title === title);
    expect(sameTitle).toHaveLength(2);
    for (const g of sameTitle) {
      expect(g).toMatchObject({ gigType: "job_request", description: DESCRIPTION, category: "Other", payment: 5000, timeframe: 4 });
    }
    // The dialog now asks for the new gig's escrow.
    const newGigId = await dialogGigId(pay);
    expect(newGigId).not.toBe(firstGigId);
    expect(sameTitle.find((g) => g.id.startsWith(newGigId))).toMatchObject({ status: "pending_payment" });
    expect(sameTitle.find((g) => g.id.startsWith(firstGigId))).toBeDefined();

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});
