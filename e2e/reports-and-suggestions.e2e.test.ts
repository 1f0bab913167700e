// Story (issue 4, issue 7): a member (phone) reports someone else's gig through the card's Report Gig
// dialog and sends an idea through the floating Suggestion box; the admin (desktop, PIN at /admin) finds
// both in the Reports and Suggestions tabs. The gig's owner is never offered Report Gig.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "./support/browser";
import { bell, dialog, expectToast, fundedJob, gigCard, member, searchBrowse, shotsOnFailure, storyShot, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");
const openPage = useBrowser();

async function adminSignIn(page: Page) {
  await page.goto("/admin");
  const keypad = page.getByRole("group", { name: "PIN keypad" });
  for (const digit of adminPin) await keypad.getByRole("button", { name: digit, exact: true }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await page.getByRole("button", { name: /logout/i }).waitFor();
}

describe("reports and suggestions", () => {
  it("a member reports a gig and sends a suggestion; the admin sees both", async () => {
    const owner = await member(baseUrl, "Olga Owner");
    const reporter = await member(baseUrl, "Rita Reporter");
    const title = uniqueTitle("Buy my altcoin");
    await fundedJob(baseUrl, owner, title);
    const suggestion = `Please add a dark mode (${title}).`;
    const details = "Asks workers to be paid in a token instead of sats.";

    const R = await openPage(baseUrl, { viewport: "mobile", sessionToken: reporter.sessionToken });
    const O = await openPage(baseUrl, { viewport: "mobile", sessionToken: owner.sessionToken });
    const A = await openPage(baseUrl, { viewport: "desktop" });
    const rp = R.page;
    shotsOnFailure("reports-and-suggestions", { reporter: rp, owner: O.page, admin: A.page });

    // The owner's own card has no Report Gig button.
    await O.page.goto("/");
    await bell(O.page).waitFor(); // signed in (before the session resolves, cards are drawn as for a visitor)
    await searchBrowse(O.page, title);
    await gigCard(O.page, title).getByText("Olga Owner").waitFor();
    expect(await gigCard(O.page, title).getByRole("button", { name: "Report Gig" }).count()).toBe(0);
    await O.context.close();

    // --- Member: Report Gig from the card; Submit waits for a reason.
    await rp.goto("/");
    await searchBrowse(rp, title);
    await gigCard(rp, title).getByRole("button", { name: "Report Gig" }).click();
    const report = dialog(rp, "Report Gig");
    await report.getByText(`Tell us what is wrong with “${title}”`).waitFor();
    const submit = report.getByRole("button", { name: "Submit Report" });
    expect(await submit.isDisabled()).toBe(true);
    await report.getByRole("radio", { name: "Altcoins, NFTs or crypto scams" }).check();
    await report.getByLabel("Details (optional)").fill(details);
    expect(await submit.isEnabled()).toBe(true);
    await storyShot(rp, "reports-and-suggestions-mobile-01-report-dialog");
    await submit.click();
    await expectToast(rp, "Report Submitted");
    await report.waitFor({ state: "detached" }); // the dialog closes
    await storyShot(rp, "reports-and-suggestions-mobile-02-report-submitted");

    // --- Member: the floating Suggestion box; a blank one is refused, then 'Thank You!'.
    await rp.getByRole("button", { name: "Suggestion box" }).click();
    const box = dialog(rp, "Suggestion Box");
    await box.getByRole("button", { name: "Send Suggestion" }).click();
    await box.getByText("Please enter your suggestion or feature request").waitFor();
    await box.getByLabel("Your suggestion or feature request").fill(suggestion);
    await storyShot(rp, "reports-and-suggestions-mobile-03-suggestion-box");
    await box.getByRole("button", { name: "Send Suggestion" }).click();
    await expectToast(rp, "Thank You!");
    await box.waitFor({ state: "detached" });
    await storyShot(rp, "reports-and-suggestions-mobile-04-thank-you");

    // --- Admin: Reports tab lists the report, Suggestions tab the idea.
    const ap = A.page;
    await adminSignIn(ap);
    await ap.getByRole("tab", { name: "Reports" }).click();
    const reportCard = ap.getByRole("list", { name: "Reports" }).getByRole("listitem").filter({ has: ap.getByRole("link", { name: title }) });
    await reportCard.getByText(details).waitFor();
    await reportCard.getByRole("link", { name: "Rita Reporter" }).waitFor();
    await reportCard.getByText("Pending", { exact: true }).first().waitFor();
    await expect(reportCard.getByText(/altcoin|shitcoin/i).count()).resolves.toBeGreaterThan(0); // the reason's label
    await storyShot(ap, "reports-and-suggestions-desktop-05-admin-reports");

    await ap.getByRole("tab", { name: "Suggestions" }).click();
    const suggestionCard = ap.getByRole("list", { name: "Suggestions" }).getByRole("listitem").filter({ hasText: suggestion });
    await suggestionCard.getByText("Rita Reporter").waitFor();
    await expect(suggestionCard.getByRole("combobox", { name: "Suggestion status" }).inputValue()).resolves.toBe("pending");
    await storyShot(ap, "reports-and-suggestions-desktop-06-admin-suggestions");

    expect(R.pageErrors.map(String)).toEqual([]);
    expect(A.pageErrors.map(String)).toEqual([]);
    await R.context.close();
    await A.context.close();
  });
});
