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
const extra = process.argv.slice(2);

/** One vitest run of the browser tests against an app with `backend`; resolves with its exit code. */
function runSuite(backend, args, resultsFile) {
  rmSync(resultsFile, { force: true });
  const reporters = args.some((a) => a.startsWith("--reporter")) ? [] : ["--reporter=default", "--reporter=json", `--outputFile.json=${resultsFile}`];
  const child = spawn(node, [vitest, "run", "--config", "e2e/vitest.config.ts", ...reporters, ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, E2E_LIGHTNING_BACKEND: backend },
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, forward);
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      for (const s of ["SIGINT", "SIGTERM"]) process.off(s, forward);
      if (existsSync(resultsFile)) {
        const r = JSON.parse(readFileSync(resultsFile, "utf8"));
        const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
        console.log(`e2e (${backend}): ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
      }
      if (code !== 0) printServerLogEnd(backend);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** A failed suite's app log, its last lines: what wrangler said when a request got no answer. */
function printServerLogEnd(backend) {
  const file = path.join(root, "e2e", "artifacts", `server-app-${backend}.log`); // serverLogName in support/paths.ts
  if (!existsSync(file)) return;
  const lines = readFileSync(file, "utf8").split("\n").slice(-80);
  console.log(`[e2e] the last lines of ${path.relative(root, file)}:\n${lines.join("\n")}`);
}

// Every browser test on the dev wallet; then, on a whole run, the job from posting to payout again with
// LIGHTNING_BACKEND=nwc: a local NWC wallet behind a real relay funds and pays it (issue 15).
const backend = process.env.E2E_LIGHTNING_BACKEND || "dev";
let code = await runSuite(backend, extra, results);
if (extra.length === 0 && backend === "dev" && code === 0) {
  code = await runSuite("nwc", ["job-to-payout"], path.join(root, "e2e", "artifacts", "results-nwc.json"));
}
process.exit(code);
