// Story (issue 18): a member opens their Active screen on a phone. Their gigs arrive after the page first
// paints; nothing they can see jumps while it fills in (the footer waits below the fold). Measured as the
// browser measures it: the layout-shift entries of the page's load (Cumulative Layout Shift). The same on a
// gig's own page for its hirer, and in a gig's details opened from a list: what fills in a moment later (the
// interest messages, the "Also on Nostr" line, which waits for the deployment's settings, a plan's milestones and
// the code for changing them) never pushes the buttons they are about to tap.
import { describe, expect, inject, it } from "vitest";
import { holdBack, useBrowser, type ViewportName } from "./support/browser";
import { apiJson } from "./support/api";
import { claimedJob, dialog, fundedJob, gigCard, member, milestoneSteps, openGigDetails, shotsOnFailure, storyShot, submittedJob, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/** What moved while the page loaded: each shift's score and the elements that moved. */
async function layoutShifts(page: import("playwright-core").Page): Promise<{ value: number; sources: string[] }[]> {
  return page.evaluate(
    () =>
      new Promise<{ value: number; sources: string[] }[]>((resolve) => {
        const shifts: { value: number; sources: string[] }[] = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Element }[] }[]) {
            if (entry.hadRecentInput) continue;
            shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => s.node?.nodeName?.toLowerCase() ?? "?") });
          }
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(shifts), 500);
      }),
  );
}

