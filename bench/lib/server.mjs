// Starting and stopping the app for a benchmark: `scripts/start.mjs` (wrangler dev, the dev wallet) on a
// free port with its own state directory, in its own process group, pinned to core 0 when taskset exists;
// and, to compare with, an empty Worker under wrangler dev started the same way.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/free-port.mjs";

export function findTaskset() {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(path.join(dir, "taskset"))) return path.join(dir, "taskset");
  }
  return null;
}

/** [command, args] run on the given core when pinning is on. */
export function pinned(pin, core, cmd, args) {
  return pin ? [pin, ["-c", String(core), cmd, ...args]] : [cmd, args];
}

export { freePort };

/** [command, args] run at another scheduling priority (`nice -n`), when asked. */
export function niced(nice, cmd, args) {
  return nice ? ["nice", ["-n", String(nice), cmd, ...args]] : [cmd, args];
}

/** Runs a command to completion (bounded); throws with the tail of its output when it fails. */
export function runStep(cmd, args, { cwd, env, timeoutMs = 300_000, label }) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ""}\n${r.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${label ?? path.basename(args[0] ?? cmd)} failed (${r.error?.message ?? r.signal ?? `exit ${r.status}`}):\n${tail}`);
  }
  return r.stdout;
}

/**
 * What every wrangler dev the bench starts (the app's and the empty Worker's) leaves out: wrangler's usage metrics,
 * and two things no deployed Worker has on its CPU:
 * - the line wrangler dev prints for each request at its default level: ~0.5-1 ms of node CPU per request on the
 *   app's core. Warnings and errors still show.
 * - wrangler's local observability (on by default): every request's trace and every span in it (each D1 call, each
 *   Rate Limiting call, each Durable Object request) streamed to a collector Worker in the same runtime, which
 *   writes them to a SQLite database of its own for the local dashboard. On Cloudflare, traces are collected
 *   outside the Worker's CPU. It cost 0.3-0.8 ms on a request that reads nothing and 2-3 ms on a sign-in
 *   (docs/decisions/037).
 * And it runs the script minified (`MINIFY`, scripts/start.mjs), as `wrangler deploy --env production` uploads it
 * (wrangler.toml). Unminified, the isolate keeps wrangler dev's bundle as its source: 3.2 million characters with
 * every comment, stored two bytes a character because a comment has an em dash, 6.4 MB of the 12.4 MB the
 * runtime's heap holds at start, which no deployed Worker carries (docs/decisions/040).
 */
export const LIKE_A_DEPLOYMENT = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_LOG: process.env.WRANGLER_LOG ?? "warn",
  X_LOCAL_OBSERVABILITY: "false",
  MINIFY: "1",
};

/** Starts the app; resolves once /api/config answers. */
export async function startApp({ root, nodeBin, stateDir, pin, nice = 0, logFile, settings = {} }) {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    STATE_DIR: stateDir,
    SKIP_BUILD: "1",
    CRON_INTERVAL_SECONDS: "0",
    INSPECTOR_PORT: "0",
    LIGHTNING_BACKEND: "dev",
    ...LIKE_A_DEPLOYMENT,
    // What a request costs, not what the edge cache spares: the cached visitor page is measured apart.
    PUBLIC_CACHE_SECONDS: "0",
    // The libraries' production builds, as `wrangler deploy` bundles them (wrangler dev defines NODE_ENV as
    // "development" unless told): React's development build records a stack trace for every element it creates (its
    // owner stacks), and a rendered page measured with it cost 187 ms (GET /) and 71 ms (a gig's page) of CPU per
    // request, which no deployed Worker pays.
    NODE_ENV: "production",
    ...settings,
  };
  const app = await spawnAndWait({ root, env, pin, nice, logFile, port, readyPath: "/api/config", command: [nodeBin, [path.join(root, "scripts", "start.mjs")]] });
  const yielding = yieldToRuntime(app, nice);
  return { ...app, stateDir, yielding };
}

/** How much lower the app's node processes run than its workerd processes (nice steps). */
export const NODE_BELOW_RUNTIME = 10;

/**
 * The app's node processes (scripts/start.mjs, wrangler dev's, and wrangler's esbuild watcher) run at a lower priority than its workerd processes,
 * on the same core: they are not in the path of a request or a socket frame (wrangler's proxy is a workerd), but
 * now and then they work for a few hundred ms (wrangler dev parses code and collects garbage, e.g. 5 s into the
 * chat phase), and on the one core they took it from the runtime, which showed as one late chat message. No
 * deployment has them. Their CPU is still counted as the app's. Answers the pids changed.
 */
function yieldToRuntime(app, nice) {
  const changed = [];
  if (!existsSync("/proc")) return changed;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    const role = s && s.pgrp === app.child.pid ? roleOf(Number(name), app.port) : "";
    if (!role.startsWith("node") && !role.startsWith("esbuild")) continue;
    try {
      os.setPriority(Number(name), Math.min(19, nice + NODE_BELOW_RUNTIME));
      changed.push(Number(name));
    } catch {
      /* gone, or not allowed */
    }
  }
  return changed;
}

/** What the empty Worker answers on its runtime's own port (for runtimePort). */
export const EMPTY_WORKER_PROBE = { path: "/", answers: (body) => body !== null && typeof body === "object" && body.ok === true };

/** The path on which the empty Worker checks its rate limit once before answering (see startEmptyWorker). */
export const EMPTY_WORKER_LIMIT_PATH = "/limit";

/**
 * A Worker that only answers `{"ok":true}`, under `wrangler dev` with the app's pinning, priority and log
 * level, in `dir`: what wrangler dev itself costs on this machine, with none of the app's code. On
 * EMPTY_WORKER_LIMIT_PATH it first makes one `limit()` call of a Rate Limiting binding, as a sign-in's verify
 * does (worker/rate-limits.ts): under wrangler dev that call is the local rate-limit stand-in, a request to
 * a local Durable Object with a JSON body each way, which a deployed Worker does not make (on Cloudflare the
 * binding counts on the machine that runs the Worker). Its limit is never reached. Every other path is the empty
 * Worker as before: no await, no binding touched.
 */
export async function startEmptyWorker({ root, nodeBin, dir, pin, nice = 0, logFile }) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "index.js"),
    [
      'const ok = () => new Response(\'{"ok":true}\', { headers: { "content-type": "application/json" } });',
      "export default {",
      "  fetch(request, env) {",
      `    if (request.url.endsWith(${JSON.stringify(EMPTY_WORKER_LIMIT_PATH)})) return env.LIMIT.limit({ key: "bench" }).then(ok);`,
      "    return ok();",
      "  },",
      "};",
      "",
    ].join("\n"),
  );
  // The binding has the shape of wrangler.toml's (a namespace, a simple limit per 60 s), with a limit no run reaches.
  writeFileSync(
    path.join(dir, "wrangler.toml"),
    'name = "empty"\nmain = "index.js"\ncompatibility_date = "2026-11-01"\n\n[[ratelimits]]\nname = "LIMIT"\nnamespace_id = "1999"\nsimple = { limit = 1000000000, period = 60 }\n',
  );
  const port = await freePort();
  const env = { ...process.env, ...LIKE_A_DEPLOYMENT };
  const wranglerJs = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wranglerJs, "dev", "--config", path.join(dir, "wrangler.toml"), "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", "0", "--persist-to", path.join(dir, "state"), ...(env.MINIFY === "1" ? ["--minify"] : [])];
  return spawnAndWait({ root, env, pin, nice, logFile, port, readyPath: "/", command: [nodeBin, args] });
}

/** Spawns `command` in its own process group on core 0 (when pinning); resolves once `readyPath` answers 2xx. */
async function spawnAndWait({ root, env, pin, nice, logFile, port, readyPath, command }) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const [cmd, args] = niced(nice, ...pinned(pin, 0, ...command));
  const log = createWriteStream(logFile);
  const child = spawn(cmd, args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = false;
  child.on("exit", () => (exited = true));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the app exited while starting; see ${logFile}`);
    try {
      const res = await fetch(`${baseUrl}${readyPath}`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  if (Date.now() >= deadline) {
    stopApp({ child });
    throw new Error(`the app did not answer within 180 s; see ${logFile}`);
  }
  return { child, port, baseUrl, logFile };
}

/** Stops the app's process group (start.mjs, wrangler, workerd): SIGTERM, then SIGKILL after 10 s. */
export async function stopApp(app) {
  if (!app?.child || app.child.exitCode !== null || app.child.signalCode !== null) return;
  const pgid = app.child.pid;
  const gone = new Promise((r) => app.child.once("exit", r));
  try {
    process.kill(-pgid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }, 10_000);
  await gone;
  clearTimeout(timer);
  // wrangler's workerd children leave with it; make sure none of the group outlives it.
  await new Promise((r) => setTimeout(r, 500));
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    /* the group is empty */
  }
}

