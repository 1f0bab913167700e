// Extensions, reviews and reputation, portfolio.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, claimedJob, signUp, submittedJob } from "../test/factories";

const DAY = 86_400_000;

describe("deadline extensions", () => {
  it("the worker asks (one pending at a time), the hirer approves and the deadline moves by the days asked", async () => {
    const job = await claimedJob();
    const before = Date.parse((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.deadline);
    const asked = await call(`/api/gigs/${job.gigId}/request-extension`, job.worker.token, "POST", { daysToAdd: 3, reason: "Waiting for assets" });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: "pending", daysToAdd: 3, reason: "Waiting for assets" });
    const again = await call(`/api/gigs/${job.gigId}/request-extension`, job.worker.token, "POST", { daysToAdd: 1 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("An extension request is already pending for this gig");

    expect((await call(`/api/gigs/${job.gigId}/extension-request/${asked.body.id}/approve`, job.worker.token, "POST")).status).toBe(403);
    expect((await call(`/api/gigs/${job.gigId}/extension-request/${asked.body.id}/approve`, job.hirer.token, "POST")).status).toBe(200);
    const after = Date.parse((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.deadline);
    expect(after - before).toBe(3 * DAY);
    expect((await call(`/api/gigs/${job.gigId}/extension-request/${asked.body.id}/reject`, job.hirer.token, "POST")).status).toBe(409);

    const list = (await call(`/api/gigs/${job.gigId}/extension-requests`, job.worker.token)).body as unknown as { status: string }[];
    expect(list.map((r) => r.status)).toEqual(["approved"]);
    expect((await call(`/api/gigs/${job.gigId}/extension-requests`, (await signUp()).token)).status).toBe(403);
    const workerBell = (await call("/api/notifications", job.worker.token)).body as unknown as { type: string }[];
    expect(workerBell.map((n) => n.type)).toContain("extension_approved");
  });

  it("a rejected request leaves the deadline, and a new one may follow", async () => {
    const job = await claimedJob();
    const before = (await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.deadline;
    const asked = await call(`/api/gigs/${job.gigId}/request-extension`, job.worker.token, "POST", { daysToAdd: 7 });
    expect((await call(`/api/gigs/${job.gigId}/extension-request/${asked.body.id}/reject`, job.hirer.token, "POST")).body.status).toBe("rejected");
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.deadline).toBe(before);
    expect((await call(`/api/gigs/${job.gigId}/request-extension`, job.worker.token, "POST", { daysToAdd: 1 })).status).toBe(201);
  });

  it("refuses bad days, the hirer asking, and gigs not in progress", async () => {
    const job = await claimedJob();
    const zero = await call(`/api/gigs/${job.gigId}/request-extension`, job.worker.token, "POST", { daysToAdd: 0 });
    expect(zero.body.message).toBe("Days to add must be at least 1");
    expect((await call(`/api/gigs/${job.gigId}/request-extension`, job.hirer.token, "POST", { daysToAdd: 1 })).status).toBe(403);
    const done = await submittedJob();
    expect((await call(`/api/gigs/${done.gigId}/request-extension`, done.worker.token, "POST", { daysToAdd: 1 })).status).toBe(409);
  });

  it("the hirer extends directly, only to a later deadline", async () => {
    const job = await claimedJob();
    const current = Date.parse((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body.deadline);
    const earlier = await call(`/api/gigs/${job.gigId}/extend-deadline`, job.hirer.token, "PATCH", { newDeadline: new Date(current - DAY).toISOString() });
    expect(earlier.status).toBe(400);
    expect(earlier.body.message).toBe("The new deadline must be later than the current one");
    const later = new Date(current + 2 * DAY).toISOString();
    expect((await call(`/api/gigs/${job.gigId}/extend-deadline`, job.worker.token, "PATCH", { newDeadline: later })).status).toBe(403);
    expect((await call(`/api/gigs/${job.gigId}/extend-deadline`, job.hirer.token, "PATCH", { newDeadline: later })).body).toEqual({ deadline: later });
    expect((await call(`/api/gigs/${job.gigId}/extend-deadline`, job.hirer.token, "PATCH", { newDeadline: "tomorrow" })).status).toBe(400);
  });
});

describe("reviews and reputation", () => {
  it("each party reviews the other once from work_submitted on; averages are exact", async () => {
    const job = await claimedJob();
    const early = await call(`/api/gigs/${job.gigId}/review`, job.hirer.token, "POST", { rating: 5, revieweeId: job.worker.id });
    expect(early.status).toBe(409);

    await call(`/api/gigs/${job.gigId}/start-work`, job.worker.token, "POST");
    await call(`/api/gigs/${job.gigId}/submit`, job.worker.token, "POST", { workSubmission: "Done" });
    const bad = await call(`/api/gigs/${job.gigId}/review`, job.worker.token, "POST", { rating: 6, revieweeId: job.hirer.id });
    expect(bad.body.message).toBe("Invalid Rating: Please select a rating between 1 and 5 stars.");
    expect((await call(`/api/gigs/${job.gigId}/review`, job.worker.token, "POST", { rating: 4, revieweeId: job.worker.id })).status).toBe(400);
    const ok = await call(`/api/gigs/${job.gigId}/review`, job.worker.token, "POST", { rating: 4, comment: "Clear brief", revieweeId: job.hirer.id });
    expect(ok.status).toBe(201);
    const twice = await call(`/api/gigs/${job.gigId}/review`, job.worker.token, "POST", { rating: 1, revieweeId: job.hirer.id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/already submitted/);
    expect((await call(`/api/gigs/${job.gigId}/review`, (await signUp()).token, "POST", { rating: 5, revieweeId: job.hirer.id })).status).toBe(403);

    await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST");
    await call(`/api/gigs/${job.gigId}/review`, job.hirer.token, "POST", { rating: 5, revieweeId: job.worker.id });

    const hirer = (await call(`/api/users/${job.hirer.id}`, undefined)).body;
    expect(hirer).toMatchObject({ averageRating: 40, totalReviews: 1, completedGigs: 1, successfulGigs: 1, successRate: 100 });
    const reviews = (await call(`/api/reviews/user/${job.hirer.id}`, undefined)).body as unknown as Record<string, unknown>[];
    expect(reviews).toEqual([
      expect.objectContaining({ rating: 4, comment: "Clear brief", revieweeId: job.hirer.id, reviewerUsername: job.worker.npub, reviewerName: "Worker" }),
    ]);
  });

  it("averages several reviews to one decimal (stored ×10)", async () => {
    const hirerTag = crypto.randomUUID().slice(0, 6);
    const ratings = [5, 4, 4];
    let workerId = "";
    const worker = await signUp({ lightningAddress: `avg${hirerTag}@wallet.test` });
    workerId = worker.id;
    for (const rating of ratings) {
      const { approveInterest, postGig, payWithDevWallet } = await import("../test/factories");
      const hirer = await signUp({ lightningAddress: `avgh${crypto.randomUUID().slice(0, 6)}@wallet.test` });
      const posted = await postGig(hirer);
      await payWithDevWallet(posted.paymentRequest!);
      await approveInterest(posted.gig.id, hirer, worker);
      await call(`/api/gigs/${posted.gig.id}/claim`, worker.token, "POST");
      await call(`/api/gigs/${posted.gig.id}/start-work`, worker.token, "POST");
      await call(`/api/gigs/${posted.gig.id}/submit`, worker.token, "POST", { workSubmission: "ok" });
      await call(`/api/gigs/${posted.gig.id}/review`, hirer.token, "POST", { rating, revieweeId: worker.id });
    }
    const u = (await call(`/api/users/${workerId}`, undefined)).body;
    expect(u).toMatchObject({ averageRating: 43, totalReviews: 3 });
  });
});

describe("portfolio", () => {
  it("the owner adds, edits and removes items; others see them and cannot touch them", async () => {
    const me = await signUp();
    const other = await signUp();
    const added = await call("/api/portfolio", me.token, "POST", {
      title: "Meetup poster",
      description: "A3 poster",
      imageUrl: "https://example.com/poster.png",
      projectUrl: "https://example.com/project",
      category: "Design",
    });
    expect(added.status).toBe(201);
    expect((await call("/api/portfolio", me.token, "POST", { title: "x", imageUrl: "ftp://nope" })).body.message).toBe("Image URL must be an http(s) URL");
    expect((await call("/api/portfolio", me.token, "POST", { title: "" })).body.message).toBe("Title is required");

    expect((await call(`/api/portfolio/${added.body.id}`, other.token, "PATCH", { title: "Stolen" })).status).toBe(404);
    expect((await call(`/api/portfolio/${added.body.id}`, me.token, "PATCH", { title: "Meetup poster v2" })).body.title).toBe("Meetup poster v2");
    const list = (await call(`/api/portfolio/user/${me.id}`, undefined)).body as unknown as { title: string }[];
    expect(list.map((i) => i.title)).toEqual(["Meetup poster v2"]);
    expect((await call(`/api/portfolio/${added.body.id}`, other.token, "DELETE")).status).toBe(404);
    expect((await call(`/api/portfolio/${added.body.id}`, me.token, "DELETE")).status).toBe(200);
    expect((await call(`/api/portfolio/user/${me.id}`, undefined)).body).toEqual([]);
    expect((await call("/api/portfolio", undefined, "POST", { title: "x" })).status).toBe(401);
  });
});

void env;
