// A chat message's notifications: one for each other party of the gig, once each, written in one statement with
// the message's summary, and queued as a Nostr DM for a member who turned that on (without a second read for the
// members who did not). Driven through the chat service as the gig's room calls it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { makeDeps } from "../composition";
import { openDb } from "../db/client";
import { meteredD1, statement, type D1Meter } from "../db/test-statements";
import { call, claimedJob, type Member } from "../test/factories";
import type { RoomChatMessage } from "../env";
import { sendChatMessage } from "./chat";

interface Notice {
  id: string;
  type: string;
  title: string;
  message: string;
  gigId: string | null;
  actorName: string | null;
  isRead: boolean;
}

const messagesOf = async (member: Member) => ((await call("/api/notifications", member.token)).body as unknown as Notice[]).filter((n) => n.type === "message");

/** Sends `text` as `from` in the gig's chat, as the room does; answers what was kept, the D1 statements, and runs what was left for after. */
async function send(gigId: string, from: Member, text: string) {
  const meter: D1Meter = { statements: 0, rowsRead: 0, rowsWritten: 0, sizeAfter: 0 };
  const afterwards: (() => Promise<unknown>)[] = [];
  const deps = makeDeps(env, (work) => afterwards.push(work), { db: openDb(meteredD1(env.DB, meter)) });
  const kept: RoomChatMessage[] = [];
  const outcome = await sendChatMessage(
    deps,
    { gigId, credential: { kind: "member", sessionToken: from.token, userId: from.id }, joined: true, text, fileAttachment: null, createdAt: new Date().toISOString(), recheck: [] },
    { keep: (message) => kept.push(message) },
  );
  expect(outcome.kind).toBe("done");
  for (const work of afterwards) await work();
  return { kept, meter };
}

describe("a chat message's notifications", () => {
  it("tells each other party once (the hirer who posted the job once, not twice), each with its own notification", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const title = ((await call(`/api/gigs/${gigId}`, hirer.token)).body as { title: string }).title;

    const first = await send(gigId, hirer, "How is the logo going?");
    expect(first.kept).toHaveLength(1);
    expect(await messagesOf(worker)).toEqual([
      expect.objectContaining({ type: "message", title: "New Message", message: `Hirer about "${title}": How is the logo going?`, gigId, actorName: "Hirer", isRead: false }),
    ]);
    expect(await messagesOf(hirer)).toEqual([]);

    await send(gigId, worker, "Almost done");
    const toHirer = await messagesOf(hirer);
    expect(toHirer).toEqual([expect.objectContaining({ title: "New Message", message: `Worker about "${title}": Almost done`, gigId, actorName: "Worker" })]);
    expect(toHirer[0]!.id).not.toBe((await messagesOf(worker))[0]!.id);
  });

  it("is written in the message's one batch, and asks nothing more when no party wants Nostr DMs", async () => {
    const { hirer, gigId } = await claimedJob();
    // The gig, the summary, the notifications, the sender's session: one statement each, the DMs not read after.
    expect((await send(gigId, hirer, "Morning!")).meter.statements).toBe(4);
  });

  it("still goes to a party who turned on Nostr DMs, as one gift wrap for their notification", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    expect((await call("/api/user/me", worker.token, "PATCH", { nostrDmNotifications: true })).status).toBe(200);
    await send(gigId, hirer, "Can you send a draft?");
    const [notice] = await messagesOf(worker);
    const wraps = (await statement("SELECT notification_id FROM nostr_outbox WHERE recipient = ?", worker.pubkey).all<{ notification_id: string }>()).results;
    expect(wraps.map((w) => w.notification_id)).toContain(notice!.id);
    // The hirer, who did not turn it on, gets none for the worker's reply.
    await send(gigId, worker, "Here it is");
    expect((await statement("SELECT count(*) AS n FROM nostr_outbox WHERE recipient = ?", hirer.pubkey).first<{ n: number }>())!.n).toBe(0);
  });
});
