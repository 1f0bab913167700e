// The benchmark client: run by bench/run.mjs in its own process (pinned to its own core with
// `taskset -c 1` when taskset exists), so the load it generates does not share a core with workerd.
// Usage: node bench/load.mjs <job.json> <result.json>
//
// Jobs (job.kind):
//   http     one endpoint (or the sign-in flow) at a fixed rate open-loop, or with N connections closed-loop
//   chat     one room with N listening sockets and one sender: delivery latency of each message to each socket,
//            and of each message's notification to the other party's open tabs (their inbox sockets); with
//            job.runtimeUrl, the same again in a second room, connected straight to the runtime's own port
//   payment  post a job, pay its invoice with the dev wallet, time until GET /api/gigs/{id} shows it funded
//   instructions  operations one at a time, in rounds, each round's window counted by callgrind in the runtime
//            (job.pid, under valgrind: bench/lib/instructions.mjs), which this client tells when to count
//
// Every loop is bounded in count and in time; the only addresses ever used are job.baseUrl and job.runtimeUrl (127.0.0.1).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import WebSocket from "ws";
import { summarize } from "./lib/stats.mjs";

const [jobFile, resultFile] = process.argv.slice(2);
if (!jobFile || !resultFile) throw new Error("usage: node bench/load.mjs <job.json> <result.json>");
const job = JSON.parse(readFileSync(jobFile, "utf8"));
const base = new URL(job.baseUrl);
// The chat job may also connect to the runtime's own port (job.runtimeUrl), skipping wrangler's proxy.
const runtimeBase = job.runtimeUrl ? new URL(job.runtimeUrl) : null;
for (const u of [base, runtimeBase]) {
  if (u && !["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) throw new Error(`refusing to load ${u.hostname}: loopback only`);
}

const REQUEST_TIMEOUT_MS = 10_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- HTTP ------------------------------------------------------------------------------------------

/**
 * A client address, sent as `CF-Connecting-IP` (which wrangler dev keeps): the Worker counts login challenges and
 * sign-in attempts per address (worker/rate-limits.ts), so the bench's many sign-ins come from many addresses.
 */
const clientAddress = () => `10.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${1 + ((Math.random() * 254) | 0)}`;

/**
 * The addresses a sign-in phase's people sign in from, in turn: 150 per phase, so each signs in a dozen or so
 * times in a phase (about 2,000 sign-ins at most), under its limit of 30 a minute. Not a new address for every
 * sign-in: the local stand-in of the Rate Limiting binding clears its table of expired counts whenever it meets a
 * key it has not counted yet in the current minute (miniflare's `deleteExpired`, a scan of every key counted this
 * minute), so an address never seen before on every call made each sign-in's checks cost more the longer the
 * phase ran, which neither the Worker's code nor Cloudflare's binding does.
 */
const SIGN_IN_ADDRESSES = 150;

/** One request; resolves (never rejects) with the status (0 on a network error or time-out) and timings. */
function request(agent, method, path, { body, token, address, accept = "application/json" } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { accept };
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(payload);
    }
    if (token) headers.authorization = `Bearer ${token}`;
    if (address) headers["cf-connecting-ip"] = address;
    const sent = performance.now();
    let settled = false;
    const done = (status, text, error) => {
      if (settled) return;
      settled = true;
      resolve({ status, text, error, sent, ended: performance.now() });
    };
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => done(res.statusCode, Buffer.concat(chunks).toString("utf8"), null));
      res.on("error", (e) => done(0, "", e.code || e.message));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      req.destroy(new Error("timeout"));
    });
    req.on("error", (e) => done(0, "", e.message === "timeout" ? "timeout" : e.code || e.message));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

async function json(agent, method, path, opts = {}, expect = [200, 201]) {
  const r = await request(agent, method, path, opts);
  if (!expect.includes(r.status)) throw new Error(`${method} ${path} -> ${r.status} ${r.error ?? ""} ${r.text.slice(0, 300)}`);
  return r.text ? JSON.parse(r.text) : {};
}

