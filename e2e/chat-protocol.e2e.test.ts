// The /ws chat protocol and the files flow against a real `npm start`, spoken by plain Node clients
// written from SPEC.md §7 alone (Node's own WebSocket and fetch, no code from the app).
import { request } from "node:http";
import { generateSecretKey } from "nostr-tools";
import { describe, expect, inject, it } from "vitest";
import { apiJson, createSignedInUser, type SignedInUser } from "./support/api";

const baseUrl = inject("baseUrl");
const wsUrl = (gigId: string) => `${baseUrl.replace(/^http/, "ws")}/ws?gigId=${gigId}`;

type Frame = Record<string, any>;

/** A socket that queues what it receives. */
class Client {
  private readonly queue: Frame[] = [];
  private readonly waiting: ((f: Frame) => void)[] = [];
  readonly ready: Promise<void>;

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data)) as Frame;
      const waiter = this.waiting.shift();
      if (waiter) waiter(frame);
      else this.queue.push(frame);
    });
    this.ready = new Promise((resolve, reject) => {
      ws.addEventListener("open", () => resolve());
      ws.addEventListener("error", () => reject(new Error("WebSocket failed to open")));
    });
  }

  next(): Promise<Frame> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no frame within 10 s")), 10_000);
      this.waiting.push((f) => {
        clearTimeout(timer);
        resolve(f);
      });
    });
  }

  async ask(frame: Frame): Promise<Frame> {
    this.ws.send(JSON.stringify(frame));
    return this.next();
  }
}

async function member(tag: string): Promise<SignedInUser> {
  const m = await createSignedInUser(baseUrl, generateSecretKey());
  await apiJson(baseUrl, "PATCH", "/api/user/me", { sessionToken: m.sessionToken, body: { lightningAddress: `${tag}${Date.now()}@wallet.test`, displayName: tag } });
  return m;
}

/** A funded job request claimed by a worker, with work started. */
async function jobInProgress() {
  const hirer = await member("hirer");
  const worker = await member("worker");
  const posted = await apiJson<{ gig: { id: string }; paymentRequest: string }>(baseUrl, "POST", "/api/gigs", {
    sessionToken: hirer.sessionToken,
    body: { gigType: "job_request", title: "Chat e2e", description: "A gig to talk about over the socket.", category: "Design", payment: 1_000, timeframe: 7 },
  });
  await apiJson(baseUrl, "POST", "/api/dev/invoices/pay", { body: { paymentRequest: posted.paymentRequest } });
  const gigId = posted.gig.id;
  const interest = await apiJson<{ id: string }>(baseUrl, "POST", `/api/gigs/${gigId}/pre-claim-messages`, { sessionToken: worker.sessionToken, body: { message: "Me!" } });
  for (const step of ["approve", "enable-claim"]) {
    await apiJson(baseUrl, "PATCH", `/api/pre-claim-messages/${interest.id}/${step}`, { sessionToken: hirer.sessionToken });
  }
  await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/claim`, { sessionToken: worker.sessionToken });
  await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/start-work`, { sessionToken: worker.sessionToken });
  return { hirer, worker, gigId };
}

async function joined(gigId: string, who: SignedInUser): Promise<Client> {
  const client = new Client(new WebSocket(wsUrl(gigId)));
  await client.ready;
  expect(await client.ask({ type: "auth", sessionToken: who.sessionToken })).toEqual({ type: "auth_success" });
  expect(await client.ask({ type: "join_gig", gigId })).toEqual({ type: "join_success", gigId });
  return client;
}

describe("chat over /ws against npm start", () => {
  it("two parties chat live; the history keeps it; a stranger cannot join", async () => {
    const { hirer, worker, gigId } = await jobInProgress();
    const a = await joined(gigId, hirer);
    const b = await joined(gigId, worker);

    a.ws.send(JSON.stringify({ type: "chat_message", gigId, message: "Hello from the hirer" }));
    const seenByWorker = await b.next();
    expect(seenByWorker).toMatchObject({ type: "new_message", message: { gigId, senderId: hirer.user.id, message: "Hello from the hirer" } });
    expect(await a.next()).toEqual(seenByWorker);

    expect(await b.ask({ type: "chat_message", gigId, message: "   " })).toMatchObject({ type: "error" });
    expect(await b.ask({ type: "nonsense" })).toMatchObject({ type: "error" });

    const history = await apiJson<Frame[]>(baseUrl, "GET", `/api/gigs/${gigId}/messages`, { sessionToken: worker.sessionToken });
    expect(history.map((m) => m.message)).toEqual(["Hello from the hirer"]);

    const stranger = await member("stranger");
    const c = new Client(new WebSocket(wsUrl(gigId)));
    await c.ready;
    await c.ask({ type: "auth", sessionToken: stranger.sessionToken });
    expect(await c.ask({ type: "join_gig", gigId })).toMatchObject({ type: "error" });
    for (const client of [a, b, c]) client.ws.close();
  });

  it("refuses a page from another site", async () => {
    const { gigId } = await jobInProgress();
    const handshake = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${baseUrl}/ws?gigId=${gigId}`, {
          headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", Origin: origin },
        });
        req.on("upgrade", (res, socket) => {
          socket.destroy();
          resolve(res.statusCode ?? 0);
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end();
      });
    expect(await handshake("https://evil.example")).toBe(403);
    expect(await handshake(baseUrl)).toBe(101);
  });

  it("delivers a file from the worker to the hirer and to no one else", async () => {
    const { hirer, worker, gigId } = await jobInProgress();
    const content = "the final logo";
    const ticket = await apiJson<{ uploadURL: string; objectPath: string }>(baseUrl, "POST", "/api/objects/upload", {
      sessionToken: worker.sessionToken,
      body: { filename: "logo.txt", contentType: "text/plain", size: content.length },
    });
    const put = await fetch(new URL(ticket.uploadURL, baseUrl), { method: "PUT", body: content, headers: { "Content-Type": "text/plain" } });
    expect(put.status).toBe(200);
    const again = await fetch(new URL(ticket.uploadURL, baseUrl), { method: "PUT", body: content, headers: { "Content-Type": "text/plain" } });
    expect(again.status).toBe(410);

    await apiJson(baseUrl, "POST", `/api/gigs/${gigId}/submit`, {
      sessionToken: worker.sessionToken,
      body: { workSubmission: "Done, see the file.", attachments: [{ url: ticket.objectPath, filename: "logo.txt", fileSize: content.length, mimeType: "text/plain" }] },
    });
    const events = await apiJson<Frame[]>(baseUrl, "GET", `/api/gigs/${gigId}/events`, { sessionToken: hirer.sessionToken });
    const [file] = events.find((e) => e.type === "work_submitted")!.attachments as Frame[];
    expect(file).toMatchObject({ filename: "logo.txt", fileSize: content.length, mimeType: "text/plain" });

    const download = await fetch(new URL(file!.url, baseUrl), { headers: { Authorization: `Bearer ${hirer.sessionToken}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="logo.txt"/);
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await download.text()).toBe(content);

    const stranger = await member("nosy");
    const denied = await fetch(new URL(file!.url, baseUrl), { headers: { Authorization: `Bearer ${stranger.sessionToken}` } });
    expect(denied.status).toBe(403);
    expect((await denied.json()) as Frame).toHaveProperty("error");
    expect((await fetch(new URL(file!.url, baseUrl))).status).toBe(401);
  });
});
