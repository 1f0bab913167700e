import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { daysRemaining, fileSizeKb, formatSats, shortId, shorten, timeAgo, timeRemaining, unreadBadge } from "./format";

const NOW = Date.parse("2026-11-20T12:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

describe("formatSats", () => {
  it("groups thousands", () => {
    expect(formatSats(10_000)).toBe("10,000 sats");
    expect(formatSats(1_000_000)).toBe("1,000,000 sats");
    expect(formatSats(999)).toBe("999 sats");
    expect(formatSats(0)).toBe("0 sats");
  });
  it("says sat for one", () => {
    expect(formatSats(1)).toBe("1 sat");
  });
  it("follows a given locale", () => {
    expect(formatSats(10_000, "de-DE")).toBe("10.000 sats");
  });

  it("groups en-US exactly as Intl does, negatives and fractions too", () => {
    for (const n of [0, 7, 999, 1_000, 12_345, 999_999, 1_000_000, 2_099_999_997_690_000, -21_000, 1234.5]) {
      expect(formatSats(n)).toBe(`${n.toLocaleString("en-US", { maximumFractionDigits: 20 })} ${n === 1 ? "sat" : "sats"}`);
    }
  });
});

describe("shortId", () => {
  it("keeps the first 8 characters", () => {
    expect(shortId("3f2a9c1e-5b7d-4e21-9a0b-1c2d3e4f5a6b")).toBe("3f2a9c1e");
    expect(shortId("abc")).toBe("abc");
  });
});

describe("shorten", () => {
  const npub = "npub1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnzs23v9ccrydpk8qarc0sj6u8l8";
  it("keeps the first 15 and last 8", () => {
    expect(shorten(npub)).toBe(`${npub.slice(0, 15)}...${npub.slice(-8)}`);
  });
  it("keeps the first 10 and last 6 in short mode", () => {
    expect(shorten(npub, true)).toBe(`${npub.slice(0, 10)}...${npub.slice(-6)}`);
  });
  it("gives N/A for nothing", () => {
    expect(shorten("")).toBe("N/A");
    expect(shorten(null)).toBe("N/A");
    expect(shorten(undefined, true)).toBe("N/A");
  });
  it("never makes a string longer", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.boolean(), (s, short) => {
        expect(shorten(s, short).length).toBeLessThanOrEqual(s.length);
      }),
    );
  });
});

describe("timeAgo", () => {
  it("counts days, then hours", () => {
    expect(timeAgo(iso(NOW - 3 * DAY - 5 * HOUR), NOW)).toBe("3 days ago");
    expect(timeAgo(iso(NOW - DAY), NOW)).toBe("1 day ago");
    expect(timeAgo(iso(NOW - 5 * HOUR - 59_000), NOW)).toBe("5 hours ago");
    expect(timeAgo(iso(NOW - HOUR), NOW)).toBe("1 hour ago");
  });
  it("says just now under an hour and for a date ahead of the clock", () => {
    expect(timeAgo(iso(NOW - 59 * 60_000), NOW)).toBe("just now");
    expect(timeAgo(iso(NOW + HOUR), NOW)).toBe("just now");
  });
});

describe("daysRemaining", () => {
  it("rounds up to whole days", () => {
    expect(daysRemaining(iso(NOW + 2 * DAY + 1), 7, NOW)).toBe(3);
    expect(daysRemaining(iso(NOW + 2 * DAY), 7, NOW)).toBe(2);
    expect(daysRemaining(iso(NOW + 1000), 7, NOW)).toBe(1);
  });
  it("never goes below 0", () => {
    expect(daysRemaining(iso(NOW), 7, NOW)).toBe(0);
    expect(daysRemaining(iso(NOW - 5 * DAY), 7, NOW)).toBe(0);
  });
  it("shows the timeframe without a deadline", () => {
    expect(daysRemaining(null, 7, NOW)).toBe(7);
    expect(daysRemaining(undefined, 30, NOW)).toBe(30);
  });
});

describe("timeRemaining", () => {
  it("is Not started while unclaimed", () => {
    for (const status of ["pending", "pending_payment", "open"]) {
      expect(timeRemaining(status, iso(NOW + DAY), NOW)).toBe("Not started");
    }
    expect(timeRemaining("claimed", null, NOW)).toBe("Not started");
  });
  it("is Overdue once the deadline has passed", () => {
    expect(timeRemaining("in_progress", iso(NOW - 1), NOW)).toBe("Overdue");
    expect(timeRemaining("claimed", iso(NOW), NOW)).toBe("Overdue");
  });
  it("shows days and hours otherwise", () => {
    expect(timeRemaining("claimed", iso(NOW + 2 * DAY + 5 * HOUR + 30 * 60_000), NOW)).toBe("2d 5h");
    expect(timeRemaining("in_progress", iso(NOW + 30 * 60_000), NOW)).toBe("0d 0h");
  });
});

describe("fileSizeKb", () => {
  it("shows KB with one decimal", () => {
    expect(fileSizeKb(12_595)).toBe("12.3 KB");
    expect(fileSizeKb(0)).toBe("0.0 KB");
    expect(fileSizeKb(52_428_800)).toBe("51200.0 KB");
  });
});

describe("unreadBadge", () => {
  it("shows the count up to 9, then 9+", () => {
    expect(unreadBadge(1)).toBe("1");
    expect(unreadBadge(9)).toBe("9");
    expect(unreadBadge(10)).toBe("9+");
    expect(unreadBadge(250)).toBe("9+");
  });
  it("shows no badge with nothing unread", () => {
    expect(unreadBadge(0)).toBeNull();
  });
});
