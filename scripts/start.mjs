#!/usr/bin/env node
// `npm start`: build the web bundle, apply the D1 migrations to the local state, then run
// `wrangler dev` with the settings of DESIGN.md §11 taken from the shell, and a ticker that
// fires the Worker's cron every minute (wrangler dev never fires cron triggers by itself).
//
// Options (environment): PORT (8787), STATE_DIR (.wrangler/state), SKIP_BUILD=1 (reuse dist/web),
// INSPECTOR_PORT (0 = any free port, so several instances never collide),
// CRON_INTERVAL_SECONDS (60; 0 = no ticker), LOCAL_RELAY_PORT (0 = any free port), MINIFY=1 (the Worker
// minified, as `wrangler deploy --env production` uploads it). Every run starts a local
// Nostr relay (scripts/local-nostr/relay.ts, its events kept in the state directory): the gig listings go
// there unless NOSTR_RELAYS is set, signed by NOSTR_SECRET_KEY, or else by a key made once and kept beside
// the state. LIGHTNING_BACKEND=nwc without NWC_URL also starts a local NWC wallet on that relay.
// `--demo` (`npm run demo`): its own state (.wrangler/demo), seeded once with a living market
// (scripts/demo/market.ts), and two members' keys printed to sign in with.
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WORKER_SETTINGS } from "./worker-settings.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const CRON = "* * * * *"; // the schedule in wrangler.toml [triggers]

const port = parsePort(process.env.PORT ?? "8787", "PORT");
const inspectorPort = parsePort(process.env.INSPECTOR_PORT ?? "0", "INSPECTOR_PORT");
const demo = process.argv.includes("--demo");
const stateDir = path.resolve(root, process.env.STATE_DIR || (demo ? ".wrangler/demo" : ".wrangler/state"));
const skipBuild = isTrue(process.env.SKIP_BUILD);
const cronIntervalSeconds = Number(process.env.CRON_INTERVAL_SECONDS ?? "60");
const backend = process.env.LIGHTNING_BACKEND || "dev";
const baseUrl = `http://127.0.0.1:${port}`;

// wrangler 4 needs Node 22+. npm scripts run on the project's node@22; a plain `node` may be older.
const nodeBin =
  Number(process.versions.node.split(".")[0]) >= 22 ? process.execPath : path.join(root, "node_modules", ".bin", "node");
const wranglerJs = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const viteJs = path.join(root, "node_modules", "vite", "bin", "vite.js");
const childEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };

let stopping = false;
let current = null; // the child process running now
let ticker = null;
let cronFailures = 0;
let cronTicks = 0;
let settingsDir = null;

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => stop(signal));
}
// Whatever ends this process: leave no wrangler behind and no settings file on disk.
process.on("exit", () => {
  if (current && current.exitCode === null && current.signalCode === null) current.kill("SIGKILL");
  if (settingsDir) rmSync(settingsDir, { recursive: true, force: true });
});

await main();

