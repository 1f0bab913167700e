// Story (issue 29, "A gig's own page"): a link to a gig, shared or from a search, opened on a phone (360 px). A
// visitor reads the gig itself: its title, price, poster, description and steps. A worker who is signed in opens
// the same link and expresses interest from the page; the hirer, from the same page, approves them and enables
// claiming; the worker claims, starts and submits the first milestone there; the hirer funds the next milestone
// through the payment dialog, opens the chat and approves the work, all without leaving /gig/:id. Screenshots of each reader's
// page at 360 px and at 1280 px.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson, type SignedInUser } from "./support/api";
import { axeViolations, BLOCKING_IMPACTS, formatViolations } from "./support/axe";
import { screenshot, useBrowser } from "./support/browser";
import { dialog, expectToast, type GigView, member, milestoneSteps, shotsOnFailure, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

const DESCRIPTION = "A small bakery shop website, paid step by step: wireframes, the pages, then the launch.";
const PLAN = [
  { title: "Wireframes", amount: 3_000, days: 3 },
  { title: "Build the pages", amount: 4_000, days: 5 },
  { title: "Launch", amount: 5_000 },
];

/** A job of three milestones posted by the hirer, milestone 1 funded by the dev wallet: open on Browse. */
async function openPlanJob(hirer: SignedInUser, title: string): Promise<GigView> {
  const posted = await apiJson<{ gig: GigView; paymentRequest: string }>(baseUrl, "POST", "/api/gigs", {
    sessionToken: hirer.sessionToken,
    body: { gigType: "job_request", title, description: DESCRIPTION, category: "Development", payment: 12_000, timeframe: 14, milestones: PLAN },
  });
  await apiJson(baseUrl, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest } });
  return posted.gig;
}

/** No serious or critical axe-core violation on the page, and its headings in order under its one h1. */
async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  const blocking = violations.filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact));
  expect.soft(blocking, formatViolations(blocking)).toEqual([]);
  expect.soft(violations.filter((v) => v.id === "heading-order" || v.id === "page-has-heading-one").map((v) => v.id)).toEqual([]);
  expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
}

/**
 * How far into the floating suggestion button the farthest-right fact value reaches, in px (0 when none does). The
 * facts' values end left of the button's column whatever the page's scroll, so none ever lies under it.
 */
async function factsUnderSuggestionButton(page: Page): Promise<{ values: number; reach: number }> {
  return page.evaluate(() => {
    const button = document.querySelector('button[aria-label="Suggestion box"]');
    if (!button || (button as HTMLElement).hidden) throw new Error("the suggestion button is not shown");
    const buttonLeft = button.getBoundingClientRect().left - 4; // its 4px ring
    const values = Array.from(document.querySelectorAll("main dl dd"));
    let reach = 0;
    for (const value of values) {
      const text = document.createRange();
      text.selectNodeContents(value);
      for (const line of Array.from(text.getClientRects())) reach = Math.max(reach, line.right - buttonLeft);
    }
    return { values: values.length, reach };
  });
}

/** The page again, at 1280 px, as the same reader sees it now. */
async function desktopShot(name: string, path: string, sessionToken?: string): Promise<void> {
  const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "desktop", sessionToken });
  await page.goto(path);
  await page.getByRole("heading", { level: 1 }).waitFor();
  if (sessionToken) await page.getByRole("button", { name: /Account menu for/ }).waitFor();
  await screenshot(page, name);
  expect(pageErrors).toEqual([]);
  await context.close();
}

