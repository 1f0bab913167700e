// Formatting of sats, times, ids and ratings for display (SPEC.md §2, §9).

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** 10000 → "10,000 sats" (locale grouping). */
export function formatSats(sats: number): string {
  return `${sats.toLocaleString()} sats`;
}

/** The first 8 characters of a gig id. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** Keeps the first 15 and last 8 characters (10 and 6 in short mode); empty input gives 'N/A'. */
export function shortenString(value: string | null | undefined, short = false): string {
  if (!value) return "N/A";
  const [head, tail] = short ? [10, 6] : [15, 8];
  if (value.length <= head + tail + 3) return value;
  return `${value.slice(0, head)}...${value.slice(-tail)}`;
}

/** Remaining days: the deadline minus now in days, rounded up and never below 0; without a deadline, the timeframe. */
export function daysLeft(deadline: string | null | undefined, timeframeDays: number, now = Date.now()): number {
  if (!deadline) return timeframeDays;
  return Math.max(0, Math.ceil((new Date(deadline).getTime() - now) / DAY_MS));
}

/** "3 days ago" / "5 hours ago". */
export function timeAgo(iso: string, now = Date.now()): string {
  const elapsed = Math.max(0, now - new Date(iso).getTime());
  if (elapsed >= DAY_MS) {
    const days = Math.floor(elapsed / DAY_MS);
    return `${days} ${days === 1 ? "day" : "days"} ago`;
  }
  const hours = Math.floor(elapsed / HOUR_MS);
  return `${hours} ${hours === 1 ? "hour" : "hours"} ago`;
}

/** A calendar date such as "Nov 22, 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** Success rate for display: the percent, or N/A when no gig was completed. */
export function formatSuccessRate(completedGigs: number, successRate: number): string {
  return completedGigs > 0 ? `${successRate}%` : "N/A";
}
