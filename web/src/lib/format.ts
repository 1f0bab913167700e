// Display formatting. The shared rules live in domain/format.ts (the worker's receipts use them too);
// this adds what only the web shows.
export { daysRemaining, formatSats, shortId, shorten, timeAgo } from "../../../domain/format";

/** Built once: making a date formatter (what `toLocaleDateString` with options does on every call) is the costly part. */
let dateFormat: Intl.DateTimeFormat | undefined;
let renderedDateFormat: Intl.DateTimeFormat | undefined;

/**
 * A calendar date such as "Nov 22, 2026", in this browser's language and time zone; `as: "rendered"` is the
 * Worker's way (en-US, UTC), which the server's HTML and the browser's hydrating render both use
 * (lib/hydration.ts useHydrated).
 */
export function formatDate(iso: string, { as = "local" }: { as?: "local" | "rendered" } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (as === "rendered") {
    renderedDateFormat ??= new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
    return renderedDateFormat.format(date);
  }
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
  return dateFormat.format(date);
}

