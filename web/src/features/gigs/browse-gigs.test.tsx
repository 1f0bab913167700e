import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockApi, type ApiCall } from "../../test/mock-api";
import { LocationProbe, renderWithApp } from "../../test/render";
import { BrowseGigs } from "./browse-gigs";
import { gigPageResponse, makeGig } from "./gig-factories";
import { GigDialogsProvider } from "./gig-dialogs";
import type { Gig } from "./types";

function renderBrowse(list: (call: ApiCall) => Response | Gig[] = () => []) {
  const api = mockApi({ "GET /api/gigs": list });
  renderWithApp(
    <GigDialogsProvider>
      <BrowseGigs />
      <LocationProbe />
    </GigDialogsProvider>,
  );
  const lastQuery = () => Object.fromEntries(api.callsTo("GET", "/api/gigs").at(-1)!.query);
  return { api, lastQuery, user: userEvent.setup() };
}

describe("Browse tab", () => {
  it("shows six skeleton cards while loading, then No gigs available", async () => {
    renderBrowse(() => []);
    expect(screen.getAllByTestId("gig-card-skeleton")).toHaveLength(6);
    expect(await screen.findByRole("heading", { name: "No gigs available" })).toBeInTheDocument();
  });

  it("asks for open gigs, and turns the type toggle, category and budget into the query", async () => {
    const { lastQuery, user } = renderBrowse(() => [makeGig()]);
    await screen.findAllByTestId("gig-card");
    expect(lastQuery()).toEqual({ status: "open", limit: "24" });

    const toggle = screen.getByRole("group", { name: "Gig type" });
    expect(within(toggle).getByRole("button", { name: "All" })).toHaveAttribute("aria-pressed", "true");
    await user.click(within(toggle).getByRole("button", { name: "Hiring Now" }));
    await waitFor(() => expect(lastQuery().gigType).toBe("job_request"));
    await user.click(within(toggle).getByRole("button", { name: "For Hire" }));
    await waitFor(() => expect(lastQuery().gigType).toBe("service_offering"));

    expect(within(screen.getByLabelText("Category")).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "All",
      "Development",
      "Design",
      "Writing",
      "Marketing",
    ]);
    await user.selectOptions(screen.getByLabelText("Category"), "Design");
    await waitFor(() => expect(lastQuery().category).toBe("Design"));

    await user.selectOptions(screen.getByLabelText("Budget"), "10k-50k sats");
    await waitFor(() => expect(lastQuery()).toMatchObject({ minPayment: "10000", maxPayment: "50000" }));
    await user.selectOptions(screen.getByLabelText("Budget"), "Under 10k sats");
    await waitFor(() => expect(lastQuery().maxPayment).toBe("9999"));
    expect(lastQuery().minPayment).toBeUndefined();
    await user.selectOptions(screen.getByLabelText("Budget"), "Over 100k sats");
    await waitFor(() => expect(lastQuery().minPayment).toBe("100001"));
    expect(lastQuery().maxPayment).toBeUndefined();
    expect(lastQuery()).toMatchObject({ status: "open", gigType: "service_offering", category: "Design" });
  });

  it("searches title, description and category with q, and offers Clear Search when nothing matches", async () => {
    const { lastQuery, user } = renderBrowse((call) => (call.query.get("q") ? [] : [makeGig({ title: "Bakery site" })]));
    await screen.findByRole("button", { name: "Bakery site" });
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "unicorn");
    expect(await screen.findByRole("heading", { name: "No results for “unicorn”" })).toBeInTheDocument();
    expect(lastQuery().q).toBe("unicorn");
    await user.click(screen.getByRole("button", { name: "Clear Search" }));
    expect(await screen.findByRole("button", { name: "Bakery site" })).toBeInTheDocument();
    expect(screen.getByRole("searchbox", { name: "Search" })).toHaveValue("");
  });

  it("opens the profile of an npub typed into the search", async () => {
    const { api, user } = renderBrowse(() => []);
    await screen.findByRole("heading", { name: "No gigs available" });
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m{Enter}");
    expect(screen.getByTestId("location")).toHaveTextContent("/user/npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m");
    expect(api.callsTo("GET", "/api/gigs").some((c) => c.query.get("q")?.startsWith("npub1"))).toBe(false);
  });

  it("loads more with the cursor from X-Next-Cursor", async () => {
    const { api, user } = renderBrowse((call) =>
      call.query.get("cursor") === "page-2"
        ? gigPageResponse([makeGig({ title: "Second page gig" })])
        : gigPageResponse([makeGig({ title: "First page gig" })], "page-2"),
    );
    await screen.findByRole("button", { name: "First page gig" });
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("button", { name: "Second page gig" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "First page gig" })).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/gigs").at(-1)!.query.get("cursor")).toBe("page-2");
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("opens the gig details modal from a card", async () => {
    const gig = makeGig({ title: "Details please" });
    const api = mockApi({ "GET /api/gigs": () => [gig], [`GET /api/gigs/${gig.id}`]: () => gig });
    renderWithApp(
      <GigDialogsProvider>
        <BrowseGigs />
      </GigDialogsProvider>,
    );
    await userEvent.setup().click(await screen.findByRole("button", { name: "Details please" }));
    expect(await screen.findByRole("dialog", { name: "Details please" })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", `/api/gigs/${gig.id}`)).toHaveLength(1));
  });
});
