// Every screen of SPEC.md §2 at 360 px and 1280 px, as visitor, hirer, worker and admin (issue 7,
// Browser and Accessibility). For each screen:
// - its key spec text and controls are visible;
// - a screenshot is saved as e2e/artifacts/<role>-<viewport>-<screen>.png (a dialog also as
//   <...>-full.png with everything below its fold);
// - axe-core finds no serious or critical violation (a dialog is judged in full, below its fold too);
// - nothing runs out of its box, and at 360 px the page does not scroll sideways;
// - the main actions receive focus when tabbing from the top of the page; a dialog keeps focus inside
//   while tabbing, closes on Escape and gives focus back; a menu works with the arrow keys and Escape.
// What each screen came to is also written to e2e/artifacts/screens-report.json. Data comes from the
// API (support/seed.ts) and nothing here changes it, so the screens can be visited in any order; the
// stories (posting, claiming, paying, chatting) live in the other e2e files.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { generateSecretKey, getPublicKey, nip19 } from "nostr-tools";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiJson } from "./support/api";
import {
  type AxeViolation,
  type KeyTarget,
  BLOCKING_IMPACTS,
  axeViolations,
  checkDialogKeyboard,
  describeFocus,
  formatViolations,
  horizontalOverflow,
  overflowingBoxes,
  settle,
  unreachableByTab,
} from "./support/axe";
import { type ViewportName, holdBack, launchBrowser, openPage, screenshot } from "./support/browser";
import { ARTIFACTS_DIR } from "./support/paths";
import { type NotificationView, type World, seedWorld } from "./support/seed";

const baseUrl = inject("baseUrl");
const adminPin = inject("adminPin");

let browser: Browser;
let world: World;

