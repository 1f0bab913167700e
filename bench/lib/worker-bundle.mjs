// The Worker's script as `wrangler deploy --dry-run --env production` builds it (what a cold isolate loads):
// its raw and gzipped size, which packages its bytes come from, and which modules run when the isolate starts.
//
// Two dry runs into `dir`: the production build (minified, as deployed) is sized, and esbuild's metafile (its
// own count of each input's bytes in the output) tells the bytes by package. The same build unminified is then
// read for what runs at start: bundling one file, esbuild puts a module that is loaded with `import()` (and
// everything only it needs) inside an init function (`var init_x = __esm({ "path"() { ... } })`, and CommonJS
// modules inside `__commonJS`), called when the import runs. A module runs at start when its code is not in
// such a wrapper, or when its init is called, directly or through other inits, from code that runs at start.
// Only 127.0.0.1 is ever contacted: a dry run uploads nothing.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { runStep } from "./server.mjs";

/** Where a bundled input comes from: its package ("zod", "@noble/curves"), or our folder ("worker/services", "web/src/features"). */
export function sourceOf(input) {
  const inModules = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inModules) return inModules[1];
  const parts = input.replace(/^(\.\.\/)+/, "").split("/");
  if ((parts[0] === "worker" && parts.length > 2) || (parts[0] === "web" && parts.length > 3)) return parts.slice(0, parts[0] === "web" ? 3 : 2).join("/");
  if (["worker", "domain", "durable-objects", "web"].includes(parts[0])) return parts[0] === "web" ? "web/src" : parts[0];
  return `(other: ${parts.slice(0, 2).join("/")})`;
}

/**
 * Which modules of an unminified esbuild bundle run at start: `{ modules: Map<path, { wrapped, atStart }> }`.
 * Read from esbuild's layout: each module starts with a `// <path>` line at column 0; a wrapped module's
 * body is the function keyed by its path; the inits a body (or the top level) calls as statements are its
 * imports' (`init_x();`, `import_y = __toESM(require_y());`). Calls inside functions (an `import()`'s
 * `Promise.resolve().then(() => (init_x(), x_exports))`) are not statements of a body and do not count.
 */