describe("a screen that fills in after its first paint", () => {
  for (const viewport of ["mobile", "desktop"] as ViewportName[]) {
    it(`moves nothing on screen while a hirer's Active screen loads (${viewport})`, async () => {
      const hirer = await member(baseUrl, "Lena Layout");
      const title = uniqueTitle("Steady layout job");
      await fundedJob(baseUrl, hirer, title);
      const { page, context, pageErrors } = await openPage(baseUrl, { viewport, sessionToken: hirer.sessionToken });
      shotsOnFailure(`layout-stability-${viewport}`, { hirer: page });
      await page.goto("/?tab=active");
      await page.getByText(title).first().waitFor();
      const shifts = await layoutShifts(page);
      const total = shifts.reduce((sum, s) => sum + s.value, 0);
      // Lighthouse's "good" is under 0.1; a loaded screen should not move at all.
      expect(total, JSON.stringify(shifts)).toBeLessThan(0.01);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }

  it("moves none of the hirer's buttons while their gig's page fills in (mobile)", async () => {
    const hirer = await member(baseUrl, "Gus Gigpage");
    const title = uniqueTitle("Steady gig page job");
    const gig = await fundedJob(baseUrl, hirer, title);
    // The deployment's settings (GET /api/config) and the interest messages are held back until the hirer's
    // buttons show: the latest they can come on a slow line. Without the service worker, which would answer the
    // settings itself.
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken, serviceWorkers: "block" });
    shotsOnFailure("layout-stability-gig-page", { hirer: page });
    const releaseConfig = await holdBack(page, "**/api/config");
    const releaseInterest = await holdBack(page, `**/api/gigs/${gig.id}/pre-claim-messages`);
    await page.goto(`/gig/${gig.id}`);
    const manage = page.getByRole("button", { name: "Manage" });
    const interestHeading = page.getByRole("heading", { name: "Interest messages" });
    await manage.waitFor();
    // The button's distance below the interest messages' heading: their placeholder is the empty list's box.
    const gap = async () => (await manage.boundingBox())!.y - (await interestHeading.boundingBox())!.y;
    const gapWhileLoading = await gap();
    releaseInterest();
    await page.getByText("No interest messages yet").waitFor();
    expect(await gap()).toBe(gapWhileLoading);
    // The next step above says what the messages mean for the hirer (its height follows its words): the rest is
    // measured once it shows.
    await page.getByText("Waiting for workers to send an interest message.").waitFor();
    const first = await manage.boundingBox();
    releaseConfig();
    await page.getByRole("region", { name: "Also on Nostr" }).waitFor();
    const shifts = await layoutShifts(page);
    expect(await manage.boundingBox()).toEqual(first);
    expect(shifts.reduce((sum, s) => sum + s.value, 0), JSON.stringify(shifts)).toBeLessThan(0.01);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the hirer's Approve button only once the delivered files are in above it (mobile)", async () => {
    const hirer = await member(baseUrl, "Fay Files");
    const worker = await member(baseUrl, "Will Worker");
    const title = uniqueTitle("Steady delivery job");
    const bytes = new TextEncoder().encode("The logo, three sizes.");
    const ticket = await apiJson<{ uploadURL: string; objectPath: string }>(baseUrl, "POST", "/api/objects/upload", {
      sessionToken: worker.sessionToken,
      body: { filename: "logo.txt", contentType: "text/plain", size: bytes.byteLength },
    });
    const put = await fetch(new URL(ticket.uploadURL, baseUrl), { method: "PUT", body: bytes, headers: { "Content-Type": "text/plain" } });
    expect(put.status).toBe(200);
    const { id: gigId } = await submittedJob(baseUrl, hirer, worker, title, [
      { url: ticket.objectPath, filename: "logo.txt", fileSize: bytes.byteLength, mimeType: "text/plain" },
    ]);

    // The delivered files (read from the gig's events) sit above the actions; their answer is held back.
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken, serviceWorkers: "block" });
    shotsOnFailure("layout-stability-files", { hirer: page });
    const releaseEvents = await holdBack(page, `**/api/gigs/${gigId}/events`);
    const details = await openGigDetails(page, gigId, title);
    await details.getByText("Delivered: https://example.com/delivery (all sections done).").waitFor();
    const approve = details.getByRole("button", { name: "Approve & Release Payment" });
    expect(await approve.count()).toBe(0);
    releaseEvents();
    await approve.waitFor();
    await expect(details.getByRole("region", { name: "Delivered files" }).getByText("logo.txt").isVisible()).resolves.toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("moves none of the worker's buttons while the panel for more time loads (mobile)", async () => {
    const hirer = await member(baseUrl, "Hal Hirer");
    const worker = await member(baseUrl, "Tia Timely");
    const title = uniqueTitle("Steady claimed job");
    const { id: gigId } = await claimedJob(baseUrl, hirer, worker, title);
    // The panel's code (loaded when first shown) is held back until the worker's buttons show.
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: worker.sessionToken, serviceWorkers: "block" });
    shotsOnFailure("layout-stability-extension", { worker: page });
    const release = await holdBack(page, "**/assets/extension-panel-*.js");
    const details = await openGigDetails(page, gigId, title);
    const chat = details.getByRole("button", { name: "Open Chat" });
    await chat.waitFor();
    const first = await chat.boundingBox();
    release();
    await details.getByText("Need more time?").waitFor();
    await details.getByText("Ask the hirer to extend it.").waitFor();
    expect(await chat.boundingBox()).toEqual(first);
    await chat.scrollIntoViewIfNeeded();
    await storyShot(page, "layout-stability-extension-panel");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("moves no milestone's Approve button while the details fill in (mobile)", async () => {
    const hirer = await member(baseUrl, "Mia Milestone");
    const worker = await member(baseUrl, "Walt Worker");
    const title = uniqueTitle("Steady milestone job");
    const { id: gigId } = await claimedJob(baseUrl, hirer, worker, title, 5_000, [
      { title: "Wireframes", amount: 2_000 },
      { title: "Pages", amount: 3_000 },
    ]);
    await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/start-work`, { sessionToken: worker.sessionToken });
    await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/milestones/1/submit`, { sessionToken: worker.sessionToken, body: { workSubmission: "Wireframes: https://example.com/wireframes" } });

    // The dialog opens from the Active list with the list's copy of the gig, which has no milestones; the
    // details' own answer, with them, and the code for changing them (loaded when first shown) are held back.
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken, serviceWorkers: "block" });
    shotsOnFailure("layout-stability-milestone", { hirer: page });
    const releaseDetails = await holdBack(page, `**/api/gigs/${gigId}`);
    const releaseChunk = await holdBack(page, "**/assets/milestone-plan-change-*.js");
    await page.goto("/?tab=active");
    await gigCard(page, title).getByRole("button", { name: title, exact: true }).click();
    const details = dialog(page, title);
    await details.getByText("Posted by").waitFor();
    const approve = details.getByRole("button", { name: "Approve milestone 1" });
    // No button before the milestones: they would push it down as they came.
    expect(await approve.count()).toBe(0);
    releaseDetails();
    await approve.waitFor();
    expect(await milestoneSteps(details).count()).toBe(2);
    const first = await approve.boundingBox();
    releaseChunk();
    await details.getByRole("button", { name: "Change milestones" }).waitFor();
    await details.getByRole("region", { name: "Also on Nostr" }).waitFor();
    expect(await approve.boundingBox()).toEqual(first);
    await approve.scrollIntoViewIfNeeded();
    await storyShot(page, "layout-stability-milestone-approve");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
