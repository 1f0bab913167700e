import { act, screen, waitFor } from "@testing-library/react";
import { useQuery } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiJson, errorText } from "../../lib/api";
import { noteAnswer } from "../../lib/connectivity";
import { mockApi } from "../../test/mock-api";
import { renderWithApp } from "../../test/render";
import { OFFLINE_RETRY_MS, OfflineBanner } from "./offline-banner";

function SomethingRead() {
  const gigs = useQuery({ queryKey: ["/api/gigs"], queryFn: () => apiJson<unknown[]>("GET", "/api/gigs") });
  return <p>{gigs.isError ? `could not read: ${errorText(gigs.error)}` : gigs.data ? `read ${gigs.data.length}` : "reading"}</p>;
}

afterEach(() => noteAnswer());

describe("the offline banner", () => {
  it("says so when a request gets no answer, asks again, and reads again what failed once the API answers", async () => {
    let down = true;
    const api = mockApi({
      "GET /api/gigs": () => {
        if (down) throw new TypeError("Failed to fetch");
        return [{ id: "g-1" }];
      },
      "GET /api/config": () => {
        if (down) throw new TypeError("Failed to fetch");
        return { aliasDomain: "gigstr.test" };
      },
    });
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      renderWithApp(
        <>
          <OfflineBanner />
          <SomethingRead />
        </>,
      );
      // The screen that could not read says why in plain words, never the browser's "Failed to fetch".
      expect(await screen.findByText("could not read: Gigstr could not be reached. Check your internet connection and try again.")).toBeInTheDocument();
      expect(screen.queryByText(/Failed to fetch/)).toBeNull();
      expect(screen.getByRole("status")).toHaveTextContent("You are offline. Gigstr will try again when you are back online.");

      act(() => vi.advanceTimersByTime(OFFLINE_RETRY_MS));
      await waitFor(() => expect(api.callsTo("GET", "/api/config")).toHaveLength(1));
      expect(screen.getByRole("status")).toBeInTheDocument();

      down = false;
      act(() => vi.advanceTimersByTime(OFFLINE_RETRY_MS));
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(screen.queryByRole("status")).not.toBeInTheDocument());
    expect(await screen.findByText("read 1")).toBeInTheDocument();
  });

  it("says so while the browser reports no network", async () => {
    mockApi({});
    renderWithApp(<OfflineBanner />);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event("offline")));
    expect(screen.getByRole("status")).toHaveTextContent("You are offline");
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event("online")));
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });
});
