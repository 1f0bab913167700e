// Instructions, not seconds: the Worker's runtime run under valgrind's callgrind, which counts the instructions
// the process executes (every thread, user space). The count is the same for the same work whatever else the
// machine is doing, where the CPU time of a 5-s window read the same sign-in build 1.5-2.2x a browse page's on
// this 2-core machine (docs/decisions/041). It leaves out the kernel's share (sockets, syscalls), which a
// deployed Worker's CPU time does not bill either. The app's workerd processes start under callgrind with
// instrumentation off (wrangler dev's MINIFLARE_WORKERD_PATH names a wrapper script), so starting costs little;
// `callgrind_control` turns it on for the counted rounds, zeroes the counters before each window and dumps them
// after it, one file per window, named by its label.
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { SQLITE_FRAME } from "./sqlite-share.mjs";

let available;
/** Whether valgrind's callgrind and callgrind_control are here (answers the reason when not). */
export function callgrindAvailable() {
  if (available !== undefined) return available;
  const version = spawnSync("valgrind", ["--version"], { encoding: "utf8", timeout: 10_000 });
  if (version.status !== 0) return (available = { ok: false, reason: "valgrind is not installed" });
  const control = spawnSync("callgrind_control", ["-h"], { encoding: "utf8", timeout: 10_000 });
  if (control.error) return (available = { ok: false, reason: "callgrind_control is not installed" });
  return (available = { ok: true, version: version.stdout.trim() });
}

/** Writes the script wrangler dev runs in place of workerd: workerd under callgrind, counting nothing until told. */
export function callgrindWorkerd(root, dir) {
  const workerd = createRequire(path.join(root, "package.json"))("workerd").default;
  const script = path.join(dir, "workerd-under-callgrind.sh");
  const args = [
    "--tool=callgrind",
    "--instr-atstart=no",
    // V8 writes its compiled code to the heap and rewrites it: valgrind must notice code that changes.
    "--smc-check=all-non-file",
    `--callgrind-out-file=${path.join(dir, "callgrind.%p")}`,
    "-q",
  ];
  writeFileSync(script, `#!/bin/sh\nexec valgrind ${args.map((a) => `'${a}'`).join(" ")} '${workerd}' "$@"\n`);
  chmodSync(script, 0o755);
  return script;
}

/**
 * The dumps of process `pid` in `dir`, by label: the instructions of each window (its "totals") and the part of
 * them SQLite's own functions ran (self cost of the functions sqlite-share.mjs counts as SQLite's; what they call,
 * memcpy or malloc, is not in it, so the share is a lower bound, as perf's is).
 */
export function readDumps(dir, pid) {
  const byLabel = {};
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`callgrind.${pid}.`)) continue;
    const dump = parseDump(readFileSync(path.join(dir, name), "utf8"));
    if (dump.label) byLabel[dump.label] = dump;
  }
  return byLabel;
}

/** One callgrind dump (one event, Ir): its trigger's label, its total, and the self cost of SQLite's functions. */
export function parseDump(text) {
  const names = new Map();
  let label = null;
  let total = null;
  let fn = "";
  let sqlite = 0;
  let afterCalls = false;
  for (const line of text.split("\n")) {
    // "desc: Trigger: dump <label>" for a dump callgrind_control asked for.
    if (line.startsWith("desc: Trigger: dump ")) label = line.slice("desc: Trigger: dump ".length).trim();
    else if (line.startsWith("totals: ")) total = Number(line.slice(8).trim().split(/\s+/)[0]);
    else if (line.startsWith("fn=")) {
      // fn=(id) name, the first time; fn=(id) after.
      const m = /^fn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (m) {
        if (m[2] !== undefined) names.set(m[1], m[2]);
        fn = names.get(m[1]) ?? "";
      } else fn = line.slice(3);
      afterCalls = false;
    } else if (line.startsWith("cfn=")) {
      const m = /^cfn=\((\d+)\) (.*)$/.exec(line);
      if (m) names.set(m[1], m[2]);
    } else if (line.startsWith("calls=")) afterCalls = true;
    else if (/^[0-9+\-*]/.test(line)) {
      // A cost line: position, then the cost. The line after calls= is the call's inclusive cost, not fn's own.
      if (!afterCalls && SQLITE_FRAME.test(fn)) sqlite += Number(line.trim().split(/\s+/).at(-1)) || 0;
      afterCalls = false;
    }
  }
  return { label, instructions: total, sqliteInstructions: sqlite };
}
