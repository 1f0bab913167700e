// How much of the app's runtime CPU is the local D1's own SQLite work, which a deployed Worker does not pay for
// (D1 runs the SQL on Cloudflare's side, not in the Worker's isolate). Under wrangler dev, D1 is a Durable Object
// in the same workerd process as the Worker, and its SQLite runs on the same thread, so the process's CPU time
// cannot tell them apart, nor can V8's profiler (it samples per isolate by wall clock, and the isolates take
// turns on one thread). Linux `perf` can: it samples the process's CPU time with native call chains, and SQLite
// (and the runtime's SQL storage layer around it: workerd::SqliteDatabase, SqlStorage) is native code in the
// workerd binary, whose symbols it names. A sample whose chain passes through those frames is SQLite's work;
// the share of such samples is the share of the process's CPU. The local D1's JavaScript (miniflare's Durable
// Object that receives each query) is not counted: JIT frames are not named, so the figure is a lower bound of
// what the local D1 costs. Needs `perf` and permission to sample the process; otherwise the figure is absent.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";

export const SQLITE_FRAME = /sqlite3|SqliteDatabase|SqlStorage|\bSqlite/;

let available;
/** Whether `perf` can sample here (answers the reason when not). */
export function perfAvailable() {
  if (available !== undefined) return available;
  const version = spawnSync("perf", ["--version"], { encoding: "utf8", timeout: 10_000 });
  if (version.status !== 0) return (available = { ok: false, reason: "perf is not installed" });
  const probe = spawnSync("perf", ["record", "-q", "-F", "99", "-g", "-o", "/dev/null", "--", "true"], { encoding: "utf8", timeout: 20_000 });
  available = probe.status === 0 ? { ok: true, version: version.stdout.trim() } : { ok: false, reason: `perf cannot sample (${(probe.stderr || "").trim().split("\n")[0]})` };
  return available;
}

/**
 * Samples process `pid` (every thread) until the returned `stop()` is called; `stop()` answers
 * `{ samples, sqliteSamples, sqliteShare }` or null when perf failed. `pin` runs perf on another core than the app.
 */
export function sampleSqlite({ pid, file, frequency = 499, pin = null }) {
  if (!perfAvailable().ok || !pid) return { stop: async () => null };
  const args = ["record", "-q", "-F", String(frequency), "-g", "-p", String(pid), "-o", file];
  const [cmd, argv] = pin ? [pin, ["-c", "1", "perf", ...args]] : ["perf", args];
  const child = spawn(cmd, argv, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    stop: async () => {
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
      try {
        if (!existsSync(file)) return null;
        const out = spawnSync("perf", ["script", "-i", file, "-F", "ip,sym"], { encoding: "utf8", maxBuffer: 1024 * 1024 * 1024, timeout: 180_000 });
        if (out.status !== 0) return null;
        let samples = 0;
        let sqliteSamples = 0;
        for (const block of out.stdout.split(/\n\s*\n/)) {
          if (!block.trim()) continue;
          samples++;
          if (SQLITE_FRAME.test(block)) sqliteSamples++;
        }
        return samples ? { samples, sqliteSamples, sqliteShare: sqliteSamples / samples } : null;
      } finally {
        rmSync(file, { force: true });
        if (stderr && /error/i.test(stderr)) console.error(`[bench] perf: ${stderr.trim().split("\n")[0]}`);
      }
    },
  };
}
