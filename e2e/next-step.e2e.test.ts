// Story (issue 26, "The next step in sight"): a job walked by its hirer and its worker on phones (360 px),
// with a visitor looking in. Right under the gig's title the details say what this person can do now
// ("Wes Worker wants this gig — Review", "You can claim this gig now", "Start work", "Submit your work",
// "Review the delivery"), or whose move it is; the details fill the phone's screen, one line per fact.
// Each party reads the money in their own terms: the worker "You receive 9,750 sats", the hirer "You pay
// 10,250 sats" for a 10,000-sat job, on the card, in the details and on the Active tab; a visitor the
// payment. The worker's Cancel reads Withdraw. A visitor's Claim Gig opens the login dialog saying why.
// A job cancelled before its escrow was funded offers its hirer Post again, and no longer explains funding.
// Then the same screens at 1280 px, where the details are a centred card and the fee breakdown shows.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import { VIEWPORTS, useBrowser } from "./support/browser";
import { claimedJob, closeDialog, dialog, expectToast, fundedJob, gigCard, mainTab, member, searchBrowse, shotsOnFailure, storyShot, uniqueTitle, openGigDetails } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/** The next step's banner under the title: a region when there is something to do. */
const nextStep = (d: Locator) => d.getByRole("region", { name: "Next step" });

/** The Payment fact of the details (its value; innerText is what shows at this size). */
const paymentFact = (d: Locator) => d.getByRole("term").filter({ hasText: /^Payment$/ }).locator("xpath=following-sibling::*[1]");

/** True once `locator` holds the keyboard focus. */
const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);


/** On a phone the details fill the screen, edge to edge (below a toast while one shows, as every dialog). */
async function expectFullScreen(page: Page, d: Locator): Promise<void> {
  const { width, height } = page.viewportSize()!;
  const toastClearance = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--toast-clearance")) || 0);
  // From the moment it shows: on a phone it fades in where it stays, it does not slide in.
  const box = (await d.boundingBox())!;
  expect({ x: Math.round(box.x), top: Math.round(box.y), width: Math.round(box.width), bottom: Math.round(box.y + box.height) }).toEqual({
    x: 0,
    top: Math.round(toastClearance),
    width,
    bottom: height,
  });
}

/** Each fact (Payment, Timeframe, Category…) is one line on a phone: label and value side by side. */
async function expectOneLineFacts(d: Locator): Promise<void> {
  const facts = d.getByRole("term");
  const count = await facts.count();
  expect(count).toBeGreaterThanOrEqual(6);
  for (let i = 0; i < count; i++) {
    const [term, value] = await Promise.all([facts.nth(i).boundingBox(), facts.nth(i).locator("xpath=following-sibling::*[1]").boundingBox()]);
    expect.soft(Math.abs(term!.y + term!.height / 2 - (value!.y + value!.height / 2)), `fact ${i} on one line`).toBeLessThan(8);
    expect.soft(value!.height, `fact ${i} value on one line`).toBeLessThan(28);
  }
}

