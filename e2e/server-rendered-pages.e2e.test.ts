// Story (issue 29): a stranger opens a shared link to a gig, the home page or a member's page, on a phone. The
// page is in the HTML itself (the Worker renders it, decision 030): with JavaScript off a gig's title, price and
// poster and the first gigs of the market are there to read. With JavaScript on, React takes that HTML over
// (hydrates it) as it is: no mismatch, no second request for what the page already holds, and the page works.
import type { ConsoleMessage, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { holdBack, screenshot, useBrowser } from "./support/browser";
import { fundedJob, member, shotsOnFailure, uniqueTitle, type GigView, type Member } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/** What React says when the server's HTML and the browser's first render differ (development words, production codes). */
const HYDRATION_TROUBLE = /hydrat|did not match|Minified React error #(418|419|421|422|423|425)\b/i;

let world: Promise<{ hirer: Member; gig: GigView; title: string }> | null = null;
/** One open job request, posted and funded through the API, shared by the tests of this file. */
function aGig() {
  world ??= (async () => {
    const hirer = await member(baseUrl, "Hana Hirer");
    const title = uniqueTitle("Translate the Lightning FAQ");
    const gig = await fundedJob(baseUrl, hirer, title, 23_456);
    return { hirer, gig, title };
  })();
  return world;
}

describe("the public pages with JavaScript off (360 px)", () => {
  it("a gig's page shows its title, price and poster; the home page the first gigs; a member's page their gigs", async () => {
    const { hirer, gig, title } = await aGig();
    const { page, context } = await openPage(baseUrl, { viewport: "mobile", javaScriptEnabled: false });
    shotsOnFailure("server-rendered-js-off", { visitor: page });

    const gigPage = await page.goto(`/gig/${gig.id}`);
    expect(gigPage?.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
    const main = page.getByRole("main");
    await main.getByText("23,456 sats").waitFor();
    await main.getByRole("link", { name: "Hana Hirer" }).waitFor();
    await page.getByRole("button", { name: "Login with Nostr" }).waitFor();
    expect(await page.title()).toBe(`${title} · 23,456 sats · Gigstr`);
    await screenshot(page, "server-rendered-gig-js-off-360");

    const home = await page.goto("/");
    expect(home?.status()).toBe(200);
    await page.getByRole("heading", { name: "Browse Gigs" }).waitFor();
    const card = page.getByTestId("gig-card").filter({ hasText: title });
    await card.waitFor();
    expect(await card.textContent()).toContain("23,456 sats");
    expect(await card.textContent()).toContain("Hana Hirer");
    expect(await page.getByTestId("gig-card").count()).toBeGreaterThan(0);
    await screenshot(page, "server-rendered-home-js-off-360");

    const profile = await page.goto(`/user/${hirer.npub}`);
    expect(profile?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Hana Hirer" }).waitFor();
    await page.getByRole("heading", { name: title }).waitFor();
    await screenshot(page, "server-rendered-user-js-off-360");

    const missing = await page.goto(`/gig/${crypto.randomUUID()}`);
    expect(missing?.status()).toBe(404);
    await page.getByRole("heading", { name: "Gig not found" }).waitFor();
    await screenshot(page, "server-rendered-gig-not-found-js-off-360");
    await context.close();
  });
});

/**
 * Opens `path` with the app's scripts held back until the server's main heading is marked, then lets them run and
 * waits for React to take that heading over. Returns what the console said and which API reads were made.
 */
async function openAndHydrate(page: Page, path: string) {
  const said: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error" || message.type() === "warning") said.push(message.text());
  });
  const apiReads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) apiReads.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  const release = await holdBack(page, "**/assets/*.js");
  await page.goto(path, { waitUntil: "commit" });
  const heading = page.locator("main h1").first();
  await heading.waitFor();
  // A mark on the server's own node: if React threw the HTML away and drew the page anew, the mark would go.
  await heading.evaluate((h) => h.setAttribute("data-server-node", ""));
  release();
  await page.waitForFunction(() => {
    const h = document.querySelector("main h1");
    return !!h && Object.keys(h).some((key) => key.startsWith("__reactFiber"));
  });
  expect(await page.locator("main h1[data-server-node]").count()).toBe(1);
  return { said, apiReads };
}

describe("the public pages with JavaScript on", () => {
  it("paint before the app's script is asked for, which then takes the page over", async () => {
    const { gig, title } = await aGig();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    for (const path of ["/", `/gig/${gig.id}`]) {
      // goto returns once the app has started (e2e/support/browser.ts).
      await page.goto(path);
      const { paint, script } = await page.evaluate(() => ({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
        script: performance.getEntriesByType("resource").find((r) => /\/assets\/index-[^/]+\.js$/.test(r.name))?.startTime ?? null,
      }));
      expect(paint).not.toBeNull();
      expect(script).not.toBeNull();
      expect(script!).toBeGreaterThan(paint!);
    }
    // The app works once it runs: the gig's page's link back to the list is taken in the page.
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.getByTestId("gig-card").filter({ hasText: title }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("/ hydrates as rendered, asks for no gigs again, and its filters work", async () => {
    const { title } = await aGig();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("server-rendered-home-js", { visitor: page });
    const { said, apiReads } = await openAndHydrate(page, "/");
    await page.getByTestId("gig-card").filter({ hasText: title }).waitFor();
    expect(apiReads).toEqual([]);
    const forHire = page.getByRole("button", { name: "For Hire" });
    const offersRead = page.waitForRequest((r) => r.url().includes("/api/gigs?") && r.url().includes("gigType=service_offering"));
    await forHire.click();
    await offersRead;
    expect(await forHire.getAttribute("aria-pressed")).toBe("true");
    expect(said.filter((s) => HYDRATION_TROUBLE.test(s))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a gig's page hydrates as rendered (its code arriving after), asks for the gig no more, and its links work", async () => {
    const { gig, title } = await aGig();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("server-rendered-gig-js", { visitor: page });
    const { said, apiReads } = await openAndHydrate(page, `/gig/${gig.id}`);
    expect(await page.locator("main h1").textContent()).toBe(title);
    expect(apiReads).toEqual([]);
    // A link taken in the page, not a new document: the browse list is read by the app itself.
    const browseRead = page.waitForRequest((r) => r.url().includes("/api/gigs?") && r.url().includes("status=open"));
    await page.getByRole("link", { name: "Back to Home" }).click();
    await browseRead;
    await page.getByRole("heading", { name: "Browse Gigs" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(said.filter((s) => HYDRATION_TROUBLE.test(s))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a member's page hydrates as rendered and asks for none of its four reads again", async () => {
    const { hirer, title } = await aGig();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    const { said, apiReads } = await openAndHydrate(page, `/user/${hirer.npub}`);
    await page.getByRole("heading", { name: title }).waitFor();
    expect(apiReads).toEqual([]);
    expect(said.filter((s) => HYDRATION_TROUBLE.test(s))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("in a signed-in member's browser the visitor's page hydrates, then becomes theirs (their menu, their reads)", async () => {
    const { hirer, title } = await aGig();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    shotsOnFailure("server-rendered-home-member", { member: page });
    const { said, apiReads } = await openAndHydrate(page, "/");
    await page.getByRole("button", { name: /Account menu for Hana Hirer/ }).waitFor();
    await page.getByTestId("gig-card").filter({ hasText: title }).waitFor();
    // Read again with the session: what a member sees of a gig may be more than a visitor's.
    expect(apiReads).toContain("GET /api/user/me");
    expect(apiReads).toContain("GET /api/gigs?status=open&limit=24");
    expect(said.filter((s) => HYDRATION_TROUBLE.test(s))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
