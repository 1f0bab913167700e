// The HTML document of a page the Worker renders (decision 030): the built app's shell (dist/web/index.html,
// from the ASSETS binding) with its stylesheet inlined, the page's link preview in its head, the rendered app
// streamed into its root element and the page's data after it.
import type { LinkPreview } from "../services/link-previews";

/** The built shell, cut around its root element. */
export interface AppShell {
  /** Up to and including `<div id="root">`, the stylesheet inlined. */
  head: string;
  /** After the root's `</div>`. */
  tail: string;
  /** The build that made it (its module script's hashed name): a page rendered on another build is not served. */
  build: string;
  /** Bytes of CSS inlined (0 when the stylesheet stayed a link). */
  inlinedCss: number;
}

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
  const link = html.match(/<link rel="stylesheet"[^>]*\shref="(\/[^"]+)"[^>]*>/);
  if (link) {
    const css = await assets.fetch(new Request(`${origin}${link[1]}`));
    const text = css.ok ? await css.text() : "";
    if (text && !/<\/style/i.test(text)) {
      html = html.replace(link[0], () => `<style>${text}</style>`);
      inlinedCss = text.length;
    }
  }
  const at = html.indexOf(ROOT);
  return { head: `${html.slice(0, at)}<div id="root">`, tail: html.slice(at + ROOT.length), build, inlinedCss };
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

/** `before`, then the rendered app as React streams it, then `after`: one HTML body. */
export function documentStream(before: string, app: ReadableStream<Uint8Array>, after: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const reader = app.getReader();
  let step: "before" | "app" | "after" = "before";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (step === "before") {
        step = "app";
        controller.enqueue(encoder.encode(before));
        return;
      }
      if (step === "app") {
        const { done, value } = await reader.read();
        if (!done) {
          controller.enqueue(value);
          return;
        }
        step = "after";
      }
      controller.enqueue(encoder.encode(after));
      controller.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
