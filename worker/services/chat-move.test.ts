// The chat move (decision 031) on a database filled as `npm run demo` fills one: the demo's market
// (scripts/demo/market.ts, through the Worker's API), with the chats an older Worker kept in D1's chat_messages
// written on its gigs as that Worker wrote them (members' messages, the admin's, a mention of @admin, a file,
// two messages in the same millisecond, one long chat), and migration 0018 applied to that database. Then the
// move copies every gig's chat into its room: every gig reads the same before, during and after (same ids,
// order, texts, files), the admin's unread chats are the same, running it again changes nothing, and a run
// stopped part-way (after some gigs, and inside a gig) then finished gives the same result.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarket, type Caller, type DemoMarket, type DemoMember } from "../../scripts/demo/market";
import { adminSignIn, asAdmin } from "../test/admin";
import { api, BASE, statusAndBody, type Json } from "../test/factories";
import { uploadFile } from "../test/uploads";
import { makeDeps } from "../composition";
import { gigChatHistory } from "./chat";
import { moveAllChatToRooms, moveChatToRooms } from "./chat-move";

type Row = Record<string, unknown>;
const all = async <T = Row>(query: string, ...params: unknown[]) => (await env.DB.prepare(query).bind(...params).all<T>()).results;

// This file's members call from addresses of their own, so it never shares a rate-limit window with another.
const call: Caller = async (method, path, { token, json, address }) =>
  statusAndBody(await api(path, { method, token, json, headers: { "cf-connecting-ip": address.replace(/^203\.0\.113\./, "198.18.31.") } }));

const deps = () => makeDeps(env, (work) => void work());

let market: DemoMarket;
let admin: string;
let gigIds: string[];
/** Every gig's chat as read before the move: the history the parties page through, and the archive's. */
let before: Map<string, { pages: Json[]; all: Json[] }>;
let unreadBefore: Json[];
let summariesBefore: Row[];

/** The history as `GET /api/gigs/{id}/messages` answers it, every page (the admin may read every gig's). */
async function historyPages(gigId: string): Promise<Json[]> {
  const pages: Json[] = [];
  let cursor: string | null = null;
  for (;;) {
    const res = await api(`/api/gigs/${gigId}/messages?limit=40${cursor ? `&before=${encodeURIComponent(cursor)}` : ""}`, { headers: { "x-admin-token": admin } });
    expect(res.status).toBe(200);
    pages.push({ messages: await res.json(), cursor: res.headers.get("X-Next-Cursor") });
    cursor = res.headers.get("X-Next-Cursor");
    if (!cursor) return pages;
  }
}

async function readEveryChat(): Promise<Map<string, { pages: Json[]; all: Json[] }>> {
  const read = new Map<string, { pages: Json[]; all: Json[] }>();
  for (const gigId of gigIds) read.set(gigId, { pages: await historyPages(gigId), all: (await gigChatHistory(env, gigId)) as unknown as Json[] });
  return read;
}

const unreadChats = async () => (await asAdmin(admin, "/api/admin/unread-chats")).body as unknown as Json[];
const summaries = () => all("SELECT * FROM gig_chat_summaries ORDER BY gig_id");
const leftInD1 = async () => (await all<{ n: number }>("SELECT COUNT(*) AS n FROM chat_messages"))[0]!.n;

/** The chats as the Worker before decision 031 wrote them: rows of chat_messages (and of attachments for a file). */
async function writeOldChats(): Promise<void> {
  const gigs = await all<{ id: string; poster_id: string; hirer_id: string | null; worker_id: string | null }>("SELECT id, poster_id, hirer_id, worker_id FROM gigs");
  const byId = new Map(market.members.map((m) => [m.id, m]));
  const rows: unknown[][] = [];
  const start = Date.parse("2026-03-01T09:00:00.000Z");
  gigs.forEach((g, n) => {
    const parties = [g.hirer_id, g.worker_id].filter((p): p is string => !!p);
    if (parties.length < 2) return;
    const at = (i: number) => new Date(start + n * 3_600_000 + i * 60_000).toISOString();
    const say = (i: number, sender: string | null, text: string, createdAt = at(i)) => rows.push([crypto.randomUUID(), g.id, sender, sender ? "user" : "admin", text, null, createdAt]);
    say(0, parties[0]!, "Hello! Thanks for taking this on.");
    say(1, parties[1]!, "Happy to. I will start today.");
    // Two messages in the same millisecond: their ids decide their order.
    say(2, parties[0]!, "One more thing:", at(2));
    say(2, parties[1]!, "Yes?", at(2));
    if (n % 3 === 0) say(3, parties[1]!, "Could the @Admin look at the deadline?");
    if (n % 4 === 0) say(4, null, "The admin here: all is in order.");
  });
  // One long chat, longer than a page of the move and of the history.
  const long = gigs.find((g) => g.hirer_id && g.worker_id)!;
  for (let i = 0; i < 230; i++) rows.push([crypto.randomUUID(), long.id, i % 2 ? long.hirer_id : long.worker_id, "user", `Progress note ${i}`, null, new Date(start - (300 - i) * 60_000).toISOString()]);
  for (let i = 0; i < rows.length; i += 50) {
    await env.DB.batch(
      rows.slice(i, i + 50).map((r) => env.DB.prepare("INSERT INTO chat_messages (id, gig_id, sender_id, sender_type, message, attachment_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)").bind(...r)),
    );
  }
  // A file in a chat, as a member uploaded and sent it.
  const withFile = gigs.find((g) => g.worker_id && byId.has(g.worker_id))!;
  const sender = byId.get(withFile.worker_id!) as DemoMember;
  const upload = await uploadFile({ ...sender, username: sender.name } as never, "the first draft", "draft.txt");
  const uploaded = (await all<{ id: string; object_key: string }>("SELECT id, object_key FROM uploads WHERE owner_id = ? ORDER BY created_at DESC LIMIT 1", sender.id))[0]!;
  const attachmentId = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO attachments (id, gig_id, owner_id, upload_id, object_key, filename, file_size, mime_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").bind(
      attachmentId,
      withFile.id,
      sender.id,
      uploaded.id,
      uploaded.object_key,
      "draft.txt",
      upload.ref.fileSize,
      "text/plain",
    ),
    env.DB.prepare("INSERT INTO chat_messages (id, gig_id, sender_id, sender_type, message, attachment_id, created_at) VALUES (?, ?, ?, 'user', ?, ?, ?)").bind(
      crypto.randomUUID(),
      withFile.id,
      sender.id,
      "Here is the draft",
      attachmentId,
      "2026-03-05T12:00:00.000Z",
    ),
  ]);
  // The admin had read one gig's chat part-way.
  const read = gigs.find((g, n) => n % 3 === 0 && g.hirer_id && g.worker_id)!;
  await env.DB.prepare("INSERT INTO admin_chat_reads (gig_id, last_read_at) VALUES (?, ?)").bind(read.id, "2026-03-01T09:00:30.000Z").run();
}

