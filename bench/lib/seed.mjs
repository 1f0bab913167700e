// Seed data for the benchmarks: members and gigs written as SQL batch inserts, applied with
// `wrangler d1 execute --local --persist-to DIR --file` to a state directory whose migrations
// were applied first. Deterministic (a seeded PRNG), so every run browses the same table.
import { writeFileSync } from "node:fs";
import path from "node:path";

const CATEGORIES = ["Development", "Design", "Writing", "Marketing", "Video/Audio", "Consulting", "Other"];
const WORDS = (
  "logo landing page lightning wallet node relay nostr client audit review translate article podcast edit " +
  "video thumbnail newsletter campaign design api bot script plugin theme mobile app bitcoin meetup poster " +
  "sticker banner docs tutorial guide migration backup server setup rust typescript python react"
).split(" ");
/** Statuses other than open, for the 10% of gigs a visitor's browse must skip. */
const OTHER_STATUSES = ["claimed", "in_progress", "work_submitted", "completed", "cancelled", "disputed", "pending_payment"];
const BASE_MS = Date.parse("2026-01-01T00:00:00.000Z");
const ROWS_PER_INSERT = 100; // keeps each statement under D1's 100 KB statement limit

/** mulberry32: a small deterministic PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuid(rand) {
  const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[Math.floor(rand() * 4)];
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const q = (s) => `'${String(s).replaceAll("'", "''")}'`;

function sentence(rand, n) {
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
}

/**
 * Generates `gigCount` gigs by `userCount` members. 90% are open (60% job requests, funded; 40% service
 * offerings), the rest spread over the other statuses; created_at is distinct (7 s apart), ids random.
 * Returns the open gigs newest first (what `GET /api/gigs?status=open` pages through) and SQL files.
 */
export function generateSeed({ gigCount, userCount = 1000, seed = 42 }) {
  const rand = prng(seed);
  const users = Array.from({ length: userCount }, (_, i) => ({ id: uuid(rand), username: `bench_user_${i}` }));
  const gigs = [];
  for (let i = 0; i < gigCount; i++) {
    const isJob = rand() < 0.6;
    const status = rand() < 0.9 ? "open" : OTHER_STATUSES[Math.floor(rand() * OTHER_STATUSES.length)];
    const poster = users[Math.floor(rand() * users.length)];
    const other = users[Math.floor(rand() * users.length)];
    const assigned = !["open", "pending_payment"].includes(status);
    // Log-uniform between 1,000 and 1,000,000 sats: every budget band of the Browse tab has gigs.
    const payment = Math.round(1000 * Math.pow(1000, rand()));
    gigs.push({
      id: uuid(rand),
      gigType: isJob ? "job_request" : "service_offering",
      title: `Bench gig ${i}: ${sentence(rand, 4)}`.slice(0, 100),
      description: `${sentence(rand, 30)}.`,
      category: CATEGORIES[Math.floor(rand() * CATEGORIES.length)],
      payment,
      timeframe: 1 + Math.floor(rand() * 30),
      status,
      escrowStatus: status === "pending_payment" || (!isJob && status === "open") ? "pending" : status === "completed" ? "released" : status === "cancelled" ? "refunded" : "funded",
      posterId: poster.id,
      hirerId: isJob ? poster.id : assigned ? other.id : null,
      workerId: isJob ? (assigned ? other.id : null) : poster.id,
      createdAt: new Date(BASE_MS + i * 7000).toISOString(),
    });
  }
  const openNewestFirst = gigs.filter((g) => g.status === "open").reverse();
  return { users, gigs, openNewestFirst };
}

/** Writes the seed as SQL files of at most `gigsPerFile` gigs each (users go in the first); returns their paths. */
export function writeSeedSql(dir, { users, gigs }, gigsPerFile = 25_000) {
  const files = [];
  const userLines = [];
  for (let i = 0; i < users.length; i += ROWS_PER_INSERT) {
    const rows = users.slice(i, i + ROWS_PER_INSERT).map((u) => `(${q(u.id)},${q(u.username)},'2025-12-01T00:00:00.000Z')`);
    userLines.push(`INSERT INTO users (id, username, created_at) VALUES\n${rows.join(",\n")};`);
  }
  for (let f = 0; f * gigsPerFile < Math.max(gigs.length, 1); f++) {
    const lines = f === 0 ? [...userLines] : [];
    const chunk = gigs.slice(f * gigsPerFile, (f + 1) * gigsPerFile);
    for (let i = 0; i < chunk.length; i += ROWS_PER_INSERT) {
      const rows = chunk.slice(i, i + ROWS_PER_INSERT).map(
        (g) =>
          `(${q(g.id)},${q(g.gigType)},${q(g.title)},${q(g.description)},${q(g.category)},${g.payment},${g.timeframe},${q(g.status)},` +
          `${q(g.escrowStatus)},${q(g.posterId)},${g.hirerId ? q(g.hirerId) : "NULL"},${g.workerId ? q(g.workerId) : "NULL"},0,${q(g.createdAt)})`,
      );
      lines.push(
        "INSERT INTO gigs (id, gig_type, title, description, category, payment, timeframe, status, escrow_status, poster_id, hirer_id, worker_id, version, created_at) VALUES\n" +
          `${rows.join(",\n")};`,
      );
    }
    const file = path.join(dir, `seed-${String(f).padStart(2, "0")}.sql`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    files.push(file);
  }
  return files;
}

/** The keyset cursor of GET /api/gigs (worker/services/gigs.ts encodeCursor): base64 of `${createdAt}|${id}`, unpadded. */
export function cursorAfter(gig) {
  return Buffer.from(`${gig.createdAt}|${gig.id}`).toString("base64").replace(/=+$/, "");
}