async function main() {
  if (!existsSync(wranglerJs)) fail("node_modules is missing: run `npm install` first.");

  if (skipBuild) {
    if (!existsSync(path.join(root, "dist", "web", "index.html"))) fail("SKIP_BUILD=1 but dist/web/index.html does not exist.");
    log("SKIP_BUILD=1: serving the existing dist/web");
  } else {
    log("Building the web bundle (vite build)");
    // Always the production build: a NODE_ENV inherited from a test runner (vitest sets "test") would make
    // Vite build React's development bundle and leave out what only a built app does (the service worker).
    await run(nodeBin, [viteJs, "build"], { env: { ...childEnv, NODE_ENV: "production" } });
  }

  log(`Applying D1 migrations to ${path.relative(root, stateDir) || "."}`);
  await run(nodeBin, [wranglerJs, "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    env: { ...childEnv, CI: "true" }, // never prompt
    stdio: ["ignore", "inherit", "inherit"],
  });

  const settings = {};
  for (const name of WORKER_SETTINGS) {
    if (process.env[name] !== undefined && process.env[name] !== "") settings[name] = process.env[name];
  }
  // The local Nostr relay, on every run: the gig listings go there (unless NOSTR_RELAYS says otherwise), and
  // the local NWC wallet talks through it.
  const relay = await startLocalRelay().catch((err) => fail(`the local Nostr relay could not start: ${err.message}`));
  settings.NOSTR_RELAYS ??= relay.url;
  const nostrKey = settings.NOSTR_SECRET_KEY ? null : await localNostrKey();
  if (nostrKey) settings.NOSTR_SECRET_KEY = nostrKey.hex;
  const platformNpub = nostrKey?.npub ?? (await npubOf(settings.NOSTR_SECRET_KEY));
  // LIGHTNING_BACKEND=nwc with no NWC_URL: a whole NWC wallet on this machine (relay, wallet service,
  // Lightning addresses name@wallet.test), so nothing is paid by the dev wallet's own code path.
  let localWallet = null;
  if (backend === "nwc" && !settings.NWC_URL) {
    localWallet = await startLocalNwcWallet(relay.url);
    settings.NWC_URL = localWallet.nwcUrl;
    settings.LOCAL_WALLET_URL = localWallet.httpUrl;
    settings.LNURL_OVERRIDES = [settings.LNURL_OVERRIDES, `wallet.test=${localWallet.httpUrl}`].filter(Boolean).join(",");
  }
  // A local run (worker/deployment.ts): the dev wallet, PIN-only admin sign-in, no HSTS. Only this
  // script says so; a deployed Worker never gets it from wrangler.toml.
  settings.LOCAL_DEV = "1";
  let pinNote = "";
  if ((backend === "dev" || localWallet) && !settings.ADMIN_PIN) {
    settings.ADMIN_PIN = String(randomInt(0, 1_000_000)).padStart(6, "0");
    pinNote = " (generated for this run)";
  }

  const args = [
    wranglerJs,
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    stateDir,
    ...(process.env.MINIFY === "1" ? ["--minify"] : []),
    ...settingsArgs(settings),
  ];
  log(`Starting wrangler dev on ${baseUrl}`);
  const wrangler = spawn(nodeBin, args, { cwd: root, env: childEnv, stdio: "inherit" });
  current = wrangler;
  const exited = new Promise((resolve) => wrangler.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));

  const ready = await Promise.race([waitUntilAnswering(baseUrl), exited.then(() => false)]);
  const market = ready && !stopping && demo ? await demoMarket().catch((err) => fail(`the demo market could not be made: ${err.message}`)) : null;
  if (ready && !stopping) {
    banner([
      `Gigstr is running: ${baseUrl}`,
      `Lightning backend: ${backend}${backend === "dev" ? " (simulated wallet; Lightning addresses name@wallet.test are paid in process)" : ""}`,
      ...(localWallet
        ? [
            `Local NWC wallet: relay ${localWallet.relayUrl}; Lightning addresses name@wallet.test are received by it`,
            `NWC_URL=${localWallet.nwcUrl}`,
          ]
        : []),
      ...(backend === "dev" || localWallet ? [`Admin PIN: ${settings.ADMIN_PIN}${pinNote}  ->  ${baseUrl}/admin`] : []),
      `Nostr: gig listings (kind 30402) signed by ${platformNpub ?? "(NOSTR_SECRET_KEY is not a key: publishing is off)"}${nostrKey?.made ? " (made for this state)" : ""}`,
      `  to ${settings.NOSTR_RELAYS}${settings.NOSTR_RELAYS === relay.url ? " (the local relay; the cron sends them)" : `; the local relay is ${relay.url}`}`,
      ...(market
        ? [
            "Demo market: a dozen gigs in every state, reviews and a dispute. Sign in (Login with Nostr, Private Key) as",
            `  ${market.hirer.name} (hirer): ${market.hirer.nsec}`,
            `  ${market.worker.name} (worker): ${market.worker.nsec}`,
          ]
        : []),
      `State: ${stateDir}`,
      cronIntervalSeconds > 0 ? `Cron: fired every ${cronIntervalSeconds} s through ${baseUrl}/cdn-cgi/local/scheduled` : "Cron: not fired (CRON_INTERVAL_SECONDS=0)",
      "Stop with Ctrl-C.",
    ]);
    if (cronIntervalSeconds > 0) {
      void fireCron(); // once now, as a deployed Worker's next minute would, then on the interval
      ticker = setInterval(fireCron, cronIntervalSeconds * 1000);
    }
  }

  const code = await exited;
  if (ticker) clearInterval(ticker);
  process.exit(stopping ? 0 : code);
}

