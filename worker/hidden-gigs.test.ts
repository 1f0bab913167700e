// A gig hidden from a member is "not found" on every route of it (gig-views.ts, loadGig): an unpaid job request
// is its poster's business, a gig the admin removed its parties'. A stranger who knows such a gig's id gets the
// answer of a gig that never was, 404 gig_not_found, whatever they ask of it: never a 403 that says it exists, nor
// a 409 that names its status. The routes are read from the Worker's own table, so a new route of a gig is
// covered the day it is added (and a route without a request body written down here fails the suite).
import { describe, expect, it } from "vitest";
import { app } from "./app";
import { adminSignIn, asAdmin } from "./test/admin";
import { approveInterest, call, claimedJob, postGig, signUp, type Member } from "./test/factories";

const GIG_ROUTES = [...new Set(app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/api/gigs/:id")).map((r) => `${r.method} ${r.path}`))];

/** A valid body for each route that reads one, so that the answer is about the gig, not the request. */
function bodyFor(route: string, reviewee: Member): unknown {
  const path = route.split(" ")[1];
  if (route === "PATCH /api/gigs/:id") return { title: "A better title" };
  if (path.endsWith("/submit")) return { workSubmission: "Here is the logo." };
  if (path.endsWith("/request-revision")) return { note: "Darker orange, please." };
  if (path.endsWith("/dispute")) return { reason: "Not what we agreed" };
  if (route === "POST /api/gigs/:id/milestone-proposals") return { milestones: [{ title: "Pages", amount: 15_000 }] };
  if (route === "POST /api/gigs/:id/pre-claim-messages") return { message: "I can do this." };
  if (route === "POST /api/gigs/:id/request-extension") return { daysToAdd: 3, reason: "More time" };
  if (route === "PATCH /api/gigs/:id/extend-deadline") return { newDeadline: new Date(Date.now() + 30 * 86_400_000).toISOString() };
  if (route === "POST /api/gigs/:id/review") return { rating: 5, comment: "Great work.", revieweeId: reviewee.id };
  return undefined;
}

const WITHOUT_BODY = /^(GET|DELETE) |\/(claim|cancel|start-work|approve|fund|accept|reject|withdraw)$/;

function pathOf(route: string, gigId: string): string {
  return route
    .split(" ")[1]
    .replace(":id", gigId)
    .replace(":n", "1")
    .replace(/:(proposalId|requestId)/, crypto.randomUUID());
}

/** Every route of the gig, asked by `stranger`: each answers 404 gig_not_found, and the gig its poster sees is unchanged. */
async function everyRouteIsNotFound(gigId: string, stranger: Member, poster: Member, reviewee: Member) {
  const before = await call(`/api/gigs/${gigId}`, poster.token);
  expect(before.status).toBe(200);
  const answers: Record<string, string> = {};
  for (const route of GIG_ROUTES) {
    const body = bodyFor(route, reviewee);
    if (body === undefined && !WITHOUT_BODY.test(route)) throw new Error(`${route}: write down a valid request body for it in bodyFor`);
    const res = await call(pathOf(route, gigId), stranger.token, route.split(" ")[0], body);
    answers[route] = `${res.status} ${res.body.error ?? ""}`.trim();
  }
  expect(answers).toEqual(Object.fromEntries(GIG_ROUTES.map((route) => [route, "404 gig_not_found"])));
  expect(await call(`/api/gigs/${gigId}`, poster.token)).toEqual(before);
}

describe("a gig hidden from a member is not found on every route of it", () => {
  it("covers the gig's routes, including the ones that act on it", () => {
    expect(GIG_ROUTES.length).toBeGreaterThanOrEqual(30);
    for (const route of ["POST /api/gigs/:id/claim", "POST /api/gigs/:id/request-extension", "GET /api/gigs/:id/events", "GET /api/gigs/:id/messages", "GET /api/gigs/:id/receipt"]) {
      expect(GIG_ROUTES).toContain(route);
    }
  });

  it("an unpaid job request, to a member who is not its poster", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: `poster${tag}@wallet.test` });
    const stranger = await signUp({ lightningAddress: `stranger${tag}@wallet.test` });
    const posted = await postGig(poster);
    expect(posted.gig.status).toBe("pending_payment");
    await everyRouteIsNotFound(posted.gig.id as string, stranger, poster, poster);
  });

  it("a gig the admin removed, to a member who is not one of its parties", async () => {
    const job = await claimedJob();
    const stranger = await signUp({ lightningAddress: `stranger${job.tag}@wallet.test` });
    expect((await asAdmin(await adminSignIn(), `/api/admin/gigs/${job.gigId}`, "DELETE")).status).toBe(200);
    await everyRouteIsNotFound(job.gigId, stranger, job.hirer, job.worker);
    // Its parties still find it, as GET /api/gigs/{id} shows them.
    expect((await call(`/api/gigs/${job.gigId}/messages`, job.worker.token)).status).toBe(200);
    expect((await call(`/api/gigs/${job.gigId}/events`, job.hirer.token)).status).toBe(200);
  });

  it("an interest message on a removed gig is not the stranger's to decide, and the gig is not found", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const poster = await signUp({ lightningAddress: `poster${tag}@wallet.test` });
    const member = await signUp({ lightningAddress: `member${tag}@wallet.test` });
    const stranger = await signUp({ lightningAddress: `stranger${tag}@wallet.test` });
    const posted = await postGig(poster, { gigType: "service_offering" });
    const gigId = posted.gig.id as string;
    const interestId = await approveInterest(gigId, poster, member);
    expect((await asAdmin(await adminSignIn(), `/api/admin/gigs/${gigId}`, "DELETE")).status).toBe(200);
    for (const step of ["approve", "reject", "enable-claim"]) {
      const res = await call(`/api/pre-claim-messages/${interestId}/${step}`, stranger.token, "PATCH");
      expect([res.status, res.body.error]).toEqual([404, "gig_not_found"]);
    }
  });
});
