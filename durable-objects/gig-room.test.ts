import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signOutAdmin } from "../worker/auth/admin";
import { makeDeps } from "../worker/composition";
import { openDb } from "../worker/db/client";
import { endSession } from "../worker/services/auth";
import { endSessionAtInbox } from "../worker/auth/member-sessions";
import { sessionKeyOf } from "../worker/auth/tokens";
import { forgetGigChat, gigChatHistory, postAdminChatMessage } from "../worker/services/chat";
import { api, call, claimedJob, signUp } from "../worker/test/factories";
import { adminSignIn, asAdmin } from "../worker/test/admin";
import { anotherSession, joinedSocket, openInboxSocket, openSocket, type TestSocket } from "../worker/test/sockets";
import { TOO_MANY_JOINS, TOO_MANY_SIGN_INS } from "./gig-room";
import { uploadFile } from "../worker/test/uploads";
import { CHAT_MESSAGES_PER_SOCKET } from "../worker/rate-limits";
import { statement, watchedD1 } from "../worker/db/test-statements";

/**
 * Moves the clock past the minute after which the room re-checks a listener's session. The room runs in this
 * isolate, so it reads the same (faked) Date; timers stay real.
 */
function aMinuteLater(): void {
  const later = Date.now() + 61_000;
  if (vi.isFakeTimers()) vi.setSystemTime(later);
  else vi.useFakeTimers({ toFake: ["Date"], now: later });
}

/** The SQL statements the gig's room sends to D1 from now on (a proxy over its D1 binding). */
async function roomSql(gigId: string): Promise<string[]> {
  const statements: string[] = [];
  await runInDurableObject(env.GIG_ROOM.get(env.GIG_ROOM.idFromName(gigId)), (room) => {
    const holder = room as unknown as { env: typeof env };
    const d1 = holder.env.DB;
    const counted = watchedD1(d1, { sql: (sql) => statements.push(sql) });
    holder.env = { ...holder.env, DB: counted };
  });
  return statements;
}

const sessionLookups = (sql: string[]) => sql.filter((s) => /\bfrom\s+"?sessions"?\s/i.test(s)).length;
const adminLookups = (sql: string[]) => sql.filter((s) => /\bfrom\s+"?admin_sessions"?\s/i.test(s)).length;

/** Every socket's next frame is the message with this text. */
async function allReceive(sockets: TestSocket[], text: string): Promise<void> {
  for (const socket of sockets) expect((await socket.next()).message).toMatchObject({ message: text });
}

const history = async (gigId: string, token: string) => (await call(`/api/gigs/${gigId}/messages`, token)).body as { id: string; message: string; senderId: string }[];

describe("/ws upgrade", () => {
  it("accepts this site's pages and non-browser clients, refuses another site's page", async () => {
    const { gigId } = await claimedJob();
    const same = await openSocket(gigId);
    expect(same.status).toBe(101);
    const noOrigin = await openSocket(gigId, { origin: null });
    expect(noOrigin.status).toBe(101);
    const foreign = await openSocket(gigId, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: "forbidden_origin" });
    const lookalike = await openSocket(gigId, { origin: "http://gigstr.test" });
    expect(lookalike.status).toBe(403);
    same.socket!.close();
    noOrigin.socket!.close();
  });

  it("needs a known gig", async () => {
    expect((await openSocket(crypto.randomUUID())).status).toBe(404);
    expect((await openSocket("")).status).toBe(400);
  });
});

