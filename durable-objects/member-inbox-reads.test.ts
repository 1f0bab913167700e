// What a notification pushed to open tabs asks of the database: the inbox tells from the sessions it holds whether
// each tab's session is still live, and reads the new notifications with the unread count in one statement. Only
// a tab of a token from before (a session the inbox never held) is checked in the database.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sessionKeyOf } from "../worker/auth/tokens";
import { meteredD1, type D1Meter } from "../worker/db/test-statements";
import { api, call, claimedJob, getChallenge, loginEvent, type Member } from "../worker/test/factories";
import { anotherSession, openInboxSocket, type TestSocket } from "../worker/test/sockets";

const unread = async (token: string) => (await call("/api/notifications/unread-count", token)).body as unknown as number;
const inboxOf = (member: Member) => env.MEMBER_INBOX.get(env.MEMBER_INBOX.idFromName(member.id));

async function openTab(member: { token: string }): Promise<TestSocket> {
  const opened = await openInboxSocket(member);
  expect(opened.status).toBe(101);
  const tab = opened.socket!;
  expect((await tab.next()).type).toBe("unread_count");
  return tab;
}

/** The member signs in once more (another device), through the real sign-in: a session their inbox holds. */
async function signInAgain(member: Member): Promise<Member> {
  const { challenge, challengeId } = await getChallenge();
  const res = await api("/api/auth/nostr/verify", { method: "POST", json: { event: loginEvent(member.secretKey, challenge), challengeId } });
  expect(res.status).toBe(200);
  return { ...member, token: ((await res.json()) as { sessionToken: string }).sessionToken };
}

/** From now on, every D1 statement the member's inbox runs is counted. */
async function meterInbox(member: Member): Promise<D1Meter> {
  const meter: D1Meter = { statements: 0, rowsRead: 0, rowsWritten: 0, sizeAfter: 0 };
  await runInDurableObject(inboxOf(member), (instance) => {
    const holder = instance as unknown as { env: typeof env };
    holder.env = { ...holder.env, DB: meteredD1(env.DB, meter) };
  });
  return meter;
}

describe("a notification pushed to open tabs", () => {
  it("reaches the tabs of sessions the inbox holds, with the count after it, from one statement", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const before = await unread(hirer.token);
    const tabs = [await openTab(hirer), await openTab(await signInAgain(hirer))];
    const meter = await meterInbox(hirer);

    expect((await call(`/api/gigs/${gigId}/start-work`, worker.token, "POST")).status).toBe(200);
    const pushed = await tabs[0]!.next();
    expect(pushed).toMatchObject({ type: "notification", unreadCount: before + 1, notification: { gigId, isRead: false, actorName: "Worker" } });
    expect(await tabs[1]!.next()).toEqual(pushed);
    const list = (await call("/api/notifications", hirer.token)).body as unknown as { id: string }[];
    expect(list[0]!.id).toBe(pushed.notification.id);
    expect(meter.statements).toBe(1);
    for (const tab of tabs) tab.close();
  });

  it("closes the tab of a session the inbox held once it ended, at the next notification, without reading sessions", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const other = await signInAgain(hirer);
    const ending = await openTab(other);
    const staying = await openTab(hirer);
    // The session ends at the inbox alone (as when the sign-out's closing of its tabs did not get through).
    await inboxOf(hirer).endSessionByKey(await sessionKeyOf(other.token));
    expect((await call("/api/notifications/unread-count", other.token)).status).toBe(401);
    const meter = await meterInbox(hirer);

    expect((await call(`/api/gigs/${gigId}/start-work`, worker.token, "POST")).status).toBe(200);
    expect(await ending.next()).toMatchObject({ type: "error", message: "Your session has ended. Please log in again." });
    expect((await ending.waitForClose()).code).toBe(1008);
    expect(await staying.next()).toMatchObject({ type: "notification", notification: { gigId, actorName: "Worker" } });
    expect(meter.statements).toBe(1);
    staying.close();
  });

  it("checks a tab of a token from before in the database: pushed to while it holds, closed once it ended", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const old = await anotherSession(hirer);
    const tab = await openTab(old);
    const meter = await meterInbox(hirer);

    expect((await call(`/api/gigs/${gigId}/start-work`, worker.token, "POST")).status).toBe(200);
    expect(await tab.next()).toMatchObject({ type: "notification", notification: { gigId, actorName: "Worker" } });
    // Its session read from the sessions list, beside the notification with its count.
    expect(meter.statements).toBe(2);

    expect((await call("/api/auth/logout", old.token, "POST")).status).toBe(200);
    expect(await tab.next()).toMatchObject({ type: "error", message: "Your session has ended. Please log in again." });
    expect((await tab.waitForClose()).code).toBe(1008);
  });

  it("closes a held session's tab at once when the member signs out everywhere", async () => {
    const { hirer } = await claimedJob();
    const phone = await signInAgain(hirer);
    const tab = await openTab(phone);
    expect((await call("/api/auth/logout-all", hirer.token, "POST")).status).toBe(200);
    expect(await tab.next()).toMatchObject({ type: "error", message: "Your session has ended. Please log in again." });
    expect((await tab.waitForClose()).code).toBe(1008);
  });
});