/** Sign-in as a Nostr key: challenge, sign (kind 22242), verify. Answers the session token and the timings. */
async function signIn(agent, secretKey, address = clientAddress()) {
  const t0 = performance.now();
  // One address for both steps: each step is counted per address (worker/rate-limits.ts).
  const challengeRes = await request(agent, "POST", "/api/auth/nostr/challenge", { address });
  if (challengeRes.status !== 200) return { ok: false, status: challengeRes.status, error: challengeRes.error ?? `challenge ${challengeRes.status}`, signMs: 0, t0 };
  const { challenge, challengeId } = JSON.parse(challengeRes.text);
  const s0 = performance.now();
  const event = finalizeEvent({ kind: 22242, created_at: Math.floor(Date.now() / 1000), tags: [["challenge", challenge], ["relay", base.origin]], content: "" }, secretKey);
  const signMs = performance.now() - s0;
  const verifyRes = await request(agent, "POST", "/api/auth/nostr/verify", { body: { event, challengeId }, address });
  if (verifyRes.status !== 200) return { ok: false, status: verifyRes.status, error: verifyRes.error ?? `verify ${verifyRes.status}`, signMs, t0 };
  const parsed = JSON.parse(verifyRes.text);
  return { ok: true, status: 200, token: parsed.sessionToken, userId: parsed.user.id, signMs, t0, ended: verifyRes.ended };
}

/** The operation a load phase repeats: a GET of one of the paths, or a whole sign-in. */
function operationFor(target, agent) {
  if (target.kind === "signin") {
    const keys = Array.from({ length: target.keys ?? 50 }, () => generateSecretKey());
    const addresses = Array.from({ length: SIGN_IN_ADDRESSES }, clientAddress);
    let i = 0;
    return async () => {
      const n = i++;
      const r = await signIn(agent, keys[n % keys.length], addresses[n % addresses.length]);
      // The signature is made here, on the client's core: it is not the server's time.
      return { ok: r.ok, error: r.ok ? null : r.error ?? String(r.status), clientMs: r.signMs };
    };
  }
  let i = 0;
  return async () => {
    const path = target.paths[i++ % target.paths.length];
    // A page asked for as a browser does (`accept: text/html`), an API read as the web app does.
    const r = await request(agent, "GET", path, { accept: target.accept });
    return { ok: r.status === 200, error: r.status === 200 ? null : r.error ?? `HTTP ${r.status}`, clientMs: 0 };
  };
}

function errorSummary(errors) {
  const byKind = {};
  for (const e of errors) byKind[e] = (byKind[e] ?? 0) + 1;
  return { count: errors.length, byKind };
}

/** Open loop: operations start on a fixed schedule whatever the answers; latency counts from the scheduled start. */
async function openLoop(target, { rate, durationMs, warmupMs = 1000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const op = operationFor(target, agent);
  // Warm-up: a few sequential operations, not recorded (JIT, connections, SQLite page cache).
  const warmEnd = performance.now() + warmupMs;
  let warmupOps = 0;
  for (; warmupOps < 200 && performance.now() < warmEnd; warmupOps++) await op();

  const interval = 1000 / rate;
  const total = Math.round((rate * durationMs) / 1000);
  const latencies = [];
  const errors = [];
  const inflight = new Set();
  const start = performance.now() + 5;
  let issued = 0;
  let maxLagMs = 0;
  const startOne = (scheduled) => {
    const p = op().then((r) => {
      const latency = performance.now() - scheduled - r.clientMs;
      if (r.ok) latencies.push(latency);
      else errors.push(r.error);
      inflight.delete(p);
    });
    inflight.add(p);
  };
  while (issued < total) {
    const now = performance.now();
    // Start everything whose time has come (catching up if the timer fired late).
    while (issued < total && start + issued * interval <= now) {
      const scheduled = start + issued * interval;
      maxLagMs = Math.max(maxLagMs, now - scheduled);
      startOne(scheduled);
      issued++;
    }
    const next = start + issued * interval;
    await sleep(Math.max(0, Math.min(next - performance.now(), 50)));
  }
  const issuedEnd = performance.now();
  // Wait for the stragglers, bounded.
  await Promise.race([Promise.all(inflight), sleep(REQUEST_TIMEOUT_MS + 2000)]);
  for (let n = 0; n < inflight.size; n++) errors.push("unfinished");
  const elapsedS = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    mode: "open",
    offeredRate: rate,
    durationS: round((issuedEnd - start) / 1000),
    completed: latencies.length,
    achievedRate: round(latencies.length / elapsedS),
    latencyMs: summarize(latencies),
    errors: errorSummary(errors),
    generatorMaxLagMs: round(maxLagMs),
    warmupOps,
  };
}