describe("joining a gig's room", () => {
  it("lets the hirer and the worker in, not a stranger, not a socket without a session", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    (await joinedSocket(gigId, hirer)).close();
    (await joinedSocket(gigId, worker)).close();

    const stranger = await signUp();
    const { socket } = await openSocket(gigId);
    expect(await socket!.ask({ type: "auth", sessionToken: stranger.token })).toEqual({ type: "auth_success" });
    expect(await socket!.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error", message: expect.stringMatching(/hirer and worker/) });
    expect(await socket!.ask({ type: "chat_message", gigId, message: "let me in" })).toMatchObject({ type: "error" });

    const visitor = (await openSocket(gigId)).socket!;
    expect(await visitor.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error", message: expect.stringMatching(/Not authenticated/) });
    expect(await visitor.ask({ type: "auth", sessionToken: "not-a-session" })).toMatchObject({ type: "error", message: expect.stringMatching(/session/) });
    expect(await visitor.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error" });

    expect(await visitor.ask({ type: "auth", adminToken: "not-an-admin-token" })).toEqual({ type: "error", message: "Invalid admin token" });
    expect(await history(gigId, hirer.token)).toEqual([]);
    socket!.close();
    visitor.close();
  });

  it("refuses to join another gig over this gig's connection", async () => {
    const { hirer, gigId } = await claimedJob();
    const other = await claimedJob();
    const socket = (await openSocket(gigId)).socket!;
    await socket.ask({ type: "auth", sessionToken: hirer.token });
    expect(await socket.ask({ type: "join_gig", gigId: other.gigId })).toMatchObject({ type: "error", message: expect.stringMatching(/another gig|for gig/) });
    socket.close();
  });
});

describe("chat messages", () => {
  it("are stored, broadcast to everyone in the room and notify the other party", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const hirerSocket = await joinedSocket(gigId, hirer);
    const workerSocket = await joinedSocket(gigId, worker);

    hirerSocket.send({ type: "chat_message", gigId, message: "  Hi! How is the logo going?  " });
    const toHirer = await hirerSocket.next();
    const toWorker = await workerSocket.next();
    expect(toHirer).toEqual(toWorker);
    expect(toWorker).toEqual({
      type: "new_message",
      message: {
        id: expect.any(String),
        gigId,
        senderId: hirer.id,
        senderType: "user",
        sender: { username: hirer.username, displayName: "Hirer", profilePicture: null },
        message: "Hi! How is the logo going?",
        createdAt: expect.any(String),
        fileAttachment: null,
      },
    });

    workerSocket.send({ type: "chat_message", gigId, message: "Almost done" });
    const reply = await hirerSocket.next();
    expect(reply.message).toMatchObject({ senderId: worker.id, message: "Almost done" });
    expect(await workerSocket.next()).toEqual(reply);

    const stored = await history(gigId, worker.token);
    expect(stored.map((m) => m.message)).toEqual(["Hi! How is the logo going?", "Almost done"]);
    expect(stored[0]).toEqual(toWorker.message);

    const workerBell = (await call("/api/notifications", worker.token)).body as { type: string; title: string; gigId: string }[];
    expect(workerBell.filter((n) => n.type === "message")).toEqual([expect.objectContaining({ title: "New Message", gigId })]);
    const hirerBell = (await call("/api/notifications", hirer.token)).body as { type: string }[];
    expect(hirerBell.filter((n) => n.type === "message")).toHaveLength(1); // the worker's reply only
    hirerSocket.close();
    workerSocket.close();
  });

  it("answers a bad frame with an error frame and changes nothing", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const socket = await joinedSocket(gigId, hirer);
    const listener = await joinedSocket(gigId, worker);
    const bad: [unknown, RegExp][] = [
      ["not json", /JSON/],
      [[1, 2], /JSON objects/],
      [{ type: "shout", gigId }, /Unknown frame type/],
      [{ type: "chat_message", gigId }, /message/],
      [{ type: "chat_message", message: "hi" }, /gigId/],
      [{ type: "chat_message", gigId, message: 42 }, /message/],
      [{ type: "chat_message", gigId, message: "   \n " }, /empty/],
      [{ type: "chat_message", gigId, message: "x".repeat(5001) }, /5,000/],
      [{ type: "chat_message", gigId, message: "file", fileAttachment: { url: "https://evil.example/x" } }, /fileAttachment/],
      [{ type: "auth", sessionToken: hirer.token, adminToken: "x" }, /exactly one/],
    ];
    for (const [frame, message] of bad) {
      const reply = await socket.ask(frame);
      expect(reply, JSON.stringify(frame).slice(0, 60)).toEqual({ type: "error", message: expect.stringMatching(message) });
    }
    // Exactly 5,000 characters is fine; the listener's first frame is that one, not any of the bad ones.
    socket.send({ type: "chat_message", gigId, message: "y".repeat(5000) });
    expect((await listener.next()).message.message).toHaveLength(5000);
    expect(await history(gigId, hirer.token)).toHaveLength(1);

    const notJoined = (await openSocket(gigId)).socket!;
    await notJoined.ask({ type: "auth", sessionToken: hirer.token });
    expect(await notJoined.ask({ type: "chat_message", gigId, message: "sneaky" })).toMatchObject({ type: "error", message: expect.stringMatching(/Join/) });
    expect(await history(gigId, hirer.token)).toHaveLength(1);
    socket.close();
    listener.close();
    notJoined.close();
  });

  it(`refuses a socket's message past ${CHAT_MESSAGES_PER_SOCKET.limit} in ${CHAT_MESSAGES_PER_SOCKET.periodSeconds} s without storing it, and takes it again later`, async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const flooder = await joinedSocket(gigId, hirer);
    const listener = await joinedSocket(gigId, worker);
    for (let i = 0; i < CHAT_MESSAGES_PER_SOCKET.limit; i++) {
      expect((await flooder.ask({ type: "chat_message", gigId, message: `message ${i}` })).type).toBe("new_message");
      expect((await listener.next()).message.message).toBe(`message ${i}`);
    }
    expect(await flooder.ask({ type: "chat_message", gigId, message: "one too many" })).toEqual({ type: "error", message: "Too many messages. Please wait a few seconds and try again." });
    expect(await history(gigId, hirer.token)).toHaveLength(CHAT_MESSAGES_PER_SOCKET.limit);
    // The other party's socket has its own count.
    expect((await listener.ask({ type: "chat_message", gigId, message: "I can still talk" })).type).toBe("new_message");
    expect((await flooder.next()).message.message).toBe("I can still talk");
    aMinuteLater();
    expect((await flooder.ask({ type: "chat_message", gigId, message: "calm again" })).message).toMatchObject({ message: "calm again" });
    expect(await history(gigId, hirer.token)).toHaveLength(CHAT_MESSAGES_PER_SOCKET.limit + 2);
    flooder.close();
    listener.close();
  });

  it("closes a socket whose session has ended", async () => {
    const { hirer, gigId } = await claimedJob();
    const socket = await joinedSocket(gigId, hirer);
    await endSession({ db: openDb(env.DB) }, hirer.token);
    // Requests check sessions at the member's inbox (decision 032): it hears of the end too, as a sign-out tells it.
    await endSessionAtInbox(env, hirer.id, await sessionKeyOf(hirer.token));
    expect(await socket.ask({ type: "chat_message", gigId, message: "still here?" })).toMatchObject({ type: "error", message: expect.stringMatching(/session has ended/) });
    expect((await socket.waitForClose()).code).toBe(1008);
    // history is only for members with a session now; the worker sees nothing new
    expect((await call(`/api/gigs/${gigId}/messages`, hirer.token)).status).toBe(401);
  });

  it("survive hibernation: a joined socket keeps its session and room after the object is evicted", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const hirerSocket = await joinedSocket(gigId, hirer);
    const workerSocket = await joinedSocket(gigId, worker);
    await evictDurableObject(env.GIG_ROOM.get(env.GIG_ROOM.idFromName(gigId)));

    hirerSocket.send({ type: "chat_message", gigId, message: "after a nap" });
    expect((await workerSocket.next()).message).toMatchObject({ senderId: hirer.id, message: "after a nap" });
    expect((await hirerSocket.next()).message).toMatchObject({ message: "after a nap" });
    expect((await history(gigId, hirer.token)).map((m) => m.message)).toEqual(["after a nap"]);
    hirerSocket.close();
    workerSocket.close();
  });

  it("can carry a file the sender uploaded, which the other party can download", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const hirerSocket = await joinedSocket(gigId, hirer);
    const workerSocket = await joinedSocket(gigId, worker);
    const draft = await uploadFile(worker, "first draft", "draft.txt");
    workerSocket.send({ type: "chat_message", gigId, message: "Here's a draft", fileAttachment: draft.ref });
    const { message } = await hirerSocket.next();
    expect(message.fileAttachment).toEqual({
      id: expect.any(String),
      url: `/api/attachments/${message.fileAttachment.id}/download`,
      filename: "draft.txt",
      fileSize: 11,
      mimeType: "text/plain",
    });
    await workerSocket.next();
    const download = await call(message.fileAttachment.url, hirer.token);
    expect(download.status).toBe(200);
    expect(download.body).toEqual({ text: "first draft" });

    // Someone else's upload, or the same upload twice, is refused.
    const hirersFile = await uploadFile(hirer, "mine");
    expect(await workerSocket.ask({ type: "chat_message", gigId, message: "stolen", fileAttachment: hirersFile.ref })).toMatchObject({
      type: "error",
      message: expect.stringMatching(/uploaded yourself/),
    });
    expect(await workerSocket.ask({ type: "chat_message", gigId, message: "again", fileAttachment: draft.ref })).toMatchObject({
      type: "error",
      message: expect.stringMatching(/already attached/),
    });
    expect(await history(gigId, hirer.token)).toHaveLength(1);
    hirerSocket.close();
    workerSocket.close();
  });
});

