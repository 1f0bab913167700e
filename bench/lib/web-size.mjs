// What the first page of the web app loads, and how big it is gzipped: the module script, the
// modulepreloads and the stylesheets that dist/web/index.html names, plus whatever those chunks import
// statically (a browser fetches those before running the page). Chunks loaded with import() are not counted.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** Code that must only load when needed: the package, and a string only that package's code contains. */
export const LAZY_ONLY = [
  { name: "nostr-tools", pkg: "nostr-tools", marker: "wrong or missing properties" },
  { name: "qrcode", pkg: "qrcode", marker: "too big to be stored in a QR Code" },
  { name: "pdf-lib", pkg: "pdf-lib", marker: "Hopding/pdf-lib" },
];

function attrs(tag) {
  const out = {};
  for (const m of tag.matchAll(/([a-zA-Z:-]+)(?:\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) out[m[1].toLowerCase()] = m[3] ?? m[4] ?? m[5] ?? "";
  return out;
}

/** The files index.html makes the browser load at once. */
export function firstPageAssets(distDir) {
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  const js = [];
  const css = [];
  for (const m of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const a = attrs(m[0].slice(1 + m[1].length));
    if (m[1].toLowerCase() === "script" && a.src && a.type === "module") js.push(a.src);
    if (m[1].toLowerCase() === "link" && a.rel === "modulepreload" && a.href) js.push(a.href);
    if (m[1].toLowerCase() === "link" && a.rel === "stylesheet" && a.href) css.push(a.href);
  }
  const local = (u) => !/^[a-z]+:\/\//i.test(u);
  return { js: js.filter(local).map((u) => u.replace(/^\//, "")), css: css.filter(local).map((u) => u.replace(/^\//, "")) };
}

/** Static imports of a built chunk, from the bundler's record of it or, failing that, from its text. */
function staticImports(file, text, chunks) {
  if (chunks?.[file]) return chunks[file].imports;
  const dir = path.posix.dirname(file);
  const found = [];
  for (const m of text.matchAll(/(?:^|[;}\s])(?:import\s*(?:[\w*{}\s,$]+from\s*)?|export\s*[\w*{}\s,$]*from\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
    found.push(path.posix.normalize(path.posix.join(dir, m[1])));
  }
  return found;
}

const gz = (buf) => gzipSync(buf).length;

/**
 * Sizes of the first page's JS and CSS (raw and gzipped, bytes), per file, and which lazy-only packages
 * appear in those chunks (by the bundler's module list, and by a marker string in the code).
 */
export function measureFirstPage(distDir, chunks) {
  const { js, css } = firstPageAssets(distDir);
  const seen = new Set();
  const queue = [...js];
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(distDir, file), "utf8");
    queue.push(...staticImports(file, text, chunks));
  }
  const jsFiles = [...seen].map((file) => {
    const buf = readFileSync(path.join(distDir, file));
    return { file, bytes: buf.length, gzipBytes: gz(buf) };
  });
  const cssFiles = css.map((file) => {
    const buf = readFileSync(path.join(distDir, file));
    return { file, bytes: buf.length, gzipBytes: gz(buf) };
  });
  const lazyOnly = LAZY_ONLY.map(({ name, pkg, marker }) => {
    const byModules = jsFiles.filter((f) => chunks?.[f.file]?.modules.some((m) => m.includes(`node_modules/${pkg}/`))).map((f) => f.file);
    const byMarker = jsFiles.filter((f) => readFileSync(path.join(distDir, f.file), "utf8").includes(marker)).map((f) => f.file);
    const lazyChunks = Object.entries(chunks ?? {})
      .filter(([, c]) => c.modules.some((m) => m.includes(`node_modules/${pkg}/`)))
      .map(([file]) => file);
    return { name, inFirstPage: byModules.length > 0 || byMarker.length > 0, byModules, byMarker, bundledIn: lazyChunks };
  });
  const sum = (files, key) => files.reduce((s, f) => s + f[key], 0);
  return {
    js: { files: jsFiles, bytes: sum(jsFiles, "bytes"), gzipBytes: sum(jsFiles, "gzipBytes") },
    css: { files: cssFiles, bytes: sum(cssFiles, "bytes"), gzipBytes: sum(cssFiles, "gzipBytes") },
    lazyOnly,
    allChunks: Object.keys(chunks ?? {}).length,
  };
}
