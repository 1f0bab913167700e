// How amounts, ids, times and sizes are shown (SPEC.md §2 cards and modals, §9 constants).
// Pure: every clock reading is passed in, so the web and the worker (receipts) show the same text.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

type Instant = Date | string | number;

function toMs(t: Instant): number {
  return t instanceof Date ? t.getTime() : typeof t === "number" ? t : Date.parse(t);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Number formatters for other locales than en-US, one per locale. */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** 10000 -> "10,000": en-US grouping without Intl, whose first number formatter costs a browser ~30 ms to build. */
function groupEnUs(n: number): string {
  const [whole, fraction] = String(Math.abs(n)).split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${n < 0 ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/** "10,000 sats" (locale grouping; "1 sat"). The locale defaults to en-US so server and browser agree. */
export function formatSats(n: number, locale = "en-US"): string {
  let text: string;
  if (locale === "en-US" && Number.isFinite(n)) text = groupEnUs(n);
  else {
    let format = numberFormats.get(locale);
    if (!format) {
      format = new Intl.NumberFormat(locale);
      numberFormats.set(locale, format);
    }
    text = format.format(n);
  }
  return `${text} ${n === 1 ? "sat" : "sats"}`;
}

/** A gig id as shown on cards and in the details modal: its first 8 characters. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/**
 * Keeps the first 15 and last 8 characters (10 and 6 in short mode) of a long string such as an npub;
 * 'N/A' for an empty one. A string that would not get shorter is returned whole.
 */
export function shorten(str: string | null | undefined, short = false): string {
  if (!str) return "N/A";
  const [head, tail] = short ? [10, 6] : [15, 8];
  if (str.length <= head + tail + 3) return str;
  return `${str.slice(0, head)}...${str.slice(-tail)}`;
}

/** A gig's age: "N days ago", else "N hours ago"; "just now" under an hour (or for a clock ahead of ours). */
export function timeAgo(iso: Instant, now: Instant = Date.now()): string {
  const elapsed = toMs(now) - toMs(iso);
  if (!(elapsed >= HOUR_MS)) return "just now";
  const days = Math.floor(elapsed / DAY_MS);
  if (days >= 1) return `${plural(days, "day")} ago`;
  return `${plural(Math.floor(elapsed / HOUR_MS), "hour")} ago`;
}

/** Whole days left until the deadline, rounded up and never below 0; the timeframe when there is no deadline. */
export function daysRemaining(deadline: Instant | null | undefined, timeframeDays: number, now: Instant = Date.now()): number {
  if (deadline === null || deadline === undefined || deadline === "") return timeframeDays;
  const left = toMs(deadline) - toMs(now);
  if (!(left > 0)) return 0;
  return Math.ceil(left / DAY_MS);
}

/** Statuses in which no worker is on the clock yet. */
const UNCLAIMED = new Set(["pending", "pending_payment", "open"]);

/** The details modal's time remaining: 'Not started' if unclaimed, 'Overdue' if past, else "2d 5h". */
export function timeRemaining(status: string, deadline: Instant | null | undefined, now: Instant = Date.now()): string {
  if (UNCLAIMED.has(status) || deadline === null || deadline === undefined || deadline === "") return "Not started";
  const left = toMs(deadline) - toMs(now);
  if (!(left > 0)) return "Overdue";
  return `${Math.floor(left / DAY_MS)}d ${Math.floor((left % DAY_MS) / HOUR_MS)}h`;
}

/** An attachment's size in KB with one decimal: "12.3 KB". */
export function fileSizeKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** The bell's badge: the count, '9+' above 9, null (no badge) when nothing is unread. */
export function unreadBadge(n: number): string | null {
  if (!(n > 0)) return null;
  return n > 9 ? "9+" : String(n);
}
