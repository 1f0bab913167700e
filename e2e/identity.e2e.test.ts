// Identity in a real browser: a new Nostr key made in the app, sign-in, profile edit kept
// across a reload, logout; at the mobile and the desktop size. Selectors are SPEC.md §2's texts.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { apiJson, createSignedInUser } from "./support/api";
import { type ViewportName, useBrowser, screenshot, sessionTokenOf } from "./support/browser";
import { storyShot } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/**
 * The user-menu trigger in the top bar: a button that shows the avatar and the name.
 * (A string name matches as a case-insensitive substring of the accessible name.)
 */
function userMenu(page: Page, name: string | RegExp) {
  return page.getByRole("banner").getByRole("button", { name });
}

describe.each<ViewportName>(["desktop", "mobile"])("identity at the %s size", (viewport) => {
  it("creates a key, logs in, edits the profile, stays signed in after a reload and logs out", async () => {
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport });
    const shot = (step: string) => screenshot(page, `identity-${viewport}-${step}`);
    const displayName = `Alice ${viewport}`;

    await page.goto("/");
    const loginButton = page.getByRole("button", { name: "Login with Nostr" });
    await loginButton.waitFor();
    await shot("1-signed-out");

    // Login dialog, tab Create New: generate a key in the browser, save it, and log in with it.
    await loginButton.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await dialog.getByRole("tab", { name: "Create New" }).click();
    await dialog.getByRole("button", { name: /generate/i }).click();
    await dialog.getByText(/npub1/).first().waitFor(); // the new key pair is shown for backup
    await storyShot(page, `identity-${viewport}-2-key-created`); // the dialog as seen, not stretched to a full page
    // The new key logs in only once it is saved: here the backup card is downloaded (the PDF reaches the browser).
    const logIn = dialog.getByRole("button", { name: "Log In With This Key" });
    expect(await logIn.isDisabled()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download Key Backup" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^gigstr-key-backup-npub1.*\.pdf$/);
    await dialog.getByRole("checkbox", { name: "I saved my key", checked: true }).waitFor();
    await logIn.click();
    await dialog.waitFor({ state: "detached" });

    // Signed in: the user menu shows the username (an npub) until a display name is set.
    await userMenu(page, /npub1/).waitFor();
    expect(await sessionTokenOf(page)).toBeTruthy();
    await shot("3-signed-in");

    // User menu -> Profile -> Edit Profile: a display name and a Lightning address, saved.
    await userMenu(page, /npub1/).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    await page.waitForURL("**/profile");
    await page.getByRole("button", { name: "Edit Profile" }).click();
    await page.getByLabel("Display Name").fill(displayName);
    await page.getByLabel("Lightning Address for Payouts").fill("alice@wallet.test");
    await shot("4-profile-edit");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("button", { name: "Edit Profile" }).waitFor(); // back in view mode
    await page.getByText("alice@wallet.test").first().waitFor();

    // The server has it too.
    const me = await apiJson<{ displayName: string; lightningAddress: string }>(baseUrl, "GET", "/api/user/me", {
      sessionToken: (await sessionTokenOf(page))!,
    });
    expect(me).toMatchObject({ displayName, lightningAddress: "alice@wallet.test" });

    // A reload keeps the session, and the new name is shown in the top bar and on the profile.
    await page.reload();
    await userMenu(page, displayName).waitFor();
    await page.getByRole("heading", { name: displayName }).waitFor();
    await page.getByText("alice@wallet.test").first().waitFor();
    await shot("5-profile-after-reload");

    // User menu -> Logout: back to signed out.
    await userMenu(page, displayName).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Login with Nostr" }).waitFor();
    expect(await sessionTokenOf(page)).toBeNull();
    await shot("6-logged-out");

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});

it("starts signed in with a session made through the API", async () => {
  const alice = await createSignedInUser(baseUrl);
  await apiJson(baseUrl, "PATCH", "/api/user/me", { sessionToken: alice.sessionToken, body: { displayName: "Api Alice" } });
  const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "desktop", sessionToken: alice.sessionToken });

  await page.goto("/");
  await userMenu(page, "Api Alice").waitFor();
  await expect(page.getByRole("button", { name: "Login with Nostr" }).count()).resolves.toBe(0);

  expect(pageErrors.map(String)).toEqual([]);
  await context.close();
});