/** Closed loop: N connections, each starting its next operation when the last one answered. */
async function closedLoop(target, { concurrency, durationMs, warmupMs = 1000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const op = operationFor(target, agent);
  const warmEnd = performance.now() + warmupMs;
  let warmupOps = 0;
  for (; warmupOps < 200 && performance.now() < warmEnd; warmupOps++) await op();

  const latencies = [];
  const errors = [];
  const start = performance.now();
  const deadline = start + durationMs;
  const maxOps = 1_000_000;
  let ops = 0;
  const worker = async () => {
    while (performance.now() < deadline && ops < maxOps) {
      ops++;
      const t0 = performance.now();
      const r = await op();
      if (r.ok) latencies.push(performance.now() - t0 - r.clientMs);
      else errors.push(r.error);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    mode: "closed",
    concurrency,
    durationS: round(elapsedS),
    completed: latencies.length,
    achievedRate: round(latencies.length / elapsedS),
    latencyMs: summarize(latencies),
    errors: errorSummary(errors),
    warmupOps,
  };
}

// ---- A gig whose parties we control ----------------------------------------------------------------

async function member(agent, label, sessions) {
  const key = generateSecretKey();
  const tokens = [];
  let userId = null;
  for (let n = 0; n < sessions; n++) {
    const r = await signIn(agent, key);
    if (!r.ok) throw new Error(`sign-in of ${label} failed: ${r.error}`);
    tokens.push(r.token);
    userId = r.userId;
  }
  const tag = Math.random().toString(36).slice(2, 10);
  await json(agent, "PATCH", "/api/user/me", { token: tokens[0], body: { lightningAddress: `${label}${tag}@wallet.test`, displayName: `Bench ${label}` } });
  return { userId, tokens, token: tokens[0] };
}

const JOB = {
  gigType: "job_request",
  title: "Benchmark job: design a logo",
  description: "A clean logo for a bitcoin meetup, SVG please. Posted by the benchmark.",
  category: "Design",
  payment: 10_000,
  timeframe: 7,
};

async function fundedClaimedJob(agent, hirer, worker) {
  const posted = await json(agent, "POST", "/api/gigs", { token: hirer.token, body: JOB });
  const gigId = posted.gig.id;
  await json(agent, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest } });
  const interest = await json(agent, "POST", `/api/gigs/${gigId}/pre-claim-messages`, { token: worker.token, body: { message: "I would love to do this." } });
  for (const step of ["approve", "enable-claim"]) await json(agent, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { token: hirer.token });
  await json(agent, "POST", `/api/gigs/${gigId}/claim`, { token: worker.token });
  return gigId;
}

// ---- Chat fan-out ------------------------------------------------------------------------------

/**
 * Opens a socket, authenticates it and joins the gig's room; bounded by a time-out. `at` is where it connects:
 * wrangler dev's port (job.baseUrl) or the runtime's own (job.runtimeUrl), both loopback.
 */
