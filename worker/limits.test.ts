// Limits on every door (issue 14): bodies are bounded before they are read.
import { describe, expect, it } from "vitest";
import { api, signUp } from "./test/factories";
import { askUploadUrl, putUpload } from "./test/uploads";
import { statement } from "./db/test-statements";

const GIG = { gigType: "job_request", title: "Design a logo", description: "A clean logo for a bitcoin meetup, SVG please.", category: "Design", payment: 10_000, timeframe: 7 };

async function gigsOf(memberId: string): Promise<number> {
  const row = await statement("SELECT COUNT(*) AS n FROM gigs WHERE poster_id = ?", memberId).first<{ n: number }>();
  return row!.n;
}

describe("request bodies", () => {
  it("refuses a JSON body over 64 KB with 413 {message, error}, and writes nothing", async () => {
    const member = await signUp({ lightningAddress: "big@wallet.test" });
    const res = await api("/api/gigs", { method: "POST", token: member.token, json: { ...GIG, description: "x".repeat(65 * 1024) } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Request body is too large (at most 64 KB).", error: "payload_too_large" });
    expect(await gigsOf(member.id)).toBe(0);
  });

  it("refuses a streamed body (no Content-Length) once it passes 64 KB", async () => {
    const member = await signUp({ lightningAddress: "stream@wallet.test" });
    const chunk = new TextEncoder().encode(`{"padding":"${"y".repeat(16 * 1024)}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 6; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await api("/api/gigs", { method: "POST", token: member.token, body, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(await gigsOf(member.id)).toBe(0);
  });

  it("refuses an oversized body before signing anyone in", async () => {
    const res = await api("/api/auth/nostr/verify", { method: "POST", json: { challengeId: "x", event: { content: "z".repeat(70_000) } } });
    expect(res.status).toBe(413);
  });

  it("still takes a body just under the limit, and uploads keep their own (larger) limit", async () => {
    const member = await signUp({ lightningAddress: "fine@wallet.test" });
    const res = await api("/api/gigs", { method: "POST", token: member.token, json: { ...GIG, padding: "p".repeat(60 * 1024) } });
    expect(res.status).toBe(201);
    const ticket = await askUploadUrl(member, { filename: "photo.png", contentType: "image/png", size: 200 * 1024 });
    expect(ticket.status).toBe(200);
    const uploaded = await putUpload(ticket.body.uploadURL as string, new Uint8Array(200 * 1024), "image/png");
    expect(uploaded.status).toBe(200);
  });
});
