// The cursor of every keyset-paged list (gigs, the admin's gigs, reports, chat history): the last row shown,
// by (created_at, id), opaque to clients. One encoding and one answer to a cursor that is not one.
import { badRequest } from "../errors";

export interface PagePosition {
  createdAt: string;
  id: string;
}

export function encodePageCursor(row: PagePosition): string {
  return btoa(`${row.createdAt}|${row.id}`).replace(/=+$/, "");
}

/** The position a cursor names; 400 `invalid_cursor` when it names none. */
export function decodePageCursor(cursor: string): PagePosition {
  try {
    const [createdAt, id, extra] = atob(cursor).split("|");
    if (createdAt && id && extra === undefined) return { createdAt, id };
  } catch {
    /* below */
  }
  throw badRequest("Invalid cursor", "invalid_cursor");
}