function joinedSocket(gigId, token, onFrame, at = base) {
  return new Promise((resolve, reject) => {
    const url = `ws://${at.host}/ws?gigId=${encodeURIComponent(gigId)}`;
    const ws = new WebSocket(url, { origin: at.origin, perMessageDeflate: false });
    let joined = false;
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error("socket did not join within 15 s"));
    }, 15_000);
    ws.on("open", () => ws.send(JSON.stringify({ type: "auth", sessionToken: token })));
    ws.on("message", (data) => {
      const at = performance.now();
      const frame = JSON.parse(String(data));
      if (frame.type === "auth_success") ws.send(JSON.stringify({ type: "join_gig", gigId }));
      else if (frame.type === "join_success") {
        joined = true;
        clearTimeout(timer);
        resolve(ws);
      } else if (frame.type === "error" && !joined) {
        clearTimeout(timer);
        ws.terminate();
        reject(new Error(`socket refused: ${frame.message}`));
      } else if (frame.type === "error") {
        // Once joined, an error answers one frame (e.g. the per-socket message limit); the socket stays open.
        console.error(`[load] chat error frame: ${frame.message}`);
      }
      if (frame.type === "new_message") onFrame(frame, at);
    });
    ws.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * Opens a member's inbox socket (`/api/notifications/socket`), the session offered beside the protocol as a tab
 * does; resolves once its first frame (the unread count) arrived. `onNotification` gets each pushed notification.
 */
function inboxSocket(token, onNotification, at = base) {
  return new Promise((resolve, reject) => {
    const url = `ws://${at.host}/api/notifications/socket`;
    const ws = new WebSocket(url, ["gigstr-notifications", `bearer.${token}`], { origin: at.origin, perMessageDeflate: false });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error("inbox socket gave no count within 15 s"));
    }, 15_000);
    ws.on("message", (data) => {
      const at = performance.now();
      const frame = JSON.parse(String(data));
      if (frame.type === "unread_count") {
        clearTimeout(timer);
        resolve(ws);
      } else if (frame.type === "notification") onNotification(frame.notification, at);
      else if (frame.type === "error") console.error(`[load] inbox error frame: ${frame.message}`);
    });
    ws.on("unexpected-response", (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`inbox socket refused: ${res.statusCode}`));
    });
    ws.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** Time between one sender's messages: 30 in 10 s at most (CHAT_MESSAGES_PER_SOCKET), with room to spare. */
const SENDER_PACE_MS = 400;

/**
 * 1 sender and `sockets` listeners (half as the hirer, half as the worker, over several sessions each) in one
 * gig's room, connected through wrangler dev's port; and, when `runtimeUrl` is given, the same again in a second
 * gig's room of the same two members (the same session tokens) connected straight to the runtime's own port, as
 * a deployed Worker has no wrangler proxy in front of it. The messages go to the two rooms in turn (one through
 * wrangler, one straight), each when the previous one reached every listener and its notification every tab
 * (or 5 s passed), so both ways are measured at the same moments of the same machine. A message's latency to a
 * listener is the time from its send to that listener's `new_message`.
 */