beforeAll(async () => {
  [browser, world] = await Promise.all([launchBrowser(), seedWorld(baseUrl)]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

type Role = "visitor" | "hirer" | "worker" | "admin";

interface Session {
  role: Role;
  viewport: ViewportName;
  page: Page;
  context: BrowserContext;
  pageErrors: Error[];
}

/** A page for one role at one size, opened once for that role's screens. */
function useSession(role: Role, viewport: ViewportName): Session {
  const s = { role, viewport } as Session;
  beforeAll(async () => {
    const token = role === "hirer" ? world.hirer.sessionToken : role === "worker" ? world.worker.sessionToken : undefined;
    const opened = await openPage(browser, baseUrl, { viewport, sessionToken: token });
    Object.assign(s, opened);
  });
  afterAll(async () => {
    await s.context?.close();
  });
  return s;
}

interface ScreenSpec {
  /** Last part of the screenshot's name. */
  name: string;
  /** The screen's key spec text and controls: each must be visible. */
  visible: Locator[];
  /** The main actions, which must receive focus when tabbing from the top of the page. */
  keyboard?: KeyTarget[];
  /** The screen is this open dialog (or menu): focus must stay inside while tabbing, Escape must close it. */
  dialog?: Locator;
  /** Presses of Tab allowed to reach every keyboard target (long pages need more). */
  maxTabs?: number;
  /** Judge only what is inside this (CSS selector); a dialog screen defaults to the open dialog. */
  axeScope?: string;
  /** The screen is this open (modal) dropdown menu, opened from `trigger`. */
  menu?: { menu: Locator; trigger: Locator };
}

/** A main page tab in the top bar (only one of its two rows is visible at a size). */
const mainTab = (page: Page, name: "Browse" | "Active" | "Post") => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
/** The gig card on Browse or Active whose title is `title`. */
const gigCard = (page: Page, title: string) => page.getByRole("article").filter({ has: page.getByRole("button", { name: title, exact: true }) });

const k = (name: string, locator: Locator): KeyTarget => ({ name, locator });

/** What each screen came to, written to e2e/artifacts/screens-report.json at the end of the run. */
interface ScreenResult {
  screen: string;
  screenshot: string;
  ok: boolean;
  problems: string[];
  violations: { id: string; impact: string | null; help: string; targets: string[] }[];
}
const results: ScreenResult[] = [];

afterAll(() => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(path.join(ARTIFACTS_DIR, "screens-report.json"), `${JSON.stringify(results, null, 2)}\n`);
});

/**
 * Checks one screen as it stands and fails with everything wrong with it at once. The first `visible`
 * locator is the screen itself: without it nothing else is judged. The rest is the spec's text, then
 * axe, sideways overflow at 360 px, the keyboard and uncaught page errors.
 */
async function checkScreen(s: Session, spec: ScreenSpec): Promise<void> {
  const label = `${s.role}-${s.viewport}-${spec.name}`;
  const errorsBefore = s.pageErrors.length;
  const problems: string[] = [];
  const [anchor, ...rest] = spec.visible;
  try {
    await anchor.first().waitFor({ state: "visible", timeout: 15_000 });
  } catch {
    await screenshot(s.page, `${label}-FAILED`);
    results.push({ screen: label, screenshot: `${label}-FAILED.png`, ok: false, problems: [`screen not shown: ${anchor}`], violations: [] });
    throw new Error(`${label}: the screen did not show: expected to see ${anchor}`);
  }
  for (const locator of rest) {
    try {
      await locator.first().waitFor({ state: "visible", timeout: 5_000 });
    } catch {
      problems.push(`spec text/control not visible: ${locator}`);
    }
  }
  await settle(s.page);
  if (spec.dialog || spec.menu) await viewportScreenshot(s.page, label);
  else {
    // From the top, so the sticky bar is drawn where it belongs in the full-page picture.
    await s.page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(s.page, label);
  }

  const scope = spec.dialog ? (spec.axeScope ?? '[role="dialog"][data-state="open"]') : spec.menu ? '[role="menu"]' : spec.axeScope;
  let blocking = (await axeViolations(s.page, scope)).filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact));

  if (spec.menu) {
    // A modal menu hides the page (aria-hidden) and keeps focus in itself, as a modal dialog does; axe
    // lets a page hidden behind an open role=dialog keep its focusable elements (focusable-modal-open)
    // but does not know menus. So check the very thing that rule guards, then apply the same exemption:
    // the arrow keys move inside the menu, Tab never takes focus out to the hidden page, and Escape
    // closes the menu and gives focus back to its trigger.
    const { menu, trigger } = spec.menu;
    const inMenu = () => menu.evaluate((m) => m.contains(document.activeElement)).catch(() => false);
    await s.page.keyboard.press("ArrowDown");
    const arrowsInside = await inMenu();
    await s.page.keyboard.press("Tab");
    const tabStayed = (await inMenu()) || (await trigger.evaluate((t) => t === document.activeElement));
    if (!(await menu.isVisible())) await pressOn(trigger);
    await s.page.keyboard.press("Escape");
    let closed = true;
    try {
      await menu.waitFor({ state: "hidden", timeout: 3_000 });
    } catch {
      closed = false;
    }
    // Radix gives focus back in a task after the menu unmounts (its FocusScope's unmount timer): between the
    // two, focus is on <body>. Reading it once, as soon as the menu is hidden, sometimes fell in that gap; the
    // check waits (up to 2 s) for focus to arrive, and fails only if it never comes back to the trigger.
    const backOnTrigger = await trigger.evaluate(
      (t) =>
        new Promise<boolean>((resolve) => {
          const deadline = performance.now() + 2_000;
          const look = () => (t === document.activeElement ? resolve(true) : performance.now() > deadline ? resolve(false) : setTimeout(look, 10));
          look();
        }),
    );
    if (!arrowsInside) problems.push("keyboard: ArrowDown did not move focus into the menu");
    if (!tabStayed) problems.push(`keyboard: Tab took focus out of the open menu to ${await describeFocus(s.page)}`);
    if (!closed) problems.push("keyboard: Escape did not close the menu");
    else if (!backOnTrigger) problems.push(`keyboard: after Escape focus went to ${await describeFocus(s.page)}, not back to the menu's trigger`);
    if (tabStayed) blocking = blocking.filter((v) => v.id !== "aria-hidden-focus");
  }
  if (spec.dialog) {
    // What lies below the dialog's fold is judged too, with the dialog let out in full.
    const below = await fullDialog(s.page, spec.dialog, label, () => axeViolations(s.page, scope));
    blocking = mergeViolations(blocking, below.filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact)));
  }
  if (blocking.length) problems.push(`axe: ${blocking.length} serious/critical violation(s):\n${formatViolations(blocking)}`);

  if (s.viewport === "mobile") {
    const overflow = await horizontalOverflow(s.page, spec.dialog);
    if (overflow) problems.push(`layout at 360 px: ${overflow}`);
  }
  const sticking = await overflowingBoxes(s.page, scope);
  if (sticking.length) problems.push(`layout: content runs out of its box:\n  ${sticking.join("\n  ")}`);

  if (spec.dialog) {
    const report = await checkDialogKeyboard(s.page, spec.dialog, spec.keyboard ?? []);
    if (report.unreached.length) problems.push(`keyboard: Tab inside the dialog never reached: ${report.unreached.join(", ")}`);
    if (report.escaped.length) problems.push(`keyboard: focus left the open dialog to: ${report.escaped.join(", ")}`);
    if (report.escapeFailed) {
      problems.push(
        report.toastShowing
          ? "keyboard: Escape did not close the dialog (a toast was showing and took the key: the user must press Escape twice)"
          : "keyboard: Escape did not close the dialog",
      );
    }
    if (!report.escapeFailed && report.focusAfterClose === "<body>") {
      problems.push("keyboard: after Escape focus fell back to <body> instead of returning to the control that opened the dialog (WCAG 2.4.3)");
    }
  } else if (spec.keyboard?.length) {
    const unreached = await unreachableByTab(s.page, spec.keyboard, spec.maxTabs);
    if (unreached.length) problems.push(`keyboard: Tab from the top of the page never reached: ${unreached.join(", ")}`);
  }

  const newErrors = s.pageErrors.slice(errorsBefore);
  if (newErrors.length) problems.push(`page errors: ${newErrors.map((e) => e.message).join(" | ")}`);

  results.push({
    screen: label,
    screenshot: `${label}.png`,
    ok: problems.length === 0,
    // axe's details are in `violations`; every other problem is kept whole.
    problems: problems.map((p) => (p.startsWith("axe:") ? p.split("\n")[0] : p)),
    violations: blocking.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => `${n.target.join(" ")}${n.text ? ` "${n.text}"` : ""}`) })),
  });
  if (problems.length) throw new Error(`${label}:\n${problems.join("\n")}`);
}

