// The admin settles a dispute on one milestone of a plan (issue 28), on a phone: the dispute card names
// "Milestone 2 of 3" and what its escrow holds, the split divides that milestone only, and the gig either goes on
// to milestone 3 or, with "End the gig here" ticked, ends there with milestone 3's escrow back to the hirer.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import { useBrowser } from "./support/browser";
import { adminLogIn, getGig, member, storyShot, toast, uniqueTitle, type Member } from "./support/gigs";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");
const openPage = useBrowser();

const PLAN = [
  { title: "Wireframes for every page", amount: 2_000 },
  { title: "Shop pages", amount: 3_000 },
  { title: "Checkout with Lightning", amount: 5_000 },
];

const pay = (paymentRequest: string) => apiJson(baseUrl, "POST", "/api/dev/invoices/pay", { body: { paymentRequest } });
const post = (who: Member, path: string, body?: unknown) => apiJson<Record<string, any>>(baseUrl, "POST", path, { sessionToken: who.sessionToken, body });

/**
 * A 3-milestone job: milestone 1 approved and paid, milestone 2 funded, worked on and disputed by the hirer;
 * milestone 3 funded too when `fundThird`.
 */
async function disputedOnMilestone2(title: string, fundThird: boolean) {
  const hirer = await member(baseUrl, "Hana");
  const worker = await member(baseUrl, "Wes");
  const posted = await post(hirer, "/api/gigs", {
    gigType: "job_request",
    title,
    description: "An online shop that takes sats, built in three steps.",
    category: "Development",
    payment: 10_000,
    timeframe: 14,
    milestones: PLAN,
  });
  await pay(posted.paymentRequest);
  const gigId = posted.gig.id as string;
  const interest = await post(worker, `/api/gigs/${gigId}/pre-claim-messages`, { message: "I build shops." });
  for (const step of ["approve", "enable-claim"]) await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
  await post(worker, `/api/gigs/${gigId}/claim`);
  const work = async (n: number) => {
    await post(worker, `/api/gigs/${gigId}/milestones/${n}/start-work`);
    await post(worker, `/api/gigs/${gigId}/milestones/${n}/submit`, { workSubmission: `Milestone ${n}: https://example.com/shop/${n}`, attachments: [] });
  };
  await work(1);
  await post(hirer, `/api/gigs/${gigId}/milestones/1/approve`);
  await pay((await post(hirer, `/api/gigs/${gigId}/milestones/2/fund`)).paymentRequest);
  if (fundThird) await pay((await post(hirer, `/api/gigs/${gigId}/milestones/3/fund`)).paymentRequest);
  await work(2);
  await post(hirer, `/api/gigs/${gigId}/milestones/2/dispute`, { reason: "The product pages are missing their prices." });
  return { hirer, worker, gigId };
}


const sent = (d: Locator, who: string) => d.locator("dt", { hasText: who }).locator("xpath=following-sibling::dd");

