import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, mockApi } from "../../test/mock-api";
import { renderWithApp } from "../../test/render";
import { PublicProfile } from "./public-profile";
import { makeGig } from "../gigs/gig-factories";
import type { Gig } from "../gigs/types";

const npub = "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m";

describe("/user/:npub", () => {
  it("says User not found, with a way home", async () => {
    mockApi({ [`GET /api/users/by-npub/${npub}`]: () => apiError(404, "User not found", "user_not_found") });
    renderWithApp(<PublicProfile npub={npub} />);
    expect(screen.getByText("Loading profile...")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "User not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  });

  it("shows the member, their stats and the empty states", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const member = makeUser({ id: "u-7", displayName: "Hal", bio: "Cypherpunk", completedGigs: 0, totalReviews: 0, nip05: "hal@example.com" });
    mockApi({
      [`GET /api/users/by-npub/${npub}`]: () => member,
      "GET /api/gigs": () => apiError(404, "Not found"),
      "GET /api/portfolio/user/u-7": () => [],
      "GET /api/reviews/user/u-7": () => [],
    });
    renderWithApp(<PublicProfile npub={npub} />);
    expect(await screen.findByRole("heading", { level: 1, name: "Hal" })).toBeInTheDocument();
    expect(screen.getByText("Cypherpunk")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy npub" })).toBeInTheDocument();
    // The stats say what is missing in words, as everywhere else: never N/A.
    const stats = screen.getByRole("region", { name: "Reputation" });
    expect(within(stats).getByText("No completed gigs yet")).toBeInTheDocument();
    expect(within(stats).getByText("Rating").nextSibling).toHaveTextContent(/^No reviews yet$/);
    expect(screen.queryByText("N/A")).toBeNull();
    expect(await screen.findByText("No gigs posted yet")).toBeInTheDocument();
    expect(await screen.findByText("No portfolio items yet")).toBeInTheDocument();
    const reviews = screen.getByRole("region", { name: "Reviews" });
    expect(await within(reviews).findByText("No reviews yet")).toBeInTheDocument();
  });

  it("says a rating and a success rate the way the rest of the app does: ★ 4.5 under Rating, the percent", async () => {
    const member = makeUser({ id: "u-7", displayName: "Hal", completedGigs: 4, successfulGigs: 3, successRate: 75, averageRating: 45, totalReviews: 2 });
    mockApi({
      [`GET /api/users/by-npub/${npub}`]: () => member,
      "GET /api/gigs": () => [],
      "GET /api/portfolio/user/u-7": () => [],
      "GET /api/reviews/user/u-7": () => [],
    });
    renderWithApp(<PublicProfile npub={npub} />);
    const stats = await screen.findByRole("region", { name: "Reputation" });
    expect(within(stats).getByText("Success Rate").nextSibling).toHaveTextContent(/^75%$/);
    expect(within(stats).getByText("Rating").nextSibling).toHaveTextContent(/^★ 4\.5$/);
    expect(within(stats).getByText("Reviews").nextSibling).toHaveTextContent(/^2$/);
  });

  it("lists the gigs the member posted (asked by posterId: job requests and service offerings), linking to each", async () => {
    const member = makeUser({ id: "u-7" });
    const gig = (over: Partial<Gig>) =>
      makeGig({
        id: "gig-1",
        title: "Build a bot",
        description: "A bot that posts block stats",
        payment: 50000,
        createdAt: "2026-11-20T00:00:00Z",
        posterId: "u-7",
        hirerId: "u-7",
        ...over,
      });
    const api = mockApi({
      [`GET /api/users/by-npub/${npub}`]: () => member,
      "GET /api/gigs": () => [
        gig({}),
        gig({ id: "gig-2", title: "Logo design", gigType: "service_offering", status: "disputed", hirerId: null, workerId: "u-7" }),
        gig({ id: "gig-3", title: "Someone else's service", gigType: "service_offering", posterId: "u-9", hirerId: "u-7", workerId: "u-9" }),
      ],
      "GET /api/portfolio/user/u-7": () => [],
      "GET /api/reviews/user/u-7": () => [
        { id: "r1", rating: 4, comment: "Great", revieweeId: "u-7", createdAt: "2026-11-10T00:00:00Z", reviewerName: "Alice", reviewerPicture: null, reviewerUsername: "npub1alice" },
      ],
    });
    renderWithApp(<PublicProfile npub={npub} />);
    const card = await screen.findByRole("link", { name: /Build a bot/ });
    expect(card).toHaveAttribute("href", "/gigs/gig-1");
    expect(card).toHaveTextContent("Hiring");
    expect(card).toHaveTextContent("Available");
    expect(card).toHaveTextContent("50,000 sats");
    expect(card).toHaveTextContent("7 days left");
    const service = screen.getByRole("link", { name: /Logo design/ });
    expect(service).toHaveTextContent("For Hire");
    expect(service).toHaveTextContent("Under Review");
    expect(screen.queryByText("Someone else's service")).not.toBeInTheDocument();
    const query = api.callsTo("GET", "/api/gigs")[0]!.query;
    expect(query.get("posterId")).toBe("u-7");
    expect(query.has("hirerId")).toBe(false);
    expect(await screen.findByRole("img", { name: "4 out of 5 stars" })).toBeInTheDocument();
  });
});
