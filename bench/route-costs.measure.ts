// What each main route costs D1, measured on the real Worker in the real runtime (workerd, local D1): the
// statements it runs, the rows D1 reads and writes, and how much a whole gig's life and a chat message grow the
// database. Run by `npm run scale` (vitest project "costs"), which hands the figures to bench/scale-model.mjs
// through the test's meta. Not part of `npm test`: it asserts only that each step did what it should.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { generateSecretKey } from "nostr-tools/pure";
import { expect, it } from "vitest";
import { meteredD1, statement, type D1Meter } from "../worker/db/test-statements";
import { api, claimedJob, loginEvent, payWithDevWallet, postGig, signUp, submittedJob, type Member } from "../worker/test/factories";
import { joinedSocket, openInboxSocket } from "../worker/test/sockets";
import { makeDeps } from "../worker/composition";
import { archiveGig } from "../worker/services/archive";

interface RouteCost {
  route: string;
  statements: number;
  /** Of the statements, the reads a read replica may answer (a GET's D1 session); the rest go to the primary. */
  replicaReads: number;
  rowsRead: number;
  rowsWritten: number;
}

const newMeter = (): D1Meter => ({ statements: 0, rowsRead: 0, rowsWritten: 0, sizeAfter: 0, replicaReads: 0 });

/** Calls the Worker with a metered D1; answers the status and the meter. */
async function metered(path: string, init: { method?: string; token?: string; json?: unknown } = {}) {
  const meter = newMeter();
  const res = await api(path, { method: init.method, token: init.token, json: init.json, env: { DB: meteredD1(env.DB, meter) } });
  const body = await res.text();
  return { status: res.status, body, meter };
}

const costs: RouteCost[] = [];
function record(route: string, ...meters: D1Meter[]): void {
  costs.push({
    route,
    statements: meters.reduce((s, m) => s + m.statements, 0),
    replicaReads: meters.reduce((s, m) => s + (m.replicaReads ?? 0), 0),
    rowsRead: meters.reduce((s, m) => s + m.rowsRead, 0),
    rowsWritten: meters.reduce((s, m) => s + m.rowsWritten, 0),
  });
}

async function step(route: string, path: string, init: { method?: string; token?: string; json?: unknown } = {}, ok = [200, 201]) {
  const r = await metered(path, init);
  expect(ok, `${route}: ${r.status} ${r.body}`).toContain(r.status);
  record(route, r.meter);
  return JSON.parse(r.body || "null") as Record<string, any>;
}

/** Swaps a Durable Object's D1 for a metered one (the object runs in this isolate). */
async function meterObject(stub: DurableObjectStub, meter: D1Meter): Promise<void> {
  await runInDurableObject(stub, (instance) => {
    const holder = instance as unknown as { env: typeof env };
    holder.env = { ...holder.env, DB: meteredD1(env.DB, meter) };
  });
}

const databaseSize = async () => (await statement("SELECT 1").run()).meta.size_after ?? 0;

/** The bytes of the values in the D1 rows an archive takes out of these gigs (events, interest messages, notifications). */
async function recordBytes(gigIds: string[]): Promise<number> {
  const encoder = new TextEncoder();
  const sizeOf = (value: unknown) => (typeof value === "string" ? encoder.encode(value).length : typeof value === "number" ? 8 : 0);
  let total = 0;
  for (const table of ["gig_events", "pre_claim_messages", "notifications"]) {
    const { results } = await statement(`SELECT * FROM ${table} WHERE gig_id IN (SELECT value FROM json_each(?))`, JSON.stringify(gigIds)).all<Record<string, unknown>>();
    for (const row of results) for (const value of Object.values(row)) total += sizeOf(value);
  }
  return total;
}

/** The size of a gig room's own SQLite database (where its chat lives: decision 031), in bytes. */
async function roomSize(gigId: string): Promise<number> {
  return runInDurableObject(env.GIG_ROOM.get(env.GIG_ROOM.idFromName(gigId)), (_instance, state) => state.storage.sql.databaseSize);
}