describe("a gig's own page (360 px)", () => {
  it("a visitor reads the gig; the worker and the hirer act on it from the page, its dialogs included", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Bakery shop website");
    const gig = await openPlanJob(hirer, title);
    const link = `/gig/${gig.id}`;

    // --- A visitor from a shared link: the gig itself, and nothing a member does.
    const V = await openPage(baseUrl, { viewport: "mobile" });
    const W = await openPage(baseUrl, { viewport: "mobile", sessionToken: worker.sessionToken });
    const H = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const [vp, wp, hp] = [V.page, W.page, H.page];
    shotsOnFailure("gig-page", { visitor: vp, worker: wp, hirer: hp });

    const answer = await vp.goto(link);
    expect(answer?.status()).toBe(200);
    const vMain = vp.getByRole("main");
    expect(await vp.getByRole("heading", { level: 1 }).textContent()).toBe(title);
    await vMain.getByText("12,000 sats", { exact: true }).waitFor();
    await vMain.getByRole("link", { name: "Hana Hirer" }).waitFor();
    await vMain.getByText(DESCRIPTION).waitFor();
    await vMain.getByText("Development", { exact: true }).waitFor();
    await vMain.getByText("14 days", { exact: true }).waitFor();
    const vSteps = milestoneSteps(vMain);
    await expect.poll(() => vSteps.count()).toBe(3);
    await vSteps.nth(0).getByText("Wireframes").waitFor();
    await vSteps.nth(2).getByText("Launch").waitFor();
    await vMain.getByText(/is held in escrow for milestone 1/).waitFor();
    expect(await vMain.getByRole("button", { name: /Send Interest|Open Chat|Cancel Gig|Manage|Approve/ }).count()).toBe(0);
    await vMain.getByRole("region", { name: "Next step" }).getByRole("button", { name: "Claim Gig" }).waitFor();
    await screenshot(vp, "gig-page-visitor-360");
    await expectAccessible(vp);
    // The facts sit where the floating suggestion button is at first view on a phone; it covers none of them.
    expect(await factsUnderSuggestionButton(vp)).toEqual({ values: 6, reach: 0 });

    // --- The worker opens the same link signed in: the page becomes theirs, and they express interest there.
    await wp.goto(link);
    const wMain = wp.getByRole("main");
    await wMain.getByLabel("Express interest").fill("I build small shop sites in steps like this one.");
    await wMain.getByRole("button", { name: "Send Interest" }).click();
    await expectToast(wp, "Interest Sent!");
    await wMain.getByRole("heading", { name: "Your interest message" }).waitFor();
    await screenshot(wp, "gig-page-worker-interest-360");

    // --- The hirer, on the page: approves the worker's message and enables claiming.
    await hp.goto(link);
    const hMain = hp.getByRole("main");
    await hMain.getByRole("button", { name: "Approve Wes Worker" }).click();
    await hMain.getByRole("button", { name: "Enable Claim for Wes Worker" }).click();
    await expectToast(hp, "Claim Enabled");

    // --- The worker claims from the page, starts milestone 1 and submits it, staying on the page.
    await wp.reload();
    const wNext = wMain.getByRole("region", { name: "Next step" });
    await wNext.getByRole("button", { name: "Claim Gig" }).click();
    await expectToast(wp, "Gig Claimed");
    await wNext.getByRole("button", { name: "Start milestone 1" }).click();
    await expectToast(wp, "Work Started");
    await wMain.getByLabel("Submit your work on milestone 1").fill("Wireframes: bakery.example/wireframes");
    await wMain.getByRole("button", { name: "Submit milestone 1" }).click();
    await expectToast(wp, "Work Submitted");
    await wMain.getByText("You receive 11,700 sats").waitFor();
    expect(new URL(wp.url()).pathname).toBe(link);
    await screenshot(wp, "gig-page-worker-360");
    expect(await factsUnderSuggestionButton(wp)).toEqual({ values: 6, reach: 0 });
    await expectAccessible(wp);

    // --- The hirer funds milestone 2 from its step, through the same payment dialog as the details dialog's.
    await hp.reload();
    const hSteps = milestoneSteps(hMain);
    await hSteps.nth(1).getByRole("button", { name: "Fund milestone 2" }).click();
    const pay = dialog(hp, "Fund Escrow");
    await pay.getByText("Milestone 2 of 3: Build the pages").waitFor();
    await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay.getByText("Payment Received!").waitFor();
    await hSteps.nth(1).getByText("Funded", { exact: true }).waitFor();
    await expect.poll(() => pay.count()).toBe(0);
    expect(new URL(hp.url()).pathname).toBe(link);

    // --- ...and approves the submitted milestone from the page.
    await hMain.getByText("Wireframes: bakery.example/wireframes").waitFor();
    await hMain.getByText("You pay 12,300 sats").waitFor();
    await hMain.getByRole("button", { name: "Request Revision" }).waitFor();
    await screenshot(hp, "gig-page-hirer-360");
    await expectAccessible(hp);
    // The chat opens over the page, as from the details dialog, and closing it leaves the page as it was.
    await hMain.getByRole("button", { name: "Open Chat" }).click();
    const chat = dialog(hp, `Chat: ${title}`);
    await chat.getByRole("status").filter({ hasText: "Connected" }).waitFor();
    await chat.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => chat.count()).toBe(0);
    expect(new URL(hp.url()).pathname).toBe(link);
    await hMain.getByRole("button", { name: "Approve milestone 1" }).click();
    await expectToast(hp, "Work Approved");
    await hSteps.nth(0).getByText(/^(Approved|Paid)$/).waitFor();
    const after = await apiJson<GigView>(baseUrl, "GET", `/api/gigs/${gig.id}`, { sessionToken: hirer.sessionToken });
    expect(after.currentMilestone).toBe(2);

    expect(V.pageErrors).toEqual([]);
    expect(W.pageErrors).toEqual([]);
    expect(H.pageErrors).toEqual([]);
    await V.context.close();
    await W.context.close();
    await H.context.close();

    // --- The same page at 1280 px, for each reader.
    await desktopShot("gig-page-visitor-1280", link);
    await desktopShot("gig-page-worker-1280", link, worker.sessionToken);
    await desktopShot("gig-page-hirer-1280", link, hirer.sessionToken);
  });
});
