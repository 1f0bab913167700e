import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_ATTACHMENT_BYTES } from "../../domain/files";
import { openDb } from "../db/client";
import { uploads } from "../db/schema";
import { receiveUpload, sweepAbandonedUploads } from "../services/files";
import { api, approveInterest, call, claimedJob, payWithDevWallet, postGig, signUp, type Member } from "../test/factories";
import { askUploadUrl, putUpload, uploadFile } from "../test/uploads";

/** A claimed job with work started: the worker may submit. */
async function jobInProgress() {
  const job = await claimedJob();
  const started = await call(`/api/gigs/${job.gigId}/start-work`, job.worker.token, "POST");
  if (started.status !== 200) throw new Error(`start-work failed: ${started.status}`);
  return job;
}

/** A second funded job of the same hirer, claimed and started by the same worker. */
async function anotherJobInProgress(hirer: Member, worker: Member): Promise<string> {
  const posted = await postGig(hirer);
  await payWithDevWallet(posted.paymentRequest!);
  await approveInterest(posted.gig.id, hirer, worker);
  for (const step of ["claim", "start-work"]) {
    const r = await call(`/api/gigs/${posted.gig.id}/${step}`, worker.token, "POST");
    if (r.status !== 200) throw new Error(`${step} failed: ${r.status}`);
  }
  return posted.gig.id as string;
}

const submit = (gigId: string, worker: Member, attachments: unknown[]) =>
  call(`/api/gigs/${gigId}/submit`, worker.token, "POST", { workSubmission: "Logo attached.", attachments });

const gigStatus = async (gigId: string, token: string) => (await call(`/api/gigs/${gigId}`, token)).body.status as string;

describe("POST /api/objects/upload", () => {
  it("gives a member a one-time upload URL on this Worker and the object's path", async () => {
    const m = await signUp();
    const res = await askUploadUrl(m, { filename: "logo.svg", contentType: "image/svg+xml", size: 1234 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uploadURL: expect.stringMatching(/^\/api\/objects\/upload\/[0-9a-f]{64}$/),
      objectPath: expect.stringMatching(/^\/objects\/uploads\/[0-9a-f-]{36}$/),
      expiresAt: expect.any(String),
    });
    const ttl = Date.parse(res.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    expect((await askUploadUrl(m)).status).toBe(200); // the body is optional
  });

  it("needs a session, and refuses a declared size over 50 MB", async () => {
    expect((await call("/api/objects/upload", undefined, "POST", {})).status).toBe(401);
    const m = await signUp();
    const big = await askUploadUrl(m, { filename: "huge.bin", size: MAX_ATTACHMENT_BYTES + 1 });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: "file_too_large" });
    expect((await askUploadUrl(m, { size: MAX_ATTACHMENT_BYTES })).status).toBe(200);
  });
});

describe("PUT <uploadURL>", () => {
  it("stores the body once; the same URL is refused afterwards, an unknown one is not found", async () => {
    const m = await signUp();
    const { body: ticket } = await askUploadUrl(m, { filename: "a.txt" });
    const first = await putUpload(ticket.uploadURL, new TextEncoder().encode("abc"), "text/plain");
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true, objectPath: ticket.objectPath, size: 3 });

    const again = await putUpload(ticket.uploadURL, new TextEncoder().encode("overwrite"), "text/plain");
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ error: "upload_url_used" });
    const unknown = await putUpload(`/api/objects/upload/${"ab".repeat(32)}`, new Uint8Array(1));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "upload_not_found" });

    const stored = await env.FILES.get(`uploads/${ticket.objectPath.split("/").pop()}`);
    expect(await stored!.text()).toBe("abc");
  });

  it("refuses a URL older than 15 minutes", async () => {
    const m = await signUp();
    const { body: ticket } = await askUploadUrl(m);
    const id = ticket.objectPath.split("/").pop();
    await openDb(env.DB).update(uploads).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where(eq(uploads.id, id));
    const res = await putUpload(ticket.uploadURL, new Uint8Array(3));
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ error: "upload_url_expired" });
  });

  it("refuses more than 52,428,800 bytes with 413, and the URL stays usable for a smaller file", async () => {
    const m = await signUp();
    const { body: ticket } = await askUploadUrl(m);
    const tooBig = await putUpload(ticket.uploadURL, new Uint8Array(MAX_ATTACHMENT_BYTES + 1));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ error: "file_too_large" });
    const exact = await putUpload(ticket.uploadURL, new Uint8Array(MAX_ATTACHMENT_BYTES));
    expect(exact.status).toBe(200);
    expect(await exact.json()).toMatchObject({ size: MAX_ATTACHMENT_BYTES });
  });

  it("counts what arrives: a body longer than its Content-Length claims is refused", async () => {
    const m = await signUp();
    const { body: ticket } = await askUploadUrl(m);
    const token = ticket.uploadURL.split("/").pop();
    const chunk = new Uint8Array(1024 * 1024);
    const chunks = Math.ceil(MAX_ATTACHMENT_BYTES / chunk.byteLength) + 1;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < chunks) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const receiving = receiveUpload({ db: openDb(env.DB), env }, token, body, { contentLength: String(MAX_ATTACHMENT_BYTES) });
    await expect(receiving).rejects.toMatchObject({ status: 413 });
    const row = await openDb(env.DB).query.uploads.findFirst({ where: eq(uploads.id, ticket.objectPath.split("/").pop()) });
    expect(row?.completedAt).toBeNull();
  });
});

