// Old gigs to R2 (decision 033): a gig that ended more than ARCHIVE_AFTER_DAYS ago has its events, interest
// messages, notifications and chat moved into one document in R2 by the cron. Everyone allowed to read it reads
// the same as before, a stranger is still refused, D1 keeps the gig and its money rows, and faults on the way
// (a run stopped between R2 and D1, a change in between, a payout not yet paid) never lose a row.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../index";
import { makeDeps } from "../composition";
import { statement } from "../db/test-statements";
import { adminApi, adminSignIn, asAdmin } from "../test/admin";
import { api, call, claimedJob, postGig, payWithDevWallet, signUp, submittedJob, type Json, type Member } from "../test/factories";
import { expectLedgerBalanced, payoutsOf } from "../test/money";
import { pdfTextLines } from "../test/pdf";
import { joinedSocket } from "../test/sockets";
import { archiveOldGigs, dueGigs, retireRows, writeArchive } from "./archive";
import { archiveKey, type ArchivedGig } from "./archived-gig";

const deps = () => makeDeps(env, () => {});

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const DAY_MS = 86_400_000;

/** The gig ended `days` ago (its completion or cancellation moved back), as it would read a year on. */
async function endedDaysAgo(gigId: string, days = 400) {
  const at = new Date(Date.now() - days * DAY_MS).toISOString();
  await statement(
    "UPDATE gigs SET completed_at = CASE WHEN completed_at IS NOT NULL THEN ? END, cancelled_at = CASE WHEN cancelled_at IS NOT NULL THEN ? END WHERE id = ?",
    at,
    at,
    gigId,
  ).run();
}

/** How many of the gig's rows D1 holds of each part that moves. */
async function rowsInD1(gigId: string) {
  const count = async (table: string) => (await statement(`SELECT COUNT(*) AS n FROM ${table} WHERE gig_id = ?`, gigId).first<{ n: number }>())!.n;
  return { events: await count("gig_events"), interest: await count("pre_claim_messages"), notifications: await count("notifications"), chat: await count("chat_messages") };
}

const archivedAt = async (gigId: string) => (await statement("SELECT archived_at FROM gigs WHERE id = ?", gigId).first<{ archived_at: string | null }>())!.archived_at;

async function documentOf(gigId: string): Promise<ArchivedGig | null> {
  const object = await env.FILES.get(archiveKey(gigId));
  return object ? ((await object.json()) as ArchivedGig) : null;
}

type Reader = { name: string; token?: string; adminToken?: string };

/** What one reader gets from each read of the gig: details, events, chat, interest messages, the receipt. */
async function readsOf(gigId: string, reader: Reader) {
  const get = (path: string) => adminApi(path, { token: reader.token, adminToken: reader.adminToken });
  const receipt = await api(`/api/gigs/${gigId}/receipt`, { token: reader.token, headers: reader.adminToken ? { "x-admin-token": reader.adminToken } : {} });
  return {
    details: await get(`/api/gigs/${gigId}`),
    events: await get(`/api/gigs/${gigId}/events`),
    messages: await get(`/api/gigs/${gigId}/messages`),
    olderMessages: await api(`/api/gigs/${gigId}/messages?limit=1`, { token: reader.token, headers: reader.adminToken ? { "x-admin-token": reader.adminToken } : {} }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
      nextCursor: r.headers.get("x-next-cursor"),
    })),
    interest: await get(`/api/gigs/${gigId}/pre-claim-messages`),
    receipt: receipt.status === 200 ? { status: 200, lines: await pdfTextLines(await receipt.arrayBuffer()) } : { status: receipt.status, body: await receipt.text() },
    ...(reader.adminToken ? { adminChat: await get(`/api/admin/chat/${gigId}`) } : {}),
  };
}

async function readsOfAll(gigId: string, readers: Reader[]) {
  const all: Record<string, unknown> = {};
  for (const r of readers) all[r.name] = await readsOf(gigId, r);
  return all;
}