async function chat({ sockets: listenerCount, messages, sessionsPerParty, afterIdle }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const setupStart = performance.now();
  const hirer = await member(agent, "hirer", sessionsPerParty);
  const worker = await member(agent, "worker", sessionsPerParty);
  const ways = [{ at: base, gigId: await fundedClaimedJob(agent, hirer, worker) }];
  if (runtimeBase) ways.push({ at: runtimeBase, gigId: await fundedClaimedJob(agent, hirer, worker) });

  const sentAt = new Map(); // text -> send time
  const plan = Array.from({ length: listenerCount }, (_, i) => {
    const party = i % 2 === 0 ? hirer : worker;
    return party.tokens[Math.floor(i / 2) % party.tokens.length];
  });
  const firstJoinAt = performance.now();
  for (const way of ways) {
    way.received = new Map(); // text -> latencies to this way's listeners
    way.notified = new Map(); // text -> latencies to this way's tabs (the worker's, one per session)
    const onFrame = (frame, at) => {
      const latencies = way.received.get(frame.message.message);
      if (latencies) latencies.push(at - sentAt.get(frame.message.message));
    };
    way.listeners = await inBatches(plan, 20, (token) => joinedSocket(way.gigId, token, onFrame, way.at));
    // Each message notifies the worker: their tabs hear of it over their inbox sockets. The worker's tabs of
    // both ways share one inbox, so each way counts only its own messages.
    const onNotification = (notification, at) => {
      for (const [text, latencies] of way.notified) {
        if (notification.message.endsWith(`: ${text}`)) latencies.push(at - sentAt.get(text));
      }
    };
    way.tabs = await inBatches(worker.tokens, 10, (token) => inboxSocket(token, onNotification, way.at));
  }
  const joinedAt = performance.now();
  for (const way of ways) way.sender = await joinedSocket(way.gigId, hirer.tokens[0], () => {}, way.at);
  const setupS = (performance.now() - setupStart) / 1000;

  // How long this client's own event loop was held up while each message was out (the longest delay of a timer):
  // a late delivery with a long stall here was late in the client (its receive time is taken in JavaScript), not in the app.
  const stall = monitorEventLoopDelay({ resolution: 1 });
  stall.enable();
  // And how much of that was this client collecting its own garbage: a stall without it was the client's core
  // taken by another program (a second thread on the same core would not have run either).
  let gcMs = 0;
  const gcs = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcs.observe({ entryTypes: ["gc"] });
  for (const way of ways) {
    Object.assign(way, { all: [], lastSocket: [], firstSocket: [], lost: 0, stalls: [], gc: [], sentMonotonic: [] });
  }
  const sendOne = async (way, label) => {
    const text = `bench ${label} ${Math.random().toString(36).slice(2)}`;
    way.received.set(text, []);
    way.notified.set(text, []);
    const deadline = performance.now() + 5000;
    sentAt.set(text, performance.now());
    // When each message was sent, on the system's monotonic clock (ms): to line a slow one up with other
    // recordings of the machine (e.g. `perf record -k CLOCK_MONOTONIC`).
    way.sentMonotonic.push(Number(process.hrtime.bigint() / 1000n) / 1000);
    stall.reset();
    const gc0 = gcMs;
    way.sender.send(JSON.stringify({ type: "chat_message", gigId: way.gigId, message: text }));
    while ((way.received.get(text).length < listenerCount || way.notified.get(text).length < way.tabs.length) && performance.now() < deadline) await sleep(2);
    way.stalls.push(round(stall.max / 1e6));
    // The observer hears of a collection a turn later: read after one more.
    await sleep(0);
    way.gc.push(round(gcMs - gc0));
    return way.received.get(text);
  };

  for (let m = 0; m < messages; m++) {
    for (const way of ways) {
      const lat = await sendOne(way, `m${m}`);
      way.all.push(...lat);
      way.lastSocket.push(lat.length ? Math.max(...lat) : NaN);
      way.firstSocket.push(lat.length ? Math.min(...lat) : NaN);
      way.lost += listenerCount - lat.length;
      // Each sender stays under the room's per-socket limit (30 messages in 10 s, worker/rate-limits.ts): with two
      // rooms in turn, a sender's messages are still SENDER_PACE_MS apart, and the 50 of each room end before
      // its listeners' sessions are a minute old (the room would re-check them all on the next message).
      await sleep(SENDER_PACE_MS / ways.length);
    }
  }
  // From the first socket's join to the last message: past 60 s, the last messages paid the room's re-check.
  const messagesEndedAfterJoinS = round((performance.now() - firstJoinAt) / 1000);
  const figures = (way) => {
    // From the message's send (its notification is written in the same batch) to each of the worker's tabs.
    const toTabs = [...way.notified.values()].flat();
    return {
      gigId: way.gigId,
      listeners: way.listeners.length,
      senders: 1,
      messages,
      deliveries: way.all.length,
      lost: way.lost,
      latencyMs: summarize(way.all),
      timeToLastSocketMs: summarize(way.lastSocket.filter(Number.isFinite)),
      // Send to last socket, message by message: shows whether a slow p99 is one message or many.
      lastSocketByMessageMs: way.lastSocket.map((x) => (Number.isFinite(x) ? round(x) : null)),
      // Send to the first socket: a late first socket means the room started its broadcast late (the checks and the
      // store, or a pause before them); a late last socket after an early first one, a slow broadcast.
      firstSocketByMessageMs: way.firstSocket.map((x) => (Number.isFinite(x) ? round(x) : null)),
      sentAtMonotonicMs: way.sentMonotonic.slice(0, messages),
      // The time between one socket's receive time of a message and the next socket's (µs): this client reads the
      // 200 sockets one after the other, so when the frames wait for it this is its own cost per socket, and 200
      // times it is as late as the client itself can make a message's last socket.
      clientGapBetweenSocketsUs: summarize(
        [...way.received.values()].slice(0, messages).flatMap((l) => l.slice(1).map((x, i) => (x - l[i]) * 1000)),
      ),
      clientStallByMessageMs: way.stalls.slice(0, messages),
      clientGcByMessageMs: way.gc.slice(0, messages),
      notifications: { tabs: way.tabs.length, messages, deliveries: toTabs.length, lost: way.tabs.length * messages - toTabs.length, latencyMs: summarize(toTabs) },
    };
  };
  const [proxied, straight] = ways;
  const result = { ...figures(proxied), setupS: round(setupS), messagesEndedAfterJoinS };
  if (straight) result.straightToRuntime = { port: Number(straight.at.port), ...figures(straight) };

  // The room re-checks a listener's session when it was last checked more than 60 s ago: the first
  // message after a quiet minute pays for every listener's check. Measured once the minute has passed,
  // through wrangler dev, in the first room.
  if (afterIdle) {
    if (afterIdle.payments) result.payments = [];
    for (const job of afterIdle.payments ?? []) result.payments.push(await payment({ ...job, agent, hirer }));
    const waitMs = joinedAt + afterIdle.idleMs - performance.now();
    if (waitMs > 0) await sleep(Math.min(waitMs, afterIdle.idleMs));
    const first = await sendOne(proxied, "after-idle-0");
    const rest = [];
    for (let m = 1; m < afterIdle.messages; m++) {
      await sleep(20);
      rest.push(...(await sendOne(proxied, `after-idle-${m}`)));
    }
    result.afterIdle = {
      idleS: round(afterIdle.idleMs / 1000),
      firstMessage: { deliveries: first.length, latencyMs: summarize(first) },
      following: { messages: afterIdle.messages - 1, latencyMs: summarize(rest) },
    };
  }
  gcs.disconnect();
  for (const way of ways) for (const ws of [...way.listeners, way.sender, ...way.tabs]) ws.close();
  agent.destroy();
  return result;
}