describe("admin messages", () => {
  it("arrive through the room's RPC, show as ADMIN to everyone in the room and in the history", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const hirerSocket = await joinedSocket(gigId, hirer);
    const workerSocket = await joinedSocket(gigId, worker);
    const deps = makeDeps(env, (work) => void work());
    const posted = await postAdminChatMessage(deps, gigId, "  Please keep the conversation on the platform.  ");
    const expected = {
      id: posted.id,
      gigId,
      senderId: "ADMIN",
      senderType: "admin",
      sender: { username: "admin", displayName: "Platform Admin", profilePicture: null },
      message: "Please keep the conversation on the platform.",
      createdAt: expect.any(String),
      fileAttachment: null,
    };
    expect(posted).toEqual(expected);
    expect(await hirerSocket.next()).toEqual({ type: "new_message", message: expected });
    expect(await workerSocket.next()).toEqual({ type: "new_message", message: expected });
    expect(await history(gigId, worker.token)).toEqual([expected]);
    for (const party of [hirer, worker]) {
      const bell = (await call("/api/notifications", party.token)).body as { type: string }[];
      expect(bell.filter((n) => n.type === "message")).toHaveLength(1);
    }
    await expect(postAdminChatMessage(deps, gigId, "   ")).rejects.toThrow(/empty/);
    await expect(postAdminChatMessage(deps, crypto.randomUUID(), "hello")).rejects.toThrow(/Gig not found/);
    hirerSocket.close();
    workerSocket.close();
  });
});

