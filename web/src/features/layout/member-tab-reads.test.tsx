import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createQueryClient } from "../../lib/query-client";
import { SESSION_TOKEN_KEY } from "../../lib/api";
import { memberTabPaths } from "../../lib/member-tab-paths";
import { apiError, mockApi } from "../../test/mock-api";
import { makeUser } from "../../test/factories";
import { AuthProvider, authKeys, useAuth } from "../auth/auth-context";
import { gigPageResponse, makeGig } from "../gigs/gig-factories";
import { myGigsQuery, useMyGigs } from "../gigs/use-gigs";
import { myPayoutKeys } from "../payments/failed-payouts";
import { readMemberTab } from "./member-tab-reads";

const member = makeUser({ id: "u-1", displayName: "Hana Hirer" });

function MyGigTitles() {
  const { user } = useAuth();
  const gigs = useMyGigs();
  return (
    <p>
      {user?.displayName}: {gigs.data?.map((g) => g.title).join(", ") ?? "loading"}
    </p>
  );
}

describe("a member's own tab waits for its reads before its first draw", () => {
  beforeEach(() => localStorage.setItem(SESSION_TOKEN_KEY, "test-session-token"));
  afterEach(() => localStorage.clear());

  it("puts the member, their gigs and their failed payouts in the cache; the first draw shows them and asks for none again", async () => {
    const api = mockApi({
      "GET /api/user/me": () => member,
      "GET /api/gigs": () => gigPageResponse([makeGig({ title: "Design a logo" })]),
      "GET /api/user/payouts": () => [],
    });
    const client = createQueryClient();
    await readMemberTab(client, "active");
    expect(client.getQueryData(authKeys.me())).toEqual(member);
    expect(client.getQueryData(myGigsQuery(member.id).queryKey)).toHaveLength(1);
    expect(client.getQueryData(myPayoutKeys.failed())).toEqual([]);
    // The very paths the early reads started before the app's code ran (start-early-reads.ts), or none is taken.
    const asked = api.calls.map((c) => `${c.path}${c.query.size ? `?${c.query.toString()}` : ""}`);
    expect(asked.sort()).toEqual(memberTabPaths("active").sort());
    expect(api.callsTo("GET", "/api/gigs")[0]!.query.get("participant")).toBe("me");

    render(
      <QueryClientProvider client={client}>
        <AuthProvider>
          <MyGigTitles />
        </AuthProvider>
      </QueryClientProvider>,
    );
    // Drawn at once, whole: no loading state in between.
    expect(screen.getByText("Hana Hirer: Design a logo")).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.callsTo("GET", "/api/user/me")).toHaveLength(1);
    expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1);
  });

  it("reads only the member for the Post tab", async () => {
    const api = mockApi({ "GET /api/user/me": () => member });
    const client = createQueryClient();
    await readMemberTab(client, "post");
    expect(client.getQueryData(authKeys.me())).toEqual(member);
    expect(api.calls.map((c) => c.path)).toEqual(memberTabPaths("post"));
  });

  it("reads nothing more when the server refuses the session, which is forgotten", async () => {
    const api = mockApi({ "GET /api/user/me": () => apiError(401, "Unauthorized", "unauthorized") });
    const client = createQueryClient();
    await readMemberTab(client, "active");
    expect(client.getQueryData(authKeys.me())).toBeNull();
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(api.callsTo("GET", "/api/gigs")).toHaveLength(0);
  });

  it("stops waiting when a read fails or takes too long, and the read goes on", async () => {
    let answer!: (value: unknown) => void;
    mockApi({
      "GET /api/user/me": () => new Promise((resolve) => (answer = resolve)),
    });
    const client = createQueryClient();
    await readMemberTab(client, "active", 20);
    expect(client.getQueryData(authKeys.me())).toBeUndefined();
    answer(member);
    await expect.poll(() => client.getQueryData(authKeys.me())).toEqual(member);

    mockApi({ "GET /api/user/me": () => apiError(500, "Internal error") });
    const failing = createQueryClient();
    await readMemberTab(failing, "active");
    expect(failing.getQueryState(authKeys.me())?.status).toBe("error");
  });
});
