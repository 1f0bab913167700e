import { screen } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { SESSION_TOKEN_KEY } from "../lib/api";
import { makeUser } from "../test/factories";
import { mockApi } from "../test/mock-api";
import { LocationProbe, renderWithApp } from "../test/render";
import { ProfileRoute } from "./profile";

function renderProfile(options: Parameters<typeof renderWithApp>[1] = {}) {
  renderWithApp(
    <>
      <Routes>
        <Route path="/profile" element={<ProfileRoute />} />
        <Route path="/" element={<p>home</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { route: "/profile", ...options },
  );
}

describe("/profile", () => {
  it("sends visitors home", () => {
    mockApi({});
    renderProfile();
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/);
  });

  it("shows Loading while the session resolves, then the profile", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "stored");
    mockApi({
      "GET /api/user/me": () =>
        makeUser({ displayName: "Ada", completedGigs: 4, successfulGigs: 3, successRate: 75, averageRating: 45, totalReviews: 2, nip05: "ada@example.com" }),
    });
    renderProfile();
    expect(screen.getByText("Loading")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 1, name: "Ada" })).toBeInTheDocument();
    expect(screen.getByText("75%")).toBeInTheDocument();
    // The star rating reads as on the public profile and the gig cards: "Rating", "★ 4.5" (decision 024).
    expect(screen.getByText("Rating").nextSibling).toHaveTextContent(/^★ 4\.5$/);
    expect(screen.queryByText("Reputation")).toBeNull();
    expect(screen.getByRole("heading", { name: "Nostr Identity" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Private Key Security" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Danger Zone" })).toBeInTheDocument();
  });

  it("names a member with an alias by it for NIP-05 when they set no identifier of their own", () => {
    mockApi({});
    renderProfile({ user: makeUser({ nip05: null, gigstrAlias: "ada", gigstrAliasAddress: "ada@gigstr.test" }) });
    const identity = screen.getByRole("heading", { name: "Nostr Identity" }).closest("div.rounded-xl, section, article") ?? document.body;
    expect(identity).toHaveTextContent("ada@gigstr.test (your Gigstr alias)");
  });

  it("says No completed gigs yet and No reviews yet (not N/A), Not set without a Lightning address, and no alias card", () => {
    mockApi({});
    renderProfile({ user: makeUser({ completedGigs: 0, totalReviews: 0, lightningAddress: null }) });
    expect(screen.getByText("No completed gigs yet")).toBeInTheDocument();
    expect(screen.getByText("No reviews yet")).toBeInTheDocument();
    expect(screen.queryByText("N/A")).toBeNull();
    expect(screen.getAllByText("Not set").length).toBeGreaterThan(0);
    expect(screen.getByText("You must set a Lightning address before you can receive payments.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Gigstr Lightning Alias" })).not.toBeInTheDocument();
  });
});
