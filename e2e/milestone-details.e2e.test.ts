// Story (issue 28, "Milestones"): a job paid in three milestones, seen in its details by its hirer and its
// worker, at 360 px and at 1280 px. The details list the milestones as steps (number, title, amount in the
// reader's own terms, days, step), the current one highlighted; the worker starts milestone 1 from the next
// step; the hirer funds milestone 2 ahead of time from its step, through the payment dialog and the dev
// wallet; the worker proposes a change of the unfunded milestone 3 and the hirer accepts it. The Active tab's
// card says which milestone is current.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson, type SignedInUser } from "./support/api";
import { BLOCKING_IMPACTS, axeViolations, formatViolations } from "./support/axe";
import { type ViewportName, useBrowser } from "./support/browser";
import { type GigView, dialog, expectToast, gigCard, getGig, mainTab, member, shotsOnFailure, storyShot, uniqueTitle, openGigDetails, milestoneSteps } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

const PLAN = [
  { title: "Wireframes", amount: 3_000, days: 3 },
  { title: "Build the pages", amount: 4_000, days: 5 },
  { title: "Launch", amount: 5_000 },
];

/** A job of three milestones posted by the hirer, milestone 1 funded by the dev wallet, claimed by the worker. */
async function claimedPlanJob(hirer: SignedInUser, worker: SignedInUser, title: string): Promise<GigView> {
  const posted = await apiJson<{ gig: GigView; paymentRequest: string; totalCharge: number }>(baseUrl, "POST", "/api/gigs", {
    sessionToken: hirer.sessionToken,
    body: {
      gigType: "job_request",
      title,
      description: "A small shop website, paid step by step: wireframes, the pages, then the launch.",
      category: "Development",
      payment: 12_000,
      timeframe: 14,
      milestones: PLAN,
    },
  });
  // The job opens with its first milestone funded: its invoice is milestone 1 plus its fee.
  expect(posted.totalCharge).toBe(3_075);
  await apiJson(baseUrl, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest } });
  const interest = await apiJson<{ id: string }>(baseUrl, "POST", `/api/gigs/${posted.gig.id}/pre-claim-messages`, {
    sessionToken: worker.sessionToken,
    body: { message: "I build shop sites in steps like this." },
  });
  for (const step of ["approve", "enable-claim"]) {
    await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
  }
  await apiJson(baseUrl, "POST", `/api/gigs/${posted.gig.id}/claim`, { sessionToken: worker.sessionToken });
  const gig = await getGig(baseUrl, hirer, posted.gig.id);
  expect(gig.status).toBe("claimed");
  return gig;
}


const stepsOf = milestoneSteps;

/** Which steps are marked current (aria-current="step"), in order. */
async function currentFlags(d: Locator): Promise<boolean[]> {
  const steps = stepsOf(d);
  const flags: boolean[] = [];
  for (let i = 0; i < (await steps.count()); i++) flags.push((await steps.nth(i).getAttribute("aria-current")) === "step");
  return flags;
}

/** No serious or critical axe-core violation inside `scope` (by default the whole open dialog). */
async function expectAccessible(page: Page, scope = '[role="dialog"][data-state="open"]'): Promise<void> {
  const blocking = (await axeViolations(page, scope)).filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact));
  expect.soft(blocking, formatViolations(blocking)).toEqual([]);
}

/** The current step stands out: its own border colour, unlike the others. */
async function borderOf(step: Locator): Promise<string> {
  return step.evaluate((el) => getComputedStyle(el).borderColor);
}

