// The HTML document of a page the Worker renders (decision 030): the built app's shell (dist/web/index.html,
// from the ASSETS binding) with its stylesheet inlined, the page's link preview in its head, the rendered app
// rendered into its root element and the page's data after it.
import type { LinkPreview } from "../services/link-previews";

/** The built shell, cut around its root element. */
export interface AppShell {
  /** After the root's `</div>`. */
  tail: string;
  /** The build that made it (its module script's hashed name): a page rendered on another build is not served. */
  build: string;
  /** Bytes of CSS inlined (0 when the stylesheet stayed a link). */
  inlinedCss: number;
  /**
   * Up to and including `<div id="root">`, with its stylesheet cut out (`STYLESHEET` marks where it goes), and
   * that stylesheet inlined as bytes, encoded once per isolate: a page's link preview changes the few lines around
   * it, never the 57 KB of CSS (headBytes).
   */
  headAroundCss: string;
  /**
   * The same head naming no module of the app, only `/after-paint.js`, which loads them once the page has been
   * painted: for pages that paint from their HTML. Null when the shell names no module script.
   */
  headAroundCssPaintFirst: string | null;
  css: Uint8Array;
}

/** Where the inlined stylesheet goes back into a page's head (a link preview's text is escaped: it holds no "<"). */
const STYLESHEET = "<!--gigstr-stylesheet-->";
const encoder = new TextEncoder();

const ROOT = '<div id="root"></div>';

/** Each isolate reads the shell once per ASSETS binding (its files change only with a deploy, i.e. a new isolate). */
const shells = new WeakMap<Fetcher, Promise<AppShell | null>>();

async function readShell(assets: Fetcher, origin: string): Promise<AppShell | null> {
  const res = await assets.fetch(new Request(`${origin}/`));
  if (!res.ok) return null;
  let html = await res.text();
  if (!html.includes(ROOT)) return null;
  const build = html.match(/<script type="module"[^>]*\ssrc="([^"]+)"/)?.[1] ?? "";
  // The first paint needs no request but the page: its stylesheet (about 9 KB gzipped) goes in the head.
  let inlinedCss = 0;
  let style = "";
  const link = html.match(/<link rel="stylesheet"[^>]*\shref="(\/[^"]+)"[^>]*>/);
  if (link) {
    const css = await assets.fetch(new Request(`${origin}${link[1]}`));
    const text = css.ok ? await css.text() : "";
    if (text && !/<\/style/i.test(text)) {
      style = `<style>${text}</style>`;
      html = html.replace(link[0], () => STYLESHEET);
      inlinedCss = text.length;
    }
  }
  const at = html.indexOf(ROOT);
  const headAroundCss = `${html.slice(0, at)}<div id="root">`;
  return { headAroundCss, headAroundCssPaintFirst: paintFirst(headAroundCss, build), css: encoder.encode(style), tail: html.slice(at + ROOT.length), build, inlinedCss };
}

/** The loader of a page that paints from its HTML (web/public/after-paint.js). */
const AFTER_PAINT_SCRIPT = "/after-paint.js";

/**
 * A page that paints from its HTML: nothing it shows waits for the app's script, which only hydrates it. Named
 * in the head, the script and its preloads were fetched beside the page on a phone's link and ran before its
 * first paint; here the head names only the loader, which asks for them (the module first, then its preloads,
 * as the build listed them) once the page is on screen (decision 030).
 */
function paintFirst(head: string, build: string): string | null {
  if (!build) return null;
  const preloads = [...head.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g)].map((m) => m[1]!);
  const loader = `<script defer src="${AFTER_PAINT_SCRIPT}" data-app="${[build, ...preloads].join(" ")}"></script>`;
  return head.replace(/<link rel="modulepreload"[^>]*>\s*/g, "").replace(/<script type="module"[^>]*><\/script>/, () => loader);
}

/** The app's shell as this isolate last read it; null when there is none (the web app is not built). */
export function appShell(assets: Fetcher, origin: string): Promise<AppShell | null> {
  let shell = shells.get(assets);
  if (!shell) {
    shell = readShell(assets, origin);
    shells.set(assets, shell);
    // A failed read is tried again by the next page.
    shell.then((s) => s ?? shells.delete(assets), () => shells.delete(assets));
  }
  return shell;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The head with the page's title, description and Open Graph / Twitter tags (what a shared link previews). */
export function headWithPreview(head: string, preview: LinkPreview, pageUrl: string): string {
  const tags: [string, string, string][] = [
    ["property", "og:site_name", "Gigstr"],
    ["property", "og:type", "website"],
    ["property", "og:title", preview.title],
    ["property", "og:description", preview.description],
    ["property", "og:url", pageUrl],
    ["name", "twitter:card", "summary"],
    ["name", "twitter:title", preview.title],
    ["name", "twitter:description", preview.description],
  ];
  const meta = tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeXml(value)}" />`).join("");
  return head
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeXml(preview.title)}</title>`)
    .replace(/(<meta name="description" content=")[^"]*(")/, (_, open: string, close: string) => `${open}${escapeXml(preview.description)}${close}`)
    .replace("</head>", () => `${meta}</head>`);
}

/**
 * The page's head with its link preview, as the bytes to send: the preview goes into the few lines around the
 * stylesheet, whose bytes were encoded once (AppShell.css).
 */
export function headBytes(shell: AppShell, preview: LinkPreview, pageUrl: string, { paintsFromHtml }: { paintsFromHtml: boolean }): Uint8Array[] {
  const head = (paintsFromHtml && shell.headAroundCssPaintFirst) || shell.headAroundCss;
  const [before, after = ""] = headWithPreview(head, preview, pageUrl).split(STYLESHEET);
  return [encoder.encode(before), shell.css, encoder.encode(after)];
}

/** `before`, then the rendered app, then `after`: one HTML body, of known length. */
export function documentBody(before: Uint8Array[], app: string, after: string): Blob {
  return new Blob([...before, app, after]);
}
