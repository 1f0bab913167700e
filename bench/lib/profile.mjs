// Where a request spends the runtime's CPU: the Worker's V8 sampling profiler, reached through wrangler dev's
// inspector (the Chrome DevTools protocol), while a client repeats one request. Answers the functions with the
// most time on the CPU (self) and the most time on the stack (inclusive), as shares of the busy samples.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import WebSocket from "ws";

/** A DevTools protocol session with the first target the inspector lists. */
async function connect(inspectorPort) {
  const deadline = performance.now() + 30_000;
  let targets = [];
  while (performance.now() < deadline) {
    try {
      targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`, { signal: AbortSignal.timeout(2000) })).json();
      if (targets.length) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  if (!target) throw new Error(`no inspector target on port ${inspectorPort}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let nextId = 1;
  const pending = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    const waiter = msg.id !== undefined && pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(`${msg.error.message}`));
    // The runtime answers some commands (Profiler.enable) with no result at all.
    else waiter.resolve(msg.result ?? {});
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

const IDLE = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);
const anonymous = (frame) => `(anonymous ${frame.url.split("/").pop()}:${frame.lineNumber + 1})`;

/**
 * Where a frame's code came from: through the bundle's source map (wrangler dev writes index.js.map beside the
 * bundle), the package for a library ("drizzle-orm") or the file for ours ("worker/services/gigs.ts"); the
 * runtime's own code by its URL ("cloudflare-internal:d1-api"), native code as "(native)".
 */
/** The bundle wrangler dev is running now: the newest `.wrangler/tmp/dev-*` with an index.js.map (gone once it stops). */
function runningBundle(root) {
  const tmp = path.join(root, ".wrangler", "tmp");
  if (!existsSync(tmp)) return null;
  const dirs = readdirSync(tmp)
    .map((d) => path.join(tmp, d))
    .filter((d) => existsSync(path.join(d, "index.js.map")))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return dirs[0] ? path.join(dirs[0], "index.js") : null;
}

function sourcer(root) {
  const maps = new Map();
  const lines = new Map();
  const bundle = runningBundle(root);
  const fileOf = (url) => (url.startsWith("file://") ? fileURLToPath(url) : url === "index.js" && bundle ? bundle : url);
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null;
      try {
        const file = fileOf(url);
        if (existsSync(`${file}.map`)) map = new TraceMap(readFileSync(`${file}.map`, "utf8"));
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  /** Where a frame's function was written, through its script's source map: null when it has none. */
  const positionOf = (frame) => {
    const map = frame.url ? mapOf(frame.url) : null;
    return map ? originalPositionFor(map, { line: frame.lineNumber + 1, column: Math.max(frame.columnNumber, 0) }) : null;
  };
  const linesOf = (url) => {
    if (!lines.has(url)) lines.set(url, mapOf(url) ? readFileSync(fileOf(url), "utf8").split("\n") : null);
    return lines.get(url);
  };
  /**
   * A function's name as written: the bench runs the script minified (decision 040), where a function is named as
   * the minifier renamed it ("B9"). The profiler places a function at its parameters' "(", just after its name
   * (`function B9(`, a method `B9(`, or `B9=(` for an arrow function); the source map names that identifier.
   */
  const originalName = (frame, pos, source) => {
    const short = frame.functionName;
    if (!short) {
      // Where the function was written, not the bundle's line: minified, the bundle is a few very long lines.
      return pos?.source ? `(anonymous ${source}:${pos.line})` : anonymous(frame);
    }
    const text = frame.url ? linesOf(frame.url)?.[frame.lineNumber] : null;
    if (!text) return short;
    const end = text[frame.columnNumber - 1] === "=" ? frame.columnNumber - 1 : frame.columnNumber;
    if (text.slice(end - short.length, end) !== short) return short;
    return originalPositionFor(mapOf(frame.url), { line: frame.lineNumber + 1, column: end - short.length }).name ?? short;
  };
  const sourceAt = (frame, pos) => {
    if (!frame.url) return "(native)";
    if (!pos) return frame.url.replace(/^file:\/\/.*\//, "");
    if (!pos.source) return "(bundle)";
    const abs = path.resolve(path.dirname(fileOf(frame.url)), pos.source);
    const inModules = abs.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    // drizzle-orm's files sit at its package's root and their maps point to "../src/*.ts": one level too high.
    if (inModules) return inModules[1] === "src" ? "drizzle-orm" : inModules[1];
    const rel = path.relative(root, abs);
    return rel.startsWith("..") ? abs : rel;
  };
  /** A frame's name and where its code came from, worked out once per frame (its source-map position read once). */
  const described = new WeakMap();
  const describe = (frame) => {
    if (!described.has(frame)) {
      const pos = positionOf(frame);
      const source = sourceAt(frame, pos);
      described.set(frame, { name: originalName(frame, pos, source), source });
    }
    return described.get(frame);
  };
  return { sourceOf: (frame) => describe(frame).source, nameOf: (frame) => describe(frame).name };
}

/** Self and inclusive time per function name, as shares of the samples that were not idle. */
function summarise(profile, top, { sourceOf, nameOf }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  const selfBySource = new Map();
  const inclusiveByOurFile = new Map();
  // The web app's files too: the pages the Worker renders run its components (decision 030).
  const ours = (source) => /^(worker|durable-objects|domain|web)\//.test(source);
  let busy = 0;
  let gc = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    const leaf = node.callFrame.functionName;
    if (leaf === "(garbage collector)") gc += dt;
    if (IDLE.has(leaf) && leaf !== "(garbage collector)") return;
    busy += dt;
    self.set(nameOf(node.callFrame), (self.get(nameOf(node.callFrame)) ?? 0) + dt);
    const leafSource = IDLE.has(leaf) ? leaf : sourceOf(node.callFrame);
    selfBySource.set(leafSource, (selfBySource.get(leafSource) ?? 0) + dt);
    const seen = new Set();
    const seenFiles = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frameNode = byId.get(at);
      const name = nameOf(frameNode.callFrame);
      if (IDLE.has(name)) continue;
      const source = sourceOf(frameNode.callFrame);
      if (ours(source) && !seenFiles.has(source)) {
        seenFiles.add(source);
        inclusiveByOurFile.set(source, (inclusiveByOurFile.get(source) ?? 0) + dt);
      }
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  });
  const share = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, pct: Math.round((us / busy) * 1000) / 10 }));
  return {
    busyMs: Math.round(busy / 1000),
    gcPct: Math.round((gc / Math.max(busy, 1)) * 1000) / 10,
    selfBySource: share(selfBySource),
    inclusiveByOurFile: share(inclusiveByOurFile),
    self: share(self),
    inclusive: share(inclusive),
  };
}

/**
 * Profiles the Worker while `repeat` runs `count` times in turn (after `warmup` unprofiled runs). Answers the
 * summary with the busy CPU per run.
 */
export async function profileWhile({ inspectorPort, root, repeat, count, warmup = 20, top = 15, samplingMicros = 100 }) {
  for (let i = 0; i < warmup; i++) await repeat(i);
  const session = await connect(inspectorPort);
  try {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: samplingMicros });
    await session.send("Profiler.start");
    for (let i = 0; i < count; i++) await repeat(i);
    const { profile } = await session.send("Profiler.stop");
    if (!profile?.nodes) throw new Error("the inspector's Profiler.stop held no profile");
    const summary = summarise(profile, top, sourcer(root));
    return { runs: count, busyMsPerRun: Math.round((summary.busyMs / count) * 100) / 100, ...summary };
  } finally {
    session.close();
  }
}