describe("the admin in the room", () => {
  it("joins any gig with an admin token, posts as ADMIN, and is closed once signed out", async () => {
    const { hirer, gigId } = await claimedJob();
    const hirerSocket = await joinedSocket(gigId, hirer);
    const adminToken = await adminSignIn();
    const admin = (await openSocket(gigId)).socket!;
    expect(await admin.ask({ type: "auth", adminToken })).toEqual({ type: "auth_success" });
    expect(await admin.ask({ type: "join_gig", gigId })).toEqual({ type: "join_success", gigId });

    admin.send({ type: "chat_message", gigId, message: "Admin here." });
    const seen = await hirerSocket.next();
    expect(seen.message).toMatchObject({ senderId: "ADMIN", senderType: "admin", sender: { displayName: "Platform Admin" }, message: "Admin here." });
    expect(await admin.next()).toEqual(seen);

    hirerSocket.send({ type: "chat_message", gigId, message: "Hello admin" });
    expect((await admin.next()).message).toMatchObject({ senderId: hirer.id, message: "Hello admin" });
    await hirerSocket.next();

    await signOutAdmin({ db: openDb(env.DB) }, adminToken);
    expect(await admin.ask({ type: "chat_message", gigId, message: "still admin?" })).toMatchObject({ type: "error", message: expect.stringMatching(/session has ended/) });
    expect((await admin.waitForClose()).code).toBe(1008);
    expect((await history(gigId, hirer.token)).map((m) => m.message)).toEqual(["Admin here.", "Hello admin"]);
    hirerSocket.close();
  });
});