// ---- Payment detection ------------------------------------------------------------------------------

/**
 * The dev wallet pays; then GET /api/gigs/{id} is polled (every ~5 ms, at most 10 s) until escrowStatus is funded.
 * With `webhook: false` the wallet tells no one (as a wallet without webhooks), so the gig's invoice watcher has
 * to find the payment; sample s then pays `spreadMs * s / samples` after posting, so the payments fall evenly
 * across the watcher's polling interval.
 */
async function payment({ samples, webhook = true, spreadMs = 0, agent: given, hirer: givenHirer }) {
  const agent = given ?? new http.Agent({ keepAlive: true, maxSockets: 4 });
  const hirer = givenHirer ?? (await member(agent, "payer", 1));
  const detection = [];
  const payCall = [];
  const failures = [];
  for (let s = 0; s < samples; s++) {
    const posted = await json(agent, "POST", "/api/gigs", { token: hirer.token, body: JOB });
    const gigId = posted.gig.id;
    if (spreadMs > 0) await sleep((spreadMs * s) / samples);
    const t0 = performance.now();
    const pay = request(agent, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest, webhook } }).then((r) => {
      payCall.push(r.ended - t0);
      return r;
    });
    let seen = null;
    while (performance.now() - t0 < 10_000) {
      const r = await request(agent, "GET", `/api/gigs/${gigId}`, { token: hirer.token });
      if (r.status === 200 && JSON.parse(r.text).escrowStatus === "funded") {
        seen = r.ended;
        break;
      }
      await sleep(5);
    }
    const payRes = await pay;
    if (payRes.status !== 200) failures.push(`pay ${payRes.status}`);
    if (seen === null) failures.push("not funded within 10 s");
    else detection.push(seen - t0);
    await sleep(100);
  }
  if (!given) agent.destroy();
  return { samples, webhook, spreadMs, detectionMs: summarize(detection), payCallMs: summarize(payCall), failures };
}

