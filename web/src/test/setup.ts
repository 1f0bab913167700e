import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { FakeWebSocket } from "./fake-websocket";

// findBy*/waitFor wait for what a person would see; their deadline is only how long to wait before calling it
// missing, not a speed check. Testing Library's 1 s default is a timing assertion a loaded 2-core machine can
// miss (a test failed that way once under load), so the deadline is generous.
configure({ asyncUtilTimeout: 15_000 });

// jsdom does not scroll; the app scrolls to the top on every route change. (A test file may run in Node
// instead, with `@vitest-environment node`: then there is no window.)
const inBrowser = typeof window !== "undefined";
if (inBrowser) window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

beforeEach(() => {
  if (!inBrowser) return;
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  if (inBrowser) localStorage.clear();
});