describe.each<ViewportName>(["mobile", "desktop"])("a job paid in milestones, in its details (%s)", (viewport) => {
  it("shows the steps to hirer and worker, funds milestone 2 through the payment dialog, and changes the plan by agreement", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Shop website in steps");
    const gig = await claimedPlanJob(hirer, worker, title);

    const H = await openPage(baseUrl, { viewport, sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport, sessionToken: worker.sessionToken });
    const [hp, wp] = [H.page, W.page];
    const story = `milestones-${viewport}`;
    const shot = (page: Page, step: string) => storyShot(page, `${story}-${step}`);
    shotsOnFailure(story, { hirer: hp, worker: wp });

    // --- Worker: the steps in what they receive, milestone 1 current; starts it from the next step.
    const wDetails = await openGigDetails(wp, gig.id, title);
    const wSteps = stepsOf(wDetails);
    await expect.poll(() => wSteps.count()).toBe(3);
    expect(await currentFlags(wDetails)).toEqual([true, false, false]);
    await wSteps.nth(0).getByText("You receive 2,925 sats").waitFor();
    await wSteps.nth(0).getByText("3 days").waitFor();
    await wSteps.nth(0).getByText("Funded", { exact: true }).waitFor();
    await wSteps.nth(1).getByText("You receive 3,900 sats").waitFor();
    await wSteps.nth(1).getByText("Not funded").waitFor();
    await wSteps.nth(2).getByText("Launch").waitFor();
    expect(await borderOf(wSteps.nth(0))).not.toBe(await borderOf(wSteps.nth(1)));
    expect(await wDetails.getByRole("button", { name: /Fund milestone/ }).count()).toBe(0);
    const wNext = wDetails.getByRole("region", { name: "Next step" });
    await wNext.getByText("Milestone 1 of 3: start work").waitFor();
    await wSteps.nth(0).scrollIntoViewIfNeeded();
    await shot(wp, "01-worker-steps");
    await expectAccessible(wp);
    await wNext.getByRole("button", { name: "Start milestone 1" }).click();
    await expectToast(wp, "Work Started");
    await wSteps.nth(0).getByText("In progress").waitFor();

    // --- Hirer: the steps in what each costs them; the Active card says which milestone is current.
    await hp.goto("/?tab=active");
    await mainTab(hp, "Active").waitFor();
    await gigCard(hp, title).getByText("Milestone 1 of 3").waitFor();
    const hDetails = await openGigDetails(hp, gig.id, title);
    const hSteps = stepsOf(hDetails);
    await hSteps.nth(0).getByText("You pay 3,075 sats").waitFor();
    await hSteps.nth(1).getByText("You pay 4,100 sats").waitFor();
    await hSteps.nth(2).getByText("You pay 5,125 sats").waitFor();
    await hSteps.nth(0).getByText("In progress").waitFor();
    expect(await currentFlags(hDetails)).toEqual([true, false, false]);
    await hDetails.getByText(/3,075 sats is held in escrow for milestone 1/).waitFor();
    // Funding the next milestone ahead of time, from its step.
    const fund = hSteps.nth(1).getByRole("button", { name: "Fund milestone 2" });
    await fund.scrollIntoViewIfNeeded();
    await shot(hp, "02-hirer-steps");
    await expectAccessible(hp);
    await fund.click();
    const pay = dialog(hp, "Fund Escrow");
    await pay.getByText("Milestone 2 of 3: Build the pages").waitFor();
    await pay.getByText("4,100 sats").first().waitFor();
    await pay.getByText("Waiting for payment...").waitFor();
    await shot(hp, "03-hirer-fund-milestone-2");
    await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay.getByText("Payment Received!").waitFor();
    // The dialog hands over to the details again, refreshed: milestone 2 is funded, milestone 1 still current.
    const hAfter = dialog(hp, title);
    await stepsOf(hAfter).nth(1).getByText("Funded", { exact: true }).waitFor();
    expect(await currentFlags(hAfter)).toEqual([true, false, false]);
    await hAfter.getByText(/7,175 sats is held in escrow for milestones 1 and 2/).waitFor();
    expect(await hAfter.getByRole("button", { name: /Fund milestone 2|Pay milestone 2/ }).count()).toBe(0);

    // --- Worker proposes a change of the unfunded milestone 3: funded ones are shown, not editable.
    await wDetails.getByRole("button", { name: "Change milestones" }).click();
    const form = wDetails.getByRole("form", { name: "Change milestones" });
    await form.getByRole("list", { name: "Funded milestones" }).getByText("Build the pages").waitFor();
    expect(await form.getByLabel("Milestone 2 title").count()).toBe(0);
    await form.getByLabel("Milestone 3 title").fill("Launch and training");
    await form.getByLabel("Milestone 3 amount (sats)").fill("6000");
    await form.getByLabel("Milestone 3 days").fill("2");
    await form.getByText("3 milestones · 13,000 sats").waitFor();
    await form.scrollIntoViewIfNeeded();
    await shot(wp, "04-worker-plan-change-form");
    // The form itself (the worker's details also hold the work submission form, judged elsewhere).
    await expectAccessible(wp, '[role="dialog"][data-state="open"] form[aria-labelledby]');
    await form.getByRole("button", { name: "Send proposal" }).click();
    await expectToast(wp, "Change Proposed");
    const mine = wDetails.getByRole("region", { name: "You proposed new milestones" });
    await mine.getByText("Waiting for the other party to accept or reject it.").waitFor();
    await mine.getByRole("button", { name: "Withdraw" }).waitFor();

    // --- Hirer sees it against the current plan, and accepts.
    const hProposal = await openGigDetails(hp, gig.id, title);
    const theirs = hProposal.getByRole("region", { name: "The worker proposes new milestones" });
    await theirs.getByRole("list", { name: "Now: milestones" }).getByText("Launch", { exact: true }).waitFor();
    await theirs.getByRole("list", { name: "Proposed: milestones" }).getByText("Launch and training").waitFor();
    await theirs.getByText("Milestones 1 and 2 stay as they are. From milestone 3 on:").waitFor();
    await theirs.getByText("You pay 13,325 sats in all.").waitFor();
    await theirs.scrollIntoViewIfNeeded();
    await shot(hp, "05-hirer-plan-change-proposal");
    await expectAccessible(hp);
    await theirs.getByRole("button", { name: "Accept" }).click();
    await expectToast(hp, "Milestones Changed");
    await stepsOf(hProposal).nth(2).getByText("Launch and training").waitFor();
    await stepsOf(hProposal).nth(2).getByText("You pay 6,150 sats").waitFor();
    expect(await theirs.count()).toBe(0);
    const after = await getGig(baseUrl, hirer, gig.id);
    expect(after.payment).toBe(13_000);

    expect(H.pageErrors).toEqual([]);
    expect(W.pageErrors).toEqual([]);
    await H.context.close();
    await W.context.close();
  });
});
