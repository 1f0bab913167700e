// What the gig stories share: members with a Lightning address, gigs brought to a state through the
// API (SPEC.md §7), reading notifications, and locators for what a user sees (toasts, dialogs, tabs).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { generateSecretKey } from "nostr-tools";
import type { Locator, Page } from "playwright-core";
import { expect, onTestFailed } from "vitest";
import { apiJson, createSignedInUser, type SignedInUser } from "./api";
import { ARTIFACTS_DIR } from "./paths";

export interface Member extends SignedInUser {
  displayName: string;
  lightningAddress: string;
}

let counter = 0;

/** A signed-in member with a display name, a dev-wallet Lightning address (name@wallet.test) and maybe a bio. */
export async function member(baseUrl: string, displayName: string, bio?: string): Promise<Member> {
  const m = await createSignedInUser(baseUrl, generateSecretKey());
  const lightningAddress = `${displayName.toLowerCase().replace(/[^a-z0-9]/g, "")}${Date.now()}${counter++}@wallet.test`;
  await apiJson(baseUrl, "PATCH", "/api/user/me", { sessionToken: m.sessionToken, body: { displayName, lightningAddress, ...(bio !== undefined && { bio }) } });
  return { ...m, displayName, lightningAddress };
}

export interface GigView {
  id: string;
  title: string;
  status: string;
  escrowStatus: string;
  gigType: string;
  hirerId: string | null;
  workerId: string | null;
  payment: number;
  [field: string]: unknown;
}

/** A title no other test (or earlier run against the same app) uses. */
export function uniqueTitle(words: string): string {
  return `${words} ${Date.now().toString(36)}${(counter++).toString(36)}`;
}

const DESCRIPTION = "Clear brief, small scope, paid in sats through the escrow.";

/** Milestones of a job paid step by step: their amounts add up to its payment. */
export type Plan = { title: string; amount: number }[];

/** A job request posted and funded by the dev wallet (with a plan: its milestone 1): status open. */
export async function fundedJob(baseUrl: string, hirer: SignedInUser, title: string, payment = 10_000, milestones?: Plan): Promise<GigView> {
  const posted = await apiJson<{ gig: GigView; paymentRequest: string }>(baseUrl, "POST", "/api/gigs", {
    sessionToken: hirer.sessionToken,
    body: { gigType: "job_request", title, description: DESCRIPTION, category: "Writing", payment, timeframe: 7, ...(milestones && { milestones }) },
  });
  await apiJson(baseUrl, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest } });
  return getGig(baseUrl, hirer, posted.gig.id);
}

/** The worker's interest approved with claim enabled by the owner, then the worker claims: status claimed. */
export async function claimedJob(baseUrl: string, hirer: SignedInUser, worker: SignedInUser, title: string, payment = 10_000, milestones?: Plan): Promise<GigView> {
  const gig = await fundedJob(baseUrl, hirer, title, payment, milestones);
  const interest = await apiJson<{ id: string }>(baseUrl, "POST", `/api/gigs/${gig.id}/pre-claim-messages`, {
    sessionToken: worker.sessionToken,
    body: { message: "I can do this today." },
  });
  for (const step of ["approve", "enable-claim"]) {
    await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
  }
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/claim`, { sessionToken: worker.sessionToken });
  return getGig(baseUrl, hirer, gig.id);
}

/** A claimed job, work started and submitted by the worker (with `attachments`, uploaded refs): status work_submitted. */
export async function submittedJob(baseUrl: string, hirer: SignedInUser, worker: SignedInUser, title: string, attachments: unknown[] = []): Promise<GigView> {
  const gig = await claimedJob(baseUrl, hirer, worker, title);
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/start-work`, { sessionToken: worker.sessionToken });
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/submit`, {
    sessionToken: worker.sessionToken,
    body: { workSubmission: "Delivered: https://example.com/delivery (all sections done).", attachments },
  });
  return getGig(baseUrl, hirer, gig.id);
}

export function getGig(baseUrl: string, who: SignedInUser, gigId: string): Promise<GigView> {
  return apiJson<GigView>(baseUrl, "GET", `/api/gigs/${gigId}`, { sessionToken: who.sessionToken });
}

export interface NotificationView {
  id: string;
  gigId: string | null;
  type: string;
  title: string;
  message: string;
  isRead: boolean;
}

/** Waits (up to `timeoutMs`) for a notification of `who` that matches, and answers it. */
export async function waitForNotification(
  baseUrl: string,
  who: SignedInUser,
  match: (n: NotificationView) => boolean,
  timeoutMs = 15_000,
): Promise<NotificationView> {
  const deadline = Date.now() + timeoutMs;
  let last: NotificationView[] = [];
  while (Date.now() < deadline) {
    last = await apiJson<NotificationView[]>(baseUrl, "GET", "/api/notifications", { sessionToken: who.sessionToken });
    const found = last.find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no matching notification within ${timeoutMs} ms; had: ${JSON.stringify(last.map((n) => [n.type, n.title, n.message]))}`);
}

