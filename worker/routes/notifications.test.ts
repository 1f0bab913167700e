import { describe, expect, it } from "vitest";
import { call, claimedJob, signUp } from "../test/factories";

describe("notifications", () => {
  it("tell the other party what happened, count unread, and mark read (own only)", async () => {
    const job = await claimedJob();
    const hirerBell = (await call("/api/notifications", job.hirer.token)).body as unknown as { id: string; type: string; gigId: string; isRead: boolean; title: string }[];
    expect(hirerBell.map((n) => n.type)).toEqual(expect.arrayContaining(["interest", "claimed"]));
    const claimed = hirerBell.find((n) => n.type === "claimed")!;
    expect(claimed).toMatchObject({ gigId: job.gigId, isRead: false, title: "Gig Claimed" });

    const before = (await call("/api/notifications/unread-count", job.hirer.token)).body as unknown as number;
    expect(before).toBe(hirerBell.length);
    expect((await call(`/api/notifications/${claimed.id}/read`, job.worker.token, "PATCH")).status).toBe(404);
    expect((await call(`/api/notifications/${claimed.id}/read`, job.hirer.token, "PATCH")).status).toBe(200);
    expect((await call("/api/notifications/unread-count", job.hirer.token)).body).toBe(before - 1);
    await call("/api/notifications/mark-all-read", job.hirer.token, "PATCH");
    expect((await call("/api/notifications/unread-count", job.hirer.token)).body).toBe(0);

    const workerBell = (await call("/api/notifications", job.worker.token)).body as unknown as { type: string }[];
    expect(workerBell.map((n) => n.type)).toEqual(expect.arrayContaining(["interest_approve", "interest_enable_claim"]));
  });

  it("are for members only", async () => {
    expect((await call("/api/notifications", undefined)).status).toBe(401);
    expect((await call("/api/notifications", (await signUp()).token)).body).toEqual([]);
  });
});
