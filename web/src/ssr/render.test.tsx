// The Worker's render and the browser's hydration of it (decision 030): each public page rendered as the Worker
// renders it (renderPage with stand-in reads), then hydrated by the browser's own entry (App with the page's
// data): no mismatch, no request for what the page already holds, and the page works after.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "../../../domain/profile";
import { makeGig } from "../features/gigs/gig-factories";
import type { Gig } from "../features/gigs/types";
import type { Review } from "../features/profile/types";
import { SESSION_TOKEN_KEY } from "../lib/api";
import { makeUser } from "../test/factories";
import { mockApi } from "../test/mock-api";
import type { PageSources } from "./contract";
import { browserHydrates, unmountHydrated, workerRenders } from "./page-in-test";

/** When the "Worker" rendered: long before this test runs, so any clock read while hydrating would differ. */
const RENDERED_AT = Date.parse("2026-01-10T12:00:00Z");
const MINUTE = 60_000;

const member: PublicUser = { ...makeUser({ id: "poster-1", username: "npub1posterxyz", displayName: "Paula Poster", bio: "Logos." }) };
const gigs: Gig[] = [
  makeGig({ title: "Bakery website", payment: 21_000, createdAt: new Date(RENDERED_AT - 59 * MINUTE).toISOString() }),
  makeGig({ title: "Podcast intro jingle", gigType: "service_offering", payment: 5_000, createdAt: new Date(RENDERED_AT - 3 * 86_400_000).toISOString() }),
];
const review: Review = {
  id: "review-1",
  rating: 5,
  comment: "Great work.",
  revieweeId: member.id,
  createdAt: "2026-01-09T23:30:00.000Z",
  reviewerName: "Rita",
  reviewerPicture: null,
  reviewerUsername: "npub1rita",
};

const sources: PageSources = {
  gigs: async (params) => ({ gigs: params.posterId ? gigs.filter((g) => g.posterId === params.posterId) : gigs, nextCursor: null }),
  gig: async (id) => {
    const gig = gigs.find((g) => g.id === id);
    return gig ? { ...gig, paymentRequest: null, milestones: [], milestoneProposal: null } : null;
  },
  member: async (npub) => (npub === member.username ? member : null),
  portfolio: async () => [],
  reviews: async () => [review],
};

/** The page as the Worker renders it from the reads above. */
const render = (url: string, withData = true) => workerRenders(url, sources, { renderedAt: RENDERED_AT, withData });

afterEach(unmountHydrated);

describe("the Worker's render", () => {
  it("draws the browse list's first page, its prices and posters, and carries its data escaped in a script", async () => {
    const served = await render("/");
    expect(served.status).toBe(200);
    expect(served.html).toContain("Bakery website");
    expect(served.html).toContain("21,000 sats");
    expect(served.html).toContain("Paula Poster");
    expect(served.html).toContain("just now"); // 59 minutes before the render, counted from the render
    expect(served.page).toMatchObject({ url: "/", renderedAt: RENDERED_AT });
    expect(served.page.state.queries.map((q) => q.queryKey)).toEqual([["/api/gigs", { status: "open", limit: "24" }]]);
    expect(served.stateScript).toMatch(/^<script type="application\/json" id="gigstr-page">[^<]*<\/script>$/);
  });

  it("sends a gig's text in its data script as read, with no \"<\" that could close the script", async () => {
    const title = '</script><script>alert(1)</script><!-- "$&" \u2028';
    const sharp = makeGig({ title, createdAt: new Date(RENDERED_AT - MINUTE).toISOString() });
    const served = await workerRenders("/", { ...sources, gigs: async () => ({ gigs: [sharp], nextCursor: null }) }, { renderedAt: RENDERED_AT, withData: true });
    expect(served.stateScript).toMatch(/^<script type="application\/json" id="gigstr-page">[^<]*<\/script>$/);
    expect(served.page.state.queries[0]?.state.data).toEqual({ pages: [{ gigs: [sharp], nextCursor: null }], pageParams: [null] });
  });

  it("says not found, with 404, for a gig or a member a visitor cannot see", async () => {
    const gig = await render("/gig/unknown-gig");
    expect(gig.status).toBe(404);
    expect(gig.html).toContain("Gig not found");
    const user = await render("/user/npub1nobody");
    expect(user.status).toBe(404);
    expect(user.html).toContain("User not found");
  });

  it("without data (a request with a credential) draws the frame and the page loading, and reads nothing", async () => {
    const read = vi.spyOn(sources, "gigs");
    const served = await render("/", false);
    expect(read).not.toHaveBeenCalled();
    expect(served.status).toBe(200);
    expect(served.html).toContain("Login with Nostr");
    expect(served.html).toContain("Loading gigs");
    expect(served.page.state.queries).toEqual([]);
  });
});

