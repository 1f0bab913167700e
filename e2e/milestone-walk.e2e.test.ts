// Story (issue 28, "Milestones", its "Done when"): a job paid in three milestones, walked from posting to
// completion on phones (360 px): the hirer posts it through the Post tab and funds milestone 1; the worker (whose
// interest and claim go through the API, as job-to-payout.e2e.test.ts walks them on screen) starts and submits
// milestone 1, which the hirer approves; the hirer funds milestone 2 from the details; the worker delivers it, the
// hirer asks for a revision, the worker delivers again and the hirer raises a dispute, which the admin settles as
// a 50 % split of milestone 2; the hirer funds milestone 3, the worker delivers it and the hirer's approval
// completes the gig. Each milestone is paid out on its own, and the ledger holds at the end.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { splitPayouts, workerPayout } from "../domain/fees";
import { apiJson } from "./support/api";
import { useBrowser } from "./support/browser";
import { dialog, eventually, expectToast, getGig, mainTab, member, myGigByTitle, shotsOnFailure, storyShot, uniqueTitle, waitForNotification, openGigDetails, milestoneSteps, adminLogIn } from "./support/gigs";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");
const openPage = useBrowser();

const PLAN = [
  { title: "Wireframes", amount: 2_000 },
  { title: "Shop pages", amount: 3_000 },
  { title: "Checkout with Lightning", amount: 5_000 },
];

interface MilestoneView {
  number: number;
  escrow: string;
  step: string;
}


const stepsOf = milestoneSteps;
const nextStep = (d: Locator) => d.getByRole("region", { name: "Next step" });

/** The worker starts milestone `n` from the next step and submits it through the work form. */
async function deliver(page: Page, gigId: string, title: string, n: number, text: string, start = true) {
  const d = await openGigDetails(page, gigId, title);
  if (start) {
    await nextStep(d).getByRole("button", { name: `Start milestone ${n}` }).click();
    await expectToast(page, "Work Started");
  }
  const form = d.locator("form").filter({ has: page.getByText(`Submit your work on milestone ${n}`) });
  await form.getByLabel(`Submit your work on milestone ${n}`).fill(text);
  await form.getByRole("button", { name: `Submit milestone ${n}` }).click();
  await expectToast(page, "Work Submitted");
}

/** The hirer funds milestone `n` from its step: the payment dialog for that milestone, paid by the dev wallet. */
async function fundFromSteps(page: Page, d: Locator, n: number, label: string, charge: string) {
  await stepsOf(d).nth(n - 1).getByRole("button", { name: `Fund milestone ${n}` }).click();
  const pay = dialog(page, "Fund Escrow");
  await pay.getByText(label).waitFor();
  await pay.getByText(charge).first().waitFor();
  await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
  await pay.getByText("Payment Received!").waitFor();
}

async function adminToken(): Promise<string> {
  const answer = await apiJson<{ adminToken: string }>(baseUrl, "POST", "/api/admin/auth", { body: { pin: adminPin } });
  return answer.adminToken;
}