describe("GET /api/gigs/{id}/messages", () => {
  it("is for the gig's parties only, oldest first, and pages back with a cursor", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const socket = await joinedSocket(gigId, hirer);
    for (const text of ["one", "two", "three"]) {
      socket.send({ type: "chat_message", gigId, message: text });
      await socket.next();
    }
    const stranger = await signUp();
    expect((await call(`/api/gigs/${gigId}/messages`, stranger.token)).status).toBe(403);
    expect((await call(`/api/gigs/${gigId}/messages`, undefined)).status).toBe(401);
    expect((await call(`/api/gigs/${crypto.randomUUID()}/messages`, worker.token)).status).toBe(404);

    const first = await api(`/api/gigs/${gigId}/messages?limit=2`, { token: worker.token });
    expect(((await first.json()) as { message: string }[]).map((m) => m.message)).toEqual(["two", "three"]);
    const cursor = first.headers.get("X-Next-Cursor");
    expect(cursor).toBeTruthy();
    const older = await call(`/api/gigs/${gigId}/messages?limit=2&before=${encodeURIComponent(cursor!)}`, worker.token);
    expect(older.body.map((m: { message: string }) => m.message)).toEqual(["one"]);
    socket.close();
  });
});

describe("listeners re-checked after a quiet minute", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("closes a listener whose session ended, without the message, while the others in the room get it", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const laptop = await anotherSession(hirer);
    const sender = await joinedSocket(gigId, hirer);
    const stays = [await joinedSocket(gigId, hirer), await joinedSocket(gigId, worker), await joinedSocket(gigId, worker)];
    const ending = [await joinedSocket(gigId, laptop), await joinedSocket(gigId, laptop)];
    const adminToken = await adminSignIn();
    const admin = (await openSocket(gigId)).socket!;
    expect(await admin.ask({ type: "auth", adminToken })).toEqual({ type: "auth_success" });
    expect(await admin.ask({ type: "join_gig", gigId })).toEqual({ type: "join_success", gigId });

    // Within the minute, a session that ended is not looked up again: its sockets still listen.
    await endSession({ db: openDb(env.DB) }, laptop.token);
    sender.send({ type: "chat_message", gigId, message: "before the minute" });
    await allReceive([sender, ...stays, ...ending, admin], "before the minute");

    aMinuteLater();
    await signOutAdmin({ db: openDb(env.DB) }, adminToken);
    sender.send({ type: "chat_message", gigId, message: "after the minute" });
    await allReceive([sender, ...stays], "after the minute");
    for (const socket of [...ending, admin]) {
      expect(await socket.next()).toEqual({ type: "error", message: expect.stringMatching(/session has ended/) });
      expect((await socket.waitForClose()).code).toBe(1008);
    }

    // The listeners still in the room were checked a moment ago: the next message needs no lookup for them.
    const sql = await roomSql(gigId);
    sender.send({ type: "chat_message", gigId, message: "and again" });
    await allReceive([sender, ...stays], "and again");
    expect(sessionLookups(sql)).toBe(1); // the sender's own check, as on every frame
    expect(adminLookups(sql)).toBe(0);
    for (const socket of [sender, ...stays]) socket.close();
  });

  it("checks every listener's session with one lookup, however many sockets and sessions", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const sender = await joinedSocket(gigId, hirer);
    const hirerPhone = await anotherSession(hirer);
    const workerPhone = await anotherSession(worker);
    const listeners: TestSocket[] = [];
    for (const member of [hirer, hirerPhone, worker, worker, worker, workerPhone, workerPhone, worker]) listeners.push(await joinedSocket(gigId, member));
    const adminTokens = [await adminSignIn(), await adminSignIn()];
    for (const adminToken of adminTokens) {
      const admin = (await openSocket(gigId)).socket!;
      await admin.ask({ type: "auth", adminToken });
      await admin.ask({ type: "join_gig", gigId });
      listeners.push(admin);
    }

    aMinuteLater();
    const sql = await roomSql(gigId);
    sender.send({ type: "chat_message", gigId, message: "a minute later" });
    await allReceive([sender, ...listeners], "a minute later");
    // 4 member sessions (the sender's among them) over 9 sockets, and 2 admin tokens: one query each.
    expect(sessionLookups(sql)).toBe(1);
    expect(adminLookups(sql)).toBe(1);

    // One session's many sockets all end together.
    aMinuteLater();
    await endSession({ db: openDb(env.DB) }, worker.token);
    sender.send({ type: "chat_message", gigId, message: "once more" });
    const workers = [listeners[2]!, listeners[3]!, listeners[4]!, listeners[7]!];
    await allReceive([sender, ...listeners.filter((l) => !workers.includes(l))], "once more");
    for (const socket of workers) {
      expect(await socket.next()).toMatchObject({ type: "error", message: expect.stringMatching(/session has ended/) });
      expect((await socket.waitForClose()).code).toBe(1008);
    }
    expect(sessionLookups(sql)).toBe(2);
    for (const socket of [sender, ...listeners]) socket.close();
  });

  it("stops delivering to a member whose account was deleted or who is no longer a party", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const sender = await joinedSocket(gigId, hirer);
    const workerSocket = await joinedSocket(gigId, worker);
    const hirerTab = await joinedSocket(gigId, await anotherSession(hirer));

    // The gig's worker is someone else now: the next message skips the old worker's socket.
    const replacement = await signUp();
    await statement("UPDATE gigs SET worker_id = ? WHERE id = ?", replacement.id, gigId).run();
    sender.send({ type: "chat_message", gigId, message: "only for the parties" });
    await allReceive([sender, hirerTab], "only for the parties");
    // Its next frame is the answer to its own message, not the broadcast: it left the room.
    expect(await workerSocket.ask({ type: "chat_message", gigId, message: "still here?" })).toMatchObject({ type: "error", message: expect.stringMatching(/Join/) });
    expect(await workerSocket.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error", message: expect.stringMatching(/hirer and worker/) });

    // An account deleted while its session row is still there: the first message after the minute closes it.
    aMinuteLater();
    await statement("UPDATE users SET deleted_at = ? WHERE id = ?", new Date().toISOString(), hirer.id).run();
    const other = await joinedSocket(gigId, replacement);
    other.send({ type: "chat_message", gigId, message: "anyone?" });
    expect((await other.next()).message).toMatchObject({ message: "anyone?" });
    for (const socket of [sender, hirerTab]) {
      expect(await socket.next()).toMatchObject({ type: "error", message: expect.stringMatching(/session has ended/) });
      expect((await socket.waitForClose()).code).toBe(1008);
    }
    workerSocket.close();
    other.close();
  });
});