describe("POST /api/gigs/{id}/submit with attachments", () => {
  it("links the worker's uploads to the gig and lists them on the work_submitted event", async () => {
    const { hirer, worker, gigId } = await jobInProgress();
    const logo = await uploadFile(worker, "<svg/>", "logo.svg", "image/svg+xml");
    const notes = await uploadFile(worker, "notes", "notes.txt", "text/plain");
    // The uploadURL works as a reference too.
    const res = await submit(gigId, worker, [logo.ref, { ...notes.ref, url: notes.uploadURL }]);
    expect(res.status).toBe(200);

    const events = (await call(`/api/gigs/${gigId}/events`, hirer.token)).body as { type: string; attachments: { id: string; url: string }[] }[];
    const submitted = events.find((e) => e.type === "work_submitted")!;
    expect(submitted.attachments).toEqual([
      { id: expect.any(String), url: `/api/attachments/${submitted.attachments[0]!.id}/download`, filename: "logo.svg", fileSize: 6, mimeType: "image/svg+xml" },
      { id: expect.any(String), url: `/api/attachments/${submitted.attachments[1]!.id}/download`, filename: "notes.txt", fileSize: 5, mimeType: "text/plain" },
    ]);
  });

  it("refuses someone else's upload (403), an unfinished one, and one already attached, and submits nothing", async () => {
    const { hirer, worker, gigId } = await jobInProgress();
    const hirersFile = await uploadFile(hirer, "not yours");
    const stolen = await submit(gigId, worker, [hirersFile.ref]);
    expect(stolen.status).toBe(403);
    expect(stolen.body).toMatchObject({ error: "not_your_upload" });

    const { body: unfinished } = await askUploadUrl(worker, { filename: "later.txt" });
    const early = await submit(gigId, worker, [{ url: unfinished.objectPath, filename: "later.txt", fileSize: 1, mimeType: "text/plain" }]);
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ error: "upload_incomplete" });

    const bogus = await submit(gigId, worker, [{ url: "https://evil.example/file", filename: "x", fileSize: 1, mimeType: "text/plain" }]);
    expect(bogus.status).toBe(400);
    expect(await gigStatus(gigId, worker.token)).toBe("in_progress");

    // A delivered file is attached once: a resubmission after a revision needs a fresh upload.
    const delivered = await uploadFile(worker, "once");
    expect((await submit(gigId, worker, [delivered.ref])).status).toBe(200);
    expect((await call(`/api/gigs/${gigId}/request-revision`, hirer.token, "POST", { note: "Bigger, please" })).status).toBe(200);
    const reused = await submit(gigId, worker, [delivered.ref]);
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ error: "upload_already_attached" });
    expect(await gigStatus(gigId, worker.token)).toBe("needs_revision");
  });

  it("one upload sent with two submissions at once is delivered once; the other answers 409 and submits nothing", async () => {
    const first = await jobInProgress();
    const second = await anotherJobInProgress(first.hirer, first.worker);
    const file = await uploadFile(first.worker, "one file, two gigs");
    const results = await Promise.all([submit(first.gigId, first.worker, [file.ref]), submit(second, first.worker, [file.ref])]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ error: "upload_already_attached" });
    const statuses = [await gigStatus(first.gigId, first.worker.token), await gigStatus(second, first.worker.token)].sort();
    expect(statuses).toEqual(["in_progress", "work_submitted"]);
  });

  it("refuses to link the same upload twice", async () => {
    const { worker, gigId } = await jobInProgress();
    const file = await uploadFile(worker, "twice");
    const res = await submit(gigId, worker, [file.ref, file.ref]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "duplicate_attachment" });
  });
});

