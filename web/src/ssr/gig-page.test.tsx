// A gig's own page (routes/gig.tsx, issue 29) as the Worker renders it and the browser hydrates it (decision 030):
// what the browser's first render draws from the clock or the reader's time zone is the Worker's, so no mismatch;
// no second read for a visitor; a member's browser reads the gig again as them and their actions appear.
import { act, screen } from "@testing-library/react";
import { StrictMode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToReadableStream } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../app";
import { makeGig, makePlanGig } from "../features/gigs/gig-factories";
import type { Gig } from "../features/gigs/types";
import { SESSION_TOKEN_KEY } from "../lib/api";
import type { ServerPage } from "../lib/server-page";
import { makeUser } from "../test/factories";
import { mockApi } from "../test/mock-api";
import type { PageSources } from "./contract";
import { renderPage } from "./render";

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

async function workerRenders(url: string) {
  const rendered = await renderPage({ url, renderedAt: RENDERED_AT, withData: true }, sources);
  const html = await new Response(rendered.html).text();
  // The server renderer leaves its last contexts set until its next render (see ssr/render.test.tsx).
  await new Response(await renderToReadableStream(null)).text();
  const page = JSON.parse(rendered.stateScript.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, "")) as ServerPage;
  return { status: rendered.status, html, page };
}

let root: Root | null = null;

async function browserHydrates(url: string, served: Awaited<ReturnType<typeof workerRenders>>) {
  window.history.replaceState(null, "", url);
  const container = document.createElement("div");
  container.innerHTML = served.html;
  document.body.append(container);
  const said: unknown[] = [];
  vi.spyOn(console, "error").mockImplementation((...args) => {
    const text = args.map(String).join(" ");
    if (!text.startsWith("Detected multiple renderers concurrently rendering the same context provider")) said.push(text);
  });
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App page={served.page} />
      </StrictMode>,
      { onRecoverableError: (error) => void said.push(String(error)) },
    );
  });
  return { container, said };
}

describe("a gig's page rendered by the Worker", () => {
  afterEach(() => {
    act(() => root?.unmount());
    root = null;
    document.body.innerHTML = "";
    window.history.replaceState(null, "", "/");
  });

  it("holds the gig's details, its deadline in UTC and its steps, and hydrates without a mismatch or a request", async () => {
    const api = mockApi({});
    const served = await workerRenders("/gig/gig-1");
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
    const served = await workerRenders("/gig/gig-2");
    expect(served.html).not.toContain("Approve &amp; Release Payment");
    expect(served.html).not.toContain("You pay");
    const { said } = await browserHydrates("/gig/gig-2", served);
    expect(await screen.findByRole("button", { name: /Approve & Release Payment/ })).toBeInTheDocument();
    expect(screen.getByRole("main")).toHaveTextContent("You pay 10,250 sats");
    expect(api.callsTo("GET", "/api/gigs/gig-2")[0]!.headers.Authorization).toBe("Bearer hirer-token");
    expect(said).toEqual([]);
  });
});
