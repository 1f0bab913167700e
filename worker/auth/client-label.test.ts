import { describe, expect, it } from "vitest";
import { clientLabel, UNKNOWN_CLIENT } from "./client-label";

describe("clientLabel", () => {
  it("names the browser and the system of common User-Agents", () => {
    expect(clientLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")).toBe("Chrome on Linux");
    expect(clientLabel("Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0")).toBe("Firefox on Android");
    expect(clientLabel("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")).toBe("Chrome on Android");
    expect(clientLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")).toBe("Safari on iOS");
    expect(clientLabel("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0")).toBe("Edge on Windows");
    expect(clientLabel("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15")).toBe("Safari on macOS");
  });

  it("says Unknown device when there is nothing to go by", () => {
    expect(clientLabel(undefined)).toBe(UNKNOWN_CLIENT);
    expect(clientLabel("")).toBe(UNKNOWN_CLIENT);
    expect(clientLabel("curl/8.5.0")).toBe(UNKNOWN_CLIENT);
  });
});
