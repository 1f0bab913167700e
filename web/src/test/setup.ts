import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { FakeWebSocket } from "./fake-websocket";

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