/** Every frame `socket` receives from now on, as text (beside the test client's own queue). */
function overheard(socket: TestSocket): string[] {
  const frames: string[] = [];
  socket.ws.addEventListener("message", (event) => frames.push(String(event.data)));
  return frames;
}

async function inboxTab(member: { token: string }): Promise<TestSocket> {
  const opened = await openInboxSocket(member);
  expect(opened.status).toBe(101);
  expect((await opened.socket!.next()).type).toBe("unread_count");
  return opened.socket!;
}

async function toldEndedAndClosed(socket: TestSocket): Promise<void> {
  expect(await socket.next()).toMatchObject({ type: "error", message: expect.stringMatching(/session has ended/) });
  expect((await socket.waitForClose()).code).toBe(1008);
}

describe("sessions that end close their sockets at once", () => {
  it("sign out everywhere: the worker's chat socket and inbox tab are closed (1008) at once, and the next message does not reach them", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const workerChat = await joinedSocket(gigId, worker);
    const hirerChat = await joinedSocket(gigId, hirer);
    const workerTab = await inboxTab(worker);
    const heard = overheard(workerChat);

    expect((await call("/api/auth/logout-all", worker.token, "POST")).status).toBe(200);
    await toldEndedAndClosed(workerChat);
    await toldEndedAndClosed(workerTab);

    // Well within the minute after which the room re-checks listeners: only the sign-out closed them.
    hirerChat.send({ type: "chat_message", gigId, message: "for the worker's eyes only" });
    expect((await hirerChat.next()).message).toMatchObject({ message: "for the worker's eyes only" });
    expect(heard.filter((f) => f.includes("for the worker's eyes only"))).toEqual([]);
    hirerChat.close();
  });

  it("ending one device's session closes only that device's sockets; logging out closes the caller's", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const laptop = await anotherSession(worker);
    const laptopChat = await joinedSocket(gigId, laptop);
    const laptopTab = await inboxTab(laptop);
    const phoneChat = await joinedSocket(gigId, worker);
    const phoneTab = await inboxTab(worker);

    const sessions = (await call("/api/auth/sessions", worker.token)).body as unknown as { id: string; current: boolean }[];
    const laptopSession = sessions.find((s) => !s.current)!;
    expect((await call(`/api/auth/sessions/${laptopSession.id}`, worker.token, "DELETE")).status).toBe(200);
    await toldEndedAndClosed(laptopChat);
    await toldEndedAndClosed(laptopTab);

    // The phone's session goes on: its chat socket still hears the room.
    const hirerChat = await joinedSocket(gigId, hirer);
    hirerChat.send({ type: "chat_message", gigId, message: "still there?" });
    expect((await phoneChat.next()).message).toMatchObject({ message: "still there?" });
    expect(phoneTab.closed).toBeNull();
    // The phone's tab hears of the message while its session holds.
    expect((await phoneTab.next()).type).toBe("notification");

    expect((await call("/api/auth/logout", worker.token, "POST")).status).toBe(200);
    await toldEndedAndClosed(phoneChat);
    await toldEndedAndClosed(phoneTab);
    hirerChat.close();
  });
});

