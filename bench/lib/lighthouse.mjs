// Lighthouse (mobile, its default: a mid-range phone on a slow 4G link, simulated) on Debian's Chromium
// against a running app: each page's four category scores and the audits that kept a score under 100.
// A page may need a signed-in member: the session token is put in the page's localStorage first, and
// Lighthouse is told to keep storage.
import { writeFileSync } from "node:fs";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
/**
 * Chromium 156 also preloads its own browser UI as a web page (the omnibox popup, chrome://omnibox-popup.top-chrome),
 * which a headless browser never shows: traced, its renderer took 130-290 ms of CPU during one run of a page, on
 * this 2-core machine beside the page under test. A phone's browser draws its UI natively; it is switched off.
 */
const FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
/** Runs per page (BENCH_LIGHTHOUSE_RUNS); the median one is reported. */
const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
/**
 * BENCH_LIGHTHOUSE_TRACES=<dir>: a diagnosis, not a measurement. Each run also samples the page's JavaScript (V8's
 * profiler, which slows it and so moves the scores) and writes its trace to <dir>/<page>-<run>.json, to be opened
 * in Chrome's Performance panel: what each long task runs.
 */
const TRACES = process.env.BENCH_LIGHTHOUSE_TRACES;

/** The audits that cost a category points (score below 1, weighted), by category. */
function misses(lhr) {
  const out = {};
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    out[id] = category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => ({
        id: audit.id,
        title: audit.title,
        score: audit.score,
        displayValue: audit.displayValue ?? null,
        // What it found, briefly (e.g. which console or Issues-panel entries).
        found: (audit.details?.items ?? []).slice(0, 3).map((item) => JSON.stringify(item).slice(0, 300)),
      }));
  }
  return out;
}

/** An element as Lighthouse names it: its selector and the start of its HTML. */
function nodeOf(node) {
  return node ? `${node.selector ?? ""} ${String(node.snippet ?? "").slice(0, 120)}`.trim() : null;
}

/** Opens a tab in the browser Lighthouse drives (the same profile, so the same storage and caches), uses it, closes it. */
async function inTab(port, use) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const tab = await browser.contexts()[0].newPage();
    await use(tab);
    await tab.close();
  } finally {
    await browser.close();
  }
}

/**
 * Runs Lighthouse on each page in turn. `pages`: { key, label, url, sessionToken? }. Answers, per page, the
 * scores (0-100) and what missed.
 */
export async function lighthousePages(baseUrl, pages) {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, logLevel: "silent" });
  const results = {};
  try {
    // A visitor's phone has its browser running already. A just-started browser does its own first-time work (its
    // GPU process, fonts, caches) during its first page load, beside that page: the first run of the first page
    // measured was the slowest every time (home 91-95 against 96-100 after). So the browser loads the first page
    // once, uncounted, before any run; each counted visitor run still starts with its storage and cache cleared.
    if (pages.length) await inTab(chrome.port, (tab) => tab.goto(pages[0].url, { waitUntil: "networkidle" }));
    for (const page of pages) {
      if (page.sessionToken) {
        await inTab(chrome.port, async (tab) => {
          // The page's origin gets the session in localStorage, as the web app keeps it after a sign-in.
          await tab.goto(baseUrl);
          await tab.evaluate((token) => localStorage.setItem("sessionToken", token), page.sessionToken);
          // A member's own screen is reached by signing in, in this browser: it has drawn that screen before (its
          // code in the HTTP cache and the service worker's). So the page is opened once, uncounted, as the member
          // did when they signed in; without it the first counted run was the browser's first visit to the screen
          // (decision 030, "Measuring the pages with Lighthouse").
          await tab.goto(page.url, { waitUntil: "networkidle" });
        });
      }
      // One run's performance score moves by ten points or more on this machine: the page's figures are those of
      // its median run (Lighthouse's own advice), with every run's score beside them.
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES, disableStorageReset: Boolean(page.sessionToken) };
        if (TRACES) flags.additionalTraceCategories = "disabled-by-default-v8.cpu_profiler";
        const run = await lighthouse(page.url, flags);
        if (run.lhr.runtimeError) throw new Error(`lighthouse on ${page.url}: ${run.lhr.runtimeError.code} ${run.lhr.runtimeError.message}`);
        if (TRACES) writeFileSync(`${TRACES}/${page.key}-${i + 1}.json`, JSON.stringify(run.artifacts.Trace ?? run.artifacts.traces?.defaultPass));
        runs.push(run.lhr);
      }
      const byPerformance = [...runs].sort((a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0));
      const lhr = byPerformance[Math.floor(byPerformance.length / 2)];
      results[page.key] = {
        label: page.label,
        performanceRuns: runs.map((r) => Math.round((r.categories.performance.score ?? 0) * 100)),
        url: page.url.replace(baseUrl, ""),
        scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id].score ?? 0) * 100)])),
        misses: misses(lhr),
        finalUrl: lhr.finalDisplayedUrl?.replace(baseUrl, "") ?? null,
        // Where the main thread's time went (what Total Blocking Time is made of), as Lighthouse measured it.
        mainThread: (lhr.audits["mainthread-work-breakdown"]?.details?.items ?? []).map((i) => ({ group: i.groupLabel ?? i.group, ms: Math.round(i.duration) })),
        scripts: (lhr.audits["bootup-time"]?.details?.items ?? []).slice(0, 6).map((i) => ({ url: String(i.url).replace(baseUrl, ""), scriptingMs: Math.round(i.scripting), parseMs: Math.round(i.scriptParseCompile) })),
        // The main thread's long tasks (what Total Blocking Time counts past 50 ms each), longest first.
        longTasks: (lhr.audits["long-tasks"]?.details?.items ?? []).slice(0, 6).map((i) => ({ url: String(i.url).replace(baseUrl, ""), startMs: Math.round(i.startTime), ms: Math.round(i.duration) })),
        // What moved (the elements behind Cumulative Layout Shift) and what the largest paint was.
        layoutShifts: (lhr.audits["layout-shifts"]?.details?.items ?? []).slice(0, 5).map((i) => ({ score: Math.round(i.score * 1000) / 1000, element: nodeOf(i.node) })),
        largestPaint: nodeOf(lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node),
      };
    }
  } finally {
    await chrome.kill();
  }
  return results;
}
