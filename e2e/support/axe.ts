// Accessibility checks in the browser (issue 7): axe-core on the page as it stands, keyboard
// reachability by pressing Tab, focus kept inside an open dialog, and no sideways overflow.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Locator, Page } from "playwright-core";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let axeSource: string | null = null;

export interface AxeNode {
  target: string[];
  html: string;
  /** The element's accessible label or visible text, to recognise it by. */
  text: string;
  failureSummary?: string;
}

export interface AxeViolation {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/**
 * Loads axe-core into the page. The app's CSP (`script-src 'self'`) refuses an inline <script>, which is
 * what `page.addScriptTag({ path })` inserts, so the source is evaluated over the DevTools protocol
 * instead, which the page's CSP does not govern.
 */
async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object")) return;
  axeSource ??= readFileSync(AXE_PATH, "utf8");
  await page.evaluate(axeSource);
}

/**
 * axe-core's violations on the whole document. With `scope` (a CSS selector of an open dialog or menu),
 * only what is inside it is kept: the page behind is inert and was judged as a screen of its own, except
 * for aria-hidden-focus, which is about that very page behind.
 */
export async function axeViolations(page: Page, scope?: string): Promise<AxeViolation[]> {
  await injectAxe(page);
  return page.evaluate(async (scopeSelector) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    const roots = scopeSelector ? Array.from(document.querySelectorAll(scopeSelector)) : [];
    const inScope = (target: unknown[]) => {
      if (!scopeSelector) return true;
      const selector = target[target.length - 1];
      const el = typeof selector === "string" ? document.querySelector(selector) : null;
      return !el || roots.some((root) => root.contains(el));
    };
    return result.violations
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes
          .filter((n) => v.id === "aria-hidden-focus" || inScope(n.target as unknown[]))
          .map((n) => {
            const selector = (n.target as unknown[])[(n.target as unknown[]).length - 1];
            const el = typeof selector === "string" ? document.querySelector(selector) : null;
            const text = el ? (el.getAttribute("aria-label") || (el as HTMLElement).innerText || "").replace(/\s+/g, " ").trim().slice(0, 60) : "";
            return { target: (n.target as unknown[]).map(String), html: n.html.slice(0, 200), text, failureSummary: n.failureSummary };
          }),
      }))
      .filter((v) => v.nodes.length > 0);
  }, scope ?? null);
}

export const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/** One violation per block: rule id, impact, help, then each element's selector, HTML and why. */
export function formatViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 8)
        .map((n) => `    - ${n.target.join(" ")}${n.text ? `  "${n.text}"` : ""}\n      ${n.html.replace(/\s+/g, " ")}\n      ${(n.failureSummary ?? "").replace(/\n\s*/g, " | ")}`)
        .join("\n");
      const more = v.nodes.length > 8 ? `\n    ... and ${v.nodes.length - 8} more` : "";
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join("\n");
}

// ---- Keyboard ---------------------------------------------------------------------------------------

export interface KeyTarget {
  /** How the report names it. */
  name: string;
  locator: Locator;
}

interface KbdState {
  seen: Element[];
}
declare global {
  interface Window {
    __kbd?: KbdState;
  }
}

/** Marks each target (data-kbd-target=i) and starts recording every element that receives focus. */
async function markTargets(page: Page, targets: KeyTarget[]): Promise<string[]> {
  const missing: string[] = [];
  await page.evaluate(() => {
    document.querySelectorAll("[data-kbd-target]").forEach((el) => el.removeAttribute("data-kbd-target"));
    if (!window.__kbd) {
      const state: KbdState = { seen: [] };
      window.__kbd = state;
      document.addEventListener("focusin", (e) => state.seen.push(e.target as Element), true);
    }
    window.__kbd.seen = [];
  });
  for (const [i, t] of targets.entries()) {
    const el = t.locator.first();
    try {
      await el.waitFor({ state: "visible", timeout: 5_000 });
      await el.evaluate((node, index) => node.setAttribute("data-kbd-target", String(index)), i);
    } catch {
      missing.push(`${t.name} (not on the screen)`);
    }
  }
  return missing;
}

