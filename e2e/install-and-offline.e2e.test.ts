// Story (issue 18): a newcomer on a phone adds Gigstr to their home screen, and later opens it without a
// network: the app still opens (the service worker kept its shell), says "You are offline" (and, where the
// market could not be read, why in plain words, never "Failed to fetch"), and when the network is back the
// banner goes. Mobile.
import { describe, expect, inject, it } from "vitest";
import { useBrowser, untilServiceWorkerControls } from "./support/browser";
import { shotsOnFailure, storyShot } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

describe("installing and opening offline (mobile)", () => {
  it("links a manifest with the icons a phone asks for, and breaks none of its own Content-Security-Policy", async () => {
    const { page, context } = await openPage(baseUrl, { viewport: "mobile" });
    // Lighthouse counts every report of a violation (even one the page catches, as zod's probe for eval did).
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener("securitypolicyviolation", (e) => (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto("/");
    await page.getByRole("heading", { name: "Browse Gigs" }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/manifest.webmanifest");
    const res = await context.request.get(href!);
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({ name: "Gigstr", short_name: "Gigstr", start_url: "/", display: "standalone", theme_color: "#f7931a" });
    for (const [size, purpose] of [["192x192", "any"], ["512x512", "any"], ["512x512", "maskable"]] as const) {
      const icon = manifest.icons.find((i) => i.sizes === size && (i.purpose ?? "any") === purpose);
      expect(icon, `a ${purpose} icon of ${size}`).toBeDefined();
      const png = await context.request.get(icon!.src);
      expect(png.status()).toBe(200);
      const [w, h] = size.split("x").map(Number);
      expect(pngSize(await png.body())).toEqual({ width: w, height: h });
    }
    await context.close();
  });

  it("opens without a network once visited, says it is offline, and stops saying so when back", async () => {
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("offline-mobile", { visitor: page });
    await page.goto("/");
    await page.getByRole("link", { name: "Gigstr" }).first().waitFor();
    await untilServiceWorkerControls(page);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole("link", { name: "Gigstr" }).first().waitFor();
    const banner = page.getByRole("status").filter({ hasText: "You are offline" });
    await banner.waitFor();
    expect(await banner.textContent()).toBe("You are offline. Gigstr will try again when you are back online.");
    // The market could not be read: it says why in plain words, never the browser's "Failed to fetch".
    await page.getByRole("heading", { name: "Could not load gigs" }).waitFor();
    await page.getByText("Gigstr could not be reached. Check your internet connection and try again.").waitFor();
    expect(await page.getByText(/Failed to fetch|NetworkError|Load failed/i).count()).toBe(0);
    await storyShot(page, "offline-mobile-01-banner");

    await context.setOffline(false);
    await banner.waitFor({ state: "detached" });
    // Back online, the market is read again.
    await page.getByRole("heading").first().waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
