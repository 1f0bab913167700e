// Story (issue 28, Milestones): on a phone (360 px wide) a member posts a job request paid in three
// milestones through the Post tab. "Pay in milestones" (switched on from the keyboard) swaps the payment for
// rows whose sum becomes the payment; the Preview lists each milestone with its amount and days and says what
// is paid now (milestone 1 and its 2.5 % fee) and the plan's total; the payment dialog then asks for
// milestone 1 and its fee, not the whole plan. Paid with the dev wallet, milestone 1 is funded and the rest
// wait for funding.
import { describe, expect, inject, it, onTestFailed } from "vitest";
import { axeViolations, formatViolations } from "./support/axe";
import { VIEWPORTS, useBrowser } from "./support/browser";
import { dialog, eventually, getGig, mainTab, member, myGigByTitle, shotsOnFailure, storyShot, toast, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

const PLAN = [
  { title: "Wireframes", amount: "20000", days: "5" },
  { title: "Build the pages", amount: "25000", days: "" },
  { title: "Launch and fixes", amount: "15000", days: "2" },
];

interface MilestoneView {
  number: number;
  title: string;
  amount: number;
  days: number | null;
  escrow: string;
}

describe("posting a job in milestones (issue 28)", () => {
  it("on a phone: three milestones, the Preview lists them, and the dialog asks for milestone 1 and its fee", async () => {
    const hirer = await member(baseUrl, "Mila Milestones");
    const title = uniqueTitle("Bakery website in steps");
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    const shot = (step: string) => storyShot(page, `milestone-posting-mobile-${step}`);
    shotsOnFailure("milestone-posting-mobile", { hirer: page });
    onTestFailed(() => {
      if (pageErrors.length) console.error(`page errors:\n${pageErrors.map((e) => e.stack ?? String(e)).join("\n")}`);
    });
    const noSidewaysScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);

    // --- The form, as today, then "Pay in milestones" from the keyboard.
    await page.goto("/");
    await mainTab(page, "Post").click();
    await page.getByRole("heading", { name: "Post New Gig" }).waitFor();
    await page.getByRole("radio", { name: /Hiring Now/ }).check();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Description").fill("A small site for our bakery: menu, opening hours, and a contact page. Three steps.");
    await page.getByLabel("Category").selectOption("Development");
    await page.getByLabel("Timeframe (days)").fill("14");
    const toggle = page.getByRole("switch", { name: "Pay in milestones" });
    await page.getByText("Each milestone is funded, delivered and paid on its own. You fund the first one now.").waitFor();
    await toggle.focus();
    await page.keyboard.press("Space");
    expect(await toggle.isChecked()).toBe(true);

    // Two rows to start with; a third from Add milestone, its title focused.
    await page.getByLabel("Milestone 2 title").waitFor();
    expect(await page.getByLabel(/^Milestone \d+ title$/).count()).toBe(2);
    await page.getByRole("button", { name: "Add milestone" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Milestone 3 title");
    for (const [i, m] of PLAN.entries()) {
      const n = i + 1;
      await page.getByLabel(`Milestone ${n} title`).fill(m.title);
      await page.getByLabel(`Milestone ${n} amount (sats)`).fill(m.amount);
      if (m.days) await page.getByLabel(`Milestone ${n} days`).fill(m.days);
    }

    // The payment is the sum, read-only; the plan's line and the fee say what is paid now.
    const payment = page.getByLabel("Payment (sats)");
    expect(await payment.inputValue()).toBe("60000");
    expect(await payment.getAttribute("readonly")).not.toBeNull();
    await page.getByText("3 milestones · 60,000 sats").waitFor();
    await page.getByText("You pay now, for milestone 1: 20,000 sats + 2.5% fee (500 sats) = 20,500 sats").waitFor();
    await page.getByText("The whole plan: 60,000 sats + fees (1,500 sats) = 61,500 sats").waitFor();
    await noSidewaysScroll();
    // The rows fit the phone: each row's inputs inside the form's width.
    const formBox = (await page.locator("form").boundingBox())!;
    for (const label of ["Milestone 3 title", "Milestone 3 amount (sats)", "Milestone 3 days"]) {
      const b = (await page.getByLabel(label).boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(formBox.x);
      expect(b.x + b.width).toBeLessThanOrEqual(formBox.x + formBox.width);
    }
    const violations = await axeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    await shot("01-form-with-milestones");
    // On a desktop the rows lie flat: title, amount and days side by side.
    await page.setViewportSize(VIEWPORTS.desktop);
    const [t, a, d] = await Promise.all(["Milestone 2 title", "Milestone 2 amount (sats)", "Milestone 2 days"].map((l) => page.getByLabel(l).boundingBox()));
    expect(Math.abs(t!.y - a!.y)).toBeLessThan(2);
    expect(Math.abs(a!.y - d!.y)).toBeLessThan(2);
    await shot("01b-form-with-milestones-desktop");
    await page.setViewportSize(VIEWPORTS.mobile);

    // --- Preview: each milestone with its amount and days, what is paid now, the total.
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByRole("heading", { name: "Preview" }).waitFor();
    const milestones = page.getByRole("region", { name: "Milestones" });
    const items = milestones.getByRole("listitem");
    await expect.poll(() => items.allInnerTexts()).toEqual([
      expect.stringMatching(/Milestone 1 of 3\s+Wireframes\s+20,000 sats\s+5 days/),
      expect.stringMatching(/Milestone 2 of 3\s+Build the pages\s+25,000 sats$/),
      expect.stringMatching(/Milestone 3 of 3\s+Launch and fixes\s+15,000 sats\s+2 days/),
    ]);
    expect(await milestones.getByText("Total").locator("..").innerText()).toMatch(/Total\s+60,000 sats/);
    await page.getByText("You pay now, for milestone 1: 20,000 sats + 2.5% fee (500 sats) = 20,500 sats").waitFor();
    await noSidewaysScroll();
    await shot("02-preview");

    // --- Post & Pay: the dialog asks for milestone 1 and its fee.
    await page.getByRole("button", { name: "Post & Pay" }).click();
    const pay = dialog(page, "Fund Escrow");
    await pay.getByText("Waiting for payment...").waitFor();
    const youPay = pay.getByText("You pay", { exact: true }).locator("xpath=following-sibling::dd[1]");
    expect(await youPay.innerText()).toBe("20,500 sats");
    expect(await pay.getByText("Amount", { exact: true }).locator("xpath=following-sibling::dd[1]").innerText()).toBe("20,000 sats");
    expect(await pay.getByText("Fee (2.5%)", { exact: true }).locator("xpath=following-sibling::dd[1]").innerText()).toBe("500 sats");
    expect(await pay.getByText(/61,500|60,000/).count()).toBe(0);
    expect(await toast(page, "Payment Required").count()).toBe(0);
    await shot("03-payment-dialog");

    // The gig holds the plan; the invoice is milestone 1's.
    const posted = await myGigByTitle(baseUrl, hirer, title);
    const detail = await getGig(baseUrl, hirer, posted.id);
    expect(detail).toMatchObject({ payment: 60_000, status: "pending_payment", milestoneCount: 3, currentMilestone: 1 });
    expect((detail.milestones as MilestoneView[]).map((m) => [m.number, m.title, m.amount, m.days])).toEqual([
      [1, "Wireframes", 20_000, 5],
      [2, "Build the pages", 25_000, null],
      [3, "Launch and fixes", 15_000, 2],
    ]);

    // --- Paid with the dev wallet: milestone 1 is funded, the others wait for funding.
    await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay.getByText("Payment Received!").waitFor();
    await pay.getByText("20,500 sats is in escrow. Opening the gig...").waitFor();
    await eventually("milestone 1 funded", async () => (await getGig(baseUrl, hirer, posted.id)).status === "open");
    const funded = (await getGig(baseUrl, hirer, posted.id)).milestones as MilestoneView[];
    expect(funded.map((m) => m.escrow)).toEqual(["funded", "unfunded", "unfunded"]);

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});
