#!/usr/bin/env node
// `npm run test:e2e`: the browser tests (e2e/vitest.config.ts) against a fresh app on a free port.
// Extra arguments go to vitest, e.g. `npm run test:e2e -- identity`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

if (!existsSync(chromium)) {
  console.error(`[e2e] ${chromium} not found. Install Debian's Chromium: apt-get install -y chromium`);
  process.exit(1);
}
// wrangler 4 (started by the tests) needs Node 22+; npm scripts run on the project's node@22.
const node = Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : path.join(root, "node_modules", ".bin", "node");
const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");

const child = spawn(node, [vitest, "run", "--config", "e2e/vitest.config.ts", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
