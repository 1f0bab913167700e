// Story (issue 3): a worker offers a service (For Hire) through the Post tab; a hirer finds it, sends
// interest; the worker approves and enables claiming; the hirer hires (claims), pays the escrow with
// the dev wallet, and both see the gig as Worker Claimed and funded. Desktop.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "./support/browser";
import {
  closeDialog,
  dialog,
  expectToast,
  gigCard,
  getGig,
  mainTab,
  member,
  myGigByTitle,
  shotsOnFailure,
  stat,
  storyShot,
  uniqueTitle,
  searchBrowse,
} from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/** Browse -> For Hire -> search -> the offer's details. */
async function openOfferFromBrowse(page: Page, title: string) {
  await page.goto("/");
  await page.getByRole("group", { name: "Gig type" }).getByRole("button", { name: "For Hire" }).click();
  await searchBrowse(page, title);
  const card = gigCard(page, title);
  await card.getByText("For Hire").waitFor();
  await card.getByRole("button", { name: title }).click();
  return dialog(page, title);
}

describe("a service offering (desktop)", () => {
  it("is offered, hired after an approved interest, paid with the dev wallet, and claimed for both", async () => {
    const worker = await member(baseUrl, "Sol Designer");
    const hirer = await member(baseUrl, "Hugo Buyer");
    const title = uniqueTitle("Hand-drawn logo");
    const W = await openPage(baseUrl, { viewport: "desktop", sessionToken: worker.sessionToken });
    const H = await openPage(baseUrl, { viewport: "desktop", sessionToken: hirer.sessionToken });
    const wp = W.page;
    const hp = H.page;
    const shot = (page: Page, step: string) => storyShot(page, `service-offering-desktop-${step}`);
    shotsOnFailure("service-offering-desktop", { worker: wp, hirer: hp });

    // --- Worker: Post tab, For Hire; the fee is deducted from what they receive.
    await wp.goto("/");
    await mainTab(wp, "Post").click();
    await wp.getByRole("radio", { name: /For Hire/ }).check();
    await wp.getByLabel("Title").fill(title);
    await wp.getByLabel("Description").fill("I draw a logo by hand and deliver it as SVG and PNG, with two rounds of changes.");
    await wp.getByLabel("Category").selectOption("Design");
    await wp.getByLabel("Payment (sats)").fill("8000");
    await wp.getByText("You receive 8,000 sats − 2.5% fee (200 sats) = 7,800 sats").waitFor();
    await wp.getByRole("button", { name: "Preview" }).click();
    await wp.getByRole("heading", { name: title }).waitFor();
    await wp.getByText("For Hire").first().waitFor();
    await shot(wp, "01-worker-preview");
    await wp.getByRole("button", { name: "Post Gig" }).click();
    await expectToast(wp, "Gig Posted");
    // The offer is open at once (no escrow from its poster), listed under My Gigs.
    await wp.getByRole("heading", { name: "My Gigs" }).waitFor();
    await wp.getByRole("button", { name: `Manage: ${title}` }).waitFor();
    await shot(wp, "02-worker-my-gigs");
    const offer = await myGigByTitle(baseUrl, worker, title);
    expect(offer).toMatchObject({ gigType: "service_offering", status: "open", workerId: worker.user.id, hirerId: null });

    // --- Hirer: finds it under For Hire, sends interest; hiring is locked until the worker agrees.
    const hDetails = await openOfferFromBrowse(hp, title);
    const hireButton = hDetails.getByRole("button", { name: "Hire for 8,200 sats" });
    await hireButton.waitFor();
    expect(await hireButton.isDisabled()).toBe(true);
    await hDetails.getByLabel("Express interest").fill("We need a logo for a bakery, can you start this week?");
    await hDetails.getByRole("button", { name: "Send Interest" }).click();
    await expectToast(hp, "Interest Sent!");
    await hDetails.getByText("Pending review").waitFor();
    await shot(hp, "03-hirer-interest-sent");
    await closeDialog(hDetails);

    // --- Worker: reviews the interest in the offer's details, approves, enables claiming.
    await wp.reload();
    await mainTab(wp, "Active").click();
    await wp.getByRole("button", { name: `View Details: ${title}` }).click();
    const wDetails = dialog(wp, title);
    await wDetails.getByText("We need a logo for a bakery").waitFor();
    await wDetails.getByRole("button", { name: "Approve Hugo Buyer" }).click();
    await expectToast(wp, "Interest Approved");
    await wDetails.getByRole("button", { name: "Enable Claim for Hugo Buyer" }).click();
    await expectToast(wp, "Claim Enabled");
    await wDetails.getByText("Claim enabled").waitFor();
    await shot(wp, "04-worker-claim-enabled");
    await closeDialog(wDetails);

    // --- Hirer: hires -> payment modal -> dev wallet -> Payment Received! -> details, Worker Claimed.
    const hDetails2 = await openOfferFromBrowse(hp, title); // a fresh page load
    await hDetails2.getByText("Claiming is enabled for you.").waitFor();
    await hDetails2.getByRole("button", { name: "Hire for 8,200 sats" }).click();
    const pay = dialog(hp, "Fund Escrow");
    const payOpened = await pay
      .waitFor({ timeout: 8_000 })
      .then(() => true)
      .catch(() => false);
    expect.soft(payOpened, "the payment modal opens once Hire succeeds").toBe(true);
    if (!payOpened) {
      // Recorded above as a failure; the story goes on through the details' own way to the invoice.
      await storyShot(hp, "service-offering-desktop-05a-no-payment-modal-after-hire");
      await hDetails2.getByRole("button", { name: "Pay Invoice" }).click();
      await pay.waitFor();
    }
    await pay.getByText("8,200 sats").waitFor();
    await expect.poll(() => pay.getByRole("link", { name: /Lightning invoice QR code/ }).locator("img").getAttribute("src")).toMatch(/^data:image\/png/);
    await shot(hp, "05-hirer-payment-modal");
    await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay.getByText("Payment Received!").waitFor();
    await expectToast(hp, "Payment Received!");
    const hFunded = dialog(hp, title);
    await hFunded.getByText("Worker Claimed").first().waitFor();
    await hFunded.getByText(/8,200 sats is held in escrow/).waitFor();
    await shot(hp, "06-hirer-details-claimed");
    await closeDialog(hFunded);

    const gig = await getGig(baseUrl, hirer, offer.id);
    expect(gig).toMatchObject({ status: "claimed", escrowStatus: "funded", hirerId: hirer.user.id, workerId: worker.user.id });

    // --- Both see it on the Active tab as Worker Claimed, with the escrow counted for the hirer.
    await mainTab(hp, "Active").click();
    const hCard = gigCard(hp, title);
    await hCard.getByText("Worker Claimed").waitFor();
    await expect.poll(() => stat(hp, "In Escrow").textContent()).toBe("8,200 sats");
    await shot(hp, "07-hirer-active");

    await wp.reload();
    await mainTab(wp, "Active").click();
    const wCard = gigCard(wp, title);
    await wCard.getByText("Worker Claimed").waitFor();
    await wCard.getByRole("button", { name: `View Details: ${title}` }).click();
    const wClaimed = dialog(wp, title);
    await wClaimed.getByRole("button", { name: "Start Work" }).waitFor(); // the worker can start now
    await wClaimed.getByText(/8,200 sats is held in escrow/).waitFor();
    await shot(wp, "08-worker-details-claimed");

    expect(W.pageErrors.map(String)).toEqual([]);
    expect(H.pageErrors.map(String)).toEqual([]);
    await W.context.close();
    await H.context.close();
  });
});
