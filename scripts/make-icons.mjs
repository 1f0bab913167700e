// Draws the app's install icons (web/public/icons/*.png) from web/public/favicon.svg with Chromium, once;
// the PNGs are committed. Run again after changing the mark: node scripts/make-icons.mjs
// (uses Debian's /usr/bin/chromium through playwright-core).
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const svg = readFileSync(path.join(root, "web", "public", "favicon.svg"), "utf8");
const out = path.join(root, "web", "public", "icons");
mkdirSync(out, { recursive: true });

// "any": the rounded mark as it is. "maskable": a full square of the brand colour with the glyph inside the
// safe zone (the middle 80%), so a launcher's circle or squircle never cuts it.
const glyph = svg.replace(/<rect[^>]*\/>/, "");
const maskable = glyph.replace('viewBox="0 0 32 32">', 'viewBox="-5 -5 42 42"><rect x="-5" y="-5" width="42" height="42" fill="#f7931a"/>');
const icons = [
  { file: "icon-192.png", size: 192, svg },
  { file: "icon-512.png", size: 512, svg },
  { file: "maskable-512.png", size: 512, svg: maskable },
  { file: "apple-touch-icon.png", size: 180, svg: maskable },
];

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const src = `data:image/svg+xml;base64,${Buffer.from(icon.svg).toString("base64")}`;
    await page.setContent(`<html><body style="margin:0;background:transparent"><img src="${src}" width="${icon.size}" height="${icon.size}" style="display:block"></body></html>`);
    await page.screenshot({ path: path.join(out, icon.file), omitBackground: true });
    await page.close();
    console.log(`wrote web/public/icons/${icon.file}`);
  }
} finally {
  await browser.close();
}
