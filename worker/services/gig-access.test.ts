// A service offering hired again after an unpaid hire ended (withdrawn, or its invoice expired): the new
// hirer sees the gig's chat, files and events from their own hire on, the earlier hirer's conversation
// stays theirs and the worker's; an unpaid hirer cannot edit the worker's offer; and the earlier hirer
// holds the offer again only if the worker enables claiming for them again.
import { describe, expect, it } from "vitest";
import { api, approveInterest, call, payWithDevWallet, postGig, signUp, type Member } from "../test/factories";
import { joinedSocket } from "../test/sockets";
import { uploadFile } from "../test/uploads";

async function member(tag: string): Promise<Member> {
  return signUp({ lightningAddress: `${tag}${crypto.randomUUID().slice(0, 8)}@wallet.test`, displayName: tag });
}

/** `hirer` hires the offering (interest approved, claim enabled): the gig waits for funding. Answers the invoice. */
async function hire(gigId: string, hirer: Member): Promise<string> {
  const claim = await call(`/api/gigs/${gigId}/claim`, hirer.token, "POST");
  expect(claim.status).toBe(200);
  expect(claim.body.gig).toMatchObject({ status: "pending_payment", hirerId: hirer.id });
  return claim.body.paymentRequest as string;
}

/** Sends a chat message with a file as `who`; answers the file's attachment id. */
async function chatWithFile(gigId: string, who: Member, text: string, content: string): Promise<string> {
  const file = await uploadFile(who, content, `${who.id.slice(0, 6)}.txt`);
  const socket = await joinedSocket(gigId, who);
  const sent = await socket.ask({ type: "chat_message", gigId, message: text, fileAttachment: file.ref });
  socket.close();
  expect(sent).toMatchObject({ type: "new_message", message: { message: text } });
  return sent.message.fileAttachment.id as string;
}

const messagesOf = async (gigId: string, who: Member) => {
  const r = await call(`/api/gigs/${gigId}/messages`, who.token);
  expect(r.status).toBe(200);
  return (r.body as unknown as { message: string }[]).map((m) => m.message);
};

const download = async (attachmentId: string, who: Member) => {
  const res = await api(`/api/attachments/${attachmentId}/download`, { token: who.token });
  return { status: res.status, body: await res.text() };
};

describe("a service offering hired again", () => {
  it("shows the new hirer only what happened since their hire; the worker keeps all of it", async () => {
    const worker = await member("worker");
    const gigId = (await postGig(worker, { gigType: "service_offering", title: "I draw logos" })).gig.id as string;

    const first = await member("first");
    await approveInterest(gigId, worker, first);
    await hire(gigId, first);
    const firstFile = await chatWithFile(gigId, first, "Private: my address is 1 Main St", "first hirer's brief");
    expect((await call(`/api/gigs/${gigId}/cancel`, first.token, "POST")).status).toBe(200);
    expect((await call(`/api/gigs/${gigId}/messages`, first.token)).status).toBe(403);

    const second = await member("second");
    await approveInterest(gigId, worker, second);
    const invoice = await hire(gigId, second);
    const secondFile = await chatWithFile(gigId, second, "Hello, here is my brief", "second hirer's brief");

    expect(await messagesOf(gigId, second)).toEqual(["Hello, here is my brief"]);
    expect(await download(firstFile, second)).toMatchObject({ status: 404 });
    expect(await download(secondFile, second)).toEqual({ status: 200, body: "second hirer's brief" });
    const events = (await call(`/api/gigs/${gigId}/events`, second.token)).body as unknown as { type: string; actorId: string | null }[];
    expect(events.map((e) => e.type)).toEqual(["hired"]);
    expect(events.every((e) => e.actorId !== first.id)).toBe(true);

    // The worker was in both conversations.
    expect(await messagesOf(gigId, worker)).toEqual(["Private: my address is 1 Main St", "Hello, here is my brief"]);
    expect(await download(firstFile, worker)).toEqual({ status: 200, body: "first hirer's brief" });
    const workerEvents = (await call(`/api/gigs/${gigId}/events`, worker.token)).body as unknown as { type: string }[];
    expect(workerEvents.map((e) => e.type)).toEqual(expect.arrayContaining(["hired", "hire_withdrawn"]));

    // Paid: the hire goes on, and the new hirer's view still starts at their hire.
    await payWithDevWallet(invoice);
    expect((await call(`/api/gigs/${gigId}`, second.token)).body).toMatchObject({ status: "claimed", escrowStatus: "funded" });
    expect(await messagesOf(gigId, second)).toEqual(["Hello, here is my brief"]);
  });

  it("a hire withdrawn unpaid needs the worker to enable claiming again before that member can hire again", async () => {
    const worker = await member("worker");
    const gigId = (await postGig(worker, { gigType: "service_offering" })).gig.id as string;
    const hirer = await member("hirer");
    const interestId = await approveInterest(gigId, worker, hirer);
    await hire(gigId, hirer);
    expect((await call(`/api/gigs/${gigId}/cancel`, hirer.token, "POST")).status).toBe(200);

    const again = await call(`/api/gigs/${gigId}/claim`, hirer.token, "POST");
    expect(again.status).toBe(403);
    expect(again.body.error).toBe("claim_not_enabled");
    expect((await call(`/api/gigs/${gigId}`, worker.token)).body).toMatchObject({ status: "open", hirerId: null });

    expect((await call(`/api/pre-claim-messages/${interestId}/enable-claim`, worker.token, "PATCH")).status).toBe(200);
    await hire(gigId, hirer);
  });

  it("an unpaid hirer cannot edit the worker's offer; once the escrow is funded either party can", async () => {
    const worker = await member("worker");
    const gigId = (await postGig(worker, { gigType: "service_offering", title: "I draw logos" })).gig.id as string;
    const hirer = await member("hirer");
    await approveInterest(gigId, worker, hirer);
    const invoice = await hire(gigId, hirer);

    const unpaid = await call(`/api/gigs/${gigId}`, hirer.token, "PATCH", { title: "Scam - do not hire" });
    expect(unpaid.status).toBe(403);
    expect(unpaid.body.message).toBe("Only the gig's owner can edit it until the escrow is funded");
    expect((await call(`/api/gigs/${gigId}`, undefined)).body.title).toBe("I draw logos");
    // The owner still can while it waits.
    expect((await call(`/api/gigs/${gigId}`, worker.token, "PATCH", { title: "I draw logos, fast" })).status).toBe(200);

    await payWithDevWallet(invoice);
    const funded = await call(`/api/gigs/${gigId}`, hirer.token, "PATCH", { description: "Logo for a bakery, warm colours please." });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ title: "I draw logos, fast", description: "Logo for a bakery, warm colours please." });
  });
});
