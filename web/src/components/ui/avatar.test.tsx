import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../lib/query-client";
import { avatarInitials, UserAvatar } from "./avatar";

function renderAvatar(ui: ReactElement) {
  return render(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);
}

describe("avatar fallback", () => {
  it("uses the first two letters, upper case, of the display name, else the username", () => {
    expect(avatarInitials("satoshi nakamoto", "npub1abc")).toBe("SA");
    expect(avatarInitials(null, "npub1abc")).toBe("NP");
    expect(avatarInitials("  ", "hal")).toBe("HA");
    expect(avatarInitials("Z", null)).toBe("Z");
    expect(avatarInitials(null, null)).toBe("?");
  });

  it("shows the initials while no picture is available", () => {
    renderAvatar(<UserAvatar user={{ username: "npub1xyz", displayName: "alice" }} label="alice" />);
    const avatar = screen.getByRole("img", { name: "alice" });
    expect(avatar.querySelector("[data-initials]")).toHaveAttribute("data-initials", "AL");
    // Drawn by CSS, not text: the avatar adds no words to a button it sits in.
    expect(avatar.textContent).toBe("");
  });

  it("falls back from a broken profile picture to a locally generated robot, then to the initials", async () => {
    const { container } = renderAvatar(
      <UserAvatar user={{ username: "npub1xyz", displayName: "bob", profilePicture: "https://example.com/broken.png" }} />,
    );
    expect(container.querySelector("img")).toHaveAttribute("src", "https://example.com/broken.png");

    fireEvent.error(container.querySelector("img")!);
    // The robot is a data URI generated in the browser, never a remote image service.
    await waitFor(() => expect(container.querySelector("img")?.getAttribute("src")).toMatch(/^data:image\/svg\+xml/));

    fireEvent.error(container.querySelector("img")!);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("[data-initials]")).toHaveAttribute("data-initials", "BO");
  });
});
