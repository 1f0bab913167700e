// Story (issue 3, issue 5): a job from posting to payout with two people in two browsers. The hirer
// posts through the Post tab (form, Preview, confirm) and funds the escrow with the dev wallet; the
// worker finds the job on Browse and sends interest; the hirer approves and enables claiming; the
// worker claims, starts, and submits text with a file; the hirer downloads the file, approves, and
// downloads the receipt; both see Completed and the worker is told the sats were sent.
// Desktop for the whole story, then the key screens again at the mobile size.
import { readFile } from "node:fs/promises";
import { decode, nsecEncode } from "nostr-tools/nip19";
import { finalizeEvent, getPublicKey, type EventTemplate } from "nostr-tools/pure";
import type { Download, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import { type ViewportName, useBrowser } from "./support/browser";
import {
  type GigView,
  bell,
  dialog,
  eventually,
  gigCard,
  getGig,
  mainTab,
  member,
  myGigByTitle,
  shotsOnFailure,
  storyShot,
  stat,
  closeDialog,
  expectToast,
  toast,
  uniqueTitle,
  waitForNotification,
  searchBrowse,
} from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

// About 2 KB, so its size reads as something (SPEC.md §2: KB with one decimal).
const DELIVERABLE = { name: "translation-es.txt", mimeType: "text/plain", text: "Hola mundo. La página de inicio, traducida.\n".repeat(48) };

async function downloadedText(download: Download): Promise<string> {
  const file = await download.path();
  return readFile(file, "utf8");
}

/**
 * A NIP-07 extension holding `secretKey` in the page (a stand-in for Alby or nos2x: the signature is made by
 * nostr-tools in the test, outside the page), so the page's current signer is an extension (decision 028).
 */
async function installExtension(page: Page, secretKey: Uint8Array) {
  await page.exposeFunction("__e2eSignEvent", (template: EventTemplate) => finalizeEvent(template, secretKey));
  const pubkey = getPublicKey(secretKey);
  await page.addInitScript((pk) => {
    const sign = (window as unknown as { __e2eSignEvent: (t: unknown) => Promise<unknown> }).__e2eSignEvent;
    (window as unknown as { nostr: unknown }).nostr = { getPublicKey: async () => pk, signEvent: (t: unknown) => sign(t) };
  }, pubkey);
}

/** Fills the Post New Gig form of a job request and goes to the Preview. */
async function fillJobForm(page: Page, title: string, payment: string) {
  await page.getByRole("heading", { name: "Post New Gig" }).waitFor();
  await page.getByRole("radio", { name: /Hiring Now/ }).check();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Translate our landing page (about 600 words) into Spanish. Keep the tone friendly.");
  await page.getByLabel("Category").selectOption("Writing");
  await page.getByLabel("Payment (sats)").fill(payment);
  await page.getByLabel("Timeframe (days)").fill("5");
}

describe("a job from posting to payout (desktop)", () => {
  it("is posted, funded, claimed, delivered with a file, approved and paid out", async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const worker = await member(baseUrl, "Wes Worker");
    const title = uniqueTitle("Translate landing page");
    const H = await openPage(baseUrl, { viewport: "desktop", sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport: "desktop", sessionToken: worker.sessionToken });
    const hp = H.page;
    const wp = W.page;
    // The hirer has a Nostr extension; the worker none (as after a With Key login): each signs a review their way.
    await installExtension(hp, hirer.secretKey);
    const shot = (page: Page, step: string) => storyShot(page, `job-to-payout-desktop-${step}`);
    shotsOnFailure(`job-to-payout-desktop`, { hirer: hp, worker: wp });

    // --- Hirer: Post tab -> form -> Preview -> Post & Pay.
    await hp.goto("/");
    await mainTab(hp, "Post").click();
    await fillJobForm(hp, title, "10000");
    // The fee is added for a job: 10,000 + 250 = 10,250 (SPEC.md §1).
    await hp.getByText("You pay 10,000 sats + 2.5% fee (250 sats) = 10,250 sats").waitFor();
    await shot(hp, "01-post-form");
    await hp.getByRole("button", { name: "Preview" }).click();
    await hp.getByRole("heading", { name: "Preview" }).waitFor();
    await hp.getByRole("heading", { name: title }).waitFor();
    await shot(hp, "02-preview");
    await hp.getByRole("button", { name: "Post & Pay" }).click();

    // --- Payment modal: QR drawn locally, amounts, Pay with dev wallet -> Payment Received! -> details.
    const pay = dialog(hp, "Fund Escrow");
    await pay.waitFor();
    const qr = pay.getByRole("link", { name: /Lightning invoice QR code/ });
    await expect(qr.getAttribute("href")).resolves.toMatch(/^lightning:ln/);
    await expect.poll(() => qr.locator("img").getAttribute("src")).toMatch(/^data:image\/png/);
    await pay.getByText("10,250 sats").waitFor();
    await pay.getByRole("timer").filter({ hasText: /^Expires in / }).waitFor();
    // The dialog itself asks for the payment: no "Payment Required" toast over it (issue 26).
    expect(await toast(hp, "Payment Required").count()).toBe(0);
    await shot(hp, "03-payment-modal");
    await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay.getByText("Payment Received!").waitFor();
    await shot(hp, "04-payment-received");
    const details = dialog(hp, title);
    await details.waitFor(); // the modal hands over to the gig's details
    await details.getByText("Available").first().waitFor();
    await details.getByText(/10,250 sats is held in escrow/).waitFor();
    await shot(hp, "05-details-funded");
    const gigId = (await myGigByTitle(baseUrl, hirer, title)).id;
    expect((await getGig(baseUrl, hirer, gigId)).escrowStatus).toBe("funded");
    await closeDialog(details);

    // --- Worker: finds it on Browse, opens the details, sends interest.
    await wp.goto("/");
    await searchBrowse(wp, title);
    const card = gigCard(wp, title);
    await card.waitFor();
    await card.getByText("Hana Hirer").waitFor();
    await shot(wp, "06-worker-browse");
    await card.getByRole("button", { name: title }).click();
    const wDetails = dialog(wp, title);
    await wDetails.getByRole("button", { name: "Claim Gig" }).waitFor();
    await expect(wDetails.getByRole("button", { name: "Claim Gig" }).isDisabled()).resolves.toBe(true); // not before approval
    await wDetails.getByLabel("Express interest").fill("I am a native Spanish speaker and translate web copy every week.");
    await wDetails.getByRole("button", { name: "Send Interest" }).click();
    await expectToast(wp, "Interest Sent!");
    await wDetails.getByRole("heading", { name: "Your interest message" }).waitFor();
    await wDetails.getByText("Pending review").waitFor();
    await shot(wp, "07-worker-interest-sent");

    // --- Hirer: Active tab -> My Gigs -> View Details -> approve the interest, enable claiming.
    await hp.reload();
    await mainTab(hp, "Active").click();
    await hp.getByRole("heading", { name: "My Gigs" }).waitFor();
    await hp.getByRole("button", { name: `View Details: ${title}` }).click();
    await details.getByText("Interest messages").waitFor();
    await details.getByText("I am a native Spanish speaker").waitFor();
    await shot(hp, "08-hirer-interest-review");
    await details.getByRole("button", { name: "Approve Wes Worker" }).click();
    await expectToast(hp, "Interest Approved");
    await details.getByRole("button", { name: "Enable Claim for Wes Worker" }).click();
    await expectToast(hp, "Claim Enabled");
    await details.getByText("Claim enabled").waitFor();
    await shot(hp, "09-hirer-claim-enabled");
    await closeDialog(details);

    // --- Worker: claims, starts work, submits text and a file.
    await wp.reload();
    await searchBrowse(wp, title);
    await gigCard(wp, title).getByRole("button", { name: title }).click();
    await wDetails.getByText("Claiming is enabled for you.").waitFor();
    await wDetails.getByRole("button", { name: "Claim Gig" }).click();
    await expectToast(wp, "Gig Claimed");
    await wDetails.getByText("Worker Claimed").first().waitFor();
    await shot(wp, "10-worker-claimed");
    await wDetails.getByRole("button", { name: "Start Work" }).click();
    await expectToast(wp, "Work Started");
    await wDetails.getByLabel("Submit your work").waitFor();
    await wDetails.getByLabel("Submit your work").fill("Translated the whole page; the file has the Spanish text.");
    const chooser = wp.waitForEvent("filechooser");
    await wDetails.getByRole("button", { name: "Attach files (optional)" }).click();
    await (await chooser).setFiles({ name: DELIVERABLE.name, mimeType: DELIVERABLE.mimeType, buffer: Buffer.from(DELIVERABLE.text) });
    await expectToast(wp, "Files Uploaded");
    const toDeliver = wDetails.getByRole("list", { name: "Files to deliver" });
    await toDeliver.getByText(DELIVERABLE.name).waitFor();
    const sizeKb = `${(Buffer.byteLength(DELIVERABLE.text) / 1024).toFixed(1)} KB`;
    await toDeliver.getByText(sizeKb).waitFor();
    await shot(wp, "11-worker-submission");
    await wDetails.getByRole("button", { name: "Submit Work" }).click();
    await expectToast(wp, "Work Submitted");
    await wDetails.getByText("Work Submitted").first().waitFor();
    // The review step opens by itself: five stars by default, a comment. Nothing in the worker's tab can sign, so
    // the step says so; the worker types their key for this one signature (decision 028): Sign & Submit.
    const reviewHirer = wDetails.getByRole("form", { name: "Review the hirer" });
    await reviewHirer.getByText("Work submitted. While the hirer looks at it, how was working with them?").waitFor();
    expect(await reviewHirer.getByRole("radio", { name: "5 stars" }).isChecked()).toBe(true);
    await reviewHirer.getByLabel("Comment").fill("Clear brief and quick answers.");
    await reviewHirer.getByText("Nothing in this tab can sign with your Nostr key").waitFor();
    await reviewHirer.getByLabel("Your private key (nsec or hex)").fill(nsecEncode(worker.secretKey));
    await shot(wp, "11b-worker-review-step");
    await reviewHirer.getByRole("button", { name: "Sign & Submit" }).click();
    await expectToast(wp, "Review Submitted");
    await reviewHirer.waitFor({ state: "detached" });
    await closeDialog(wDetails);
    // The worker's card on the Active tab: You Claimed, Submitted at 100%.
    await mainTab(wp, "Active").click();
    const wCard = gigCard(wp, title);
    await wCard.getByText("You Claimed").waitFor();
    await expect(wCard.getByRole("progressbar", { name: "Submitted" }).getAttribute("aria-valuenow")).resolves.toBe("100");
    await shot(wp, "12-worker-active-submitted");

    // --- Hirer: the delivered file in the details modal, downloaded; approve; receipt.
    await hp.reload();
    await mainTab(hp, "Active").click();
    await hp.getByRole("heading", { name: "In progress" }).waitFor();
    await gigCard(hp, title).getByRole("button", { name: `View Details: ${title}` }).click();
    await details.getByText("Translated the whole page").waitFor();
    const delivered = details.getByRole("region", { name: "Delivered files" });
    await delivered.getByText(DELIVERABLE.name).waitFor();
    await delivered.getByText(sizeKb).waitFor();
    await shot(hp, "13-hirer-review-work");
    const fileDownload = hp.waitForEvent("download");
    await delivered.getByRole("button", { name: `Download ${DELIVERABLE.name}` }).click();
    const got = await fileDownload;
    expect(got.suggestedFilename()).toBe(DELIVERABLE.name);
    expect(await downloadedText(got)).toBe(DELIVERABLE.text);
    await expectToast(hp, "Download Started");

    await details.getByRole("button", { name: "Approve & Release Payment" }).click();
    await expectToast(hp, "Work Approved");
    await details.getByText("Completed").first().waitFor();
    await details.getByText("The escrow has been released: the worker was paid.").waitFor();
    // The review step after approving: four stars this time.
    const reviewWorker = details.getByRole("form", { name: "Review the worker" });
    await reviewWorker.getByText("Work approved and payment released. How was working with the worker?").waitFor();
    // The stars are a radio group: from the default five, one arrow key down to four.
    await reviewWorker.getByRole("radio", { name: "5 stars" }).focus();
    await hp.keyboard.press("ArrowLeft");
    expect(await reviewWorker.getByRole("radio", { name: "4 stars" }).isChecked()).toBe(true);
    await reviewWorker.getByLabel("Comment").fill("Good translation, one typo.");
    // The hirer's extension signs it.
    await reviewWorker.getByText("Your extension signs this review with your Nostr key, so anyone can verify it.").waitFor();
    await shot(hp, "13b-hirer-review-step");
    await reviewWorker.getByRole("button", { name: "Submit Review" }).click();
    await expectToast(hp, "Review Submitted");
    await reviewWorker.waitFor({ state: "detached" });
    const receipt = hp.waitForEvent("download");
    await details.getByRole("button", { name: "Download Receipt" }).click();
    const pdf = await receipt;
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await expectToast(hp, "Receipt Downloaded");
    await shot(hp, "14-hirer-completed");
    await closeDialog(details);
    await hp.reload();
    await mainTab(hp, "Active").click();
    await expect.poll(() => stat(hp, "Completed").textContent()).toBe("1");

    // --- Money: the escrow is released and the worker's Lightning address was paid 9,750 sats.
    const final: GigView = await getGig(baseUrl, hirer, gigId);
    expect(final).toMatchObject({ status: "completed", escrowStatus: "released" });
    const sent = await waitForNotification(baseUrl, worker, (n) => n.gigId === gigId && n.type === "payout_sent");
    expect(sent).toMatchObject({ title: "Payment Sent" });
    expect(sent.message).toMatch(/^9,750 sats were sent/);
    const reviewsOf = (userId: string) =>
      apiJson<{ rating: number; comment: string | null; reviewerUsername: string; verified: boolean; nevent: string }[]>(baseUrl, "GET", `/api/reviews/user/${userId}`);
    // Both reviews are signed by their reviewer's key (verified), each with a nevent naming its author.
    const ofWorker = await reviewsOf(worker.user.id);
    expect(ofWorker).toEqual([
      expect.objectContaining({ rating: 4, comment: "Good translation, one typo.", reviewerUsername: hirer.user.username, verified: true }),
    ]);
    expect(decode(ofWorker[0]!.nevent)).toMatchObject({ type: "nevent", data: { author: hirer.pubkey, kind: 1985 } });
    const ofHirer = await reviewsOf(hirer.user.id);
    expect(ofHirer).toEqual([
      expect.objectContaining({ rating: 5, comment: "Clear brief and quick answers.", reviewerUsername: worker.user.username, verified: true }),
    ]);
    expect(decode(ofHirer[0]!.nevent)).toMatchObject({ type: "nevent", data: { author: worker.pubkey, kind: 1985 } });
    // The worker's profile shows the hirer's review as verified, with its link to the event.
    await hp.goto(`/user/${worker.npub}`);
    const reviewsRegion = hp.getByRole("region", { name: "Reviews" });
    await reviewsRegion.getByText("Verified").waitFor();
    await expect(reviewsRegion.getByRole("link", { name: "Signed on Nostr" }).getAttribute("href")).resolves.toBe(`nostr:${ofWorker[0]!.nevent}`);
    await shot(hp, "14b-worker-profile-verified-review");
    const events = await apiJson<{ type: string; attachments: { filename: string }[] }[]>(baseUrl, "GET", `/api/gigs/${gigId}/events`, {
      sessionToken: hirer.sessionToken,
    });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["escrow_funded", "claimed", "work_started", "work_submitted", "approved"]));
    expect(events.find((e) => e.type === "work_submitted")!.attachments.map((a) => a.filename)).toEqual([DELIVERABLE.name]);

    // --- Worker: sees Completed (the bell leads to the gig), and the stat counts it.
    await wp.reload();
    await eventually("the worker's bell shows unread", async () => (await bell(wp).getAttribute("aria-label"))?.includes("unread") ?? false);
    await bell(wp).click();
    await wp.getByRole("menuitem", { name: /Payment Sent/ }).click();
    const wFinal = dialog(wp, title);
    await wFinal.getByText("Completed").first().waitFor();
    await wFinal.getByRole("button", { name: "Download Receipt" }).waitFor();
    await shot(wp, "15-worker-completed");
    await closeDialog(wFinal);
    await expect.poll(() => stat(wp, "Completed").textContent()).toBe("1");

    expect(H.pageErrors.map(String)).toEqual([]);
    expect(W.pageErrors.map(String)).toEqual([]);
    await H.context.close();
    await W.context.close();
  });
});

