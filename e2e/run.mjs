#!/usr/bin/env node
// `npm run test:e2e`: the browser tests (e2e/vitest.config.ts) against a fresh app on a free port.
// Extra arguments go to vitest, e.g. `npm run test:e2e -- identity`.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
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

// The JSON report gives the closing "N passed, N failed" line that CI reads.
const results = path.join(root, "e2e", "artifacts", "results.json");
rmSync(results, { force: true });
const extra = process.argv.slice(2);
const reporters = extra.some((a) => a.startsWith("--reporter"))
  ? []
  : ["--reporter=default", "--reporter=json", `--outputFile.json=${results}`];

const child = spawn(node, [vitest, "run", "--config", "e2e/vitest.config.ts", ...reporters, ...extra], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (existsSync(results)) {
    const r = JSON.parse(readFileSync(results, "utf8"));
    const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    console.log(`e2e: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