describe("a socket's sign-ins and joins are limited", () => {
  afterEach(() => vi.useRealTimers());

  it("a stranger guessing sessions: the fifth failed auth in a minute is answered, then the socket is closed (1008)", async () => {
    const { gigId } = await claimedJob();
    const socket = (await openSocket(gigId)).socket!;
    const heard = overheard(socket);
    // A malformed auth frame counts as a failed one.
    expect(await socket.ask({ type: "auth" })).toMatchObject({ type: "error" });
    for (let i = 0; i < 3; i++) expect(await socket.ask({ type: "auth", sessionToken: crypto.randomUUID() })).toMatchObject({ type: "error" });
    expect(await socket.ask({ type: "auth", adminToken: "guess" })).toEqual({ type: "error", message: "Invalid admin token" });
    expect(await socket.next()).toEqual({ type: "error", message: TOO_MANY_SIGN_INS });
    expect((await socket.waitForClose()).code).toBe(1008);
    // The other 55 of the 60 the stranger sent go nowhere.
    for (let i = 0; i < 55; i++) {
      try {
        socket.send({ type: "auth", sessionToken: crypto.randomUUID() });
      } catch {
        /* closed */
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toHaveLength(6);
  });

  it("more than ten join_gig frames in a minute close the socket (1008); a minute later the count starts again", async () => {
    const { gigId } = await claimedJob();
    const stranger = await signUp();
    const socket = (await openSocket(gigId)).socket!;
    expect(await socket.ask({ type: "auth", sessionToken: stranger.token })).toEqual({ type: "auth_success" });
    for (let i = 0; i < 10; i++) expect(await socket.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error", message: expect.stringMatching(/hirer and worker/) });
    expect(await socket.ask({ type: "join_gig", gigId })).toEqual({ type: "error", message: TOO_MANY_JOINS });
    expect((await socket.waitForClose()).code).toBe(1008);

    const patient = (await openSocket(gigId)).socket!;
    expect(await patient.ask({ type: "auth", sessionToken: stranger.token })).toEqual({ type: "auth_success" });
    for (let i = 0; i < 10; i++) await patient.ask({ type: "join_gig", gigId });
    aMinuteLater();
    expect(await patient.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error", message: expect.stringMatching(/hirer and worker/) });
    expect(patient.closed).toBeNull();
    patient.close();
  });
});

describe("each gig's room keeps its chat (decision 031)", () => {
  const inD1 = async (gigId: string) => (await statement("SELECT COUNT(*) AS n FROM chat_messages WHERE gig_id = ?", gigId).first<{ n: number }>())!.n;
  const summaryOf = (gigId: string) => statement("SELECT message_count, last_message_at, last_sender_id, last_sender_type FROM gig_chat_summaries WHERE gig_id = ?", gigId).first();

  it("stores messages in the room, not in D1, and counts them in the gig's summary with the last time and sender", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const hirerSocket = await joinedSocket(gigId, hirer);
    const workerSocket = await joinedSocket(gigId, worker);
    expect(await summaryOf(gigId)).toBeNull();

    const sql = await roomSql(gigId);
    hirerSocket.send({ type: "chat_message", gigId, message: "First" });
    await allReceive([hirerSocket, workerSocket], "First");
    // The message's D1 writes are its gig's summary (one row, counted up) and the notifications: no chat_messages row.
    expect(sql.filter((s) => /chat_messages/.test(s))).toEqual([]);
    expect(sql.filter((s) => /^insert into "gig_chat_summaries"/.test(s))).toHaveLength(1);
    const draft = await uploadFile(worker, "a draft", "draft.txt");
    workerSocket.send({ type: "chat_message", gigId, message: "With a file", fileAttachment: draft.ref });
    const last = (await hirerSocket.next()).message;
    await workerSocket.next();

    expect(await inD1(gigId)).toBe(0);
    expect(await summaryOf(gigId)).toEqual({ message_count: 2, last_message_at: last.createdAt, last_sender_id: worker.id, last_sender_type: "user" });
    const admin = await adminSignIn();
    await postAdminChatMessage(makeDeps(env, (work) => void work()), gigId, "The admin here.");
    await hirerSocket.next();
    await workerSocket.next();
    expect(await summaryOf(gigId)).toMatchObject({ message_count: 3, last_sender_id: null, last_sender_type: "admin" });
    expect(await inD1(gigId)).toBe(0);

    // Read back from the room: the history, the admin's view and the archive's.
    const stored = await history(gigId, hirer.token);
    expect(stored.map((m) => m.message)).toEqual(["First", "With a file", "The admin here."]);
    expect(stored[1]).toEqual(last);
    const adminView = (await asAdmin(admin, `/api/admin/chat/${gigId}`)).body as unknown as { id: string; message: string; attachmentId: string | null }[];
    expect(adminView.map((m) => [m.id, m.message])).toEqual(stored.map((m) => [m.id, m.message]));
    expect(adminView[1]!.attachmentId).toBe(last.fileAttachment.id);
    expect(await gigChatHistory(env, gigId)).toEqual(stored);
    hirerSocket.close();
    workerSocket.close();
  });

  it("a member's @admin mention sent in the room puts the chat in the admin's unread chats, from the summary", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const socket = await joinedSocket(gigId, worker);
    for (const text of ["Started", "Could @admin help with the deadline?"]) {
      socket.send({ type: "chat_message", gigId, message: text });
      await socket.next();
    }
    const admin = await adminSignIn();
    const unread = (await asAdmin(admin, "/api/admin/unread-chats")).body as unknown as { gigId: string; reason: string; messageCount: number; lastMessageTime: string }[];
    const newest = (await history(gigId, hirer.token)).at(-1) as unknown as { createdAt: string };
    expect(unread.find((u) => u.gigId === gigId)).toMatchObject({ reason: "mention", messageCount: 2, lastMessageTime: newest.createdAt });
    expect(((await asAdmin(admin, `/api/admin/chat/${gigId}`)).body as unknown as unknown[]).length).toBe(2);
    expect(((await asAdmin(admin, "/api/admin/unread-chats")).body as unknown as { gigId: string }[]).map((u) => u.gigId)).not.toContain(gigId);
    socket.close();
  });

  it("gives the archive every message oldest first, and forgets them when told, twice without harm", async () => {
    const { hirer, gigId } = await claimedJob();
    const socket = await joinedSocket(gigId, hirer);
    for (const text of ["one", "two"]) {
      socket.send({ type: "chat_message", gigId, message: text });
      await socket.next();
    }
    expect((await gigChatHistory(env, gigId)).map((m) => m.message)).toEqual(["one", "two"]);
    await forgetGigChat(env, gigId);
    await forgetGigChat(env, gigId);
    expect(await gigChatHistory(env, gigId)).toEqual([]);
    expect(await history(gigId, hirer.token)).toEqual([]);
    socket.close();
  });
});
