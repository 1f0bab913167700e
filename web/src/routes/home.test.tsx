import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { useGigIntent } from "../features/gigs/gig-intent";
import { TopBar } from "../features/layout/top-bar";
import { makeUser } from "../test/factories";
import { mockApi } from "../test/mock-api";
import { LocationProbe, renderWithApp } from "../test/render";
import { HomeRoute } from "./home";

function IntentProbe() {
  const { intent } = useGigIntent();
  return <output data-testid="intent">{intent ? `${intent.gigId} chat=${intent.openChat}` : "none"}</output>;
}

function renderHome(route: string, signedIn = false) {
  renderWithApp(
    <>
      <TopBar />
      <Routes>
        <Route index element={<HomeRoute />} />
      </Routes>
      <LocationProbe />
      <IntentProbe />
    </>,
    { route, user: signedIn ? makeUser({ displayName: "Ada" }) : undefined },
  );
}

describe("main page", () => {
  it("shows Browse, and for visitors the Browse and Post tabs and the login button", async () => {
    mockApi({ "GET /api/gigs": () => [] });
    renderHome("/");
    expect(await screen.findByRole("heading", { name: "No gigs available" })).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(nav).toHaveTextContent("Browse");
    expect(nav).toHaveTextContent("Post");
    expect(nav).not.toHaveTextContent("Active");
    expect(screen.getByRole("button", { name: "Login with Nostr" })).toBeInTheDocument();
  });

  it("asks visitors to log in on the Post tab", async () => {
    mockApi({});
    renderHome("/?tab=post");
    expect(await screen.findByRole("heading", { name: "Login Required" })).toBeInTheDocument();
  });

  it("honours tab, gigId and openChat, then resets the URL to the root", async () => {
    mockApi({});
    renderHome("/?tab=active&gigId=gig-42&openChat=true", true);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/));
    expect(screen.getByTestId("intent")).toHaveTextContent("gig-42 chat=true");
    expect(screen.getByRole("heading", { name: "Active Gigs" })).toBeInTheDocument();
  });

  it("signed-in members get the Active tab and their menu", async () => {
    mockApi({});
    renderHome("/", true);
    const user = userEvent.setup();
    expect(screen.getByRole("navigation", { name: "Main" })).toHaveTextContent("Active");
    await user.click(await screen.findAllByRole("link", { name: "Active" }).then((links) => links[0]!));
    expect(await screen.findByRole("heading", { name: "Active Gigs" })).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Account menu for Ada" })).toBeInTheDocument();
  });
});
