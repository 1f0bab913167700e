// The smaller rough edges of issue 26 on a phone (360 px): the profile's one-time alias warning gives a long
// forwarding address the full width; ratings read "Rating" / "No reviews yet"; the sessions list names this very
// device from its browser and "Log out everywhere" is a quiet outline button; the admin's tab row shows that it
// scrolls and brings the chosen tab into view; a dispute is settled after a dialog that says where the sats go,
// and stays on screen with its outcome; offline, no screen says "Failed to fetch".
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiJson, clientAddress, createSignedInUser } from "./support/api";
import { VIEWPORTS, launchBrowser, openPage, screenshot, untilServiceWorkerControls } from "./support/browser";
import { claimedJob, member, shotsOnFailure, storyShot, uniqueTitle } from "./support/gigs";
import { ARTIFACTS_DIR } from "./support/paths";
import { BLOCKING_IMPACTS, axeViolations, formatViolations, overflowingBoxes, settle } from "./support/axe";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");

/** What Chrome on an Android phone sends. */
const CHROME_ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const NO_CONNECTION = "Gigstr could not be reached. Check your internet connection and try again.";

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
const open = (options: Parameters<typeof openPage>[2] = {}) => openPage(browser!, baseUrl, { viewport: "mobile", ...options });

/** The page is no wider than the phone: nothing sticks out sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** A screenshot of one part of the screen, at its real size (the full-page shots are tall). */
async function closeUp(locator: Locator, name: string) {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await locator.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), animations: "disabled" });
}

/** No serious or critical axe violation on the page (or in the open dialog `scope`). */
async function expectAccessible(page: Page, scope?: string) {
  await settle(page);
  const blocking = (await axeViolations(page, scope)).filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact));
  expect(blocking, formatViolations(blocking)).toEqual([]);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not on screen");
  return b;
}

describe("the profile on a phone", () => {
  it("gives a long forwarding address the alias warning's full width, and says ratings in words", async () => {
    const long = `a-very-long-lightning-address-of-someone-${Date.now()}@walletofsatoshi.example.com`;
    const m = await createSignedInUser(baseUrl);
    await apiJson(baseUrl, "PATCH", "/api/user/me", { sessionToken: m.sessionToken, body: { displayName: "Lena Longaddress", lightningAddress: long } });
    const { page, pageErrors } = await open({ sessionToken: m.sessionToken });
    shotsOnFailure("profile-phone", { member: page });
    await page.goto("/profile");
    await page.getByRole("heading", { level: 1, name: "Lena Longaddress" }).waitFor();

    // Ratings and success rate read as everywhere else: words, never N/A; the card is "Rating".
    const stats = page.getByRole("region", { name: "Reputation" });
    await stats.getByText("Rating", { exact: true }).waitFor();
    await stats.getByText("No reviews yet", { exact: true }).waitFor();
    await stats.getByText("No completed gigs yet", { exact: true }).waitFor();
    expect(await page.getByText("N/A", { exact: true }).count()).toBe(0);

    // The one-time warning: its words, then the address on a line of its own, as wide as the warning.
    const warning = page.getByRole("note").filter({ hasText: "can be set only once" });
    await warning.scrollIntoViewIfNeeded();
    const address = warning.getByText(long);
    const [w, a] = [await box(warning), await box(address)];
    expect(a.width).toBeGreaterThan(w.width * 0.8);
    expect(a.x + a.width).toBeLessThanOrEqual(w.x + w.width);
    expect(w.x + w.width).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
    // It wraps in a few lines, not one character a line.
    const lines = await address.evaluate((el) => {
      const s = getComputedStyle(el);
      return (el.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom)) / parseFloat(s.lineHeight);
    });
    expect(Math.round(lines)).toBeLessThanOrEqual(4);
    expect(await address.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectNoSidewaysScroll(page);
    expect(await overflowingBoxes(page, "main")).toEqual([]);
    await expectAccessible(page);
    await storyShot(page, "profile-phone-1-alias-warning");
    await closeUp(page.locator("section").filter({ has: page.getByRole("heading", { name: "Gigstr Lightning Alias" }) }), "profile-phone-1b-alias-card");
    await closeUp(stats, "profile-phone-1c-stats");
    await screenshot(page, "profile-phone-360");
    expect(pageErrors).toEqual([]);
  });

  it("names this device from its browser in the sessions list, with Log out everywhere as an outline button", async () => {
    // Both sessions are made by a script that sends no browser's User-Agent: stored as "Unknown device".
    const m = await createSignedInUser(baseUrl);
    await apiJson(baseUrl, "PATCH", "/api/user/me", { sessionToken: m.sessionToken, body: { displayName: "Pia Phone", lightningAddress: `pia${Date.now()}@wallet.test` } });
    await createSignedInUser(baseUrl, m.secretKey);
    // The phone: Chrome on Android at 360 px, holding the first session.
    const context = await browser!.newContext({
      baseURL: baseUrl,
      viewport: VIEWPORTS.mobile,
      isMobile: true,
      hasTouch: true,
      userAgent: CHROME_ANDROID,
      extraHTTPHeaders: { "CF-Connecting-IP": clientAddress() },
      storageState: { cookies: [], origins: [{ origin: baseUrl, localStorage: [{ name: "sessionToken", value: m.sessionToken }] }] },
    });
    try {
      const page = await context.newPage();
      shotsOnFailure("sessions-phone", { member: page });
      await page.goto("/profile");
      await page.getByRole("button", { name: /Account menu for Pia Phone/ }).click();
      await page.getByRole("menuitem", { name: "Settings" }).click();
      const settings = page.getByRole("dialog", { name: "Profile and Settings" });
      const list = settings.getByRole("list", { name: "Your sessions" });
      await list.waitFor();
      const here = list.getByRole("listitem").filter({ hasText: "This device" });
      await here.getByText("Chrome on Android").waitFor();
      await list.getByRole("listitem").filter({ hasText: "Unknown device" }).waitFor();
      expect(await list.getByRole("listitem").count()).toBe(2);
      expect(await settings.getByRole("region", { name: "Where you're logged in" }).getByText(/sign(ed|ing)? (in|out)/i).count()).toBe(0);

      // Log out everywhere: an outline button (white, bordered), quieter than Save.
      const everywhere = settings.getByRole("button", { name: "Log out everywhere" });
      await everywhere.scrollIntoViewIfNeeded();
      const style = await everywhere.evaluate((el) => {
        const s = getComputedStyle(el);
        return { background: s.backgroundColor, border: s.borderTopWidth, color: s.color };
      });
      expect(style.background).toBe("rgb(255, 255, 255)");
      expect(style.border).toBe("1px");
      const save = await settings.getByRole("button", { name: "Save" }).evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(save).not.toBe("rgb(255, 255, 255)");
      await expectAccessible(page, '[role="dialog"][data-state="open"]');
      await storyShot(page, "profile-phone-2-sessions");
      await closeUp(settings.getByRole("region", { name: "Where you're logged in" }), "profile-phone-2b-sessions-section");
    } finally {
      await context.close();
    }
  });
});

