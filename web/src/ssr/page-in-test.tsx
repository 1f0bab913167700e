// For the tests of pages the Worker renders (decision 030): a page rendered as the Worker renders it (renderPage
// with stand-in reads), and the browser's own entry (App with the page's data) hydrating that HTML.
import { act } from "@testing-library/react";
import { StrictMode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { vi } from "vitest";
import { App } from "../app";
import type { ServerPage } from "../lib/server-page";
import type { PageSources } from "./contract";
import { renderPage } from "./render";

/** The Worker's answer for `url`: its status, the rendered HTML, the page's data and the script carrying it. */
export async function workerRenders(url: string, sources: PageSources, { renderedAt, withData = true }: { renderedAt: number; withData?: boolean }) {
  const rendered = await renderPage({ url, renderedAt, withData }, sources);
  const page = JSON.parse(rendered.stateScript.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, "")) as ServerPage;
  return { status: rendered.status, html: rendered.html, page, stateScript: rendered.stateScript };
}

let root: Root | null = null;

/** The browser's entry (main.tsx) on the Worker's HTML: the page's element and what React said about it. */
export async function browserHydrates(url: string, served: { html: string; page: ServerPage }, historyState: unknown = null) {
  window.history.replaceState(historyState, "", url);
  const container = document.createElement("div");
  container.id = "root";
  container.innerHTML = served.html;
  document.body.append(container);
  const said: unknown[] = [];
  vi.spyOn(console, "error").mockImplementation((...args) => {
    const text = args.map(String).join(" ");
    // Both renderers in one realm (see workerRenders): React's development build notices the server one's mark
    // on the shared contexts. A browser never has the server renderer.
    if (!text.startsWith("Detected multiple renderers concurrently rendering the same context provider")) said.push(text);
  });
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App page={served.page} />
      </StrictMode>,
      { onRecoverableError: (error) => void said.push(String(error)) },
    );
  });
  return { container, said };
}

/** Unmounts what browserHydrates hydrated and leaves the document and the address as a test found them. */
export function unmountHydrated(): void {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
}