describe("the next step in sight (360 px)", () => {
  it("walks a job as visitor, hirer and worker: the step under the title changes with the status, the money in each party's terms", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Write a shop FAQ");
    const gig = await fundedJob(baseUrl, hirer, title, 10_000);
    await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/pre-claim-messages`, {
      sessionToken: worker.sessionToken,
      body: { message: "I write FAQs for shops every week." },
    });

    const V = await openPage(baseUrl, { viewport: "mobile" });
    const H = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport: "mobile", sessionToken: worker.sessionToken });
    const [vp, hp, wp] = [V.page, H.page, W.page];
    const shot = (page: Page, step: string) => storyShot(page, `next-step-mobile-${step}`);
    shotsOnFailure("next-step-mobile", { visitor: vp, hirer: hp, worker: wp });

    // --- Visitor: the card shows the payment itself and the poster's track record in words.
    await vp.goto("/");
    await searchBrowse(vp, title);
    const vCard = gigCard(vp, title);
    await vCard.getByText("10,000 sats", { exact: true }).waitFor();
    expect(await vCard.getByText(/You (pay|receive)/).count()).toBe(0);
    await vCard.getByText("No completed gigs yet").waitFor();
    await vCard.getByRole("button", { name: title }).click();
    const vDetails = dialog(vp, title);
    await vDetails.waitFor();
    await expectFullScreen(vp, vDetails);
    const vNext = nextStep(vDetails);
    await vNext.getByText("Log in to send an interest message and claim this gig.").waitFor();
    expect(await paymentFact(vDetails).innerText()).toBe("10,000 sats");
    await expectOneLineFacts(vDetails);
    await shot(vp, "01-visitor-details");
    // Claim Gig leads to the login dialog, which says why.
    await vNext.getByRole("button", { name: "Claim Gig" }).click();
    const login = dialog(vp, "Login with Nostr");
    await login.getByText("Log in to claim this gig.").waitFor();
    await expectToast(vp, "Login Required");
    await shot(vp, "02-visitor-login-with-reason");

    // --- Worker: their interest message waits for the hirer (never "the owner").
    await wp.goto("/");
    await searchBrowse(wp, title);
    await gigCard(wp, title).getByRole("button", { name: title }).click();
    const wDetails = dialog(wp, title);
    await wDetails.getByText("Waiting for the hirer to answer your interest message.").waitFor();
    await wDetails.getByText("The hirer has not answered yet.").waitFor();
    expect(await wDetails.getByText(/owner/i).count()).toBe(0);
    await shot(wp, "03-worker-waiting-for-hirer");
    await closeDialog(wDetails);

    // --- Hirer: "Wes Worker wants this gig — Review"; Review goes to the message; they pay 10,250.
    const hDetails = await openGigDetails(hp, gig.id, title);
    await expectFullScreen(hp, hDetails);
    const hNext = nextStep(hDetails);
    await hNext.getByText("Wes Worker wants this gig").waitFor();
    expect(await paymentFact(hDetails).innerText()).toBe("You pay 10,250 sats");
    await expectOneLineFacts(hDetails);
    await shot(hp, "04-hirer-details-interest");
    await hNext.getByRole("button", { name: "Review", exact: true }).click();
    const approve = hDetails.getByRole("button", { name: "Approve Wes Worker" });
    await expect.poll(() => focused(approve)).toBe(true);
    await approve.click();
    await expectToast(hp, "Interest Approved");
    await hNext.getByText("You approved Wes Worker: enable claiming when you want them to take it.").waitFor();
    await hDetails.getByRole("button", { name: "Enable Claim for Wes Worker" }).click();
    await expectToast(hp, "Claim Enabled");
    await hDetails.getByText("Waiting for Wes Worker to claim the gig.").waitFor();
    await closeDialog(hDetails);

    // --- Worker: "You can claim this gig now" → Claim Gig → "Start work", with Withdraw, receiving 9,750.
    await wp.goto("/");
    await searchBrowse(wp, title);
    await gigCard(wp, title).getByRole("button", { name: title }).click();
    const wOffer = dialog(wp, title);
    const wNext = nextStep(wOffer);
    await wNext.getByText("You can claim this gig now.").waitFor();
    expect(await wOffer.getByRole("button", { name: "Claim Gig" }).count()).toBe(1);
    await wNext.getByRole("button", { name: "Claim Gig" }).click();
    await expectToast(wp, "Gig Claimed");
    await wNext.getByText("Start work", { exact: true }).waitFor();
    await wNext.getByRole("button", { name: "Start Work" }).waitFor();
    expect(await paymentFact(wOffer).innerText()).toBe("You receive 9,750 sats");
    await wOffer.getByRole("button", { name: "Withdraw", exact: true }).waitFor();
    expect(await wOffer.getByRole("button", { name: "Cancel Gig" }).count()).toBe(0);
    await expectFullScreen(wp, wOffer);
    await expectOneLineFacts(wOffer);
    await shot(wp, "05-worker-details-claimed");
    // Withdraw asks in those words; the worker keeps the gig.
    await wOffer.getByRole("button", { name: "Withdraw", exact: true }).click();
    const confirm = wOffer.getByRole("group", { name: "Confirm withdrawal" });
    await confirm.getByText(/^Withdraw from this gig\? It is cancelled and the escrow \(10,250 sats\) is refunded to the hirer\./).waitFor();
    await confirm.scrollIntoViewIfNeeded();
    await shot(wp, "06-worker-withdraw-confirm");
    await confirm.getByRole("button", { name: "Keep Gig" }).click();

    // Start Work → "Submit your work": its button goes to the form.
    await wNext.getByRole("button", { name: "Start Work" }).click();
    await expectToast(wp, "Work Started");
    await wNext.getByText("Submit your work", { exact: true }).waitFor();
    await wNext.getByRole("button", { name: "Describe your work" }).click();
    const work = wOffer.getByLabel("Submit your work");
    await expect.poll(() => focused(work)).toBe(true);
    await work.fill("The FAQ is live at https://example.com/faq (12 questions).");
    await wOffer.getByRole("button", { name: "Submit Work" }).click();
    await expectToast(wp, "Work Submitted");
    // The review step opens by itself under the delivery; above, the step is now the hirer's.
    await wOffer.getByRole("form", { name: "Review the hirer" }).waitFor();
    const waiting = wOffer.getByText("Waiting for the hirer to review your work.");
    await waiting.scrollIntoViewIfNeeded();
    await shot(wp, "07-worker-waiting-for-review");
    await closeDialog(wOffer);

    // The worker's Active tab: the card says what they receive.
    await mainTab(wp, "Active").click();
    const wCard = gigCard(wp, title);
    await wCard.getByText("You receive 9,750 sats").waitFor();
    await shot(wp, "08-worker-active");

    // --- Hirer: Active says what they pay (card and My Gigs); the details say "Review the delivery".
    await hp.goto("/?tab=active");
    const hCard = gigCard(hp, title);
    await hCard.getByText("You pay 10,250 sats").waitFor();
    await hp.getByRole("region", { name: "My Gigs" }).getByText(/^You pay 10,250 sats · Writing/).waitFor();
    await shot(hp, "09-hirer-active");
    await hCard.getByRole("button", { name: `View Details: ${title}` }).click();
    const hReview = dialog(hp, title);
    const hReviewNext = nextStep(hReview);
    await hReviewNext.getByText("Review the delivery").waitFor();
    await hReviewNext.getByText("Approve it to release 9,750 sats to the worker, or ask for a revision.").waitFor();
    await shot(hp, "10-hirer-review-the-delivery");
    await hReviewNext.getByRole("button", { name: "Review", exact: true }).click();
    await expect.poll(() => focused(hReview.getByRole("button", { name: "Approve & Release Payment" }))).toBe(true);

    for (const p of [V, H, W]) {
      expect(p.pageErrors.map(String)).toEqual([]);
      await p.context.close();
    }
  });

  it("offers Post again on a job cancelled before its escrow was funded, and no longer explains the funding", async () => {
    const hirer = await member(baseUrl, "Hal Hirer");
    const title = uniqueTitle("Never funded");
    const posted = await apiJson<{ gig: { id: string } }>(baseUrl, "POST", "/api/gigs", {
      sessionToken: hirer.sessionToken,
      body: { gigType: "job_request", title, description: "A job whose hirer cancels before paying.", category: "Writing", payment: 10_000, timeframe: 7 },
    });
    await apiJson(baseUrl, "POST", `/api/gigs/${posted.gig.id}/cancel`, { sessionToken: hirer.sessionToken });

    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    shotsOnFailure("next-step-mobile-post-again", { hirer: page });
    const d = await openGigDetails(page, posted.gig.id, title);
    await d.getByText("This gig was cancelled.", { exact: true }).waitFor();
    await d.getByText("Never funded, so no sats were taken.").waitFor();
    expect(await d.getByText(/into escrow before the gig opens/).count()).toBe(0);
    const next = nextStep(d);
    await next.getByText("This gig was cancelled before its escrow was funded.").waitFor();
    // Nobody pays anything for it any more: the payment as it was, not "You pay".
    expect(await paymentFact(d).innerText()).toBe("10,000 sats");
    await storyShot(page, "next-step-mobile-11-cancelled-post-again");
    await next.getByRole("button", { name: "Post again" }).click();
    await dialog(page, "Fund Escrow").waitFor();
    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});

describe("the next step in sight (1280 px)", () => {
  it("shows the details as a centred card with the step under the title and the fee breakdown", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Proofread a price list");
    const gig = await claimedJob(baseUrl, hirer, worker, title, 10_000);

    const H = await openPage(baseUrl, { viewport: "desktop", sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport: "desktop", sessionToken: worker.sessionToken });
    shotsOnFailure("next-step-desktop", { hirer: H.page, worker: W.page });

    // Worker: Active card, then details: "Start work", receiving 9,750 (9,750 = 10,000 − 2.5% fee).
    await W.page.goto("/?tab=active");
    const wCard = gigCard(W.page, title);
    await wCard.getByText("You receive 9,750 sats").waitFor();
    await wCard.getByRole("button", { name: `View Details: ${title}` }).click();
    const wd = dialog(W.page, title);
    await nextStep(wd).getByRole("button", { name: "Start Work" }).waitFor();
    await paymentFact(wd).getByText("You receive 9,750 sats").waitFor();
    await paymentFact(wd).getByText("10,000 sats − 2.5% fee").waitFor();
    await wd.getByRole("button", { name: "Withdraw", exact: true }).waitFor();
    // A centred card, once it has come in.
    await expect.poll(async () => Math.round((await wd.boundingBox())!.x)).toBeGreaterThan(100);
    const box = (await wd.boundingBox())!;
    expect(box.width).toBeLessThan(VIEWPORTS.desktop.width - 200);
    expect(Math.round(box.x + box.width / 2)).toBe(VIEWPORTS.desktop.width / 2);
    await storyShot(W.page, "next-step-desktop-01-worker-details");

    // Hirer: the next move is the worker's: a quiet line, and what they pay.
    const hd = await openGigDetails(H.page, gig.id, title);
    await hd.getByText("Waiting for the worker to start work.").waitFor();
    expect(await nextStep(hd).count()).toBe(0);
    await paymentFact(hd).getByText("You pay 10,250 sats").waitFor();
    await paymentFact(hd).getByText("10,000 sats + 2.5% fee").waitFor();
    await storyShot(H.page, "next-step-desktop-02-hirer-details");

    for (const p of [H, W]) {
      expect(p.pageErrors.map(String)).toEqual([]);
      await p.context.close();
    }
  });
});