// ---- CPU accounting (Linux /proc): who used the cores during a phase ----------------------------------

const CLK_TCK = 100;

function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(rest[1]), pgrp: Number(rest[2]), cpuMs: ((Number(rest[11]) + Number(rest[12])) * 1000) / CLK_TCK };
  } catch {
    return null;
  }
}

/** What a process of the app is, from its command line. */
function roleOf(pid, port) {
  let cmd = "";
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "gone";
  }
  if (cmd.includes("workerd")) return cmd.includes(`entry=127.0.0.1:${port} `) ? "workerd (wrangler's proxy)" : "workerd (the Worker, D1, Durable Objects)";
  if (cmd.includes("esbuild")) return "esbuild (wrangler's watcher)";
  if (cmd.includes("wrangler")) return "node (wrangler dev)";
  if (cmd.includes("start.mjs")) return "node (scripts/start.mjs)";
  return "other";
}

/** CPU time (ms) of every process in the process group `pgid` (the app: start.mjs, wrangler, workerd), by role. */
export function groupCpuMs(pgid, port) {
  if (!existsSync("/proc")) return null;
  const byRole = {};
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    if (!s || s.pgrp !== pgid) continue;
    total += s.cpuMs;
    const role = roleOf(Number(name), port);
    byRole[role] = (byRole[role] ?? 0) + s.cpuMs;
  }
  return { total, byRole };
}

