import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { SUGGESTION_BUTTON_CLEARANCE } from "../features/suggestions/suggestion-box-button";
import { mockApi } from "../test/mock-api";
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
});
