// A gig's own page (routes/gig.tsx, issue 29) as the Worker renders it and the browser hydrates it (decision 030):
// what the browser's first render draws from the clock or the reader's time zone is the Worker's, so no mismatch;
// no second read for a visitor; a member's browser reads the gig again as them and their actions appear.
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { makeGig, makePlanGig } from "../features/gigs/gig-factories";
import type { Gig } from "../features/gigs/types";
import { SESSION_TOKEN_KEY } from "../lib/api";
import { makeUser } from "../test/factories";
import { mockApi } from "../test/mock-api";
import type { PageSources } from "./contract";
import { browserHydrates, unmountHydrated, workerRenders } from "./page-in-test";

/** When the "Worker" rendered: long before the test runs, so a clock read while hydrating would differ. */
const RENDERED_AT = Date.parse("2026-01-10T12:00:00Z");

/** A claimed gig with a deadline (its time of day and time remaining depend on the zone and the clock) and a plan. */
const claimedPlan = makePlanGig({
  status: "in_progress",
  deadline: "2026-01-12T18:45:00.000Z",
  claimedAt: "2026-01-09T08:00:00.000Z",
  createdAt: "2026-01-08T23:30:00.000Z",
});
const submittedJob = makeGig({
  id: "gig-2",
  title: "Menu page",
  posterId: "hirer",
  hirerId: "hirer",
  status: "work_submitted",
  workerId: "worker",
  workSubmission: "Live at bakery.example",
});

const sources: PageSources = {
  gigs: async () => ({ gigs: [], nextCursor: null }),
  gig: async (id) => {
    const gig: Gig | undefined = [claimedPlan, submittedJob].find((g) => g.id === id);
    return gig ? { ...gig, paymentRequest: null, milestones: gig.milestones ?? [], milestoneProposal: null } : null;
  },
  member: async () => null,
  portfolio: async () => [],
  reviews: async () => [],
};

/** The page as the Worker renders it from the reads above. */
const render = (url: string) => workerRenders(url, sources, { renderedAt: RENDERED_AT });

describe("a gig's page rendered by the Worker", () => {
  afterEach(unmountHydrated);

  it("holds the gig's details, its deadline in UTC and its steps, and hydrates without a mismatch or a request", async () => {
    const api = mockApi({});
    const served = await render("/gig/gig-1");
    expect(served.status).toBe(200);
    expect(served.html).toContain("Shop website");
    expect(served.html).toContain("Jan 12, 2026 18:45 UTC");
    expect(served.html).toContain("2d 6h"); // from the render's time, not the test's
    expect(served.html).toContain("Design");
    const { said } = await browserHydrates("/gig/gig-1", served);
    expect(said).toEqual([]);
    expect(api.callsTo("GET", "/api/gigs/gig-1")).toEqual([]);
    expect(screen.getByRole("heading", { level: 1, name: "Shop website" })).toBeInTheDocument();
  });

  it("in the hirer's browser: hydrates the visitor's page, then reads the gig as them and offers their actions", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "hirer-token");
    const api = mockApi({
      "GET /api/user/me": () => makeUser({ id: "hirer" }),
      "GET /api/gigs/gig-2": () => submittedJob,
      "GET /api/gigs/gig-2/extension-requests": () => [],
      "GET /api/reviews/user/worker": () => [],
    });
    const served = await render("/gig/gig-2");
    expect(served.html).not.toContain("Approve &amp; Release Payment");
    expect(served.html).not.toContain("You pay");
    const { said } = await browserHydrates("/gig/gig-2", served);
    expect(await screen.findByRole("button", { name: /Approve & Release Payment/ })).toBeInTheDocument();
    expect(screen.getByRole("main")).toHaveTextContent("You pay 10,250 sats");
    expect(api.callsTo("GET", "/api/gigs/gig-2")[0]!.headers.Authorization).toBe("Bearer hirer-token");
    expect(said).toEqual([]);
  });
});