describe("a job in three milestones, from posting to completion (issue 28)", () => {
  it("on phones: approve, fund, a revision, a dispute split on milestone 2, and the last approval completes it", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Shop in three steps");
    const H = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport: "mobile", sessionToken: worker.sessionToken });
    const A = await openPage(baseUrl, { viewport: "mobile" });
    const [hp, wp, ap] = [H.page, W.page, A.page];
    const shot = (page: Page, step: string) => storyShot(page, `milestone-walk-${step}`);
    shotsOnFailure("milestone-walk", { hirer: hp, worker: wp, admin: ap });

    // --- The hirer posts the plan and funds milestone 1 (2,000 + 50).
    await hp.goto("/");
    await mainTab(hp, "Post").click();
    await hp.getByRole("radio", { name: /Hiring Now/ }).check();
    await hp.getByLabel("Title", { exact: true }).fill(title);
    await hp.getByLabel("Description").fill("An online shop that takes sats, built in three steps.");
    await hp.getByLabel("Category").selectOption("Development");
    await hp.getByRole("switch", { name: "Pay in milestones" }).click();
    await hp.getByRole("button", { name: "Add milestone" }).click();
    for (const [i, m] of PLAN.entries()) {
      await hp.getByLabel(`Milestone ${i + 1} title`).fill(m.title);
      await hp.getByLabel(`Milestone ${i + 1} amount (sats)`).fill(String(m.amount));
    }
    await hp.getByRole("button", { name: "Preview" }).click();
    await hp.getByRole("button", { name: "Post & Pay" }).click();
    const pay1 = dialog(hp, "Fund Escrow");
    await pay1.getByText("Milestone 1 of 3: Wireframes").waitFor();
    await pay1.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay1.getByText("Payment Received!").waitFor();
    const gigId = (await myGigByTitle(baseUrl, hirer, title)).id;
    await eventually("the gig open", async () => (await getGig(baseUrl, hirer, gigId)).status === "open");

    // The worker's interest, its approval and the claim (walked on screen by job-to-payout.e2e.test.ts).
    const interest = await apiJson<{ id: string }>(baseUrl, "POST", `/api/gigs/${gigId}/pre-claim-messages`, {
      sessionToken: worker.sessionToken,
      body: { message: "I build shops that take sats." },
    });
    for (const step of ["approve", "enable-claim"]) await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
    await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/claim`, { sessionToken: worker.sessionToken });

    // --- Milestone 1: delivered and approved; its payout goes at once, and milestone 2 waits for funding.
    await deliver(wp, gigId, title, 1, "Wireframes: https://example.com/shop/wireframes");
    let hd = await openGigDetails(hp, gigId, title);
    await hd.getByRole("button", { name: "Approve milestone 1" }).click();
    await expectToast(hp, "Work Approved");
    await stepsOf(hd).nth(0).getByText(/^(Approved|Paid)$/).waitFor();
    await nextStep(hd).getByRole("button", { name: "Fund milestone 2" }).waitFor();
    await shot(hp, "01-hirer-fund-milestone-2");
    const wd = await openGigDetails(wp, gigId, title);
    await wd.getByText("Waiting for the hirer to fund milestone 2.").waitFor();
    await shot(wp, "02-worker-waiting-for-funding");

    // --- Milestone 2: funded from its step, delivered, sent back for a revision, delivered again, disputed.
    await fundFromSteps(hp, hd, 2, "Milestone 2 of 3: Shop pages", "3,075 sats");
    await deliver(wp, gigId, title, 2, "Shop pages: https://example.com/shop/pages");
    hd = await openGigDetails(hp, gigId, title);
    await hd.getByRole("button", { name: "Request Revision" }).click();
    await hd.getByLabel("What needs to change?").fill("The product pages are missing their prices.");
    await hd.getByRole("button", { name: "Send Revision Request" }).click();
    await expectToast(hp, "Revision Requested");
    await stepsOf(hd).nth(1).getByText("Needs revision").waitFor();
    await deliver(wp, gigId, title, 2, "Shop pages, with prices: https://example.com/shop/pages-2", false);
    hd = await openGigDetails(hp, gigId, title);
    await stepsOf(hd).nth(1).getByText("Submitted").waitFor();
    await hd.getByRole("button", { name: "Raise Dispute" }).click();
    await hd.getByLabel("Reason for the dispute").fill("The prices are still wrong on half of the pages.");
    await hd.getByRole("button", { name: "Raise Dispute" }).last().click();
    await expectToast(hp, "Dispute Raised");
    await stepsOf(hd).nth(1).getByText("Under review").waitFor();
    await shot(hp, "03-hirer-milestone-2-disputed");

    // --- The admin splits milestone 2 half and half; the gig goes on to milestone 3.
    await adminLogIn(ap, adminPin);
    await ap.getByRole("tab", { name: /Disputes \(\d+\)/ }).click();
    const card = ap.getByRole("listitem").filter({ has: ap.getByRole("heading", { name: title }) });
    await card.getByText("Milestone 2 of 3: Shop pages").waitFor();
    await card.getByLabel("Worker's share (%)").fill("50");
    await card.getByRole("button", { name: "Split" }).click();
    const confirm = ap.getByRole("alertdialog", { name: /Split 50% to/ });
    await confirm.getByText("The gig moves on to milestone 3 of 3.", { exact: false }).waitFor();
    await shot(ap, "04-admin-split-milestone-2");
    await confirm.getByRole("button", { name: "Split" }).click();
    await confirm.waitFor({ state: "detached" });
    await eventually("milestone 3 current", async () => (await getGig(baseUrl, hirer, gigId)).currentMilestone === 3);

    // --- Milestone 3: funded, delivered, approved: the gig is completed.
    hd = await openGigDetails(hp, gigId, title);
    await stepsOf(hd).nth(1).getByText("Settled").waitFor();
    await fundFromSteps(hp, hd, 3, "Milestone 3 of 3: Checkout with Lightning", "5,125 sats");
    await deliver(wp, gigId, title, 3, "Checkout: https://example.com/shop/checkout");
    hd = await openGigDetails(hp, gigId, title);
    await hd.getByRole("button", { name: "Approve milestone 3" }).click();
    await expectToast(hp, "Work Approved");
    await eventually("the gig completed", async () => (await getGig(baseUrl, hirer, gigId)).status === "completed");
    hd = await openGigDetails(hp, gigId, title);
    await stepsOf(hd).nth(2).getByText(/^(Approved|Paid)$/).waitFor();
    await stepsOf(hd).nth(2).scrollIntoViewIfNeeded();
    await shot(hp, "05-hirer-completed");

    // Each milestone paid on its own: 1 and 3 released in full to the worker, 2 split; the ledger holds.
    const gig = await getGig(baseUrl, hirer, gigId);
    expect((gig.milestones as MilestoneView[]).map((m) => m.escrow)).toEqual(["released", "split", "released"]);
    const admin = await adminToken();
    const money = await apiJson<{ ledger: { ok: boolean; problems: string[] } }>(baseUrl, "GET", "/api/admin/money", { headers: { "x-admin-token": admin } });
    expect(money.ledger.problems).toEqual([]);
    const split = splitPayouts(3_000, 50);
    // The history names the milestone settled and what each party got (an event's data is spread into it).
    const events = await apiJson<{ type: string; milestone?: number; payouts?: unknown }[]>(baseUrl, "GET", `/api/gigs/${gigId}/events`, { sessionToken: hirer.sessionToken });
    expect(events.filter((e) => e.type === "dispute_resolved").map((e) => [e.milestone, e.payouts])).toEqual([[2, { worker: split.worker, hirer: split.hirer }]]);
    // Every payout reached its Lightning address, each told as it was sent: three to the worker, one to the hirer.
    for (const [who, amount] of [
      [worker, workerPayout(2_000)],
      [worker, split.worker],
      [worker, workerPayout(5_000)],
      [hirer, split.hirer],
    ] as const) {
      const sent = await waitForNotification(baseUrl, who, (n) => n.gigId === gigId && n.type === "payout_sent" && n.message.startsWith(`${amount.toLocaleString("en-US")} sats were sent`));
      expect(sent.title).toBe("Payment Sent");
    }

    expect(H.pageErrors).toEqual([]);
    expect(W.pageErrors).toEqual([]);
    expect(A.pageErrors).toEqual([]);
    await Promise.all([H.context.close(), W.context.close(), A.context.close()]);
  });
});
