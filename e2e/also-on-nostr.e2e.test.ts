// Story (issue 27, "Also on Nostr"): on a 360 px phone, a funded job's details name its NIP-99 listing. The
// naddr shown (one line: shortened in the middle, a copy button, a `nostr:` link to open it in a Nostr app)
// decodes to kind 30402 by the platform's key (GET /api/config names it) with d = the gig's id; the app's local
// relay has that very listing once the cron has sent it; and `/gig/<naddr>`, the NIP-89 handler's URL, leads
// back to the gig. The hirer's own unpaid job shows nothing of the kind: it is not on Nostr.
import { decode } from "nostr-tools/nip19";
import { SimplePool } from "nostr-tools/pool";
import { verifyEvent, type Event } from "nostr-tools/pure";
import type { Locator } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { horizontalOverflow } from "./support/axe";
import { apiJson } from "./support/api";
import { screenshot, useBrowser } from "./support/browser";
import { closeDialog, dialog, eventually, fundedJob, member, shotsOnFailure, storyShot, uniqueTitle } from "./support/gigs";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");
const openPage = useBrowser();

interface NostrConfig {
  nostr: { platformPubkey: string | null; relays: string[] };
}

/** The "Also on Nostr" line of a gig's details. */
const alsoOnNostr = (d: Locator) => d.getByRole("region", { name: "Also on Nostr" });

