import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/factories";
import { apiError, jsonResponse, mockApi, type ApiCall } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { PortfolioEditor } from "./portfolio-editor";
import { PortfolioGrid } from "./portfolio-grid";
import type { PortfolioItem } from "./types";

function item(overrides: Partial<PortfolioItem> = {}): PortfolioItem {
  return {
    id: "item-1",
    title: "Logo for a bakery",
    description: "Vector logo and colours",
    imageUrl: "https://example.com/logo.png",
    projectUrl: "https://bakery.example",
    category: "Design",
    ...overrides,
  };
}

const owner = makeUser({ id: "owner-1" });
const listPath = "GET /api/portfolio/user/owner-1";

function renderEditor() {
  return renderWithApp(<PortfolioEditor user={owner} />, { user: owner });
}

function grid() {
  return within(within(screen.getByRole("region", { name: "Portfolio" })).getByRole("list"));
}

async function openAddForm() {
  await userEvent.click(await screen.findByRole("button", { name: "Add Item" }));
  return screen.findByRole("dialog", { name: "Add Portfolio Item" });
}

describe("Portfolio editing on /profile", () => {
  it("shows the owner's items with Edit and Remove, and the empty text without items", async () => {
    mockApi({ [listPath]: () => [item()] });
    const { unmount } = renderEditor();
    expect(await screen.findByText("Logo for a bakery")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit Logo for a bakery" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove Logo for a bakery" })).toBeInTheDocument();
    unmount();

    mockApi({ [listPath]: () => [] });
    renderEditor();
    expect(await screen.findByText("No portfolio items yet")).toBeInTheDocument();
  });

  it("checks the form with the shared rules before sending anything", async () => {
    const api = mockApi({ [listPath]: () => [] });
    renderEditor();
    const dialog = await openAddForm();

    await userEvent.click(within(dialog).getByRole("button", { name: "Add Item" }));
    expect(await within(dialog).findByText("Title is required")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Title")).toHaveFocus();

    await userEvent.type(within(dialog).getByLabelText("Title"), "Shop redesign");
    await userEvent.type(within(dialog).getByLabelText("Image URL"), "ftp://example.com/x.png");
    await userEvent.type(within(dialog).getByLabelText("Project URL"), "javascript:alert(1)");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add Item" }));
    expect(await within(dialog).findByText("Image URL must be an http(s) URL")).toBeInTheDocument();
    expect(within(dialog).getByText("Project URL must be an http(s) URL")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Image URL")).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("POST", "/api/portfolio")).toHaveLength(0);
  });

  it("adds an item: trimmed, empty fields as null, then it shows in the grid", async () => {
    const api = mockApi({
      [listPath]: () => [item()],
      "POST /api/portfolio": (call: ApiCall) => jsonResponse({ id: "item-2", createdAt: "2026-11-02T00:00:00.000Z", ...(call.body as object) }, 201),
    });
    renderEditor();
    await screen.findByText("Logo for a bakery");
    const dialog = await openAddForm();

    await userEvent.type(within(dialog).getByLabelText("Title"), "  Shop redesign  ");
    await userEvent.type(within(dialog).getByLabelText("Project URL"), "https://shop.example");
    await userEvent.type(within(dialog).getByLabelText("Category"), "Development");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add Item" }));

    expect(await findToast("Portfolio Item Added")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/portfolio").map((c) => c.body)).toEqual([
      { title: "Shop redesign", description: null, imageUrl: null, projectUrl: "https://shop.example", category: "Development" },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const titles = grid().getAllByRole("heading").map((h) => h.textContent);
    expect(titles).toEqual(["Shop redesign", "Logo for a bakery"]);
  });

  it("keeps the form open and shows the server's message when adding fails", async () => {
    mockApi({ [listPath]: () => [], "POST /api/portfolio": () => apiError(400, "Title must be less than 100 characters", "invalid_input") });
    renderEditor();
    const dialog = await openAddForm();
    await userEvent.type(within(dialog).getByLabelText("Title"), "Shop redesign");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add Item" }));

    expect(await findToast("Failed to Add Portfolio Item")).toBeInTheDocument();
    expect(await findToast("Title must be less than 100 characters")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Add Portfolio Item" })).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Shop redesign");
  });

  it("edits an item: the form starts from it, a cleared field is sent as null", async () => {
    const api = mockApi({
      [listPath]: () => [item()],
      "PATCH /api/portfolio/item-1": (call: ApiCall) => ({ ...item(), ...(call.body as object) }),
    });
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Edit Logo for a bakery" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Portfolio Item" });
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Logo for a bakery");
    expect(within(dialog).getByLabelText("Category")).toHaveValue("Design");

    await userEvent.clear(within(dialog).getByLabelText("Title"));
    await userEvent.type(within(dialog).getByLabelText("Title"), "Bakery logo");
    await userEvent.clear(within(dialog).getByLabelText("Description"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save Changes" }));

    expect(await findToast("Portfolio Item Updated")).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/api/portfolio/item-1").map((c) => c.body)).toEqual([
      { title: "Bakery logo", description: null, imageUrl: "https://example.com/logo.png", projectUrl: "https://bakery.example", category: "Design" },
    ]);
    expect(await grid().findByRole("heading", { name: "Bakery logo" })).toBeInTheDocument();
    expect(grid().queryByText("Vector logo and colours")).not.toBeInTheDocument();
  });

  it("removes an item only after confirmation", async () => {
    const api = mockApi({ [listPath]: () => [item(), item({ id: "item-2", title: "Shop redesign" })], "DELETE /api/portfolio/item-1": () => ({ success: true }) });
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Remove Logo for a bakery" }));
    let confirm = await screen.findByRole("dialog", { name: "Remove this portfolio item?" });
    await userEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(api.callsTo("DELETE", "/api/portfolio/item-1")).toHaveLength(0);
    expect(screen.getByText("Logo for a bakery")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Remove Logo for a bakery" }));
    confirm = await screen.findByRole("dialog", { name: "Remove this portfolio item?" });
    expect(within(confirm).getByText(/“Logo for a bakery” will be removed/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole("button", { name: "Remove" }));

    expect(await findToast("Portfolio Item Removed")).toBeInTheDocument();
    expect(api.callsTo("DELETE", "/api/portfolio/item-1")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText("Logo for a bakery")).not.toBeInTheDocument());
    expect(screen.getByText("Shop redesign")).toBeInTheDocument();
  });

  it("keeps the item and shows the server's message when removing fails", async () => {
    mockApi({ [listPath]: () => [item()], "DELETE /api/portfolio/item-1": () => apiError(404, "Portfolio item not found", "portfolio_item_not_found") });
    renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Remove Logo for a bakery" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Remove" }));
    expect(await findToast("Failed to Remove Portfolio Item")).toBeInTheDocument();
    expect(await findToast("Portfolio item not found")).toBeInTheDocument();
    expect(screen.getByText("Logo for a bakery")).toBeInTheDocument();
  });
});

describe("PortfolioGrid on a public profile", () => {
  it("stays read-only: no edit or remove controls", () => {
    render(<PortfolioGrid items={[item()]} />);
    expect(screen.getByRole("heading", { name: "Logo for a bakery" })).toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: /View Project/ })).toHaveAttribute("href", "https://bakery.example");
  });
});
