// Every paged list answers a cursor that names no position the same way: 400 invalid_cursor, nothing listed.
import { describe, expect, it } from "vitest";
import { adminSignIn, asAdmin } from "../test/admin";
import { call, claimedJob } from "../test/factories";
import { decodePageCursor, encodePageCursor } from "./page-cursor";

const NOT_CURSORS = ["%%%", btoa("no-separator"), btoa("a|b|c"), btoa("|only-id")];

describe("page cursors", () => {
  it("decode what they encode, and refuse anything else with 400 invalid_cursor", () => {
    const position = { createdAt: "2026-11-25T09:00:00.000Z", id: crypto.randomUUID() };
    expect(decodePageCursor(encodePageCursor(position))).toEqual(position);
    for (const cursor of NOT_CURSORS) expect(() => decodePageCursor(cursor)).toThrow(expect.objectContaining({ status: 400, code: "invalid_cursor" }));
  });

  it("are refused alike by the gig list, the admin's gigs and reports, and a gig's chat history", async () => {
    const job = await claimedJob();
    const admin = await adminSignIn();
    for (const cursor of NOT_CURSORS) {
      const q = encodeURIComponent(cursor);
      const answers = [
        await call(`/api/gigs?cursor=${q}`, undefined),
        await call(`/api/gigs/${job.gigId}/messages?before=${q}`, job.hirer.token),
        await asAdmin(admin, `/api/admin/gigs?cursor=${q}`),
        await asAdmin(admin, `/api/gig-reports?cursor=${q}`),
      ];
      for (const answer of answers) expect(answer).toMatchObject({ status: 400, body: { error: "invalid_cursor", message: "Invalid cursor" } });
    }
  });
});