/** A gig's whole life from post to review (the factories' submitted job, approved, paid and reviewed). */
async function wholeLife(): Promise<string> {
  const job = await submittedJob();
  expect((await api(`/api/gigs/${job.gigId}/approve`, { method: "POST", token: job.hirer.token })).status).toBe(200);
  expect((await api(`/api/gigs/${job.gigId}/review`, { method: "POST", token: job.hirer.token, json: { rating: 5, revieweeId: job.worker.id } })).status).toBe(201);
  return job.gigId;
}

it("measures what each main route costs D1", async (ctx) => {
  // A market to read: 60 open gigs by 20 posters.
  const posters: Member[] = [];
  for (let p = 0; p < 20; p++) posters.push(await signUp({ lightningAddress: `poster${p}@wallet.test`, displayName: `Poster ${p}` }));
  for (let g = 0; g < 60; g++) {
    const posted = await postGig(posters[g % posters.length]!, { title: `Market gig ${g}` });
    await payWithDevWallet(posted.paymentRequest!);
  }

  // Sign-in: the challenge, then the verified event (a new member).
  const key = generateSecretKey();
  const challenge = await metered("/api/auth/nostr/challenge", { method: "POST" });
  const { challenge: text, challengeId } = JSON.parse(challenge.body) as { challenge: string; challengeId: string };
  const verify = await metered("/api/auth/nostr/verify", { method: "POST", json: { event: loginEvent(key, text), challengeId } });
  expect(verify.status).toBe(200);
  record("sign-in (challenge + verify)", challenge.meter, verify.meter);
  const reader = { token: (JSON.parse(verify.body) as { sessionToken: string }).sessionToken };
  // A session's first request writes its "last used" (then at most every few minutes): not a page's cost.
  expect((await api("/api/user/me", { token: reader.token })).status).toBe(200);
  expect((await api("/api/user/me", { token: posters[0]!.token })).status).toBe(200);

  await step("browse page 1, visitor (GET /api/gigs)", "/api/gigs");
  await step("browse page 1, member", "/api/gigs", { token: reader.token });
  await step("search page (GET /api/gigs?search=)", "/api/gigs?search=logo");
  const someGig = posters[0]!;
  const listed = (await (await api("/api/gigs")).json()) as { id: string }[];
  await step("gig page, visitor (GET /api/gigs/{id})", `/api/gigs/${listed[0]!.id}`);
  await step("profile page (GET /api/users/by-npub/{npub})", `/api/users/by-npub/${encodeURIComponent((await (await api(`/api/users/${someGig.id}`)).json() as { username: string }).username)}`);
  await step("own account (GET /api/user/me)", "/api/user/me", { token: reader.token });
  await step("bell poll (GET /api/notifications/unread-count)", "/api/notifications/unread-count", { token: reader.token });
  await step("notification list (GET /api/notifications)", "/api/notifications", { token: reader.token });
  await step("my gigs (GET /api/gigs?participant=me)", "/api/gigs?participant=me", { token: posters[0]!.token });

  // A gig's life, each step metered.
  const hirer = await signUp({ lightningAddress: "hirer-costs@wallet.test", displayName: "Hirer" });
  const worker = await signUp({ lightningAddress: "worker-costs@wallet.test", displayName: "Worker" });
  const posted = await step("post a job (POST /api/gigs)", "/api/gigs", {
    method: "POST",
    token: hirer.token,
    json: { gigType: "job_request", title: "Design a logo", description: "A clean logo for a bitcoin meetup, SVG please.", category: "Design", payment: 10_000, timeframe: 7 },
  });
  const gigId = posted.gig.id as string;
  await step("fund it (the payment is seen)", "/api/dev/invoices/pay", { method: "POST", json: { paymentRequest: posted.paymentRequest } });
  const interest = await step("send interest", `/api/gigs/${gigId}/pre-claim-messages`, { method: "POST", token: worker.token, json: { message: "I would love to do this." } });
  await step("approve interest", `/api/pre-claim-messages/${interest.id}/approve`, { method: "PATCH", token: hirer.token });
  await step("enable claiming", `/api/pre-claim-messages/${interest.id}/enable-claim`, { method: "PATCH", token: hirer.token });
  await step("claim", `/api/gigs/${gigId}/claim`, { method: "POST", token: worker.token });
  await step("start work", `/api/gigs/${gigId}/start-work`, { method: "POST", token: worker.token });
  await step("submit work", `/api/gigs/${gigId}/submit`, { method: "POST", token: worker.token, json: { workSubmission: "Here it is: https://example.com/logo.svg" } });
  await step("approve and pay out", `/api/gigs/${gigId}/approve`, { method: "POST", token: hirer.token });
  await step("review", `/api/gigs/${gigId}/review`, { method: "POST", token: hirer.token, json: { rating: 5, revieweeId: worker.id } });

  // A chat message through the gig's room, its notification pushed to the other party's open tab.
  const chat = await claimedJob();
  const sender = await joinedSocket(chat.gigId, chat.hirer);
  const tab = (await openInboxSocket(chat.worker)).socket!;
  expect((await tab.next()).type).toBe("unread_count");
  const roomMeter = newMeter();
  const inboxMeter = newMeter();
  await meterObject(env.GIG_ROOM.get(env.GIG_ROOM.idFromName(chat.gigId)), roomMeter);
  await meterObject(env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(chat.worker.id)), inboxMeter);
  sender.send({ type: "chat_message", gigId: chat.gigId, message: "How is it going?" });
  expect((await sender.next()).type).toBe("new_message");
  expect((await tab.next()).type).toBe("notification");
  record("chat message (stored, notified)", roomMeter);
  record("its notification pushed to an open tab", inboxMeter);

  // Growth: whole gigs' lives and chat messages, in bytes of database per item.
  const before = await databaseSize();
  const lives = 15;
  const firstLives: string[] = [];
  for (let n = 0; n < lives; n++) firstLives.push(await wholeLife());
  const afterLives = await databaseSize();
  // Each socket may send 30 messages in 10 s (worker/rate-limits.ts): the hirer writes from 8 tabs, 25 each.
  const senders = [sender];
  for (let s = 1; s < 8; s++) senders.push(await joinedSocket(chat.gigId, chat.hirer));
  const messages = 200;
  const roomBefore = await roomSize(chat.gigId);
  for (let m = 0; m < messages; m++) {
    const from = senders[Math.floor(m / 25)]!;
    from.send({ type: "chat_message", gigId: chat.gigId, message: `Message ${m}: a line of an ordinary conversation about the work.` });
    expect((await from.next()).type).toBe("new_message");
    expect((await tab.next()).type).toBe("notification");
  }
  const roomAfter = await roomSize(chat.gigId);
  const afterMessages = await databaseSize();
  for (const s of senders) s.close();
  tab.close();

  // Archiving (decision 033): the first lives go to R2, which takes their events, interest messages and
  // notifications out of D1; the rest (the gig's row, its money rows) stays for good. D1 neither reports its free
  // pages nor compacts here (no PRAGMA, no VACUUM), so what a life sheds is counted as the bytes of the rows the
  // archive deletes (their values; their index entries are not counted, so what a life keeps is overstated).
  const shed = await recordBytes(firstLives);
  const deps = makeDeps(env, () => {});
  for (const gigId of firstLives) expect(await archiveGig(deps, gigId), `archive ${gigId}`).toBe(true);
  expect(await recordBytes(firstLives)).toBe(0);

  const bytesPerGigLife = Math.round((afterLives - before) / lives);
  const bytesPerChatMessage = Math.round((afterMessages - afterLives) / messages);
  const bytesPerArchivedGigLife = Math.max(0, bytesPerGigLife - Math.round(shed / lives));
  const roomBytesPerChatMessage = Math.round((roomAfter - roomBefore) / messages);
  expect(bytesPerGigLife).toBeGreaterThan(0);
  expect(roomBytesPerChatMessage).toBeGreaterThan(0);
  ctx.task.meta.routeCosts = {
    measuredAt: new Date().toISOString(),
    routes: costs,
    growth: { bytesPerGigLife, bytesPerChatMessage, bytesPerArchivedGigLife, roomBytesPerChatMessage, gigLives: lives, chatMessages: messages },
  };
  expect(costs.every((c) => c.statements > 0)).toBe(true);
}, 300_000);

declare module "vitest" {
  interface TaskMeta {
    routeCosts?: unknown;
  }
}
