// The offline cache's service worker is registered whether the app starts before the page's `load` (a plain
// shell) or after it (a page the Worker rendered starts the app after its first paint, web/public/after-paint.js).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerServiceWorker } from "./service-worker";

describe("registerServiceWorker", () => {
  const register = vi.fn(() => Promise.resolve({}));
  beforeEach(() => {
    Object.defineProperty(navigator, "serviceWorker", { value: { register }, configurable: true });
  });
  afterEach(() => {
    register.mockClear();
    Reflect.deleteProperty(navigator, "serviceWorker");
    Reflect.deleteProperty(document, "readyState");
  });

  it("registers at once when the app starts after the page has loaded", () => {
    Object.defineProperty(document, "readyState", { value: "complete", configurable: true });
    registerServiceWorker();
    expect(register).toHaveBeenCalledWith("/sw.js");
  });

  it("waits for the page's load when the app starts before it", () => {
    Object.defineProperty(document, "readyState", { value: "interactive", configurable: true });
    registerServiceWorker();
    expect(register).not.toHaveBeenCalled();
    window.dispatchEvent(new Event("load"));
    expect(register).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event("load"));
    expect(register).toHaveBeenCalledTimes(1);
  });
});
