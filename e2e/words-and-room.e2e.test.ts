// A newcomer on a phone (issue 26): the FAQ explains Nostr keys and the words the product uses in one
// glossary, with no internal codes; a link to one of its sections opens there; the floating suggestion
// button never sits on a field or a dialog, and the page keeps room for it at the bottom.
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "./support/browser";
import { dialog, member, shotsOnFailure, storyShot } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

describe("words and room on a phone", () => {
  it("the FAQ has a glossary, speaks of Nostr keys in plain words and shows no internal codes", async () => {
    const { page, context } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("words-faq", { visitor: page });
    await page.goto("/faq#nostr-keys");
    const keys = page.getByRole("region", { name: "Your Nostr key" });
    await keys.getByRole("heading", { name: "What is a Nostr key?" }).waitFor();
    // Opened at the section the link points to, not at the top of the page.
    await expect.poll(() => keys.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(await keys.textContent()).toMatch(/never sent to Gigstr/);
    await storyShot(page, "words-mobile-01-faq-nostr-keys");

    const glossary = page.getByRole("region", { name: "Glossary" });
    await glossary.scrollIntoViewIfNeeded();
    const terms = await glossary.getByRole("term").allTextContents();
    expect(terms).toEqual(expect.arrayContaining(["Hirer", "Worker", "Withdraw", "Escrow", "Invoice", "Nostr key", "Log in"]));
    await storyShot(page, "words-mobile-02-faq-glossary");

    const text = (await page.locator("main").textContent()) ?? "";
    for (const code of ["in_progress", "needs_revision", "work_submitted", "pending_payment"]) expect(text).not.toContain(code);
    expect(text).not.toMatch(/Gigstr will never ask for your private key/);
    await context.close();
  });

  it("the suggestion button steps aside while a dialog is open or a field is being typed in", async () => {
    const hirer = await member(baseUrl, "Fiona Fields");
    const { page, context } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    shotsOnFailure("words-room", { member: page });
    const button = page.getByRole("button", { name: "Suggestion box" });

    await page.goto("/?tab=post");
    await button.waitFor();
    const title = page.getByLabel(/title/i).first();
    await title.click();
    await button.waitFor({ state: "hidden" });
    await title.fill("Translate a menu");
    await storyShot(page, "words-mobile-03-typing-no-button");
    await title.blur();
    await button.waitFor();

    // Scrolling through the form: wherever the button shows, no field or small control lies under it.
    const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    let shownOverNothing = 0;
    for (let y = 0; y <= height; y += 60) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      // Two frames: the button looks again at most once a frame.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const overlap = await page.evaluate(() => {
        const b = document.querySelector<HTMLElement>('button[aria-label="Suggestion box"]');
        if (!b || b.hidden || getComputedStyle(b).visibility === "hidden") return null;
        const r = b.getBoundingClientRect();
        const hits = Array.from(document.querySelectorAll<HTMLElement>("main input, main select, main textarea, main button, main label")).filter((el) => {
          const c = el.getBoundingClientRect();
          const field = el.matches("input, select, textarea");
          if (c.width === 0 || (!field && c.height > 2 * r.height)) return false;
          return c.left < r.right && c.right > r.left && c.top < r.bottom && c.bottom > r.top;
        });
        return hits.map((el) => el.textContent || el.getAttribute("name") || el.tagName);
      });
      if (overlap === null) continue;
      expect(overlap, `at scroll ${y}`).toEqual([]);
      shownOverNothing++;
    }
    expect(shownOverNothing).toBeGreaterThan(0);

    // The page's last content scrolls clear of the button.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const buttonBox = (await button.boundingBox())!;
    const lastLink = page.locator("footer a").last();
    const linkBox = (await lastLink.boundingBox())!;
    expect(linkBox.y + linkBox.height).toBeLessThanOrEqual(buttonBox.y);
    await storyShot(page, "words-mobile-04-page-bottom-room");

    // Another dialog: the button is not there to be tapped through the overlay.
    await page.getByRole("button", { name: /Fiona Fields/ }).click();
    await page.getByRole("menuitem", { name: /settings/i }).click();
    await dialog(page, /settings/i).waitFor();
    await button.waitFor({ state: "hidden" });
    await storyShot(page, "words-mobile-05-dialog-no-button");
    await page.keyboard.press("Escape");
    await button.waitFor();
    await context.close();
  });
});
