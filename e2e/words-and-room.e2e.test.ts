// A newcomer on a phone (issue 26): the FAQ explains Nostr keys and the words the product uses in one
// glossary, with no internal codes; a link to one of its sections opens there; the floating suggestion
// button never sits on a form or under a dialog's overlay, and the page keeps room for it at the bottom.
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

  it("the suggestion button steps aside while a form or a dialog is open, or a field is being typed in", async () => {
    const hirer = await member(baseUrl, "Fiona Fields");
    const { page, context } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    shotsOnFailure("words-room", { member: page });
    const button = page.getByRole("button", { name: "Suggestion box" });

    // Browsing: the button floats; the page's last content scrolls clear of it.
    await page.goto("/");
    await button.waitFor();
    // Scrolled to the very bottom once the list has drawn (it may still grow: scroll again until it stays).
    const lastLinkClearsButton = async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const buttonBox = (await button.boundingBox())!;
      const linkBox = (await page.locator("footer a").last().boundingBox())!;
      return linkBox.y + linkBox.height <= buttonBox.y;
    };
    await expect.poll(lastLinkClearsButton).toBe(true);
    await storyShot(page, "words-mobile-03-page-bottom-room");

    // Typing into the search box: the keyboard is up, the button steps aside.
    const search = page.getByRole("searchbox").or(page.getByRole("search").getByRole("textbox")).first();
    await search.click();
    await button.waitFor({ state: "hidden" });
    await search.blur();
    await button.waitFor();

    // A form open on the page (posting a gig): never a button over its fields, from top to bottom.
    await page.goto("/?tab=post");
    await page.getByLabel(/title/i).first().waitFor();
    await button.waitFor({ state: "hidden" });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await button.isVisible()).toBe(false);
    await storyShot(page, "words-mobile-04-post-form-no-button");
    // Back to browsing (the page keeps the last tab in its history entry, so name it).
    await page.goto("/?tab=browse");
    await button.waitFor();

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