/** What the viewport shows (a dialog or menu as the user first sees it): <label>.png. */
async function viewportScreenshot(page: Page, label: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${label}.png`) });
}

/**
 * A dialog let out in full for a moment: out of its max-height, at the top of a viewport tall enough to
 * show all of it (same width). Its whole content is saved as <label>-full.png and judged by `judge`
 * (axe cannot see into the part of a dialog scrolled out of view); then all is put back as it was,
 * its animation untouched so nothing replays.
 */
async function fullDialog<T>(page: Page, dialog: Locator, label: string, judge: () => Promise<T>): Promise<T> {
  const viewport = page.viewportSize()!;
  const style = await dialog.evaluate((el) => {
    const old = el.getAttribute("style");
    // Keeps the dialog's own horizontal place (centred, or edge to edge when it fills a phone's screen).
    const x = getComputedStyle(el).translate.split(" ")[0] || "0";
    (el as HTMLElement).style.cssText += `;top:0;translate:${x === "none" ? "0" : x} 0;height:auto;max-height:none;overflow:visible`;
    return old;
  });
  try {
    const height = await dialog.evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
    await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height + 16) });
    await settle(page);
    await dialog.screenshot({ path: path.join(ARTIFACTS_DIR, `${label}-full.png`) });
    return await judge();
  } finally {
    await page.setViewportSize(viewport);
    await dialog.evaluate((el, old) => (old === null ? el.removeAttribute("style") : el.setAttribute("style", old)), style);
    await settle(page);
  }
}

/** Two axe runs over the same screen as one list: each rule once, each element once. */
function mergeViolations(a: AxeViolation[], b: AxeViolation[]): AxeViolation[] {
  const byId = new Map(a.map((v) => [v.id, { ...v, nodes: [...v.nodes] }]));
  for (const v of b) {
    const known = byId.get(v.id);
    if (!known) {
      byId.set(v.id, { ...v, nodes: [...v.nodes] });
      continue;
    }
    const same = (m: AxeViolation["nodes"][number], n: AxeViolation["nodes"][number]) =>
      m.target.join(" ") === n.target.join(" ") || (m.html === n.html && m.text === n.text);
    for (const n of v.nodes) if (!known.nodes.some((m) => same(m, n))) known.nodes.push(n);
  }
  return [...byId.values()];
}

/** Opens something with the keyboard: focus the control, press Enter. */
async function pressOn(locator: Locator, key = "Enter"): Promise<void> {
  // A lazily loaded control can stand in as a disabled placeholder first (the notifications bell).
  const deadline = Date.now() + 10_000;
  while (!(await locator.first().isEnabled().catch(() => false)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await locator.first().focus();
  await locator.first().press(key);
}

const dialogNamed = (page: Page, name: string | RegExp) => page.getByRole("dialog", { name });
const button = (scope: Page | Locator, name: string | RegExp) => scope.getByRole("button", { name, exact: typeof name === "string" });
const link = (scope: Page | Locator, name: string | RegExp) => scope.getByRole("link", { name, exact: typeof name === "string" });
const text = (scope: Page | Locator, t: string | RegExp) => scope.getByText(t, { exact: typeof t === "string" });

/** The top bar and footer a member-facing page always has. */
function frameTargets(page: Page): KeyTarget[] {
  return [k("Browse tab", mainTab(page, "Browse")), k("Post tab", mainTab(page, "Post")), k("Suggestion box button", button(page, "Suggestion box"))];
}

async function openBrowse(page: Page): Promise<void> {
  // Not "/": a reload keeps the history entry's state, which holds the last tab shown.
  await page.goto("/?tab=browse");
  await page.getByRole("heading", { name: "Browse Gigs" }).waitFor();
}

/** Opens a gig's details from its Browse card with the keyboard (its title is the card's button). */
async function openFromCard(page: Page, title: string): Promise<Locator> {
  await openBrowse(page);
  await pressOn(gigCard(page, title).getByRole("button", { name: title, exact: true }));
  const d = dialogNamed(page, title);
  await d.waitFor();
  return d;
}

async function openLogin(page: Page): Promise<Locator> {
  await openBrowse(page);
  await pressOn(page.getByRole("banner").getByRole("button", { name: "Login with Nostr" }));
  const d = dialogNamed(page, "Login with Nostr");
  await d.waitFor();
  return d;
}

/** A login tab chosen with the arrow keys (Radix tabs activate on focus). */
async function loginTab(page: Page, d: Locator, tab: "With Key" | "Create New"): Promise<void> {
  const steps = tab === "With Key" ? ["With Key"] : ["With Key", "Create New"];
  await d.getByRole("tab", { name: "Extension" }).focus();
  // Radix moves focus a tick after each arrow key: one key at a time.
  for (const name of steps) {
    await page.keyboard.press("ArrowRight");
    await d.getByRole("tab", { name, selected: true }).waitFor({ timeout: 5_000 });
  }
}

describe.each<ViewportName>(["mobile", "desktop"])("screens at the %s size", (viewport) => {
  // ---- Visitor ------------------------------------------------------------------------------------
  describe("visitor", () => {
    const s = useSession("visitor", viewport);

    it("Browse with gigs", async () => {
      const { page } = s;
      await openBrowse(page);
      const card = gigCard(page, world.openJob.title);
      await checkScreen(s, {
        name: "browse",
        visible: [
          button(page, "Hiring Now"),
          button(page, "All"),
          button(page, "For Hire"),
          page.getByRole("searchbox", { name: "Search" }),
          page.getByRole("combobox", { name: "Category" }),
          page.getByRole("combobox", { name: "Budget" }),
          card,
          card.getByText(world.openJob.id.slice(0, 8)),
          card.getByText("10,000 sats"),
          gigCard(page, world.offering.title),
          page.getByRole("banner").getByRole("button", { name: "Login with Nostr" }),
          text(page, /Platform fee: 2\.5% per side/),
        ],
        keyboard: [
          ...frameTargets(page),
          k("Login with Nostr", page.getByRole("banner").getByRole("button", { name: "Login with Nostr" })),
          k("Hiring Now toggle", button(page, "Hiring Now")),
          k("Search box", page.getByRole("searchbox", { name: "Search" })),
          k("Category filter", page.getByRole("combobox", { name: "Category" })),
          k("Gig card title (opens details)", card.getByRole("button", { name: world.openJob.title })),
          k("Poster link on the card", card.getByRole("link", { name: /Hana Hirer/ })),
          k("Report Gig", button(card, "Report Gig")),
        ],
      });
    });

    it("Browse: a search with no results", async () => {
      const { page } = s;
      await openBrowse(page);
      await page.getByRole("searchbox", { name: "Search" }).fill("zebra quantum harp");
      await checkScreen(s, {
        name: "browse-no-results",
        visible: [page.getByRole("heading", { name: "No results for “zebra quantum harp”" }), button(page, "Clear Search")],
        keyboard: [k("Clear search (x)", button(page, "Clear search")), k("Clear Search", button(page, "Clear Search"))],
      });
    });

    it("Post: Login Required", async () => {
      const { page } = s;
      await page.goto("/?tab=post");
      const main = page.getByRole("main");
      await checkScreen(s, {
        name: "post-login-required",
        visible: [main.getByRole("heading", { name: "Login Required" }), text(page, "Please login with Nostr to post gigs.")],
        keyboard: [...frameTargets(page), k("Login with Nostr (card)", button(main, "Login with Nostr"))],
      });
    });

    it("Active: Login Required", async () => {
      const { page } = s;
      await page.goto("/?tab=active");
      const main = page.getByRole("main");
      await checkScreen(s, {
        name: "active-login-required",
        visible: [main.getByRole("heading", { name: "Login Required" }), text(page, "Please login with Nostr to view your active gigs.")],
        keyboard: [k("Login with Nostr (card)", button(main, "Login with Nostr"))],
      });
    });

    it("gig details modal, opened from a card", async () => {
      const { page } = s;
      const d = await openFromCard(page, world.openJob.title);
      await checkScreen(s, {
        name: "gig-details",
        dialog: d,
        visible: [
          d.getByRole("heading", { name: world.openJob.title }),
          text(d, `ID ${world.openJob.id.slice(0, 8)}`),
          d.getByRole("link", { name: "Hana Hirer" }),
          text(d, "Payment"),
          text(d, "Timeframe"),
          text(d, "Time remaining"),
          text(d, "Not started"),
          d.getByRole("heading", { name: "Description" }),
          text(d, "Escrow:"),
          d.getByRole("list", { name: "Progress" }),
          text(d, "Log in to send an interest message and claim this gig."),
          button(d, "Claim Gig"),
        ],
        keyboard: [k("Copy gig ID", button(d, "Copy gig ID")), k("Poster link", d.getByRole("link", { name: "Hana Hirer" })), k("Claim Gig", button(d, "Claim Gig")), k("Close", button(d, "Close"))],
      });
    });

    it("login modal: Extension tab", async () => {
      const { page } = s;
      const d = await openLogin(page);
      // Without an extension the dialog opens elsewhere (Create New on a phone, With Key on a desktop).
      await d.getByRole("tab", { name: "Extension" }).focus();
      await d.getByRole("tab", { name: "Extension", selected: true }).waitFor();
      await checkScreen(s, {
        name: "login-extension",
        dialog: d,
        visible: [
          d.getByRole("tab", { name: "Extension", selected: true }),
          d.getByRole("tab", { name: "With Key" }),
          d.getByRole("tab", { name: "Create New" }),
          text(d, /This browser has no Nostr extension/),
          button(d, "Create a New Key"),
          button(d, "I Have a Key"),
          button(d, "Login with Extension"),
        ],
        keyboard: [
          k("Extension tab", d.getByRole("tab", { name: "Extension" })),
          k("Create a New Key", button(d, "Create a New Key")),
          k("I Have a Key", button(d, "I Have a Key")),
          k("Login with Extension", button(d, "Login with Extension")),
          k("Close", button(d, "Close")),
        ],
      });
    });

    it("login modal: With Key tab", async () => {
      const { page } = s;
      const d = await openLogin(page);
      await loginTab(page, d, "With Key");
      await checkScreen(s, {
        name: "login-key",
        dialog: d,
        visible: [d.getByLabel("Private Key (nsec or hex)"), button(d, "Login with Key")],
        keyboard: [
          k("Private key input", d.getByLabel("Private Key (nsec or hex)")),
          k("Show private key", button(d, "Show private key")),
          k("Login with Key", button(d, "Login with Key")),
        ],
      });
    });

    it("login modal: Create New tab, keys generated", async () => {
      const { page } = s;
      const d = await openLogin(page);
      await loginTab(page, d, "Create New");
      await pressOn(button(d, "Generate New Keys"));
      await checkScreen(s, {
        name: "login-create",
        dialog: d,
        visible: [
          text(d, "Public Key (npub)"),
          text(d, "Private Key (nsec)"),
          button(d, "Download Key Backup"),
          d.getByRole("checkbox", { name: "I saved my key" }),
          button(d, "Log In With This Key"),
        ],
        keyboard: [
          k("Copy npub", button(d, "Copy npub")),
          k("Show private key", button(d, "Show private key")),
          k("Download Key Backup", button(d, "Download Key Backup")),
          // The log-in button waits for the backup (disabled, out of the tab order) until this is ticked.
          k("I saved my key", d.getByRole("checkbox", { name: "I saved my key" })),
        ],
      });
    });

    it("suggestion box (asks a visitor to log in)", async () => {
      const { page } = s;
      await openBrowse(page);
      await pressOn(button(page, "Suggestion box"));
      const d = dialogNamed(page, "Suggestion Box");
      await checkScreen(s, {
        name: "suggestion-box",
        dialog: d,
        visible: [d.getByRole("heading", { name: "Login Required" }), text(d, "Please login with Nostr to send a suggestion.")],
        keyboard: [k("Login with Nostr", button(d, "Login with Nostr")), k("Close", button(d, "Close"))],
      });
    });

    it("/user/:npub with data", async () => {
      const { page } = s;
      await page.goto(`/user/${world.worker.npub}`);
      const gigs = page.getByRole("region", { name: "Posted Gigs" });
      const portfolio = page.getByRole("region", { name: "Portfolio" });
      const reviews = page.getByRole("region", { name: "Reviews" });
      await checkScreen(s, {
        name: "user-profile",
        visible: [
          page.getByRole("heading", { level: 1, name: "Wes Worker" }),
          text(page, "Success Rate"),
          text(page, "Completed"),
          text(page, "Rating"),
          gigs.getByText(world.offering.title),
          gigs.getByText("For Hire"),
          portfolio.getByRole("heading", { name: world.portfolioTitle }),
          portfolio.getByRole("link", { name: /View Project/ }),
          reviews.getByText(world.reviewOfWorker),
        ],
        keyboard: [
          k("Back to Home", link(page, "Back to Home")),
          k("Copy npub", button(page, "Copy npub")),
          k("Posted gig card link", gigs.getByRole("link").first()),
          k("View Project", portfolio.getByRole("link", { name: /View Project/ })),
        ],
      });
    });

    it("/user/:npub: User not found", async () => {
      const { page } = s;
      await page.goto(`/user/${nip19.npubEncode(getPublicKey(generateSecretKey()))}`);
      await checkScreen(s, {
        name: "user-not-found",
        visible: [page.getByRole("heading", { name: "User not found" }), link(page.getByRole("main"), "Back to Home")],
        keyboard: [k("Back to Home", link(page.getByRole("main"), "Back to Home"))],
      });
    });

    for (const [path, title, key] of [
      ["/terms", "Terms of Service", /10,000 satoshis/],
      ["/privacy", "Privacy Policy", /never receives or stores your private key/],
      ["/faq", "Frequently Asked Questions", "Quick navigation"],
    ] as const) {
      it(`${path}`, async () => {
        const { page } = s;
        await page.goto(path);
        const main = page.getByRole("main");
        const targets = [k("Back to Home (top)", link(main, "Back to Home").first()), k("Footer FAQ link", page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "FAQ" }))];
        if (path === "/faq") targets.push(k("Quick navigation: first section", page.getByRole("navigation", { name: "Quick navigation" }).getByRole("link").first()));
        await checkScreen(s, {
          name: path.slice(1),
          visible: [page.getByRole("heading", { level: 1, name: title }), text(main, key).first(), text(page, /Platform fee: 2\.5% per side/)],
          keyboard: targets,
          maxTabs: 200,
        });
      });
    }
  });

  // ---- Hirer --------------------------------------------------------------------------------------
  describe("hirer", () => {
    const s = useSession("hirer", viewport);

    it("Browse, signed in (own gig: no Report button)", async () => {
      const { page } = s;
      await openBrowse(page);
      const own = gigCard(page, world.openJob.title);
      await checkScreen(s, {
        name: "browse",
        visible: [own, mainTab(page, "Active"), page.getByRole("button", { name: /^Notifications/ }), page.getByRole("button", { name: /Account menu for Hana Hirer/ })],
        keyboard: [
          k("Active tab", mainTab(page, "Active")),
          k("Notifications bell", page.getByRole("button", { name: /^Notifications/ })),
          k("Account menu", page.getByRole("button", { name: /Account menu for Hana Hirer/ })),
          k("Own gig card title", own.getByRole("button", { name: world.openJob.title })),
        ],
      });
      const reports = await own.getByRole("button", { name: "Report Gig" }).count();
      if (reports !== 0) throw new Error("the owner's own card offers Report Gig (SPEC.md §2: hidden for the gig's owner)");
    });

    it("Post: the form", async () => {
      const { page } = s;
      await page.goto("/?tab=post");
      await page.getByRole("heading", { name: "Post New Gig" }).waitFor();
      await page.getByRole("radio", { name: /Hiring Now/ }).check();
      await page.getByLabel("Title").fill("Write a welcome email series");
      await page.getByLabel("Description").fill("Three short welcome emails for new customers of a bitcoin bookshop.");
      await page.getByLabel("Category").selectOption("Writing");
      await page.getByLabel("Payment (sats)").fill("10000");
      await page.getByLabel("Timeframe (days)").fill("5");
      await checkScreen(s, {
        name: "post-form",
        visible: [
          page.getByRole("heading", { name: "Post New Gig" }),
          page.getByRole("group", { name: "Gig type" }),
          text(page, "You pay 10,000 sats + 2.5% fee (250 sats) = 10,250 sats"),
          button(page, "Preview"),
        ],
        keyboard: [
          k("Gig type radio", page.getByRole("radio", { name: /Hiring Now/ })),
          k("Title", page.getByLabel("Title")),
          k("Description", page.getByLabel("Description")),
          k("Category", page.getByLabel("Category")),
          k("Payment", page.getByLabel("Payment (sats)")),
          k("Timeframe", page.getByLabel("Timeframe (days)")),
          k("Preview", button(page, "Preview")),
        ],
      });
    });

    it("Post: the preview", async () => {
      const { page } = s;
      await page.goto("/?tab=post");
      await page.getByRole("heading", { name: "Post New Gig" }).waitFor();
      await page.getByLabel("Title").fill("Write a welcome email series");
      await page.getByLabel("Description").fill("Three short welcome emails for new customers of a bitcoin bookshop.");
      await page.getByLabel("Category").selectOption("Writing");
      await page.getByLabel("Payment (sats)").fill("10000");
      await pressOn(button(page, "Preview"));
      await checkScreen(s, {
        name: "post-preview",
        visible: [page.getByRole("heading", { name: "Preview" }), page.getByRole("heading", { name: "Write a welcome email series" }), button(page, "Edit"), button(page, "Post & Pay")],
        keyboard: [k("Edit", button(page, "Edit")), k("Post & Pay", button(page, "Post & Pay"))],
      });
    });

    it("Active: stats and lists", async () => {
      const { page } = s;
      await page.goto("/?tab=active");
      const myGigs = page.getByRole("region", { name: "My Gigs" });
      await checkScreen(s, {
        name: "active",
        visible: [
          page.getByRole("heading", { level: 1, name: "Active Gigs" }),
          page.getByRole("term").filter({ hasText: /^Active Gigs$/ }),
          page.getByRole("term").filter({ hasText: /^In Escrow$/ }),
          page.getByRole("term").filter({ hasText: /^Completed$/ }),
          gigCard(page, world.claimedJob.title),
          gigCard(page, world.disputedJob.title),
          myGigs.getByRole("button", { name: world.openJob.title, exact: true }),
        ],
        keyboard: [
          k("Open Chat (claimed gig)", button(page, `Open Chat: ${world.claimedJob.title}`)),
          k("View Details (claimed gig)", button(page, `View Details: ${world.claimedJob.title}`).first()),
          k("Manage (open gig)", button(page, `Manage: ${world.openJob.title}`)),
        ],
        maxTabs: 200,
      });
    });

    it("gig details modal of an open gig: the owner's interest review", async () => {
      const { page } = s;
      const d = await openFromCard(page, world.openJob.title);
      const review = d.getByRole("region", { name: /Interest messages/ });
      await checkScreen(s, {
        name: "gig-details-interest-review",
        dialog: d,
        visible: [review, review.getByText("I wrote FAQs for three shops; samples in my portfolio."), review.getByText("Pending review"), button(d, "Approve Wes Worker"), button(d, "Reject Wes Worker")],
        keyboard: [
          k("Approve", button(d, "Approve Wes Worker")),
          k("Reject", button(d, "Reject Wes Worker")),
          k("Manage", button(d, "Manage")),
          k("Cancel Gig", button(d, /Cancel Gig/)),
        ],
      });
    });

    it("payment modal (escrow invoice)", async () => {
      const { page } = s;
      await page.goto(`/?tab=active&gigId=${world.unpaidJob.id}`);
      const details = dialogNamed(page, world.unpaidJob.title);
      await pressOn(button(details, "Pay Invoice"));
      const d = dialogNamed(page, "Fund Escrow");
      await checkScreen(s, {
        name: "payment",
        dialog: d,
        // On a phone the wallet link and Copy come first (the QR sits under "Pay from another device").
        visible: [d.getByRole("link", { name: "Open in Wallet" }), button(d, "Copy Invoice"), text(d, "Amount"), text(d, "Fee (2.5%)"), text(d, "20,500 sats"), d.getByRole("timer")],
        keyboard: [k("Open in Wallet", d.getByRole("link", { name: "Open in Wallet" })), k("Copy Invoice", button(d, "Copy Invoice")), k("Close", button(d, "Close"))],
      });
    });

    it("management modal", async () => {
      const { page } = s;
      await page.goto("/?tab=active");
      await pressOn(button(page, `Manage: ${world.openJob.title}`));
      const d = dialogNamed(page, "Manage Gig");
      await checkScreen(s, {
        name: "manage",
        dialog: d,
        visible: [d.getByLabel("Title"), d.getByLabel("Description"), d.getByRole("heading", { name: "Cancel gig" }), button(d, /Cancel Gig/)],
        keyboard: [k("Title", d.getByLabel("Title")), k("Description", d.getByLabel("Description")), k("Cancel Gig", button(d, /Cancel Gig/)), k("Close", button(d, "Close"))],
      });
    });

    it("chat modal", async () => {
      const { page } = s;
      await page.goto("/?tab=active");
      await pressOn(button(page, `Open Chat: ${world.claimedJob.title}`));
      const d = dialogNamed(page, `Chat: ${world.claimedJob.title}`);
      await d.getByRole("textbox", { name: "Message" }).fill("Draft, not sent");
      await checkScreen(s, {
        name: "chat",
        dialog: d,
        visible: [
          text(d, "Connected"),
          text(d, /monitored by the platform admin/),
          d.getByText(world.chatLines.hirer),
          d.getByText(world.chatLines.worker),
          d.getByText("You", { exact: true }),
          d.getByText("Worker", { exact: true }),
        ],
        keyboard: [k("Sender link", d.getByRole("link", { name: "Wes Worker" })), k("Message box", d.getByRole("textbox", { name: "Message" })), k("Send", button(d, "Send"))],
      });
    });

    it("notifications dropdown", async () => {
      const { page } = s;
      const latest = (await apiJson<NotificationView[]>(baseUrl, "GET", "/api/notifications", { sessionToken: world.hirer.sessionToken }))[0];
      if (!latest) throw new Error("seed: the hirer has no notification");
      await openBrowse(page);
      const bellButton = page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
      await pressOn(bellButton);
      const menu = page.getByRole("menu");
      await checkScreen(s, {
        name: "notifications",
        menu: { menu, trigger: bellButton },
        visible: [menu.getByText("Notifications", { exact: true }), menu.getByRole("menuitem", { name: /Mark all read/ }), menu.getByText(latest.title).first()],
      });
    });

    it("user menu", async () => {
      const { page } = s;
      await openBrowse(page);
      const trigger = page.getByRole("button", { name: /Account menu for Hana Hirer/ });
      await pressOn(trigger);
      const menu = page.getByRole("menu");
      await checkScreen(s, {
        name: "user-menu",
        menu: { menu, trigger },
        visible: [menu.getByRole("menuitem", { name: "Profile" }), menu.getByRole("menuitem", { name: "Settings" }), menu.getByRole("menuitem", { name: "Logout" })],
      });
    });

    it("profile and settings modal (from the user menu)", async () => {
      const { page } = s;
      await openBrowse(page);
      await pressOn(page.getByRole("button", { name: /Account menu for Hana Hirer/ }));
      const item = page.getByRole("menuitem", { name: "Settings" });
      await item.waitFor();
      await item.focus();
      await page.keyboard.press("Enter");
      const d = dialogNamed(page, "Profile and Settings");
      await checkScreen(s, {
        name: "settings",
        dialog: d,
        visible: [d.getByLabel("Display Name"), d.getByLabel("Lightning Address"), d.getByRole("link", { name: "your profile page" }), button(d, "Save")],
        keyboard: [
          k("Display Name", d.getByLabel("Display Name")),
          k("Lightning Address", d.getByLabel("Lightning Address")),
          k("Profile page link", d.getByRole("link", { name: "your profile page" })),
          k("Cancel", button(d, "Cancel")),
          k("Save", button(d, "Save")),
        ],
      });
    });

    it("/profile: view mode", async () => {
      const { page } = s;
      await page.goto("/profile");
      await checkScreen(s, {
        name: "profile",
        visible: [
          link(page.getByRole("main"), "Back to Home"),
          button(page, "Edit Profile"),
          page.getByRole("heading", { level: 1, name: "Hana Hirer" }),
          text(page, "Success Rate"),
          text(page, "Successful"),
          text(page, "Rating").first(),
          text(page, "Nostr Identity"),
          text(page, "Payment Settings"),
          text(page, world.hirer.lightningAddress),
          text(page, "Private Key Security"),
          text(page, /never stores your private key/),
          text(page, "Danger Zone"),
          button(page, /Terminate Account/),
        ],
        keyboard: [
          k("Back to Home", link(page.getByRole("main"), "Back to Home")),
          k("Edit Profile", button(page, "Edit Profile")),
          k("Copy npub", button(page, "Copy npub")),
          k("Terminate Account", button(page, /Terminate Account/)),
        ],
        maxTabs: 200,
      });
    });

    it("/profile: edit mode", async () => {
      const { page } = s;
      await page.goto("/profile");
      await pressOn(button(page, "Edit Profile"));
      const form = page.getByRole("form", { name: "Edit profile" });
      await checkScreen(s, {
        name: "profile-edit",
        visible: [
          page.getByRole("heading", { level: 1, name: "Edit Profile" }),
          button(page, "Cancel"),
          button(page, "Save"),
          text(form, "Profile Information"),
          form.getByLabel("Display Name"),
          form.getByLabel("Profile Picture URL"),
          form.getByLabel("Bio"),
          form.getByLabel("NIP-05 Identifier"),
          form.getByLabel("Lightning Address for Payouts"),
        ],
        keyboard: [
          k("Cancel", button(page, "Cancel")),
          k("Save", button(page, "Save")),
          k("Display Name", form.getByLabel("Display Name")),
          k("Bio", form.getByLabel("Bio")),
          k("Lightning Address", form.getByLabel("Lightning Address for Payouts")),
        ],
      });
    });

    it("suggestion box (the form)", async () => {
      const { page } = s;
      await openBrowse(page);
      await pressOn(button(page, "Suggestion box"));
      const d = dialogNamed(page, "Suggestion Box");
      await checkScreen(s, {
        name: "suggestion-box",
        dialog: d,
        visible: [d.getByLabel("Your suggestion or feature request"), button(d, "Cancel"), button(d, "Send Suggestion")],
        keyboard: [k("Suggestion text", d.getByLabel("Your suggestion or feature request")), k("Cancel", button(d, "Cancel")), k("Send Suggestion", button(d, "Send Suggestion"))],
      });
    });
  });

  // ---- Worker -------------------------------------------------------------------------------------
  describe("worker", () => {
    const s = useSession("worker", viewport);

    it("Active: a claimed gig with progress", async () => {
      const { page } = s;
      await page.goto("/?tab=active");
      const claimed = gigCard(page, world.claimedJob.title);
      await checkScreen(s, {
        name: "active",
        visible: [
          claimed.getByText("You Claimed"),
          claimed.getByRole("progressbar", { name: "In Progress" }),
          gigCard(page, world.disputedJob.title).getByText("Under Review"),
          page.getByRole("region", { name: "My Gigs" }).getByRole("button", { name: world.offering.title, exact: true }),
        ],
        keyboard: [k("Open Chat (claimed gig)", button(page, `Open Chat: ${world.claimedJob.title}`)), k("View Details (claimed gig)", button(page, `View Details: ${world.claimedJob.title}`).first())],
        maxTabs: 200,
      });
    });

    it("top bar before the robot avatar has arrived: the initials add no words to the account button", async () => {
      // The robot picture is made in the browser from a lazily loaded module; until it is there the avatar
      // shows the initials. At 360 px the account button shows nothing else, and its words must be in its
      // name ("Account menu for …") for speech control and screen readers: axe's label-in-name rule.
      // A page of its own without the service worker, which would answer the module from its cache, past the route.
      const { page, context } = await openPage(browser, baseUrl, { viewport, sessionToken: world.worker.sessionToken, serviceWorkers: "block" });
      const release = await holdBack(page, /\/assets\/robot-avatar-[^/]*\.js$/);
      try {
        await page.goto("/?tab=active");
        const account = page.getByRole("banner").getByRole("button", { name: /^Account menu for / });
        await account.waitFor();
        const initials = account.locator('[data-testid="avatar-initials"]');
        await initials.waitFor();
        await settle(page);
        await screenshot(page, `worker-${viewport}-top-bar-initials`);
        const blocking = (await axeViolations(page)).filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact));
        expect(formatViolations(blocking)).toBe(formatViolations([]));
        // They are still drawn: the person's first two letters stand in for the picture.
        const firstTwo = world.worker.displayName.slice(0, 2).toUpperCase();
        expect(await initials.getAttribute("data-initials")).toBe(firstTwo);
        expect(await initials.evaluate((el) => getComputedStyle(el, "::before").content)).toBe(`"${firstTwo}"`);
      } finally {
        release();
        // The held request goes on before the route is taken away.
        await page.unrouteAll({ behavior: "wait" });
        await context.close();
      }
    });

    it("gig details modal: the worker's own interest message", async () => {
      const { page } = s;
      const d = await openFromCard(page, world.openJob.title);
      await checkScreen(s, {
        name: "gig-details-my-interest",
        dialog: d,
        visible: [
          d.getByRole("heading", { name: "Your interest message" }),
          text(d, "Pending review"),
          text(d, "The hirer has not answered yet."),
          button(d, "Claim Gig"),
          text(d, /Available once the hirer approves your interest message/),
        ],
        keyboard: [k("Copy gig ID", button(d, "Copy gig ID")), k("Poster link", d.getByRole("link", { name: "Hana Hirer" })), k("Close", button(d, "Close"))],
      });
    });

    it("gig details modal: the interest form", async () => {
      const { page } = s;
      const d = await openFromCard(page, world.freshJob.title);
      await d.getByLabel("Express interest").fill("Happy to help.");
      await checkScreen(s, {
        name: "gig-details-interest-form",
        dialog: d,
        visible: [d.getByLabel("Express interest"), button(d, "Send Interest"), button(d, "Claim Gig")],
        keyboard: [k("Interest message", d.getByLabel("Express interest")), k("Send Interest", button(d, "Send Interest")), k("Close", button(d, "Close"))],
      });
    });

    it("gig details modal: a claimed gig (Start Work)", async () => {
      const { page } = s;
      await page.goto("/?tab=active");
      await pressOn(button(page, `View Details: ${world.claimedJob.title}`).first());
      const d = dialogNamed(page, world.claimedJob.title);
      await checkScreen(s, {
        name: "gig-details-claimed",
        dialog: d,
        visible: [text(d, /You claimed this gig/), button(d, "Start Work"), button(d, "Open Chat"), d.getByRole("listitem").filter({ hasText: "Worker Claimed" })],
        keyboard: [k("Start Work", button(d, "Start Work")), k("Open Chat", button(d, "Open Chat")), k("Close", button(d, "Close"))],
      });
    });
  });

  // ---- Admin --------------------------------------------------------------------------------------
  describe("admin", () => {
    const s = useSession("admin", viewport);

    /** /admin, signed in with the PIN typed on the keyboard if the session has no admin token yet. */
    async function openAdmin(page: Page): Promise<void> {
      await page.goto("/admin");
      const ok = page.getByRole("button", { name: "OK" });
      const logout = page.getByRole("button", { name: /Logout/ });
      await ok.or(logout).first().waitFor();
      if (await logout.isVisible()) return;
      await page.keyboard.type(adminPin);
      await pressOn(ok);
      await logout.waitFor();
    }

    /** An admin tab chosen with the arrow keys from Dashboard. */
    const ADMIN_TABS = [/^Dashboard$/, /^Gigs$/, /^Reports$/, /^Suggestions$/, /^Disputes/];
    async function adminTab(page: Page, steps: number): Promise<Locator> {
      await openAdmin(page);
      await page.getByRole("tab", { name: "Dashboard" }).focus();
      for (let i = 1; i <= steps; i++) {
        await page.keyboard.press("ArrowRight");
        await page.getByRole("tab", { name: ADMIN_TABS[i], selected: true }).waitFor({ timeout: 5_000 });
      }
      return page.getByRole("tabpanel");
    }

    it("/admin: PIN keypad", async () => {
      const { page } = s;
      await page.goto("/admin");
      const pad = page.getByRole("group", { name: "PIN keypad" });
      await checkScreen(s, {
        name: "pin",
        visible: [page.getByRole("heading", { name: "Admin Panel" }), text(page, "Enter the 6-digit admin PIN."), page.getByRole("img", { name: "0 of 6 digits entered" }), button(pad, "1"), button(pad, "Clear"), button(pad, "OK")],
        keyboard: [k("Digit 1", button(pad, "1")), k("Digit 0", button(pad, "0")), k("Back to Home", link(page, "Back to Home"))],
      });
      // Signing in by keyboard alone: digits typed, then Tab to OK and Enter.
      await page.keyboard.type(adminPin);
      await page.getByRole("img", { name: "6 of 6 digits entered" }).waitFor();
      const reached = await unreachableByTab(page, [k("OK", button(pad, "OK"))]);
      if (reached.length) throw new Error("the PIN pad's OK button cannot be reached with Tab once six digits are in");
      await button(pad, "OK").press("Enter");
      await page.getByRole("button", { name: /Logout/ }).waitFor();
    });

    it("/admin: Dashboard", async () => {
      const { page } = s;
      await openAdmin(page);
      await checkScreen(s, {
        name: "dashboard",
        visible: [
          page.getByRole("tab", { name: "Dashboard", selected: true }),
          page.getByRole("tab", { name: /Disputes \(\d+\)/ }),
          text(page, "Total Escrow"),
          text(page, "Platform Revenue"),
          text(page, "Total Users"),
          text(page, "Money Health"),
        ],
        keyboard: [
          k("Unread chats bell", page.getByRole("button", { name: /^Unread chats/ })),
          k("Logout", page.getByRole("button", { name: /Logout/ })),
          k("Dashboard tab", page.getByRole("tab", { name: "Dashboard" })),
        ],
      });
    });

    it("/admin: Gigs", async () => {
      const { page } = s;
      const panel = await adminTab(page, 1);
      const row = panel.getByRole("listitem").filter({ has: page.getByRole("heading", { name: world.disputedJob.title }) });
      await checkScreen(s, {
        name: "gigs",
        visible: [panel.getByRole("combobox").first(), row, row.getByTestId("dispute-reason"), button(row, /Chat/), button(row, `Delete ${world.disputedJob.title}`)],
        keyboard: [k("Status filter", panel.getByRole("combobox").first()), k("Select a gig", row.getByRole("checkbox")), k("Chat", button(row, /Chat/)), k("Delete", button(row, `Delete ${world.disputedJob.title}`))],
        maxTabs: 300,
      });
    });

    it("/admin: Reports", async () => {
      const { page } = s;
      const panel = await adminTab(page, 2);
      const item = panel.getByRole("listitem").filter({ hasText: world.freshJob.title });
      await checkScreen(s, {
        name: "reports",
        visible: [item, item.getByText(world.reportDetails), item.getByText("Spam"), item.getByRole("link", { name: "Wes Worker" })],
        keyboard: [
          k("Reported gig link", item.getByRole("link", { name: world.freshJob.title })),
          k("Report status", item.getByLabel("Report status")),
          k("Add Notes", button(item, /Add Notes/)),
          k("Delete Gig", button(item, /Delete Gig/)),
        ],
        maxTabs: 300,
      });
    });

    it("/admin: Suggestions", async () => {
      const { page } = s;
      const panel = await adminTab(page, 3);
      const item = panel.getByRole("listitem").filter({ hasText: world.suggestion });
      await checkScreen(s, {
        name: "suggestions",
        visible: [item, item.getByText(/Wes Worker/).first()],
        keyboard: [k("Suggestion status", item.getByLabel("Suggestion status"))],
        maxTabs: 300,
      });
    });

    it("/admin: Disputes", async () => {
      const { page } = s;
      const panel = await adminTab(page, 4);
      const card = panel.getByRole("listitem").filter({ has: page.getByRole("heading", { name: world.disputedJob.title }) });
      await checkScreen(s, {
        name: "disputes",
        visible: [card, card.getByText(world.disputeReason), button(card, /Open Chat/)],
        keyboard: [k("Open Chat", button(card, /Open Chat/)), k("Worker's share", card.getByLabel("Worker's share (%)"))],
        maxTabs: 300,
      });
    });

    it("/admin: chat dialog", async () => {
      const { page } = s;
      const panel = await adminTab(page, 4);
      const card = panel.getByRole("listitem").filter({ has: page.getByRole("heading", { name: world.disputedJob.title }) });
      await pressOn(button(card, /Open Chat/));
      const d = dialogNamed(page, world.disputedJob.title);
      await d.getByLabel("Message as admin").fill("Draft, not sent");
      await checkScreen(s, {
        name: "chat",
        dialog: d,
        visible: [d.getByRole("list", { name: "Messages" }).getByText(world.disputeChat), text(d, /You write as the Platform Admin/), d.getByLabel("Message as admin")],
        keyboard: [k("Message as admin", d.getByLabel("Message as admin")), k("Send", button(d, /Send/)), k("Close", button(d, "Close"))],
      });
    });
  });
});
