// Story (issue 18): a member opens their Active screen on a phone. Their gigs arrive after the page first
// paints; nothing they can see jumps while it fills in (the footer waits below the fold). Measured as the
// browser measures it: the layout-shift entries of the page's load (Cumulative Layout Shift).
import { describe, expect, inject, it } from "vitest";
import { useBrowser, type ViewportName } from "./support/browser";
import { fundedJob, member, shotsOnFailure, uniqueTitle } from "./support/gigs";

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
});