async function chatAbout(gigId: string, hirer: Member, worker: Member, admin: string) {
  const h = await joinedSocket(gigId, hirer);
  expect((await h.ask({ type: "chat_message", gigId, message: "Is SVG fine?" })).type).toBe("new_message");
  const w = await joinedSocket(gigId, worker);
  expect((await w.ask({ type: "chat_message", gigId, message: "SVG it is, @admin please keep an eye" })).type).toBe("new_message");
  expect((await asAdmin(admin, `/api/admin/chat/${gigId}`, "POST", { message: "Noted, all good." })).status).toBe(201);
  h.close();
  w.close();
}

const notificationsOf = async (m: Member) => (await call("/api/notifications", m.token)).body as unknown as { gigId: string | null }[];

describe("an old completed gig moves to R2", () => {
  it("reads the same to its parties and the admin, is still refused to a stranger, and leaves D1", async () => {
    const admin = await adminSignIn();
    const job = await submittedJob();
    await chatAbout(job.gigId, job.hirer, job.worker, admin);
    expect((await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST")).status).toBe(200);
    expect((await payoutsOf(job.gigId)).map((p) => p.status)).toEqual(["succeeded"]);
    await endedDaysAgo(job.gigId);
    const stranger = await signUp();
    const readers: Reader[] = [
      { name: "hirer", token: job.hirer.token },
      { name: "worker", token: job.worker.token },
      { name: "admin", adminToken: admin },
      { name: "stranger", token: stranger.token },
      { name: "visitor" },
    ];
    const before = await readsOfAll(job.gigId, readers);
    const inD1 = await rowsInD1(job.gigId);
    expect(inD1.events).toBeGreaterThan(3);
    expect(inD1.interest).toBe(1);
    expect(inD1.notifications).toBeGreaterThan(3);
    expect((before.hirer as Json).messages.body.map((m: Json) => m.message)).toEqual(["Is SVG fine?", "SVG it is, @admin please keep an eye", "Noted, all good."]);
    expect((before.stranger as Json).events.status).toBe(403);
    expect((await notificationsOf(job.worker)).some((n) => n.gigId === job.gigId)).toBe(true);

    await runCron();

    expect(await archivedAt(job.gigId)).not.toBeNull();
    const doc = (await documentOf(job.gigId))!;
    expect({ events: doc.events.length, interest: doc.interestMessages.length, notifications: doc.notifications.length, chat: doc.chat.length }).toEqual({ ...inD1, chat: 3 });
    expect(await rowsInD1(job.gigId)).toEqual({ events: 0, interest: 0, notifications: 0, chat: 0 });
    // The room's copy is gone too: the chat is read from the document alone.
    expect(await (await import("./chat")).gigChatHistory(env, job.gigId)).toEqual([]);
    expect(await readsOfAll(job.gigId, readers)).toEqual(before);
    // Its notifications left the members' lists; its money rows stayed.
    for (const m of [job.hirer, job.worker]) expect((await notificationsOf(m)).some((n) => n.gigId === job.gigId)).toBe(false);
    expect((await payoutsOf(job.gigId)).map((p) => p.status)).toEqual(["succeeded"]);
    await expectLedgerBalanced();

    // A second run changes nothing: the document is not written again, the reads stay the same.
    const etag = (await env.FILES.head(archiveKey(job.gigId)))!.etag;
    expect(await archiveOldGigs(deps())).toBe(0);
    expect((await env.FILES.head(archiveKey(job.gigId)))!.etag).toBe(etag);
    expect(await readsOfAll(job.gigId, readers)).toEqual(before);
  });

  it("finds the gigs due by their index, not by reading every ended gig", async () => {
    const query = dueGigs(deps(), new Date().toISOString(), 5).toSQL();
    const plan = await statement(`EXPLAIN QUERY PLAN ${query.sql}`, ...query.params).all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join("\n")).toMatch(/gigs USING INDEX gigs_archive_due_idx/);
  });

  it("waits ARCHIVE_AFTER_DAYS after the gig ended", async () => {
    const job = await submittedJob();
    expect((await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST")).status).toBe(200);
    await endedDaysAgo(job.gigId, 29);
    const thirtyDays = makeDeps({ ...env, ARCHIVE_AFTER_DAYS: "30" }, () => {});
    await archiveOldGigs(thirtyDays);
    expect(await archivedAt(job.gigId)).toBeNull();
    await endedDaysAgo(job.gigId, 31);
    await archiveOldGigs(thirtyDays);
    expect(await archivedAt(job.gigId)).not.toBeNull();
  });
});

describe("old cancelled and refunded gigs move to R2", () => {
  it("a job request cancelled before it was paid", async () => {
    const hirer = await signUp({ lightningAddress: `arc${crypto.randomUUID().slice(0, 6)}@wallet.test` });
    const posted = await postGig(hirer);
    expect((await call(`/api/gigs/${posted.gig.id}/cancel`, hirer.token, "POST")).status).toBe(200);
    // A year on, the wallet is long done with the invoice nobody paid.
    await statement("UPDATE invoices SET status = 'expired', late_check_at = NULL WHERE gig_id = ?", posted.gig.id).run();
    await endedDaysAgo(posted.gig.id);
    const stranger = await signUp();
    const readers: Reader[] = [{ name: "hirer", token: hirer.token }, { name: "admin", adminToken: await adminSignIn() }, { name: "stranger", token: stranger.token }, { name: "visitor" }];
    const before = await readsOfAll(posted.gig.id, readers);

    await runCron();

    expect(await archivedAt(posted.gig.id)).not.toBeNull();
    expect(await rowsInD1(posted.gig.id)).toEqual({ events: 0, interest: 0, notifications: 0, chat: 0 });
    expect(await readsOfAll(posted.gig.id, readers)).toEqual(before);
    await expectLedgerBalanced();
  });

  it("a disputed gig the admin refunded to the hirer", async () => {
    const admin = await adminSignIn();
    const job = await submittedJob();
    await chatAbout(job.gigId, job.hirer, job.worker, admin);
    expect((await call(`/api/gigs/${job.gigId}/dispute`, job.hirer.token, "POST", { reason: "The logo is not an SVG and the colours are wrong." })).status).toBe(200);
    expect((await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "refund_hirer" })).status).toBe(200);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "cancelled", escrowStatus: "refunded" });
    expect((await payoutsOf(job.gigId)).map((p) => [p.purpose, p.status])).toEqual([["hirer_refund", "succeeded"]]);
    await endedDaysAgo(job.gigId);
    const readers: Reader[] = [
      { name: "hirer", token: job.hirer.token },
      { name: "worker", token: job.worker.token },
      { name: "admin", adminToken: admin },
      { name: "stranger", token: (await signUp()).token },
    ];
    const before = await readsOfAll(job.gigId, readers);

    await runCron();

    expect(await archivedAt(job.gigId)).not.toBeNull();
    expect(await rowsInD1(job.gigId)).toEqual({ events: 0, interest: 0, notifications: 0, chat: 0 });
    expect((await documentOf(job.gigId))!.chat.map((m) => m.message)).toEqual(["Is SVG fine?", "SVG it is, @admin please keep an eye", "Noted, all good."]);
    expect(await readsOfAll(job.gigId, readers)).toEqual(before);
    await expectLedgerBalanced();
  });
});