/** Runs the Worker's cron once (it sends the outbox to the relays), as `npm start` does every minute. */
async function runCron(): Promise<void> {
  const res = await fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`, { signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  expect(res.ok, `cron run answered ${res.status}`).toBe(true);
}

describe("Also on Nostr (360 px)", () => {
  it("a funded job's details show its listing's naddr, which decodes to the gig, is on the local relay and opens the gig", async () => {
    const config = await apiJson<NostrConfig>(baseUrl, "GET", "/api/config");
    const platformPubkey = config.nostr.platformPubkey!;
    expect(platformPubkey).toMatch(/^[0-9a-f]{64}$/);
    const hirer = await member(baseUrl, "Nadia Nostr");
    const title = uniqueTitle("Translate a cafe menu");
    const gig = await fundedJob(baseUrl, hirer, title);

    // --- A visitor opens the gig's details on a phone.
    const { page } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("also-on-nostr-mobile", { visitor: page });
    await page.goto(`/?gigId=${gig.id}`);
    const details = dialog(page, title);
    await details.waitFor();
    const nostr = alsoOnNostr(details);
    await nostr.scrollIntoViewIfNeeded();
    await nostr.getByRole("heading", { name: "Also on Nostr" }).waitFor();
    const link = nostr.getByRole("link", { name: "Open in a Nostr app" });
    const href = (await link.getAttribute("href"))!;
    expect(href).toMatch(/^nostr:naddr1[02-9ac-hj-np-z]+$/);
    const naddr = href.slice("nostr:".length);
    const decoded = decode(naddr);
    expect(decoded.type).toBe("naddr");
    const address = decoded.data as { kind: number; pubkey: string; identifier: string; relays?: string[] };
    expect(address).toMatchObject({ kind: 30402, pubkey: platformPubkey, identifier: gig.id });
    expect(address.relays).toEqual(config.nostr.relays.slice(0, 2));
    await nostr.getByRole("button", { name: "Copy Nostr address" }).waitFor();

    // One line on the phone: the naddr shortened in the middle (whole in its title): its start cut with "…", its
    // end shown whole, nothing sticking out.
    const shown = nostr.locator("code");
    expect(await shown.getAttribute("title")).toBe(naddr);
    const cut = await shown.evaluate((code) => {
      const [start, end] = Array.from(code.children) as HTMLElement[];
      const box = code.getBoundingClientRect();
      const endBox = end!.getBoundingClientRect();
      return {
        startCut: start!.scrollWidth > start!.clientWidth && getComputedStyle(start!).textOverflow === "ellipsis",
        endWhole: end!.scrollWidth <= end!.clientWidth && endBox.right <= box.right + 0.5,
        end: end!.textContent,
      };
    });
    expect(cut).toEqual({ startCut: true, endWhole: true, end: naddr.slice(-8) });
    const [box, heading, copy, shownBox] = await Promise.all([
      nostr.boundingBox(),
      nostr.getByRole("heading", { name: "Also on Nostr" }).boundingBox(),
      nostr.getByRole("button", { name: "Copy Nostr address" }).boundingBox(),
      shown.boundingBox(),
    ]);
    expect(shownBox!.width, "room for a part of the naddr").toBeGreaterThan(90);
    expect(box!.height, "Also on Nostr takes one line").toBeLessThan(48);
    expect(Math.abs(heading!.y + heading!.height / 2 - (copy!.y + copy!.height / 2)), "heading and copy button on one line").toBeLessThan(6);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    expect(await horizontalOverflow(page, details)).toBeNull();
    await storyShot(page, "also-on-nostr-mobile-01-funded-job");

    // --- The listing it names is on the app's local relay once the cron has sent it: signed by the platform, active.
    await runCron();
    const pool = new SimplePool();
    try {
      let listing: Event | null = null;
      await eventually(
        "the listing on the local relay",
        async () => {
          listing = await pool.get(address.relays!, { kinds: [address.kind], authors: [address.pubkey], "#d": [address.identifier] }, { maxWait: 3000 });
          if (!listing) await runCron();
          return listing !== null;
        },
        60_000,
      );
      const found = listing as Event | null;
      expect(verifyEvent(found!)).toBe(true);
      expect(found!.tags).toContainEqual(["title", title]);
      expect(found!.tags).toContainEqual(["status", "active"]);
    } finally {
      pool.destroy();
    }

    // From `sm` up the link says what it does.
    await page.setViewportSize({ width: 1280, height: 800 });
    await nostr.getByText("Open in a Nostr app").waitFor();
    await nostr.scrollIntoViewIfNeeded();
    await storyShot(page, "also-on-nostr-desktop-01-funded-job");

    // --- /gig/<naddr> (the NIP-89 handler's URL a Nostr app opens) leads to the gig.
    await closeDialog(details);
    await page.goto(`/gig/${naddr}`);
    await page.waitForURL(new RegExp(`/gig/${gig.id}$`));
  });

  it("the hirer's own unpaid job shows nothing of the kind", async () => {
    const hirer = await member(baseUrl, "Una Unpaid");
    const title = uniqueTitle("Proofread a flyer");
    const posted = await apiJson<{ gig: { id: string } }>(baseUrl, "POST", "/api/gigs", {
      sessionToken: hirer.sessionToken,
      body: { gigType: "job_request", title, description: "Two pages, in English.", category: "Writing", payment: 10_000, timeframe: 3 },
    });
    const { page } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
    shotsOnFailure("also-on-nostr-mobile-unpaid", { hirer: page });
    // The app has read its config (which names the platform's key) before the details are looked at.
    const configRead = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/config" && r.ok());
    await page.goto(`/?tab=active&gigId=${posted.gig.id}`);
    await configRead;
    const details = dialog(page, title);
    await details.getByText("Pending Payment").first().waitFor();
    await storyShot(page, "also-on-nostr-mobile-02-unpaid-job");
    expect(await alsoOnNostr(details).count()).toBe(0);
    expect(await details.getByText("Also on Nostr").count()).toBe(0);
  });

  it("the admin's dashboard shows the Nostr outbox: publishing is on here, with what is waiting and stuck", async () => {
    const { page } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("also-on-nostr-mobile-admin", { admin: page });
    await page.goto("/admin");
    for (const digit of adminPin) await page.getByRole("group", { name: "PIN keypad" }).getByRole("button", { name: digit, exact: true }).click();
    await page.getByRole("button", { name: "OK" }).click();
    const card = page.getByRole("region", { name: "Nostr outbox" });
    await card.waitFor();
    await card.getByText("Waiting", { exact: true }).waitFor();
    await card.getByText("Stuck", { exact: true }).waitFor();
    expect(await card.getByText(/Publishing is off/).count()).toBe(0);
    expect(await horizontalOverflow(page)).toBeNull();
    await screenshot(page, "also-on-nostr-mobile-03-admin-outbox");
  });
});