describe("the browser hydrating the Worker's HTML", () => {
  it("/ : no mismatch, no request, and the page works (a filter asks for its own list)", async () => {
    const api = mockApi({ "GET /api/gigs": () => [] });
    const served = await render("/");
    const { said } = await browserHydrates("/", served);
    expect(said).toEqual([]);
    expect(api.calls).toEqual([]);
    // After hydrating, the ages count from the browser's clock.
    await waitFor(() => expect(screen.getByText("Bakery website").closest("article")).not.toHaveTextContent("just now"));
    await userEvent.setup().click(screen.getByRole("button", { name: "For Hire" }));
    expect(screen.getByRole("button", { name: "For Hire" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1));
    expect(api.calls[0]!.query.get("gigType")).toBe("service_offering");
  });

  it("a gig's page (a lazy route): no mismatch, no request, and its links work", async () => {
    const api = mockApi({});
    const url = `/gig/${gigs[0]!.id}`;
    const served = await render(url);
    const { said } = await browserHydrates(url, served);
    await userEvent.setup().click(await screen.findByRole("link", { name: "Back to Home" }));
    await waitFor(() => expect(window.location.pathname).toBe("/"));
    expect(said).toEqual([]);
    expect(api.callsTo("GET", `/api/gigs/${gigs[0]!.id}`)).toEqual([]);
  });

  it("a gig's not-found page is not asked for again", async () => {
    const api = mockApi({});
    const served = await render("/gig/unknown-gig");
    const { said } = await browserHydrates("/gig/unknown-gig", served);
    await waitFor(() => expect(screen.getByRole("heading", { name: "Gig not found" })).toBeInTheDocument());
    expect(said).toEqual([]);
    expect(api.calls).toEqual([]);
  });

  it("a member's page: no mismatch (its review dates as the Worker wrote them first), no request", async () => {
    const api = mockApi({});
    const url = `/user/${member.username}`;
    const served = await render(url);
    expect(served.html).toContain("Jan 9, 2026");
    const { said } = await browserHydrates(url, served);
    await userEvent.setup().click(await screen.findByRole("link", { name: "Back to Home" }));
    await waitFor(() => expect(window.location.pathname).toBe("/"));
    expect(said).toEqual([]);
    expect(api.calls.filter((c) => c.path !== "/api/gigs")).toEqual([]);
  });

  it("/ with the Active tab kept in the history entry: hydrates Browse as rendered, then shows the tab", async () => {
    mockApi({});
    const served = await render("/");
    const { said } = await browserHydrates("/", served, { usr: { tab: "active" }, key: "k", idx: 0 });
    expect(await screen.findByRole("heading", { name: "Login Required" })).toBeInTheDocument();
    expect(said).toEqual([]);
  });

  it("in a member's browser: the same page hydrates, then their session and the page's reads are asked for as them", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "member-token");
    const api = mockApi({ "GET /api/user/me": () => makeUser({ displayName: "Mel Member" }), "GET /api/gigs": () => gigs });
    const served = await render("/");
    const { said } = await browserHydrates("/", served);
    expect(await screen.findByRole("button", { name: /Account menu for Mel Member/ })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1));
    expect(api.callsTo("GET", "/api/gigs")[0]!.headers.Authorization).toBe("Bearer member-token");
    expect(said).toEqual([]);
  });

  it("in the poster's browser, their own unpaid job (not found to the Worker, a visitor) shows once read as them", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "poster-token");
    const unpaid = makeGig({ id: "unpaid-1", title: "My unpaid job", status: "pending_payment" });
    const api = mockApi({ "GET /api/user/me": () => makeUser(), "GET /api/gigs/unpaid-1": () => unpaid });
    const served = await render("/gig/unpaid-1");
    expect(served.status).toBe(404);
    const { said } = await browserHydrates("/gig/unpaid-1", served);
    expect(await screen.findByRole("heading", { name: "My unpaid job" })).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/gigs/unpaid-1")).toHaveLength(1);
    expect(said).toEqual([]);
  });
});
