import { describe, expect, it } from "vitest";
import { INBOX_PROTOCOL } from "../domain/notifications";
import { call, claimedJob, payWithDevWallet, postGig, signUp, submittedJob } from "../worker/test/factories";
import { anotherSession, openInboxSocket, type TestSocket } from "../worker/test/sockets";

const unread = async (token: string) => (await call("/api/notifications/unread-count", token)).body as unknown as number;

async function openTab(member: { token: string }): Promise<TestSocket> {
  const opened = await openInboxSocket(member);
  expect(opened.status).toBe(101);
  return opened.socket!;
}

describe("the inbox socket's door (/api/notifications/socket)", () => {
  it("needs a live session offered beside the protocol, answers with the protocol, and refuses another site's page", async () => {
    const member = await signUp();
    const opened = await openInboxSocket(member);
    expect(opened.status).toBe(101);
    expect(opened.protocol).toBe(INBOX_PROTOCOL);
    opened.socket!.close();

    expect((await openInboxSocket(null)).status).toBe(401);
    expect((await openInboxSocket({ token: "0".repeat(64) })).status).toBe(401);
    // The token only counts beside the inbox's protocol.
    expect((await openInboxSocket(member, { protocols: [`bearer.${member.token}`] })).status).toBe(401);
    const foreign = await openInboxSocket(member, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: "forbidden_origin" });
    expect((await openInboxSocket(member, { origin: null })).status).toBe(101);
  });

  it("answers 426 to a plain request", async () => {
    const member = await signUp();
    const res = await call("/api/notifications/socket", member.token);
    expect(res.status).toBe(426);
    expect(res.body).toMatchObject({ error: "upgrade_required" });
  });
});

describe("notifications pushed to open tabs", () => {
  it("tells a tab its unread count first, then each new notification with the count after it", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const before = await unread(hirer.token);
    expect(before).toBeGreaterThan(0);
    const tab = await openTab(hirer);
    expect(await tab.next()).toEqual({ type: "unread_count", count: before });

    // The worker starts work: the hirer hears of it without asking.
    expect((await call(`/api/gigs/${gigId}/start-work`, worker.token, "POST")).status).toBe(200);
    const pushed = await tab.next();
    expect(pushed).toMatchObject({ type: "notification", unreadCount: before + 1, notification: { gigId, isRead: false, actorName: "Worker" } });
    const list = (await call("/api/notifications", hirer.token)).body as unknown as { id: string }[];
    expect(list[0]!.id).toBe(pushed.notification.id);
    tab.close();
  });

  it("reaches every open tab of the member, and no one else's", async () => {
    const { hirer, worker, gigId } = await claimedJob();
    const tabs = [await openTab(hirer), await openTab(await anotherSession(hirer))];
    const workerTab = await openTab(worker);
    for (const tab of [...tabs, workerTab]) expect((await tab.next()).type).toBe("unread_count");

    expect((await call(`/api/gigs/${gigId}/start-work`, worker.token, "POST")).status).toBe(200);
    for (const tab of tabs) expect(await tab.next()).toMatchObject({ type: "notification", notification: { gigId } });
    // The worker heard nothing of the hirer's notifications: their next frame is their own (the approval).
    const message = await call(`/api/gigs/${gigId}/submit`, worker.token, "POST", { workSubmission: "Done: https://example.com/logo.svg" });
    expect(message.status).toBe(200);
    for (const tab of tabs) expect(await tab.next()).toMatchObject({ type: "notification", notification: { gigId, actorName: "Worker" } });
    expect((await call(`/api/gigs/${gigId}/approve`, hirer.token, "POST")).status).toBe(200);
    const workerFrame = await workerTab.next();
    expect(workerFrame).toMatchObject({ type: "notification", notification: { gigId, actorName: "Hirer" } });
    expect(workerFrame.unreadCount).toBe(await unread(worker.token));
    for (const tab of [...tabs, workerTab]) tab.close();
  });

  it("pushes the notices written outside a gig's transition: a review, a changed Lightning address", async () => {
    const { hirer, worker, gigId } = await submittedJob();
    expect((await call(`/api/gigs/${gigId}/approve`, hirer.token, "POST")).status).toBe(200);
    const tab = await openTab(worker);
    expect((await tab.next()).type).toBe("unread_count");

    expect((await call(`/api/gigs/${gigId}/review`, hirer.token, "POST", { rating: 5, revieweeId: worker.id })).status).toBe(201);
    expect(await tab.next()).toMatchObject({ type: "notification", notification: { type: "review", gigId } });

    expect((await call("/api/user/me", worker.token, "PATCH", { lightningAddress: `moved${crypto.randomUUID().slice(0, 6)}@wallet.test` })).status).toBe(200);
    expect(await tab.next()).toMatchObject({ type: "notification", notification: { type: "lightning_address_changed" } });
    tab.close();
  });

  it("tells a tab whose session ended so, and closes it, at the next notification", async () => {
    const hirer = await signUp({ lightningAddress: `h${crypto.randomUUID().slice(0, 6)}@wallet.test`, displayName: "Hirer" });
    const other = await anotherSession(hirer);
    const ending = await openTab(other);
    const staying = await openTab(hirer);
    for (const tab of [ending, staying]) expect((await tab.next()).type).toBe("unread_count");
    expect((await call("/api/auth/logout", other.token, "POST")).status).toBe(200);

    const gig = await postGig(hirer);
    expect((await payWithDevWallet(gig.paymentRequest!)).status).toBe(200);
    const interested = await signUp({ displayName: "Curious" });
    expect((await call(`/api/gigs/${gig.gig.id}/pre-claim-messages`, interested.token, "POST", { message: "I would love to do this." })).status).toBe(201);
    expect(await ending.next()).toMatchObject({ type: "error", message: "Your session has ended. Please log in again." });
    expect((await ending.waitForClose()).code).toBe(1008);
    expect(await staying.next()).toMatchObject({ type: "notification", notification: { type: "interest", title: "New Interest" } });
    staying.close();
  });
});