export function modulesAtStart(code) {
  const lines = code.split("\n");
  const header = /^\/\/ (\S+\.(?:[cm]?[jt]sx?|json))$/;
  const wrapper = /^var ([\w$]+) = __(?:esm|commonJS)\(\{$/;
  const callsIn = (line) => [...line.matchAll(/\b((?:init|require)_[\w$]+)\(\)/g)].map((m) => m[1]);
  const modules = new Map(); // path -> { wrapped: init name | null, calls: Set }
  const initOf = new Map(); // init name -> path
  const topCalls = new Set();
  let current = null;
  let inWrapper = null; // the module whose wrapper body we are in
  for (const line of lines) {
    const h = header.exec(line);
    if (h) {
      current = { path: h[1], wrapped: null, calls: new Set() };
      modules.set(h[1], current);
      inWrapper = null;
      continue;
    }
    const w = wrapper.exec(line);
    if (w && current) {
      current.wrapped = w[1];
      initOf.set(w[1], current.path);
      inWrapper = current;
      continue;
    }
    if (inWrapper && line === "});") {
      inWrapper = null;
      continue;
    }
    // A statement of a wrapped body is indented four spaces (the wrapper's object, then the keyed function); one
    // at the top level runs at start. A line that defines a function only calls when that function is called.
    const statement = inWrapper ? /^ {4}\S/.test(line) : /^\S/.test(line);
    if (!statement || /=>|\bfunction\b/.test(line)) continue;
    for (const name of callsIn(line)) (inWrapper ? inWrapper.calls : topCalls).add(name);
  }
  // The inits run at start: those the top level calls, and those their bodies call in turn.
  const started = new Set();
  const queue = [...topCalls];
  while (queue.length) {
    const name = queue.pop();
    if (started.has(name)) continue;
    started.add(name);
    const mod = modules.get(initOf.get(name));
    if (mod) queue.push(...mod.calls);
  }
  const out = new Map();
  for (const [p, m] of modules) out.set(p, { wrapped: !!m.wrapped, atStart: !m.wrapped || started.has(m.wrapped) });
  return out;
}

/** Normalises a metafile input path and a bundle header path to the same form (relative to the project). */
const key = (p) => p.replace(/^(\.\.\/)+/, "").replace(/^\.\//, "");

/**
 * Builds the production Worker twice (dry runs, nothing uploaded) and answers its sizes, its bytes by package
 * (with what runs at start), and whether each of `deferred` (packages loaded only when asked for) stays out of
 * the isolate's start.
 */
export function measureWorkerBundle({ root, nodeBin, dir, deferred = ["pdf-lib", "@pdf-lib/standard-fonts", "@pdf-lib/upng", "pako"] }) {
  const wranglerJs = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const env = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG: "warn" };
  rmSync(dir, { recursive: true, force: true });
  const built = path.join(dir, "production");
  const plain = path.join(dir, "unminified");
  mkdirSync(built, { recursive: true });
  const meta = path.join(built, "meta.json");
  runStep(nodeBin, [wranglerJs, "deploy", "--dry-run", "--env", "production", "--outdir", built, "--metafile", meta], { cwd: root, env, label: "wrangler deploy --dry-run" });
  runStep(nodeBin, [wranglerJs, "deploy", "--dry-run", "--env", "production", "--outdir", plain, "--minify=false"], { cwd: root, env, label: "wrangler deploy --dry-run (unminified)" });

  const script = readFileSync(path.join(built, "index.js"));
  const metafile = JSON.parse(readFileSync(meta, "utf8"));
  const output = Object.entries(metafile.outputs).find(([name]) => name.endsWith("index.js"))?.[1];
  if (!output) throw new Error("the dry run's metafile names no index.js");
  const atStart = modulesAtStart(readFileSync(path.join(plain, "index.js"), "utf8"));
  const byKey = new Map([...atStart].map(([p, v]) => [key(p), v]));

  const packages = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (!bytesInOutput) continue;
    const name = sourceOf(input);
    const p = packages.get(name) ?? { name, bytes: 0, bytesAtStart: 0, modules: 0, modulesAtStart: 0 };
    const start = byKey.get(key(input))?.atStart ?? true; // not found in the unminified layout: counted as run at start
    p.bytes += bytesInOutput;
    p.modules += 1;
    if (start) {
      p.bytesAtStart += bytesInOutput;
      p.modulesAtStart += 1;
    }
    packages.set(name, p);
  }
  const list = [...packages.values()].sort((a, b) => b.bytes - a.bytes);
  const inputsBytes = list.reduce((s, p) => s + p.bytes, 0);
  return {
    command: "wrangler deploy --dry-run --env production (minify and source map as wrangler.toml's [env.production])",
    rawBytes: script.length,
    gzipBytes: gzipSync(script).length,
    sourceMapBytes: (() => {
      try {
        return readFileSync(path.join(built, "index.js.map")).length;
      } catch {
        return null;
      }
    })(),
    // What esbuild counts of each input; the rest of the script is its own glue (module wrappers, helpers).
    inputsBytes,
    glueBytes: script.length - inputsBytes,
    bytesAtStart: list.reduce((s, p) => s + p.bytesAtStart, 0),
    packages: list.map((p) => ({ ...p, pct: Math.round((p.bytes / script.length) * 1000) / 10 })),
    deferred: deferred.map((name) => {
      const p = packages.get(name);
      return { name, bundled: !!p, bytes: p?.bytes ?? 0, modules: p?.modules ?? 0, modulesAtStart: p?.modulesAtStart ?? 0 };
    }),
  };
}