describe("the key screens of the story at the mobile size", () => {
  it("posts and funds a job, and the worker finds it, sends interest and later sees it delivered", async () => {
    const viewport: ViewportName = "mobile";
    const hirer = await member(baseUrl, "Mia Hirer");
    const worker = await member(baseUrl, "Max Worker");
    const title = uniqueTitle("Logo sketch");
    const H = await openPage(baseUrl, { viewport, sessionToken: hirer.sessionToken });
    const W = await openPage(baseUrl, { viewport, sessionToken: worker.sessionToken });
    const hp = H.page;
    const wp = W.page;
    const shot = (page: Page, step: string) => storyShot(page, `job-to-payout-mobile-${step}`);
    shotsOnFailure(`job-to-payout-mobile`, { hirer: hp, worker: wp });

    await hp.goto("/");
    await mainTab(hp, "Post").click();
    await fillJobForm(hp, title, "20000");
    await hp.getByText("You pay 20,000 sats + 2.5% fee (500 sats) = 20,500 sats").waitFor();
    await shot(hp, "01-post-form");
    await hp.getByRole("button", { name: "Preview" }).click();
    await hp.getByRole("heading", { name: title }).waitFor();
    await shot(hp, "02-preview");
    await hp.getByRole("button", { name: "Post & Pay" }).click();
    const pay = dialog(hp, "Fund Escrow");
    // On a phone the wallet comes first; the QR code waits under "Pay from another device" (issue 26).
    await expect(pay.getByRole("link", { name: "Open in Wallet" }).getAttribute("href")).resolves.toMatch(/^lightning:ln/);
    await pay.getByText("20,500 sats").waitFor();
    await pay.getByText("Pay from another device").click();
    await expect.poll(() => pay.getByRole("link", { name: /Lightning invoice QR code/ }).locator("img").getAttribute("src")).toMatch(/^data:image\/png/);
    await pay.getByRole("link", { name: /Lightning invoice QR code/ }).waitFor();
    await shot(hp, "03-payment-modal");
    await pay.getByRole("button", { name: "Pay with dev wallet" }).click();
    await pay.getByText("Payment Received!").waitFor();
    const details = dialog(hp, title);
    await details.getByText("Available").first().waitFor();
    await shot(hp, "04-details-funded");
    await closeDialog(details);

    await wp.goto("/");
    await searchBrowse(wp, title);
    await gigCard(wp, title).waitFor();
    await shot(wp, "05-worker-browse");
    await gigCard(wp, title).getByRole("button", { name: title }).click();
    const wDetails = dialog(wp, title);
    await wDetails.getByLabel("Express interest").fill("I sketch logos by hand, happy to send three options.");
    await wDetails.getByRole("button", { name: "Send Interest" }).click();
    await expectToast(wp, "Interest Sent!");
    await shot(wp, "06-worker-interest-sent");
    await closeDialog(wDetails);

    // The middle of the story through the API; the hirer reviews the delivery on the phone.
    const gig = await myGigByTitle(baseUrl, hirer, title);
    const [interest] = await apiJson<{ id: string }[]>(baseUrl, "GET", `/api/gigs/${gig.id}/pre-claim-messages`, { sessionToken: hirer.sessionToken });
    for (const step of ["approve", "enable-claim"]) await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest!.id}/${step}`, { sessionToken: hirer.sessionToken });
    await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/claim`, { sessionToken: worker.sessionToken });
    await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/start-work`, { sessionToken: worker.sessionToken });

    await wp.reload();
    await mainTab(wp, "Active").click();
    await gigCard(wp, title).getByText("You Claimed").waitFor();
    await shot(wp, "07-worker-active");
    await gigCard(wp, title).getByRole("button", { name: `View Details: ${title}` }).click();
    await wDetails.getByLabel("Submit your work").fill("Three sketches attached.");
    const chooser = wp.waitForEvent("filechooser");
    await wDetails.getByRole("button", { name: "Attach files (optional)" }).click();
    await (await chooser).setFiles({ name: "sketches.txt", mimeType: "text/plain", buffer: Buffer.from("three sketches\n") });
    await wDetails.getByRole("list", { name: "Files to deliver" }).getByText("sketches.txt").waitFor();
    await shot(wp, "08-worker-submission");
    await wDetails.getByRole("button", { name: "Submit Work" }).click();
    await expectToast(wp, "Work Submitted");
    // Skipping the review step leaves it behind a button for later.
    await wDetails.getByRole("form", { name: "Review the hirer" }).getByRole("button", { name: "Skip for Now" }).click();
    await wDetails.getByRole("button", { name: "Leave a Review" }).waitFor();

    await hp.reload();
    await mainTab(hp, "Active").click();
    await gigCard(hp, title).getByRole("button", { name: `View Details: ${title}` }).click();
    await details.getByRole("region", { name: "Delivered files" }).getByText("sketches.txt").waitFor();
    await shot(hp, "09-hirer-review-work");
    await details.getByRole("button", { name: "Approve & Release Payment" }).click();
    await expectToast(hp, "Work Approved");
    await details.getByText("Completed").first().waitFor();
    await shot(hp, "10-hirer-completed");

    expect((await getGig(baseUrl, hirer, gig.id)).escrowStatus).toBe("released");
    expect(H.pageErrors.map(String)).toEqual([]);
    expect(W.pageErrors.map(String)).toEqual([]);
    await H.context.close();
    await W.context.close();
  });
});