/** Opens the disputes, finds the gig's card, checks the milestone and its escrow, and opens a 50 % split. */
async function openSplit(page: Page, title: string, shot: (step: string) => Promise<unknown>) {
  await adminLogIn(page, adminPin);
  // The welcome toast would cover the top of the screenshots.
  await toast(page, "Access Granted").waitFor();
  await toast(page, "Access Granted").locator("xpath=ancestor::li[1]").getByRole("button", { name: "Close" }).click();
  await toast(page, "Access Granted").waitFor({ state: "detached" });
  await page.getByRole("tab", { name: /Disputes \(\d+\)/ }).click();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await card.getByText("Milestone 2 of 3: Shop pages").waitFor();
  await card.getByText("3,000 sats · 3,075 sats in this milestone's escrow").waitFor();
  await card.getByText("Refund, pay and split apply to milestone 2 only.", { exact: false }).waitFor();
  await shot("1-card");
  await card.getByLabel("Worker's share (%)").fill("50");
  // The milestone's 3,000 − 75 = 2,925 divided: 1,462 to the worker, 1,463 back; the platform keeps 2 × 75.
  await card.getByText("Worker gets 1,462 sats, hirer gets 1,463 sats, platform keeps 150 sats.").waitFor();
  await card.getByRole("button", { name: "Split" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Split 50% to Wes?" });
  await confirm.getByText("Milestone 2 of 3, “Shop pages”, holds 3,075 sats in escrow. This settles milestone 2 only.", { exact: false }).waitFor();
  expect(await sent(confirm, "Wes (worker)").textContent()).toBe("1,462 sats");
  expect(await sent(confirm, "Hana (hirer)").textContent()).toBe("1,463 sats");
  expect(await sent(confirm, "Platform fees").textContent()).toBe("150 sats");
  return confirm;
}

/** Nothing on the page is wider than the phone's screen. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

describe("a dispute on milestone 2 of 3, settled by the admin on a phone", () => {
  it("split 50 %: the milestone's escrow is divided and the gig moves on to milestone 3", async () => {
    const title = uniqueTitle("Milestone dispute");
    const { hirer, gigId } = await disputedOnMilestone2(title, false);
    const { page, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    const shot = (step: string) => storyShot(page, `milestone-dispute-admin-goes-on-${step}`);

    const confirm = await openSplit(page, title, shot);
    await confirm.getByText("The gig moves on to milestone 3 of 3.", { exact: false }).waitFor();
    expect(await confirm.getByRole("checkbox", { name: "End the gig here" }).isChecked()).toBe(false);
    await shot("2-confirm");
    await confirm.getByRole("button", { name: "Split" }).click();
    await confirm.waitFor({ state: "detached" });

    const settled = page.getByRole("group", { name: title });
    await settled.getByText("Resolved: Split").waitFor();
    await settled.getByText("Milestone 2 of 3: Shop pages").waitFor();
    await settled.getByRole("status").getByText("The gig moves on to milestone 3 of 3.", { exact: false }).waitFor();
    expect(await sent(settled, "Wes (worker)").textContent()).toBe("1,462 sats");
    await expectNoSidewaysScroll(page);
    await shot("3-settled");

    // The gig is back to work on milestone 3, which waits for the hirer's funding.
    const gig = await getGig(baseUrl, hirer, gigId);
    expect(gig).toMatchObject({ status: "claimed", currentMilestone: 3, milestoneCount: 3, escrowStatus: "pending" });
    const milestones = gig.milestones as { number: number; escrow: string }[];
    expect(milestones.map((m) => [m.number, m.escrow])).toEqual([
      [1, "released"],
      [2, "split"],
      [3, "unfunded"],
    ]);
    expect(pageErrors).toEqual([]);
  });

  it("split 50 % with End the gig here: the gig ends and milestone 3's escrow goes back to the hirer in full", async () => {
    const title = uniqueTitle("Milestone dispute ended");
    const { hirer, gigId } = await disputedOnMilestone2(title, true);
    const { page, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    const shot = (step: string) => storyShot(page, `milestone-dispute-admin-ends-${step}`);

    const confirm = await openSplit(page, title, shot);
    await confirm.getByRole("checkbox", { name: "End the gig here" }).check();
    // Milestone 3 is funded: 5,000 + 125 fee come back in full.
    await confirm.getByText("Also back to Hana in full: 5,125 sats of later funded milestones.").waitFor();
    await confirm.getByText("The gig will be completed.", { exact: false }).waitFor();
    await shot("2-confirm");
    await confirm.getByRole("button", { name: "Split" }).click();
    await confirm.waitFor({ state: "detached" });

    const settled = page.getByRole("group", { name: title });
    await settled.getByText("Resolved: Split").waitFor();
    await settled.getByRole("status").getByText("The gig is completed.", { exact: false }).waitFor();
    await settled.getByText("Also back to Hana in full: 5,125 sats of later funded milestones.").waitFor();
    await expectNoSidewaysScroll(page);
    await shot("3-settled");

    const gig = await getGig(baseUrl, hirer, gigId);
    expect(gig).toMatchObject({ status: "completed", resolution: "split" });
    const milestones = gig.milestones as { number: number; escrow: string }[];
    expect(milestones.map((m) => [m.number, m.escrow])).toEqual([
      [1, "released"],
      [2, "split"],
      [3, "refunded"],
    ]);
    expect(pageErrors).toEqual([]);
  });
});
