import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { SUGGESTION_BUTTON_CLEARANCE } from "../features/suggestions/suggestion-box-button";
import { SESSION_TOKEN_KEY } from "../lib/api";
import { makeUser } from "../test/factories";
import { apiError, mockApi } from "../test/mock-api";
import { renderWithApp } from "../test/render";
import { MainLayout } from "./root-layout";

function renderLayout() {
  mockApi({});
  return renderWithApp(
    <Routes>
      <Route element={<MainLayout />}>
        <Route index element={<p>Last gig card</p>} />
      </Route>
    </Routes>,
  );
}

describe("main layout", () => {
  it("ends the page with room for the floating suggestion button, after the footer", async () => {
    const { container } = renderLayout();
    expect(await screen.findByText("Last gig card")).toBeInTheDocument();
    const frame = container.firstElementChild!;
    const room = screen.getByTestId("suggestion-button-clearance");
    expect(room).toHaveAttribute("aria-hidden", "true");
    for (const c of SUGGESTION_BUTTON_CLEARANCE.split(" ")) expect(room).toHaveClass(c);
    // Under the footer, the last thing in the page's flow (the button itself is fixed).
    const flow = [...frame.children].filter((el) => !el.matches("button"));
    expect(flow.at(-1)).toBe(room);
    expect(room.previousElementSibling?.tagName).toBe("FOOTER");
  });

  it("sizes the room for the button at every width, safe area included", () => {
    // Mobile: 1rem (or the safe area) under the button; sm and up: 1.5rem. 4rem covers the 3rem button,
    // its 4px ring and a gap.
    expect(SUGGESTION_BUTTON_CLEARANCE).toContain("h-[calc(4rem+max(1rem,env(safe-area-inset-bottom)))]");
    expect(SUGGESTION_BUTTON_CLEARANCE).toContain("sm:h-[calc(4rem+max(1.5rem,env(safe-area-inset-bottom)))]");
  });

  it("keeps the suggestion button fixed, a fixed size and reachable from the keyboard", async () => {
    const user = userEvent.setup();
    renderLayout();
    const button = screen.getByRole("button", { name: "Suggestion box" });
    expect(button).toHaveClass("fixed", "size-12", "bottom-[max(1rem,env(safe-area-inset-bottom))]", "sm:bottom-[max(1.5rem,env(safe-area-inset-bottom))]");
    button.focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByRole("dialog", { name: "Suggestion Box" })).toBeInTheDocument();
  });

  it("offers a retry, not the sign-in button, when a stored session could not be checked, and shows the member after it", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "stored-token");
    let down = true;
    mockApi({
      "GET /api/user/me": () => (down ? apiError(503, "Service unavailable") : makeUser({ displayName: "Ada" })),
      "GET /api/notifications/unread-count": () => ({ count: 0 }),
    });
    renderWithApp(
      <Routes>
        <Route element={<MainLayout />}>
          <Route index element={<p>Home</p>} />
        </Route>
      </Routes>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load your account.");
    expect(screen.queryByRole("button", { name: "Login with Nostr" })).not.toBeInTheDocument();
    down = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("button", { name: /Ada|account|menu/i })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
