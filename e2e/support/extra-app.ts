// A second, private instance of the app for a test that needs different Worker settings (for example a
// short INVOICE_EXPIRY_SECONDS, which no API can change). It serves the web bundle the global setup
// built (SKIP_BUILD=1), keeps its own state directory and port, fires no cron by itself, and is stopped
// (its whole process group) by `stop()`.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ARTIFACTS_DIR, E2E_ADMIN_PIN } from "./paths";
import { freePort } from "../../scripts/free-port.mjs";
import { WORKER_SETTINGS } from "../../scripts/worker-settings.mjs";

const root = path.resolve(import.meta.dirname, "..", "..");
const START_TIMEOUT_MS = 120_000;


export interface ExtraApp {
  baseUrl: string;
  /** Runs the Worker's scheduled handler once, as the cron would. */
  runCron: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function startExtraApp(name: string, settings: Record<string, string>): Promise<ExtraApp> {
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), `gigstr-e2e-${name}-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(ARTIFACTS_DIR, `server-${name}.log`);
  const log = openSync(logFile, "w");
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const setting of WORKER_SETTINGS) delete env[setting];
  Object.assign(env, {
    PORT: String(port),
    STATE_DIR: stateDir,
    SKIP_BUILD: "1",
    CRON_INTERVAL_SECONDS: "0",
    LIGHTNING_BACKEND: "dev",
    ADMIN_PIN: E2E_ADMIN_PIN,
    ...settings,
  });
  const server = spawn(process.execPath, ["scripts/start.mjs"], { cwd: root, env, detached: true, stdio: ["ignore", log, log] });
  closeSync(log);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    server.on("exit", (code) => {
      exitCode = code;
      resolve();
    }),
  );

  const stop = async () => {
    await stopGroup(server, exited);
    rmSync(stateDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exitCode !== undefined) {
      await stop();
      throw new Error(`the ${name} app exited (code ${exitCode}) before answering; log:\n${tail(logFile)}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ${name} app did not answer within ${START_TIMEOUT_MS / 1000} s; log:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/config`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }

  const runCron = async () => {
    const res = await fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`, { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`cron run answered ${res.status}`);
  };
  return { baseUrl, runCron, stop };
}

async function stopGroup(server: ChildProcess, exited: Promise<void>) {
  if (server.pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  signalGroup("SIGKILL");
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
