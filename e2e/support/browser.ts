// Debian's Chromium driven by playwright-core (Playwright's own browser download does not work
// here), pages at the two sizes the app must work at, and screenshots into e2e/artifacts/.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { clientAddress } from "./api";
import { ARTIFACTS_DIR } from "./paths";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Without the background-networking flags Chromium keeps dialling out, and this network is closed. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

export const VIEWPORTS = {
  mobile: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface OpenPageOptions {
  viewport?: ViewportName;
  /** A session made with the API helper: the page starts signed in (localStorage.sessionToken). */
  sessionToken?: string;
  /** Milliseconds an action or wait may take before it fails. */
  timeout?: number;
  /** false: a browser that runs no script (what a crawler or a reader with JavaScript off sees). */
  javaScriptEnabled?: boolean;
  /**
   * "block": the app's service worker is not registered. Playwright's `page.route` does not see a request the
   * service worker answers from its cache, so a test that holds a script back needs a page without one.
   */
  serviceWorkers?: "allow" | "block";
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught exceptions thrown in the page so far. */
  pageErrors: Error[];
}

/** A fresh browser context (its own storage) at one of the viewports, with one page in it. */
export async function openPage(browser: Browser, baseUrl: string, options: OpenPageOptions = {}): Promise<OpenedPage> {
  const viewport = options.viewport ?? "desktop";
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: VIEWPORTS[viewport],
    isMobile: viewport === "mobile",
    hasTouch: viewport === "mobile",
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    serviceWorkers: options.serviceWorkers ?? "allow",
    // Each context is another person at another address (see clientAddress).
    extraHTTPHeaders: { "CF-Connecting-IP": clientAddress() },
    storageState: options.sessionToken
      ? { cookies: [], origins: [{ origin: baseUrl, localStorage: [{ name: "sessionToken", value: options.sessionToken }] }] }
      : undefined,
  });
  context.setDefaultTimeout(options.timeout ?? 15_000);
  const page = await context.newPage();
  if (options.javaScriptEnabled !== false) waitsForTheApp(page);
  const pageErrors: Error[] = [];
  page.on("pageerror", (err) => pageErrors.push(err));
  return { page, context, pageErrors };
}

/**
 * Whether the app has taken the page over: a page the Worker rendered names only the loader that asks for the
 * app's script once the page is on screen (web/public/after-paint.js), so the browser's `load` can come before
 * the app runs, and a click before it does nothing (as for a person tapping that early on a slow phone). Any
 * other page loads the app's module script in its head, which `load` waits for. React marks the root it renders
 * into (its `__reactContainer$` key) when the app calls hydrateRoot or createRoot; from then on a click on a part
 * not yet hydrated is handled once that part is.
 */
function appHasStarted(): boolean {
  if (!document.querySelector('script[src="/after-paint.js"]')) return true;
  const root = document.getElementById("root");
  return !!root && Object.keys(root).some((key) => key.startsWith("__reactContainer$"));
}

/**
 * A page whose goto, reload and history moves return once the app has started (appHasStarted), unless told to
 * return at the response's first byte (`waitUntil: "commit"`, for a test that holds the app's script back).
 */
function waitsForTheApp(page: Page): void {
  const untilStarted = async <T>(options: { waitUntil?: string } | undefined, navigated: T): Promise<T> => {
    if (navigated !== null && options?.waitUntil !== "commit") await page.waitForFunction(appHasStarted);
    return navigated;
  };
  const { goto, reload, goBack, goForward } = page;
  page.goto = async (url, options) => untilStarted(options, await goto.call(page, url, options));
  page.reload = async (options) => untilStarted(options, await reload.call(page, options));
  page.goBack = async (options) => untilStarted(options, await goBack.call(page, options));
  page.goForward = async (options) => untilStarted(options, await goForward.call(page, options));
}

/**
 * One Chromium for the test file that calls this at its top level: launched before its tests, closed after
 * them. Returns `openPage` bound to it.
 */
export function useBrowser(): (baseUrl: string, options?: OpenPageOptions) => Promise<OpenedPage> {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return (baseUrl, options) => {
    if (!browser) throw new Error("useBrowser: the browser is not running (open pages inside tests)");
    return openPage(browser, baseUrl, options);
  };
}

/**
 * Holds back the page's requests to `url` (a glob or a pattern) until the returned function is called: to see a
 * page as it is before a script or an answer arrives. Playwright's route does not see what a service worker
 * answers (open the page with `serviceWorkers: "block"`).
 */
export async function holdBack(page: Page, url: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Saves a full-page PNG as e2e/artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9._-]+/gi, "-")}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The session token the page holds, or null when signed out. */
export function sessionTokenOf(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem("sessionToken"));
}

/** Waits until the service worker is installed and controls the page (it claims its clients when it activates). */
export async function untilServiceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  });
}
