import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDate, formatRenderedTime } from "./format";

// The Worker's page and the hydrating render write dates by hand (no formatter built in the hydrating task): they must
// read exactly as en-US in UTC writes them, or the page a visitor sees first says something else than the page after.
const anyInstant = fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2200-12-31T23:59:59Z"), noInvalidDate: true });

describe("dates as the Worker renders them", () => {
  it("writes a date as en-US does in UTC, for any instant", () => {
    const intl = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
    fc.assert(
      fc.property(anyInstant, (date) => {
        expect(formatDate(date.toISOString(), { as: "rendered" })).toBe(intl.format(date));
      }),
    );
  });

  it("writes a time of day as en-US does on a 24-hour clock in UTC, for any instant", () => {
    const intl = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });
    fc.assert(
      fc.property(anyInstant, (date) => {
        expect(formatRenderedTime(date)).toBe(intl.format(date));
      }),
    );
  });

  it("reads the day in UTC, not the reader's zone, around midnight", () => {
    expect(formatDate("2026-11-26T23:59:00Z", { as: "rendered" })).toBe("Nov 26, 2026");
    expect(formatDate("2026-11-27T00:00:00Z", { as: "rendered" })).toBe("Nov 27, 2026");
    expect(formatRenderedTime(new Date("2026-11-27T00:05:00Z"))).toBe("00:05");
  });

  it("writes nothing for a date that is not one", () => {
    expect(formatDate("not a date", { as: "rendered" })).toBe("");
  });
});

describe("dates in the reader's time zone", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("writes a date as the browser's own en-US formatter does, for any instant", () => {
    vi.stubGlobal("navigator", { ...navigator, language: "en-US" });
    const intl = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
    fc.assert(
      fc.property(anyInstant, (date) => {
        expect(formatDate(date.toISOString())).toBe(intl.format(date));
      }),
    );
  });
});
