// Display formatting. The shared rules live in domain/format.ts (the worker's receipts use them too);
// this adds what only the web shows.
export { daysRemaining, formatSats, shortId, shorten, timeAgo } from "../../../domain/format";

/** Built once: making a date formatter (what `toLocaleDateString` with options does on every call) is the costly part. */
let dateFormat: Intl.DateTimeFormat | undefined;

/** A calendar date such as "Nov 22, 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
  return dateFormat.format(date);
}

