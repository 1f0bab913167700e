// Starts the app once for the whole e2e run: `node scripts/start.mjs` on a free port, with a
// fresh state directory, the dev Lightning backend and a fixed admin PIN; gives the tests its
// URL through `inject("baseUrl")`, and stops the whole process group at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ARTIFACTS_DIR, E2E_ADMIN_PIN, serverLogName } from "./paths";
import { freePort } from "../../scripts/free-port.mjs";
import { WORKER_SETTINGS } from "../../scripts/worker-settings.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminPin: string;
  }
}

const root = path.resolve(import.meta.dirname, "..", "..");
const START_TIMEOUT_MS = 300_000; // a cold `vite build` + wrangler start on a 2-core machine
const STOP_TIMEOUT_MS = 15_000;

export default async function setup(project: TestProject) {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), "gigstr-e2e-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  const backend = process.env.E2E_LIGHTNING_BACKEND || "dev";
  // One log per suite (e2e/run.mjs prints its end when the suite fails): the nwc suite's run keeps the dev one.
  const logFile = path.join(ARTIFACTS_DIR, serverLogName(backend));
  const log = openSync(logFile, "w");

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of WORKER_SETTINGS) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    STATE_DIR: stateDir,
    // dev (the simulated wallet), or nwc: a local NWC wallet through a real relay (scripts/local-nostr).
    LIGHTNING_BACKEND: backend,
    ADMIN_PIN: E2E_ADMIN_PIN,
    CRON_INTERVAL_SECONDS: "60",
    // Each walk reads right after it writes, as a visitor too: the edge cache (tested in worker/public-cache.test.ts) is off.
    PUBLIC_CACHE_SECONDS: "0",
  });

  console.log(`[e2e] starting the app on ${baseUrl} (log: ${path.relative(root, logFile)})`);
  // detached: the server leads its own process group, so teardown can stop wrangler and workerd too.
  const server = spawn(process.execPath, ["scripts/start.mjs"], { cwd: root, env, detached: true, stdio: ["ignore", log, log] });
  closeSync(log);
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));

  const teardown = async () => {
    await stopGroup(server, exited);
    rmSync(stateDir, { recursive: true, force: true });
  };

  try {
    await waitUntilAnswering(baseUrl, exited, logFile);
  } catch (err) {
    await teardown();
    console.error(`[e2e] the app did not start; last lines of ${logFile}:\n${tail(logFile, 40)}`);
    throw err;
  }
  console.log(`[e2e] app ready on ${baseUrl}`);

  project.provide("baseUrl", baseUrl);
  project.provide("adminPin", E2E_ADMIN_PIN);
  return teardown;
}

async function waitUntilAnswering(baseUrl: string, exited: Promise<number | null>, logFile: string) {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`scripts/start.mjs exited (code ${exitCode}) before the app answered`);
    // wrangler dev keeps waiting for a fix when the Worker does not build; a test run should not.
    if (/Build failed/.test(tail(logFile, 200))) throw new Error("wrangler could not build the Worker");
    try {
      const res = await fetch(`${baseUrl}/api/config`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the app did not answer on ${baseUrl} within ${START_TIMEOUT_MS / 1000} s`);
}

async function stopGroup(server: ChildProcess, exited: Promise<number | null>) {
  if (server.pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), STOP_TIMEOUT_MS)),
  ]);
  // Whatever is left of the group (a stuck workerd) goes too.
  signalGroup("SIGKILL");
  if (!stopped) console.warn("[e2e] the app did not stop within 15 s; killed it");
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