/** Migration 0018 applied to the database as it was before it: its table and column gone, then the migrations applied. */
async function applyMigration0018Again(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DROP TABLE gig_chat_summaries"),
    env.DB.prepare("ALTER TABLE admin_chat_reads DROP COLUMN member_messages_read"),
    env.DB.prepare("DELETE FROM d1_migrations WHERE name = '0018_chat_in_rooms.sql'"),
  ]);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}

beforeAll(async () => {
  market = await seedMarket(call, BASE);
  admin = await adminSignIn();
  await writeOldChats();
  await applyMigration0018Again();
  gigIds = (await all<{ gig_id: string }>("SELECT DISTINCT gig_id FROM chat_messages ORDER BY gig_id")).map((r) => r.gig_id);
  unreadBefore = await unreadChats();
  summariesBefore = await summaries();
  before = await readEveryChat();
}, 300_000);

describe("moving the chats D1 held into each gig's room", () => {
  it("reads the same before, during and after the move, twice over, and leaves D1 no message", async () => {
    expect(gigIds.length).toBeGreaterThan(5);
    // The old chats as written: the long one pages, the file shows, the mention is unread.
    const sizes = [...before.values()].map((c) => c.all.length);
    expect(Math.max(...sizes)).toBeGreaterThan(230);
    expect([...before.values()].some((c) => c.all.some((m) => m.fileAttachment?.filename === "draft.txt"))).toBe(true);
    expect(unreadBefore.some((u) => u.reason === "mention")).toBe(true);
    expect(summariesBefore).toHaveLength(gigIds.length);

    // Stopped after two gigs.
    expect(await moveChatToRooms(deps(), { gigs: 2 })).toEqual({ moved: 2, done: false });
    // And inside the next gig: its room kept some of its messages, D1 still has them all.
    const next = (await all<{ gig_id: string }>("SELECT DISTINCT gig_id FROM chat_messages LIMIT 1"))[0]!.gig_id;
    const rows = await all<{ id: string; sender_id: string | null; sender_type: "user" | "admin"; message: string; attachment_id: string | null; created_at: string }>(
      "SELECT * FROM chat_messages WHERE gig_id = ? ORDER BY created_at LIMIT 2",
      next,
    );
    const room = env.GIG_ROOM.get(env.GIG_ROOM.idFromName(next));
    const kept = rows.map((r) => ({ id: r.id, senderId: r.sender_id, senderType: r.sender_type, message: r.message, attachmentId: r.attachment_id, createdAt: r.created_at }));
    expect(await room.importChatMessages(next, kept)).toEqual(kept.map((m) => m.id));
    expect(await readEveryChat()).toEqual(before);
    expect(await unreadChats()).toEqual(unreadBefore);

    // Finished: every gig reads as before, D1 keeps no message, and the summaries are the migration's.
    expect(await moveAllChatToRooms(deps())).toBe(gigIds.length - 2);
    expect(await leftInD1()).toBe(0);
    expect(await readEveryChat()).toEqual(before);
    expect(await unreadChats()).toEqual(unreadBefore);
    expect(await summaries()).toEqual(summariesBefore);

    // Run again: nothing to move, nothing changes; a room handed what it holds keeps it once.
    expect(await moveChatToRooms(deps())).toEqual({ moved: 0, done: true });
    expect(await room.importChatMessages(next, kept)).toEqual(kept.map((m) => m.id));
    expect(await readEveryChat()).toEqual(before);
    expect(await summaries()).toEqual(summariesBefore);
  });

  it("the admin's unread chats still count only what is new after the move", async () => {
    const mention = unreadBefore.find((u) => u.reason === "mention")!;
    const chat = await asAdmin(admin, `/api/admin/chat/${mention.gigId}`);
    expect(chat.status).toBe(200);
    expect((chat.body as unknown as Json[]).map((m) => m.id)).toEqual(before.get(mention.gigId as string)!.all.map((m) => m.id));
    expect((await unreadChats()).map((u) => u.gigId)).not.toContain(mention.gigId);
  });
});