/** Waits until `check` answers true (polling the API, say). */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

// ---- What the user sees ---------------------------------------------------------------------

/**
 * A toast by its title. The toast region lives outside any open dialog, which hides the rest of the
 * page from assistive tech while it is open, so the region is looked up including hidden elements.
 */
export function toast(page: Page, title: string): Locator {
  return page.getByRole("region", { name: /^Notifications/, includeHidden: true }).getByText(title, { exact: true }).first();
}

/**
 * Checks that a toast with this title shows. A missing toast is recorded as a (soft) failure of the
 * test, and the story goes on, so one missing message does not hide what follows it.
 */
export async function expectToast(page: Page, title: string, timeoutMs = 8_000): Promise<void> {
  const shown = await toast(page, title)
    .waitFor({ timeout: timeoutMs })
    .then(() => true)
    .catch(() => false);
  expect.soft(shown, `the toast '${title}' shows within ${timeoutMs} ms`).toBe(true);
}

/**
 * A screenshot of what the user sees: with a dialog open, the viewport as it is (a full-page shot would
 * stretch the viewport and move the dialog and the toasts); otherwise the whole page from the top (a
 * full-page shot of a scrolled page paints the sticky top bar in the middle).
 */
export async function storyShot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9._-]+/gi, "-")}.png`);
  const dialogOpen = (await page.getByRole("dialog").count()) + (await page.getByRole("alertdialog").count()) > 0;
  if (!dialogOpen) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: !dialogOpen, animations: "disabled" });
  return file;
}

/** Full-page screenshots of the pages when the test fails (pages already closed are skipped). */
export function shotsOnFailure(story: string, pages: Record<string, Page>): void {
  onTestFailed(async () => {
    for (const [who, page] of Object.entries(pages)) {
      if (!page.isClosed()) await storyShot(page, `${story}-FAILED-${who}`).catch(() => undefined);
    }
  });
}

/** Closes a modal dialog with its Close button (Escape would first dismiss a visible toast). */
export async function closeDialog(d: Locator): Promise<void> {
  await d.getByRole("button", { name: "Close", exact: true }).click();
  await d.waitFor({ state: "detached" });
}

/** A main page tab link in the top bar (Browse, Active, Post); only one of the two tab rows is visible per size. */
export function mainTab(page: Page, name: "Browse" | "Active" | "Post"): Locator {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

/** The open modal dialog whose accessible name contains `name`. */
export function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole("dialog", { name });
}

/** The gig card on Browse or Active whose title is `title`. */
export function gigCard(page: Page, title: string): Locator {
  return page.getByRole("article").filter({ has: page.getByRole("button", { name: title, exact: true }) });
}

/**
 * Types a search on the Browse tab and waits for its answer: until then the list shows the unfiltered
 * gigs, which give way to skeletons when the search starts (a card clicked then is gone a moment later).
 */
export async function searchBrowse(page: Page, term: string): Promise<void> {
  const answered = page.waitForResponse((res) => {
    const url = new URL(res.url());
    return url.pathname === "/api/gigs" && url.searchParams.get("q") === term.trim();
  });
  await page.getByRole("searchbox", { name: "Search" }).fill(term);
  await answered;
  await gigCard(page, term).or(page.getByRole("heading", { name: /^No results for/ })).waitFor();
}

/** The top bar's notifications bell (its name carries the unread count). */
export function bell(page: Page): Locator {
  return page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
}

/** The value of one of the Active tab's stats (Active Gigs, In Escrow, Completed). */
export function stat(page: Page, label: "Active Gigs" | "In Escrow" | "Completed"): Locator {
  return page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::*[1]");
}

/** A gig `who` takes part in, found by its title (participant=me). */
export async function myGigByTitle(baseUrl: string, who: SignedInUser, title: string): Promise<GigView> {
  const mine = await apiJson<GigView[]>(baseUrl, "GET", "/api/gigs?participant=me&limit=100", { sessionToken: who.sessionToken });
  const found = mine.find((g) => g.title === title);
  if (!found) throw new Error(`no gig titled "${title}" among ${mine.length} of the member's gigs`);
  return found;
}

/** The details of a gig the member takes part in, opened by its link (tab=active&gigId=…), as a notification opens it. */
export async function openGigDetails(page: Page, gigId: string, title: string): Promise<Locator> {
  await page.goto(`/?tab=active&gigId=${gigId}`);
  const d = dialog(page, title);
  await d.waitFor();
  return d;
}

/** A gig's milestones as steps, in its details. */
export const milestoneSteps = (details: Locator) => details.getByRole("list", { name: "Milestones" }).getByRole("listitem");

/** The admin logs in with the PIN keypad on /admin. */
export async function adminLogIn(page: Page, pin: string): Promise<void> {
  await page.goto("/admin");
  for (const digit of pin) await page.getByRole("group", { name: "PIN keypad" }).getByRole("button", { name: digit, exact: true }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await page.getByRole("button", { name: /logout/i }).waitFor();
}