/** A 10,000 sat job with work submitted, disputed by the hirer. */
async function disputedGig(title: string) {
  const hirer = await member(baseUrl, "Hana");
  const worker = await member(baseUrl, "Wes");
  const gig = await claimedJob(baseUrl, hirer, worker, title);
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/start-work`, { sessionToken: worker.sessionToken });
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/submit`, { sessionToken: worker.sessionToken, body: { workSubmission: "Done: https://example.com/es", attachments: [] } });
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/dispute`, { sessionToken: hirer.sessionToken, body: { reason: "The pricing section is missing." } });
  return { hirer, worker, gigId: gig.id };
}

async function adminSignIn(page: Page) {
  await page.goto("/admin");
  for (const digit of adminPin) await page.getByRole("group", { name: "PIN keypad" }).getByRole("button", { name: digit, exact: true }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await page.getByRole("button", { name: /logout/i }).waitFor();
}

describe("the admin on a phone", () => {
  it("sees that the tab row scrolls, and settles a dispute after a dialog with the sats; the card keeps its outcome", async () => {
    const title = uniqueTitle("Phone dispute");
    const { hirer, gigId } = await disputedGig(title);
    const { page, pageErrors } = await open();
    shotsOnFailure("admin-phone", { admin: page });
    await adminSignIn(page);
    await page.getByText("Total Escrow").waitFor();

    // Five tabs do not fit in 360 px: the row scrolls, and the edge with more beyond it fades with a chevron.
    const tabs = page.getByRole("tablist", { name: "Admin sections" });
    const overflow = await tabs.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeGreaterThan(0);
    const after = page.getByTestId("tabs-more-after");
    const before = page.getByTestId("tabs-more-before");
    expect(await after.getAttribute("data-shown")).toBe("true");
    await expect.poll(() => after.evaluate((el) => getComputedStyle(el).opacity)).toBe("1"); // it fades by a transition
    expect(await before.getAttribute("data-shown")).toBe("false");
    await storyShot(page, "admin-phone-1-tabs");
    await closeUp(tabs.locator(".."), "admin-phone-1b-tab-row");

    // Choosing Disputes brings it fully into view (clear of the fade); the start now says there is more before.
    const disputesTab = page.getByRole("tab", { name: /^Disputes \(\d+\)$/ });
    await disputesTab.click();
    await expect.poll(() => before.getAttribute("data-shown")).toBe("true");
    await expect
      .poll(async () => {
        const [t, l] = [await box(disputesTab), await box(tabs)];
        return t.x >= l.x && t.x + t.width <= l.x + l.width;
      })
      .toBe(true);

    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    const settle = card.getByRole("region", { name: "Settle this dispute" });
    await settle.scrollIntoViewIfNeeded();
    await settle.getByText("Wes gets 9,750 sats").waitFor();
    await settle.getByText("Hana gets 10,250 sats back").waitFor();
    // Split is the quiet outline; the two full outcomes are the strong, equal pair above it.
    const bg = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(settle.getByRole("button", { name: "Split" }))).toBe("rgb(255, 255, 255)");
    expect(await bg(settle.getByRole("button", { name: "Pay Worker" }))).toBe(await bg(settle.getByRole("button", { name: "Refund Hirer" })));
    expect(await bg(settle.getByRole("button", { name: "Pay Worker" }))).not.toBe("rgb(255, 255, 255)");
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await storyShot(page, "admin-phone-2-dispute");
    await closeUp(card, "admin-phone-2b-dispute-card");

    // Pay Worker asks first, in a dialog that says where every sat goes.
    await settle.getByRole("button", { name: "Pay Worker" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Pay Wes?" });
    await confirm.waitFor();
    const sats = (scope: Locator, who: string) => scope.locator("dt", { hasText: who }).locator("xpath=following-sibling::dd");
    expect(await sats(confirm, "Wes (worker)").textContent()).toBe("9,750 sats");
    expect(await sats(confirm, "Hana (hirer)").textContent()).toBe("0 sats");
    expect(await sats(confirm, "Platform fees").textContent()).toBe("500 sats");
    await confirm.getByText("10,250 sats in escrow", { exact: false }).waitFor();
    await expectAccessible(page, '[role="alertdialog"][data-state="open"]');
    await storyShot(page, "admin-phone-3-confirm");
    await confirm.getByRole("button", { name: "Pay Worker" }).click();
    await confirm.waitFor({ state: "detached" });

    // Settled: the card stays where it was, with the outcome, until dismissed.
    const settled = page.getByRole("group", { name: title });
    await settled.getByText("Resolved: Worker paid").waitFor();
    expect(await sats(settled, "Wes (worker)").textContent()).toBe("9,750 sats");
    expect(await sats(settled, "Hana (hirer)").textContent()).toBe("0 sats");
    await settled.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await storyShot(page, "admin-phone-4-settled");
    await closeUp(settled, "admin-phone-4b-settled-card");
    await closeUp(tabs.locator(".."), "admin-phone-4c-tab-row");
    await screenshot(page, "admin-phone-disputes-360");
    const gig = await apiJson<{ status: string; resolution: string }>(baseUrl, "GET", `/api/gigs/${gigId}`, { sessionToken: hirer.sessionToken });
    expect(gig).toMatchObject({ status: "completed", resolution: "pay_worker" });
    await settled.getByRole("button", { name: "Dismiss" }).click();
    await settled.waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });

  it("at 1280 px the five tabs fit (no scroll hint), and the outcomes keep a sensible width", async () => {
    const title = uniqueTitle("Desktop dispute");
    await disputedGig(title);
    const { page } = await open({ viewport: "desktop" });
    await adminSignIn(page);
    await page.getByText("Total Escrow").waitFor();
    const tabs = page.getByRole("tablist", { name: "Admin sections" });
    expect(await tabs.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.getByTestId("tabs-more-after").getAttribute("data-shown")).toBe("false");
    expect(await page.getByTestId("tabs-more-before").getAttribute("data-shown")).toBe("false");
    await storyShot(page, "admin-desktop-tabs");
    await page.getByRole("tab", { name: /^Disputes \(\d+\)$/ }).click();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    const pay = await box(card.getByRole("button", { name: "Pay Worker" }));
    expect(pay.width).toBeLessThanOrEqual(260);
    await closeUp(card, "admin-desktop-dispute-card");
  });
});

describe("offline on a phone", () => {
  it("says it is offline, and the screen that could not read says why in plain words, never Failed to fetch", async () => {
    const { page, context, pageErrors } = await open();
    shotsOnFailure("offline-phone", { visitor: page });
    await page.goto("/");
    await page.getByRole("link", { name: "Gigstr" }).first().waitFor();
    await untilServiceWorkerControls(page);
    await context.setOffline(true);
    await page.reload();
    const banner = page.getByRole("status").filter({ hasText: "You are offline" });
    await banner.waitFor();
    expect(await banner.textContent()).toBe("You are offline. Gigstr will try again when you are back online.");
    await page.getByText(NO_CONNECTION).waitFor();
    expect(await page.getByText(/Failed to fetch|NetworkError|Load failed/i).count()).toBe(0);
    await storyShot(page, "offline-phone-360");
    await context.setOffline(false);
    await banner.waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });
});
