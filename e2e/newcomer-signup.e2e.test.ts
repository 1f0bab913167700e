// Story (issue 26, Signing up): a newcomer without a Nostr extension opens the login dialog and lands on
// the tab that can work on their device: Create New on a phone, With Key on a desktop. On the phone they
// create a key, cannot log in with it until they say they saved it, then log in and see the top bar signed in.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { BLOCKING_IMPACTS, axeViolations, formatViolations, settle } from "./support/axe";
import { useBrowser } from "./support/browser";
import { dialog, mainTab, shotsOnFailure, storyShot, toast } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

const loginDialog = (page: Page) => dialog(page, "Login with Nostr");
const selectedTab = (d: Locator) => d.getByRole("tab", { selected: true });

/** axe's serious and critical findings inside the open dialog. */
async function dialogAxe(page: Page): Promise<string> {
  return formatViolations((await axeViolations(page, '[role="dialog"]')).filter((v) => BLOCKING_IMPACTS.has(v.impact ?? "")));
}

async function top(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not laid out");
  return box.y;
}

describe("signing up at the phone size (360 px)", () => {
  it("opens Create New with the reason, gates the new key behind 'I saved my key', then logs in", async () => {
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    const shot = (step: string) => storyShot(page, `newcomer-signup-mobile-${step}`);
    shotsOnFailure("newcomer-signup-mobile", { visitor: page });

    // The Post tab's Login Required card asks for the dialog with its reason.
    await page.goto("/?tab=post");
    await page.getByRole("main").getByRole("button", { name: "Login with Nostr" }).click();
    const d = loginDialog(page);
    await d.waitFor();
    await expect(selectedTab(d).textContent()).resolves.toBe("Create New");
    await d.getByText("Log in to post gigs.").waitFor();
    await d.getByText(/A Nostr key is like a username and password in one/).waitFor();
    await d.getByRole("link", { name: "What is a Nostr key?" }).waitFor();
    // Full screen on a phone: the dialog is the whole viewport.
    await settle(page);
    expect(await d.boundingBox()).toMatchObject({ x: 0, y: 0, width: 360, height: 740 });
    await shot("1-opened");

    await d.getByRole("button", { name: "Generate New Keys" }).click();
    const npubLabel = d.getByText("Public Key (npub)", { exact: true });
    await npubLabel.waitFor();
    const logIn = d.getByRole("button", { name: "Log In With This Key" });
    const saved = d.getByRole("checkbox", { name: "I saved my key" });
    const why = d.getByText("Download the backup or tick “I saved my key” first.");
    await why.waitFor();
    expect(await logIn.isDisabled()).toBe(true);
    expect(await logIn.getAttribute("aria-describedby")).toBe(await why.getAttribute("id"));

    // Read top to bottom: npub, nsec, warning, Download Key Backup, the checkbox, why the button is locked, then the
    // log-in button, full width.
    const order = [
      npubLabel,
      d.getByText("Private Key (nsec)", { exact: true }),
      d.getByText(/Save your private key now/),
      d.getByRole("button", { name: "Download Key Backup" }),
      saved,
      why,
      logIn,
    ];
    const tops = await Promise.all(order.map(top));
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    const [buttonBox, downloadBox] = await Promise.all([logIn.boundingBox(), d.getByRole("button", { name: "Download Key Backup" }).boundingBox()]);
    expect(buttonBox!.width).toBeGreaterThan(300);
    expect(buttonBox!.width).toBe(downloadBox!.width);
    expect(await dialogAxe(page)).toBe("");
    await shot("2-keys-created");
    await logIn.scrollIntoViewIfNeeded();
    await shot("3-log-in-locked");

    await saved.check();
    await why.waitFor({ state: "detached" });
    expect(await logIn.isEnabled()).toBe(true);
    await shot("4-key-saved");

    await logIn.click();
    await d.waitFor({ state: "detached" });
    await page.getByRole("banner").getByRole("button", { name: /npub1/ }).waitFor();
    expect(await page.getByRole("banner").getByRole("button", { name: "Login with Nostr" }).count()).toBe(0);
    // Back on the Post tab, now with its form instead of the Login Required card.
    await page.getByRole("main").getByRole("heading", { name: "Post New Gig" }).waitFor();
    await page.getByRole("main").getByLabel("Title").waitFor();
    expect(await page.getByRole("main").getByRole("heading", { name: "Login Required" }).count()).toBe(0);
    // The welcome toast sits over the top bar on a phone: closed, as a person would, to show the bar signed in.
    await toast(page, "Login Successful!").waitFor();
    await page.getByRole("region", { name: /^Notifications/ }).getByRole("button", { name: "Close" }).click();
    await toast(page, "Login Successful!").waitFor({ state: "detached" });
    await shot("5-signed-in");

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("explains a missing extension on the Extension tab and leads on to Create New", async () => {
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("newcomer-signup-mobile-extension", { visitor: page });
    await page.goto("/");
    await page.getByRole("banner").getByRole("button", { name: "Login with Nostr" }).click();
    const d = loginDialog(page);
    await d.waitFor();
    await d.getByRole("tab", { name: "Extension" }).click();
    await d.getByText(/This browser has no Nostr extension/).waitFor();
    await settle(page);
    expect(await dialogAxe(page)).toBe("");
    await storyShot(page, "newcomer-signup-mobile-6-no-extension");

    await d.getByRole("button", { name: "Create a New Key" }).click();
    await expect(selectedTab(d).textContent()).resolves.toBe("Create New");
    await d.getByRole("button", { name: "Generate New Keys" }).waitFor();

    // "What is a Nostr key?" leaves the dialog for the FAQ's answer.
    await d.getByRole("link", { name: "What is a Nostr key?" }).click();
    await d.waitFor({ state: "detached" });
    await page.waitForURL("**/faq#nostr-keys");
    await page.getByRole("heading", { name: "Your Nostr key" }).waitFor();

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});

describe("signing up at the desktop size (1280 px)", () => {
  it("opens With Key when the browser has no extension, one click from Create New", async () => {
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "desktop" });
    shotsOnFailure("newcomer-signup-desktop", { visitor: page });
    await page.goto("/");
    await mainTab(page, "Browse").waitFor();
    await page.getByRole("banner").getByRole("button", { name: "Login with Nostr" }).click();
    const d = loginDialog(page);
    await d.waitFor();
    await expect(selectedTab(d).textContent()).resolves.toBe("With Key");
    await d.getByLabel("Private Key (nsec or hex)").waitFor();
    await d.getByRole("link", { name: "What is a Nostr key?" }).waitFor();
    // A centred card, not the phone's full screen.
    await settle(page);
    const box = (await d.boundingBox())!;
    expect(box.width).toBeLessThan(600);
    await storyShot(page, "newcomer-signup-desktop-1-opened");

    // A newcomer without a key is one click from Create New, and the key is gated there too.
    await d.getByRole("button", { name: "Create a new key", exact: true }).click();
    await expect(selectedTab(d).textContent()).resolves.toBe("Create New");
    await d.getByRole("button", { name: "Generate New Keys" }).click();
    await d.getByRole("checkbox", { name: "I saved my key" }).waitFor();
    expect(await d.getByRole("button", { name: "Log In With This Key" }).isDisabled()).toBe(true);
    await storyShot(page, "newcomer-signup-desktop-2-keys-created");

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});
