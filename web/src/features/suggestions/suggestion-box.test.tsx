import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../../components/ui/dialog";
import { makeUser } from "../../test/factories";
import { apiError, jsonResponse, mockApi } from "../../test/mock-api";
import { findToast, renderWithApp } from "../../test/render";
import { SuggestionBoxButton } from "./suggestion-box-button";

async function openBox() {
  await userEvent.click(screen.getByRole("button", { name: "Suggestion box" }));
  return screen.findByRole("dialog", { name: "Suggestion Box" });
}

function sendButton() {
  return screen.getByRole("button", { name: "Send Suggestion" });
}

describe("Suggestion box", () => {
  it("asks visitors to log in and offers the login dialog", async () => {
    const api = mockApi({});
    renderWithApp(<SuggestionBoxButton />);
    await openBox();
    expect(screen.getByText("Login Required")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Login with Nostr" }));
    expect(await screen.findByRole("dialog", { name: /login/i })).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Suggestion Box" })).not.toBeInTheDocument();
    expect(api.callsTo("POST", "/api/suggestions")).toHaveLength(0);
  });

  it("refuses a blank suggestion with the spec's message and sends nothing", async () => {
    const api = mockApi({});
    renderWithApp(<SuggestionBoxButton />, { user: makeUser() });
    await openBox();
    await userEvent.type(screen.getByLabelText("Your suggestion or feature request"), "   ");
    await userEvent.click(sendButton());

    expect(screen.getByText("Please enter your suggestion or feature request")).toBeInTheDocument();
    expect(screen.getByLabelText("Your suggestion or feature request")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Your suggestion or feature request")).toHaveFocus();
    expect(api.callsTo("POST", "/api/suggestions")).toHaveLength(0);
  });

  it("sends the trimmed text, thanks the member, closes and starts empty next time", async () => {
    const api = mockApi({ "POST /api/suggestions": () => jsonResponse({ id: "s-1" }, 201) });
    renderWithApp(<SuggestionBoxButton />, { user: makeUser() });
    await openBox();
    await userEvent.type(screen.getByLabelText("Your suggestion or feature request"), "  Dark mode, please  ");
    await userEvent.click(sendButton());

    expect(await findToast("Thank You!")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/suggestions").map((c) => c.body)).toEqual([{ suggestion: "Dark mode, please" }]);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Suggestion Box" })).not.toBeInTheDocument());

    await openBox();
    expect(screen.getByLabelText("Your suggestion or feature request")).toHaveValue("");
  });

  it("keeps the text and shows the server's message when sending fails", async () => {
    mockApi({ "POST /api/suggestions": () => apiError(400, "Suggestions must be at most 5,000 characters", "invalid_input") });
    renderWithApp(<SuggestionBoxButton />, { user: makeUser() });
    await openBox();
    await userEvent.type(screen.getByLabelText("Your suggestion or feature request"), "Something");
    await userEvent.click(sendButton());

    expect(await findToast("Submission Failed")).toBeInTheDocument();
    expect(await findToast("Suggestions must be at most 5,000 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Your suggestion or feature request")).toHaveValue("Something");
  });
});

describe("Suggestion box button stays out of the way", () => {
  it("steps aside while another dialog is open and comes back when it closes", async () => {
    mockApi({});
    renderWithApp(
      <>
        <SuggestionBoxButton />
        <OtherDialog />
      </>,
    );
    expect(screen.getByRole("button", { name: "Suggestion box" })).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Open other" }));
    await screen.findByRole("dialog", { name: "Other" });
    await waitFor(() => expect(screen.queryByRole("button", { name: "Suggestion box" })).not.toBeInTheDocument());
    await userEvent.keyboard("{Escape}");
    expect(await screen.findByRole("button", { name: "Suggestion box" })).toBeVisible();
  });

  it("is there to take focus back when its own dialog closes from its text field", async () => {
    mockApi({});
    renderWithApp(<SuggestionBoxButton />, { user: makeUser() });
    await openBox();
    await userEvent.type(screen.getByLabelText("Your suggestion or feature request"), "Dark mode");
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Suggestion Box" })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole("button", { name: "Suggestion box" })).toHaveFocus());
    expect(screen.getByRole("button", { name: "Suggestion box" })).toBeVisible();
  });

  it("steps aside while someone types into a field, not while they tick a box", async () => {
    mockApi({});
    renderWithApp(
      <>
        <SuggestionBoxButton />
        <label>
          Title <input />
        </label>
        <label>
          Agree <input type="checkbox" />
        </label>
      </>,
    );
    await userEvent.click(screen.getByLabelText("Title"));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Suggestion box" })).not.toBeInTheDocument());
    await userEvent.click(screen.getByLabelText("Agree"));
    expect(await screen.findByRole("button", { name: "Suggestion box" })).toBeVisible();
  });

  it("steps aside while a form is open on the page, but not for the search box", async () => {
    mockApi({});
    const { rerender } = renderWithApp(
      <>
        <SuggestionBoxButton />
        <main>
          <form role="search">
            <input type="search" aria-label="Search" />
          </form>
        </main>
      </>,
    );
    expect(screen.getByRole("button", { name: "Suggestion box" })).toBeVisible();
    rerender(
      <>
        <SuggestionBoxButton />
        <main>
          <form aria-label="Post a gig">
            <input aria-label="Title" />
          </form>
        </main>
      </>,
    );
    await waitFor(() => expect(screen.queryByRole("button", { name: "Suggestion box" })).not.toBeInTheDocument());
  });

  it("stays while its own dialog is open, so focus can come back to it", async () => {
    mockApi({});
    renderWithApp(<SuggestionBoxButton />, { user: makeUser() });
    await openBox();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.getByRole("button", { name: "Suggestion box" })).toHaveFocus());
  });
});

function OtherDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open other
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogTitle>Other</DialogTitle>
          <DialogDescription>Another dialog</DialogDescription>
        </DialogContent>
      </Dialog>
    </>
  );
}