// ---- Instructions ----------------------------------------------------------------------------------

/**
 * Each target's operation, one at a time: `warmup` of each uncounted (the runtime's compilers see the code
 * first), then `rounds` rounds, each a window of `count` operations of every target in turn (which goes first
 * alternating). Before a window the runtime's counters are zeroed and after it they are dumped under the label
 * `<key> <round>`; the runner reads the dumps. Counting itself is on from the end of the warm-up.
 */
async function instructions(job) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const control = (...args) => execFileSync("callgrind_control", [...args, String(job.pid)], { stdio: "ignore", timeout: 60_000 });
  const ops = job.targets.map((t) => ({ key: t.key, op: operationFor(t.target, agent) }));
  const failures = [];
  const runOne = async (op) => {
    const r = await op();
    if (!r.ok) failures.push(r.error);
  };
  for (const { op } of ops) for (let i = 0; i < job.warmup; i++) await runOne(op);
  control("--instr=on");
  // The first operations after instrumentation is switched on run code valgrind has not translated yet.
  for (const { op } of ops) for (let i = 0; i < Math.min(job.warmup, 10); i++) await runOne(op);
  const windows = [];
  for (let round = 1; round <= job.rounds; round++) {
    for (const { key, op } of round % 2 ? ops : [...ops].reverse()) {
      control("--zero");
      for (let i = 0; i < job.count; i++) await runOne(op);
      const label = `${key} ${round}`;
      control(`--dump=${label}`);
      windows.push({ key, round, label });
    }
  }
  control("--instr=off");
  agent.destroy();
  return { count: job.count, rounds: job.rounds, warmup: job.warmup, windows, failures: errorSummary(failures) };
}

function round(x) {
  return Math.round(x * 100) / 100;
}

// ---- main ------------------------------------------------------------------------------------------

const hardLimit = setTimeout(() => {
  console.error("load.mjs: hard time limit reached");
  process.exit(3);
}, job.hardLimitMs ?? 240_000);

let result;
if (job.kind === "http") result = job.mode === "open" ? await openLoop(job.target, job) : await closedLoop(job.target, job);
else if (job.kind === "chat") result = await chat(job);
else if (job.kind === "payment") result = await payment(job);
else if (job.kind === "instructions") result = await instructions(job);
else throw new Error(`unknown job kind ${job.kind}`);
const usage = process.cpuUsage();
result.clientCpuMs = Math.round((usage.user + usage.system) / 1000);
writeFileSync(resultFile, JSON.stringify(result, null, 1));
clearTimeout(hardLimit);
process.exit(0);