/** Busy time (ms) of each core since boot, from /proc/stat. */
export function coreBusyMs() {
  if (!existsSync("/proc/stat")) return null;
  const out = [];
  for (const line of readFileSync("/proc/stat", "utf8").split("\n")) {
    const m = line.match(/^cpu(\d+)\s+(.*)$/);
    if (!m) continue;
    const f = m[2].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait
    const busy = f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0);
    out[Number(m[1])] = (busy * 1000) / CLK_TCK;
  }
  return out;
}

// ---- The Worker runtime's own port: requests that skip wrangler's proxy --------------------------------

function listeningPorts(pid) {
  const inodes = new Set();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
        if (m) inodes.add(m[1]);
      } catch {
        /* closed meanwhile */
      }
    }
  } catch {
    return [];
  }
  const ports = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== "0A" || !inodes.has(f[9])) continue; // 0A = LISTEN
      ports.push(parseInt(f[1].split(":")[1], 16));
    }
  }
  return ports;
}

/** What Gigstr answers on its runtime's own port: GET /api/config. */
const GIGSTR_CONFIG = { path: "/api/config", answers: (body) => body !== null && typeof body === "object" && "lightningBackend" in body };

/**
 * The port on which the workerd that runs the Worker (not wrangler's proxy in front of it) answers `probe`
 * (by default Gigstr's /api/config); null when it cannot be found. Requests sent there measure the Worker
 * without wrangler's proxy.
 */
export async function runtimePort(app, probe = GIGSTR_CONFIG) {
  if (!existsSync("/proc")) return null;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    if (!s || s.pgrp !== app.child.pid || roleOf(Number(name), app.port) !== "workerd (the Worker, D1, Durable Objects)") continue;
    for (const port of listeningPorts(Number(name))) {
      if (port === app.port) continue;
      try {
        const res = await fetch(`http://127.0.0.1:${port}${probe.path}`, { signal: AbortSignal.timeout(3000) });
        const body = await res.json();
        if (res.ok && probe.answers(body)) return port;
      } catch {
        /* not the entry socket */
      }
    }
  }
  return null;
}

/** The pid of the workerd that runs the app's Worker, D1 and Durable Objects (not wrangler's proxy); null when not found. */
export function runtimePid(app) {
  if (!existsSync("/proc")) return null;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    if (s && s.pgrp === app.child.pid && roleOf(Number(name), app.port) === "workerd (the Worker, D1, Durable Objects)") return Number(name);
  }
  return null;
}
