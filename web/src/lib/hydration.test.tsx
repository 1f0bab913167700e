import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { HydrationProvider, useLocalTime, useNow } from "./hydration";

/** What a component writing a time draws, render by render. */
function Probe({ seen }: { seen: string[] }) {
  const localTime = useLocalTime();
  const now = useNow();
  seen.push(localTime ? "browser" : `server at ${now}`);
  return <p>{localTime ? "browser's view" : "server's view"}</p>;
}

describe("times: from the server's clock and UTC to the reader's", () => {
  it("with a server render: first the server's view at its clock, then the browser's once hydrated", async () => {
    const seen: string[] = [];
    render(
      <HydrationProvider renderedAt={1_000}>
        <Probe seen={seen} />
      </HydrationProvider>,
    );
    await waitFor(() => expect(screen.getByText("browser's view")).toBeInTheDocument());
    expect(seen[0]).toBe("server at 1000");
    expect(seen.at(-1)).toBe("browser");
  });

  it("without one (the browser renders alone): the browser's view from the first render", () => {
    const seen: string[] = [];
    render(
      <HydrationProvider renderedAt={null}>
        <Probe seen={seen} />
      </HydrationProvider>,
    );
    expect(screen.getByText("browser's view")).toBeInTheDocument();
    expect(new Set(seen)).toEqual(new Set(["browser"]));
  });
});
