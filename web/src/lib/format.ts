// Display formatting. The shared rules live in domain/format.ts (the worker's receipts use them too);
// this adds what only the web shows.
export { daysRemaining, formatSats, shortId, shorten, timeAgo } from "../../../domain/format";

/** Built once: making a date formatter (what `toLocaleDateString` with options does on every call) is the costly part. */
let dateFormat: Intl.DateTimeFormat | undefined;

/** The months as en-US writes them short. */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** A number as two digits ("09"): hours, minutes, months and days as dates write them. */
export const twoDigits = (n: number) => String(n).padStart(2, "0");

/**
 * Whether this browser's language writes dates as en-US does (the app's own language): then a date in its time
 * zone is written by hand too. Building the first formatter costs a phone tens of milliseconds of its main thread,
 * in the render after hydration that writes every date in the reader's time.
 */
const writesUsEnglish = () => typeof navigator !== "undefined" && (navigator.language === "en-US" || navigator.language === "en");

/**
 * A calendar date such as "Nov 22, 2026", in this browser's language and time zone; `as: "rendered"` is the
 * Worker's way (en-US, UTC), which the server's HTML and the browser's hydrating render both use
 * (lib/hydration.tsx useLocalTime). The Worker's way is written out by hand, as `Intl.DateTimeFormat("en-US",
 * { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" })` writes it (a property test holds them
 * equal): building a formatter is the costly part of writing a date, the hydrating render is one task on the
 * phone's main thread, and the render after it builds the reader's own formatter anyway.
 */
export function formatDate(iso: string, { as = "local" }: { as?: "local" | "rendered" } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (as === "rendered") return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
  if (writesUsEnglish()) return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
  return dateFormat.format(date);
}

/** A time of day as the Worker writes it ("09:05", 24-hour, UTC), which the browser's hydrating render repeats. */
export function formatRenderedTime(date: Date): string {
  return `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}`;
}