/** Indices of the marked targets that have not received focus (themselves or something inside) yet. */
function unreachedIndices(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const seen = window.__kbd?.seen ?? [];
    return Array.from(document.querySelectorAll("[data-kbd-target]"))
      .filter((el) => !seen.some((s) => s === el || el.contains(s)))
      .map((el) => Number(el.getAttribute("data-kbd-target")));
  });
}

/** A short description of the focused element, for reports. */
export function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "<body>";
    const name = el.getAttribute("aria-label") || (el as HTMLElement).innerText?.trim().slice(0, 40) || "";
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${name}"`;
  });
}

/**
 * Presses Tab from the top of the page until every target has had focus (or `maxTabs` presses);
 * answers the names of the targets Tab never reached.
 */
export async function unreachableByTab(page: Page, targets: KeyTarget[], maxTabs = 120): Promise<string[]> {
  const missing = await markTargets(page, targets);
  // The sequential focus navigation starting point goes back to the top of the document.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur?.();
    const body = document.body;
    body.setAttribute("tabindex", "-1");
    body.focus({ preventScroll: true });
    body.removeAttribute("tabindex");
    window.__kbd!.seen = [];
  });
  let left = await unreachedIndices(page);
  for (let i = 0; i < maxTabs && left.length > 0; i++) {
    await page.keyboard.press("Tab");
    if (i % 4 === 3) left = await unreachedIndices(page);
  }
  left = await unreachedIndices(page);
  return [...missing, ...left.map((i) => targets[i].name)];
}

export interface DialogKeyboardReport {
  /** Targets inside the dialog Tab never reached. */
  unreached: string[];
  /** Elements outside the dialog that received focus while tabbing (a broken focus trap). */
  escaped: string[];
  /** Escape did not close the dialog. */
  escapeFailed: boolean;
  /** A toast was on the screen when Escape was pressed (it may have taken the key). */
  toastShowing: boolean;
  /** Where focus went after Escape (informational). */
  focusAfterClose: string;
}

/**
 * With `dialog` open: Tab round the dialog (more presses than it has tabbable elements, so focus must
 * wrap), checking focus never leaves it and every target is reached; then Escape must close it.
 */
export async function checkDialogKeyboard(page: Page, dialog: Locator, targets: KeyTarget[]): Promise<DialogKeyboardReport> {
  const missing = await markTargets(page, targets);
  const handle = await dialog.elementHandle();
  const tabbables = await dialog.evaluate((root) => {
    const selector = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
    return Array.from(root.querySelectorAll(selector)).filter((el) => (el as HTMLElement).offsetParent !== null || el === document.activeElement).length;
  });
  // Focus starts wherever the dialog put it on opening.
  await page.evaluate(() => {
    window.__kbd!.seen = document.activeElement ? [document.activeElement] : [];
  });
  const presses = Math.min(tabbables + 3, 80);
  for (let i = 0; i < presses; i++) await page.keyboard.press("Tab");
  // Shift+Tab must stay inside too.
  for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+Tab");
  const left = await unreachedIndices(page);
  const escaped = await page.evaluate((root) => {
    const seen = window.__kbd?.seen ?? [];
    return seen
      .filter((el) => root && !root.contains(el) && el !== document.body)
      .map((el) => `<${el.tagName.toLowerCase()}> "${(el.getAttribute("aria-label") || (el as HTMLElement).innerText || "").trim().slice(0, 40)}"`);
  }, handle);
  const toastShowing = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-swipe-direction][data-state="open"]')).some((el) => (el as HTMLElement).offsetParent !== null),
  );
  await page.keyboard.press("Escape");
  let escapeFailed = false;
  try {
    await dialog.waitFor({ state: "hidden", timeout: 3_000 });
  } catch {
    escapeFailed = true;
  }
  // Radix gives focus back in a task after the dialog unmounts (until then it is on <body>): wait for it to
  // land somewhere, up to 2 s, rather than guessing how long that takes on a loaded machine.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const deadline = performance.now() + 2_000;
        const look = () => (document.activeElement !== document.body || performance.now() > deadline ? resolve() : setTimeout(look, 10));
        look();
      }),
  );
  const focusAfterClose = await describeFocus(page);
  return { unreached: [...missing, ...left.map((i) => targets[i].name)], escaped: [...new Set(escaped)], escapeFailed, toastShowing, focusAfterClose };
}