/**
 * Loads one of scripts/local-nostr in this process. It is TypeScript: esbuild bundles it next to the local
 * state (a file of this process's own, so runs side by side never load each other's half-written bundle),
 * importing packages from node_modules as they are.
 */
async function loadLocalNostr(name) {
  const { build } = await import("esbuild");
  const outfile = path.join(root, ".wrangler", "local-nostr", `${name}.${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(root, "scripts", "local-nostr", `${name}.ts`)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** The local Nostr relay (@nostr-relay/core), its events kept in the state directory across restarts. */
async function startLocalRelay() {
  const { startRelay } = await loadLocalNostr("relay");
  mkdirSync(stateDir, { recursive: true });
  const relay = await startRelay(parsePort(process.env.LOCAL_RELAY_PORT ?? "0", "LOCAL_RELAY_PORT"), { file: path.join(stateDir, "nostr-relay-events.json") });
  log(`Local Nostr relay ready (${relay.url})`);
  return relay;
}

/** A local run's platform Nostr key: made once per state directory and kept there (a restart signs with the same key). */
async function localNostrKey() {
  const { generateSecretKey } = await import("nostr-tools/pure");
  const { bytesToHex } = await import("nostr-tools/utils");
  const file = path.join(stateDir, "nostr-platform-key");
  let made = false;
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, `${bytesToHex(generateSecretKey())}\n`, { mode: 0o600 });
    made = true;
  }
  const hex = readFileSync(file, "utf8").trim();
  return { hex, npub: await npubOf(hex), made };
}

/** The npub of a NOSTR_SECRET_KEY (hex or nsec), or null when it is neither. */
async function npubOf(secret) {
  const { getPublicKey } = await import("nostr-tools/pure");
  const { decode, npubEncode } = await import("nostr-tools/nip19");
  const { hexToBytes } = await import("nostr-tools/utils");
  try {
    const key = secret.startsWith("nsec1") ? decode(secret).data : hexToBytes(secret);
    return npubEncode(getPublicKey(key));
  } catch {
    return null;
  }
}

/** scripts/local-nostr's wallet (@getalby/sdk's wallet service over a simulated node) on the local relay. */
async function startLocalNwcWallet(relayUrl) {
  const { startLocalWallet } = await loadLocalNostr("wallet-service");
  const wallet = await startLocalWallet({ relayUrl });
  log(`Local NWC wallet ready (relay ${wallet.relayUrl}, LNURL and payer ${wallet.httpUrl})`);
  return wallet;
}

/**
 * The demo's market: made once per state directory through the running app's API (scripts/demo/market.ts,
 * bundled like the local wallet), its keys kept beside the state so a restart prints them again.
 */
async function demoMarket() {
  const saved = path.join(stateDir, "demo-market.json");
  if (existsSync(saved)) return JSON.parse(readFileSync(saved, "utf8"));
  log("Making the demo market (members, gigs in every state, reviews, a dispute)");
  const { build } = await import("esbuild");
  const outfile = path.join(root, ".wrangler", "demo", "market.mjs");
  await build({ entryPoints: [path.join(root, "scripts", "demo", "market.ts")], bundle: true, platform: "node", format: "esm", target: "node22", packages: "external", outfile, logLevel: "warning" });
  const { seedMarket } = await import(pathToFileURL(outfile).href);
  const call = async (method, apiPath, { token, json, address }) => {
    const headers = { "cf-connecting-ip": address, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json !== undefined ? { "content-type": "application/json" } : {}) };
    const res = await fetch(`${baseUrl}${apiPath}`, { method, headers, body: json !== undefined ? JSON.stringify(json) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const market = await seedMarket(call, baseUrl);
  const kept = { hirer: market.hirer, worker: market.worker };
  writeFileSync(saved, JSON.stringify(kept, null, 2));
  return kept;
}

/** Runs one step to completion; a failure ends `npm start`. */
function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: childEnv, stdio: "inherit", ...options });
    current = child;
    child.on("exit", (code, signal) => {
      current = null;
      if (stopping) process.exit(0);
      if (code === 0) resolve();
      else fail(`${path.basename(args[0])} ${args[1]} failed (${signal ?? `exit code ${code}`}).`);
    });
  });
}

async function waitUntilAnswering(url) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(`${url}/api/config`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (!stopping) warn(`${url} did not answer within 180 s; still waiting for wrangler.`);
  return false;
}

/**
 * The Worker settings as wrangler arguments. They go in a private env file (`--env-file`), so
 * that secrets such as LNBITS_ADMIN_KEY never show in the process list; wrangler then reads no
 * .dev.vars / .env of its own, so an existing one is passed first and the shell's values win.
 * A value the env-file syntax cannot hold (a newline, or all three quote characters) goes as
 * `--var NAME:VALUE` instead: wrangler splits that at the first ':' only.
 */
function settingsArgs(settings) {
  const lines = [];
  const args = [];
  for (const [name, value] of Object.entries(settings)) {
    const line = envFileLine(name, value);
    if (line) lines.push(line);
    else args.push(`--var=${name}:${value}`);
  }
  if (lines.length === 0) return args;
  settingsDir = mkdtempSync(path.join(tmpdir(), "gigstr-start-"));
  const file = path.join(settingsDir, "settings.env");
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  chmodSync(settingsDir, 0o700);
  const devVars = path.join(root, ".dev.vars");
  const ownFiles = existsSync(devVars) ? [devVars] : [".env", ".env.local"].map((f) => path.join(root, f)).filter(existsSync);
  return [...ownFiles.flatMap((f) => ["--env-file", f]), "--env-file", file, ...args];
}

/**
 * One `NAME=value` line that wrangler's dotenv reads back as exactly `value`: quoted with a
 * quote character the value lacks (no escapes inside), and every `$` escaped, since wrangler
 * expands `$VAR` in env files and turns `\$` back into `$`.
 */
function envFileLine(name, value) {
  if (/[\r\n]/.test(value)) return null;
  // dotenv turns \n inside double quotes into a newline, so "..." only holds backslash-free values.
  const quote = ["'", "`", '"'].find((q) => !value.includes(q) && !(q === '"' && value.includes("\\")));
  if (!quote) return null;
  return `${name}=${quote}${value.replaceAll("$", "\\$")}${quote}`;
}

async function fireCron() {
  try {
    const res = await fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(CRON)}`, {
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    if (cronTicks++ === 0) log("first cron tick delivered");
    cronFailures = 0;
  } catch (err) {
    if (cronFailures++ === 0) warn(`cron tick failed: ${err.message}`);
  }
}

function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (ticker) clearInterval(ticker);
  if (!current || current.exitCode !== null) process.exit(0);
  current.kill(signal);
  // wrangler shuts workerd down on SIGINT/SIGTERM; do not wait forever if it hangs.
  setTimeout(() => {
    current?.kill("SIGKILL");
    process.exit(1);
  }, 10_000).unref();
}

function parsePort(value, name) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`${name} must be a port number, got "${value}".`);
  return n;
}

function isTrue(value) {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const rule = "=".repeat(width);
  console.log(`\n${rule}\n${lines.map((l) => `  ${l}`).join("\n")}\n${rule}\n`);
}

function log(message) {
  console.log(`[start] ${message}`);
}

function warn(message) {
  console.warn(`[start] ${message}`);
}

function fail(message) {
  console.error(`[start] ${message}`);
  process.exit(1);
}