describe("GET /api/attachments/{id}/download", () => {
  async function deliveredFile() {
    const job = await jobInProgress();
    const file = await uploadFile(job.worker, "<svg>logo</svg>", 'logo "final".svg', "image/svg+xml");
    expect((await submit(job.gigId, job.worker, [file.ref])).status).toBe(200);
    const events = (await call(`/api/gigs/${job.gigId}/events`, job.hirer.token)).body as { type: string; attachments: { url: string }[] }[];
    const url = events.find((e) => e.type === "work_submitted")!.attachments[0]!.url;
    return { ...job, url };
  }

  it("serves the file to the hirer and the worker as a sandboxed download", async () => {
    const { hirer, worker, url } = await deliveredFile();
    for (const party of [hirer, worker]) {
      const res = await api(url, { token: party.token });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("<svg>logo</svg>");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="logo _final_.svg"; filename*=UTF-8''logo%20%22final%22.svg`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
    }
  });

  it("refuses a stranger (403), a visitor (401) and an unknown id (404), with an error field", async () => {
    const { url } = await deliveredFile();
    const stranger = await signUp();
    const denied = await call(url, stranger.token);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    const visitor = await call(url, undefined);
    expect(visitor.status).toBe(401);
    expect(visitor.body).toMatchObject({ error: "unauthorized" });
    const unknown = await call(`/api/attachments/${crypto.randomUUID()}/download`, stranger.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: "attachment_not_found" });
  });
});

describe("sweepAbandonedUploads", () => {
  it("removes uploads nobody attached a day after their URL expired, and keeps delivered files", async () => {
    const { hirer, worker, gigId } = await jobInProgress();
    const delivered = await uploadFile(worker, "keep me");
    expect((await submit(gigId, worker, [delivered.ref])).status).toBe(200);
    const forgotten = await uploadFile(worker, "never sent");
    const { body: unused } = await askUploadUrl(worker);
    const idOf = (path: string) => path.split("/").pop()!;
    const db = openDb(env.DB);
    for (const path of [delivered.objectPath, forgotten.objectPath, unused.objectPath]) {
      await db.update(uploads).set({ expiresAt: "2026-01-01T00:00:00.000Z" }).where(eq(uploads.id, idOf(path)));
    }

    // Not yet a day past expiry: nothing goes.
    expect(await sweepAbandonedUploads({ db, env }, new Date("2026-01-01T12:00:00.000Z"))).toBe(0);
    expect(await sweepAbandonedUploads({ db, env }, new Date("2026-01-02T00:00:01.000Z"), 1000)).toBeGreaterThanOrEqual(2);
    expect(await db.query.uploads.findFirst({ where: eq(uploads.id, idOf(forgotten.objectPath)) })).toBeUndefined();
    expect(await db.query.uploads.findFirst({ where: eq(uploads.id, idOf(unused.objectPath)) })).toBeUndefined();
    expect(await env.FILES.head(`uploads/${idOf(forgotten.objectPath)}`)).toBeNull();

    const events = (await call(`/api/gigs/${gigId}/events`, hirer.token)).body as { type: string; attachments: { url: string }[] }[];
    const url = events.find((e) => e.type === "work_submitted")!.attachments[0]!.url;
    const download = await api(url, { token: hirer.token });
    expect(await download.text()).toBe("keep me");
  });
});