// ---- Layout -----------------------------------------------------------------------------------------

/** Sideways overflow of the page (and of `within`, an open dialog): what sticks out past the right edge. */
export async function horizontalOverflow(page: Page, within?: Locator): Promise<string | null> {
  const page_ = await page.evaluate(() => {
    const over = document.documentElement.scrollWidth - window.innerWidth;
    if (over <= 1) return null;
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const ox = getComputedStyle(p).overflowX;
        if (ox === "auto" || ox === "scroll" || ox === "hidden" || ox === "clip") return true;
      }
      return false;
    };
    const culprits = Array.from(document.querySelectorAll("body *"))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > window.innerWidth + 1 && !inScroller(el);
      })
      .slice(0, 6)
      .map((el) => `<${el.tagName.toLowerCase()} class="${(el.getAttribute("class") ?? "").slice(0, 80)}"> right=${Math.round(el.getBoundingClientRect().right)}`);
    return `page is ${over}px wider than the ${window.innerWidth}px viewport; sticking out: ${culprits.join("; ")}`;
  });
  if (page_) return page_;
  if (!within) return null;
  return within.evaluate((root) => {
    const over = root.scrollWidth - root.clientWidth;
    if (over <= 1) return null;
    const box = root.getBoundingClientRect();
    const culprits = Array.from(root.querySelectorAll("*"))
      .filter((el) => el.getBoundingClientRect().right > box.right + 1)
      .slice(0, 6)
      .map((el) => `<${el.tagName.toLowerCase()} class="${(el.getAttribute("class") ?? "").slice(0, 80)}">`);
    return `dialog content is ${over}px wider than the dialog; sticking out: ${culprits.join("; ")}`;
  });
}

/**
 * Boxes whose content sticks out of them sideways (text running past a card's edge): elements that
 * neither clip nor scroll (overflow-x visible) yet are narrower than their content, innermost only.
 */
export async function overflowingBoxes(page: Page, within?: string): Promise<string[]> {
  return page.evaluate((rootSelector) => {
    const roots = rootSelector ? Array.from(document.querySelectorAll(rootSelector)) : [document.body];
    const flagged: Element[] = [];
    for (const root of roots) {
      for (const el of Array.from(root.querySelectorAll("*"))) {
        const cs = getComputedStyle(el);
        if (cs.display === "inline" || cs.display === "contents" || cs.display === "none" || cs.visibility === "hidden") continue;
        if (cs.overflowX !== "visible" || cs.position === "fixed") continue;
        if (el.clientWidth < 24 || (el as HTMLElement).offsetParent === null) continue;
        if (el.scrollWidth - el.clientWidth > 4) flagged.push(el);
      }
    }
    return flagged
      .filter((el) => !flagged.some((other) => other !== el && el.contains(other)))
      .slice(0, 8)
      .map((el) => {
        const text = ((el as HTMLElement).innerText || "").replace(/\s+/g, " ").trim().slice(0, 70);
        return `<${el.tagName.toLowerCase()} class="${(el.getAttribute("class") ?? "").slice(0, 90)}"> is ${el.clientWidth}px wide, its content ${el.scrollWidth}px: "${text}"`;
      });
  }, within ?? null);
}

/** Waits for the finite CSS animations (a dialog sliding in) to end, so colours are judged as shown. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => {
      const iterations = a.effect?.getTiming().iterations;
      return iterations !== Infinity;
    });
    await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2_000))]);
  });
}
