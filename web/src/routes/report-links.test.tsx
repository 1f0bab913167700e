// The admin Reports tab links to /gig/{gigId} and /profile/{reporterId} (SPEC.md §2); these go through the
// app's real route table.
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AppRoutes } from "../app";
import { makeGig } from "../features/gigs/gig-factories";
import { makeUser } from "../test/factories";
import { apiError, mockApi } from "../test/mock-api";
import { LocationProbe, renderWithApp } from "../test/render";

const NPUB = "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m";

function renderApp(route: string, options: Parameters<typeof renderWithApp>[1] = {}) {
  return renderWithApp(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route, ...options },
  );
}

describe("admin report links", () => {
  it("/gig/:id shows the same gig screen as /gigs/:id", async () => {
    const id = "abcdef12-3456-7890-abcd-ef1234567890";
    const gig = makeGig({ id, title: "Reported gig" });
    const api = mockApi({ [`GET /api/gigs/${id}`]: () => gig });
    for (const path of [`/gig/${id}`, `/gigs/${id}`]) {
      const view = renderApp(path);
      expect(await screen.findByRole("heading", { name: "Reported gig" })).toBeInTheDocument();
      expect(screen.getByText("ID abcdef12")).toBeInTheDocument();
      // The gig's details are the page itself (issue 29), not a link to the main page's dialog.
      expect(screen.getByRole("heading", { level: 2, name: "Description" })).toBeInTheDocument();
      expect(screen.queryByRole("link", { name: "View Details" })).not.toBeInTheDocument();
      expect(screen.queryByRole("heading", { name: "Page not found" })).not.toBeInTheDocument();
      view.unmount();
    }
    expect(api.callsTo("GET", `/api/gigs/${id}`)).toHaveLength(2);
  });

  it("/gig/:id of a gig the API does not show says Gig not found, with a way home", async () => {
    mockApi({ "GET /api/gigs/gone": () => apiError(404, "Gig not found", "gig_not_found") });
    renderApp("/gig/gone");
    expect(await screen.findByRole("heading", { name: "Gig not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  });

  it("/profile/:userId shows Loading, looks the user up by id, then replaces itself with /user/<npub>", async () => {
    let answer!: (value: unknown) => void;
    const reporter = makeUser({ id: "user-77", username: NPUB, displayName: "Reporter Rae" });
    const api = mockApi({
      "GET /api/users/user-77": () => new Promise((resolve) => (answer = resolve)),
      [`GET /api/users/by-npub/${NPUB}`]: () => reporter,
      "GET /api/gigs": () => [],
      "GET /api/portfolio/user/user-77": () => [],
      "GET /api/reviews/user/user-77": () => [],
    });
    renderApp("/profile/user-77");
    // The route's code has loaded and asked for the user; until the answer comes, the usual Loading shows.
    await waitFor(() => expect(api.callsTo("GET", "/api/users/user-77")).toHaveLength(1));
    expect(within(screen.getByRole("main")).getByRole("status")).toHaveTextContent(/^Loading$/);
    answer(reporter);
    expect(await screen.findByRole("heading", { level: 1, name: "Reporter Rae" })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent(`/user/${NPUB}`);
    expect(api.callsTo("GET", "/api/users/user-77")).toHaveLength(1);
  });

  it("/profile/:userId for an unknown id says User not found, with a way home", async () => {
    // What the Worker answers for an unknown or deleted user.
    mockApi({ "GET /api/users/no-such-user": () => apiError(404, "User not found", "user_not_found") });
    renderApp("/profile/no-such-user");
    expect(await screen.findByRole("heading", { name: "User not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/profile\/no-such-user$/);
  });

  it("/profile/:userId says so when the lookup fails for another reason", async () => {
    mockApi({ "GET /api/users/user-9": () => apiError(500, "Database unavailable") });
    renderApp("/profile/user-9");
    expect(await screen.findByRole("heading", { name: "Could not load this user" })).toBeInTheDocument();
    expect(screen.getByText("Database unavailable")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  });

  it("/profile is still the signed-in member's own profile", async () => {
    const api = mockApi({ "GET /api/portfolio/user/user-ada": () => [] });
    renderApp("/profile", { user: makeUser({ id: "user-ada", displayName: "Ada" }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Ada" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Danger Zone" })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith("/api/users/"))).toHaveLength(0);
  });
});