describe("archiving under faults", () => {
  /** A completed job whose end is long past. */
  async function oldCompletedJob() {
    const job = await submittedJob();
    expect((await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST")).status).toBe(200);
    await endedDaysAgo(job.gigId);
    return job;
  }

  it("keeps a gig whose payout is not yet paid (pending, or in doubt) in D1", async () => {
    for (const set of ["status = 'pending'", "status = 'in_flight', hold = 'in_doubt'"]) {
      const job = await oldCompletedJob();
      const [payout] = await payoutsOf(job.gigId);
      await statement(`UPDATE payouts SET ${set} WHERE id = ?`, payout!.id).run();
      const inD1 = await rowsInD1(job.gigId);
      await archiveOldGigs(deps());
      expect(await archivedAt(job.gigId)).toBeNull();
      expect(await rowsInD1(job.gigId)).toEqual(inD1);
      expect(await documentOf(job.gigId)).toBeNull();
      // Paid at last: archived on the next run.
      await statement("UPDATE payouts SET status = 'succeeded', hold = NULL WHERE id = ?", payout!.id).run();
      await archiveOldGigs(deps());
      expect(await archivedAt(job.gigId)).not.toBeNull();
    }
  });

  it("a run stopped after writing R2 is redone by the next, each row once", async () => {
    const admin = await adminSignIn();
    const job = await submittedJob();
    await chatAbout(job.gigId, job.hirer, job.worker, admin);
    expect((await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST")).status).toBe(200);
    await endedDaysAgo(job.gigId);
    const readers: Reader[] = [{ name: "hirer", token: job.hirer.token }, { name: "worker", token: job.worker.token }, { name: "admin", adminToken: admin }];
    const before = await readsOfAll(job.gigId, readers);
    const inD1 = await rowsInD1(job.gigId);

    // The run stops between R2 and D1: the document is written, D1 untouched, and the gig reads as before.
    expect(await writeArchive(deps(), job.gigId)).not.toBeNull();
    expect(await archivedAt(job.gigId)).toBeNull();
    expect(await rowsInD1(job.gigId)).toEqual(inD1);
    expect(await readsOfAll(job.gigId, readers)).toEqual(before);

    await archiveOldGigs(deps());

    expect(await archivedAt(job.gigId)).not.toBeNull();
    const doc = (await documentOf(job.gigId))!;
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    for (const part of [doc.events, doc.interestMessages, doc.notifications, doc.chat]) expect(new Set(ids(part)).size).toBe(part.length);
    expect({ events: doc.events.length, interest: doc.interestMessages.length, notifications: doc.notifications.length, chat: doc.chat.length }).toEqual({ ...inD1, chat: 3 });
    expect(await rowsInD1(job.gigId)).toEqual({ events: 0, interest: 0, notifications: 0, chat: 0 });
    expect(await readsOfAll(job.gigId, readers)).toEqual(before);
  });

  it("a review written between R2 and D1 stops the batch; the next run archives it with the review", async () => {
    const job = await oldCompletedJob();
    const written = (await writeArchive(deps(), job.gigId))!;
    const review = await call(`/api/gigs/${job.gigId}/review`, job.hirer.token, "POST", { rating: 5, comment: "Lovely logo", revieweeId: job.worker.id });
    expect(review.status).toBe(201);
    const inD1 = await rowsInD1(job.gigId);

    expect(await retireRows(deps(), written)).toBe(false);
    expect(await archivedAt(job.gigId)).toBeNull();
    expect(await rowsInD1(job.gigId)).toEqual(inD1);

    await archiveOldGigs(deps());
    expect(await archivedAt(job.gigId)).not.toBeNull();
    const doc = (await documentOf(job.gigId))!;
    expect(doc.notifications.length).toBe(inD1.notifications);
    expect(doc.notifications.some((n) => n.userId === job.worker.id && n.type === "review")).toBe(true);
  });

  it("a chat message sent between R2 and D1 stops the batch; the next run archives it with the message", async () => {
    const admin = await adminSignIn();
    const job = await oldCompletedJob();
    const written = (await writeArchive(deps(), job.gigId))!;
    expect((await asAdmin(admin, `/api/admin/chat/${job.gigId}`, "POST", { message: "Anything else?" })).status).toBe(201);

    expect(await retireRows(deps(), written)).toBe(false);
    expect(await archivedAt(job.gigId)).toBeNull();

    await archiveOldGigs(deps());
    expect(await archivedAt(job.gigId)).not.toBeNull();
    expect((await documentOf(job.gigId))!.chat.map((m) => m.message)).toEqual(["Anything else?"]);
    expect((await call(`/api/gigs/${job.gigId}/messages`, job.worker.token)).body.map((m: Json) => m.message)).toEqual(["Anything else?"]);
  });

  it("a message sent to an archived gig's chat is read after its archived ones", async () => {
    const admin = await adminSignIn();
    const job = await oldCompletedJob();
    expect((await asAdmin(admin, `/api/admin/chat/${job.gigId}`, "POST", { message: "Closing this one." })).status).toBe(201);
    await archiveOldGigs(deps());
    expect(await archivedAt(job.gigId)).not.toBeNull();
    const w = await joinedSocket(job.gigId, job.worker);
    expect((await w.ask({ type: "chat_message", gigId: job.gigId, message: "One more thing, a year later" })).type).toBe("new_message");
    w.close();
    const messages = (await call(`/api/gigs/${job.gigId}/messages`, job.hirer.token)).body as unknown as Json[];
    expect(messages.map((m) => m.message)).toEqual(["Closing this one.", "One more thing, a year later"]);
    const page = await api(`/api/gigs/${job.gigId}/messages?limit=1`, { token: job.hirer.token });
    expect(((await page.json()) as Json[]).map((m) => m.message)).toEqual(["One more thing, a year later"]);
    const older = await call(`/api/gigs/${job.gigId}/messages?limit=1&before=${page.headers.get("x-next-cursor")}`, job.hirer.token);
    expect((older.body as unknown as Json[]).map((m) => m.message)).toEqual(["Closing this one."]);
  });
});

describe("what a gig's life leaves in D1", () => {
  it("measures the rows and bytes a full gig life keeps in D1 before and after archiving", async () => {
    const admin = await adminSignIn();
    const lives: string[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await claimedJob();
      for (const [path, body] of [["start-work", undefined], ["submit", { workSubmission: "Here is the logo: https://example.com/logo.svg" }]] as const) {
        expect((await call(`/api/gigs/${job.gigId}/${path}`, job.worker.token, "POST", body)).status).toBe(200);
      }
      await chatAbout(job.gigId, job.hirer, job.worker, admin);
      expect((await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST")).status).toBe(200);
      expect((await call(`/api/gigs/${job.gigId}/review`, job.hirer.token, "POST", { rating: 5, comment: "Lovely logo", revieweeId: job.worker.id })).status).toBe(201);
      await endedDaysAgo(job.gigId);
      lives.push(job.gigId);
    }
    const before = await d1Footprint(lives);
    for (let i = 0; i < lives.length; i++) await archiveOldGigs(deps());
    for (const id of lives) expect(await archivedAt(id)).not.toBeNull();
    const after = await d1Footprint(lives);
    const perLife = (f: Footprint) => ({ rows: Math.round(f.rows / lives.length), bytes: Math.round(f.bytes / lives.length) });
    console.log(`a gig life in D1 before archiving: ${JSON.stringify(perLife(before))}; after: ${JSON.stringify(perLife(after))}; by table before: ${JSON.stringify(before.byTable)}; after: ${JSON.stringify(after.byTable)}`);
    expect(after.bytes).toBeLessThan(before.bytes);
    // The gig's row and every money row stay as they were.
    expect(after.byTable.gigs?.rows).toBe(lives.length);
    for (const table of ["ledger_entries", "payouts", "invoices", "gig_milestones", "reviews"]) expect(after.byTable[table]).toEqual(before.byTable[table]);
  });
});

type Footprint = { rows: number; bytes: number; byTable: Record<string, { rows: number; bytes: number }> };

/** The rows of these gigs in every table that names a gig (the gig's own row, its ledger accounts), and their bytes. */
async function d1Footprint(gigIds: string[]): Promise<Footprint> {
  const ids = JSON.stringify(gigIds);
  const tables = (await statement("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE '%search%' AND name NOT LIKE 'd1_%'").all<{ name: string }>()).results.map((t) => t.name);
  const byTable: Footprint["byTable"] = {};
  for (const table of tables) {
    const columns = (await statement(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>()).results.map((c) => c.name);
    const mine = columns.includes("gig_id")
      ? `gig_id IN (SELECT value FROM json_each(?))`
      : table === "gigs"
        ? `id IN (SELECT value FROM json_each(?))`
        : table === "ledger_entries"
          ? `EXISTS (SELECT 1 FROM json_each(?) j WHERE account LIKE 'escrow:' || j.value || '%' OR tx_id IN (SELECT tx_id FROM ledger_entries l2 WHERE l2.account LIKE 'escrow:' || j.value || '%'))`
          : table === "payout_attempts"
            ? `payout_id IN (SELECT id FROM payouts WHERE gig_id IN (SELECT value FROM json_each(?)))`
            : null;
    if (!mine) continue;
    const size = columns.map((c) => `COALESCE(length(CAST("${c}" AS BLOB)), 0)`).join(" + ");
    const row = await statement(`SELECT COUNT(*) AS rows, COALESCE(SUM(${size}), 0) AS bytes FROM "${table}" WHERE ${mine}`, ids).first<{ rows: number; bytes: number }>();
    if (row && row.rows > 0) byTable[table] = row;
  }
  const values = Object.values(byTable);
  return { rows: values.reduce((s, t) => s + t.rows, 0), bytes: values.reduce((s, t) => s + t.bytes, 0), byTable };
}
