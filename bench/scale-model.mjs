// The scale model (docs/scale.md): from what each route was measured to cost D1 (bench/route-costs.json, written
// by `npm run scale`'s first step, bench/route-costs.measure.ts) and a stated day of an active member, how many
// queries per second and how many bytes a year Gigstr asks of one D1 database at 1k, 100k and 1M active members,
// and when it meets D1's limits. Rewrites the part of docs/scale.md between its two markers; prints the same.
// Usage: node bench/scale-model.mjs [route-costs.json] [scale.md]
import { readFileSync, writeFileSync } from "node:fs";

const [costsFile = "bench/route-costs.json", docFile = "docs/scale.md"] = process.argv.slice(2);

/** The measured figures: the vitest JSON report's one test that carries them in its meta. */
function measured(file) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) if (test.meta?.routeCosts) return test.meta.routeCosts;
  }
  throw new Error(`${file} holds no measured route costs: run \`npm run scale\``);
}

// ---- D1's limits (Cloudflare's documentation, 2026) -------------------------------------------------------

const D1 = {
  maxDatabaseBytes: 10e9,
  /** One writer; at about 1 ms a query, about 1,000 queries a second. */
  queriesPerSecond: 1000,
};

// ---- A busy marketplace's day, per active member (assumptions; change them here) ---------------------------

const DAY = {
  visits: 3,
  /** Per visit. Browse pages a visitor reads come from the edge cache this share of the time (PUBLIC_CACHE_SECONDS). */
  browsePages: 8,
  visitorShareOfBrowsing: 0.5,
  edgeCacheHitRatio: 0.9,
  gigPages: 6,
  profilePages: 1,
  ownAccount: 1,
  notificationLists: 1,
  myGigs: 2,
  /** Sessions last 30 days; members sign in again about weekly (new devices, sign-outs). */
  signInsPerDay: 1 / 7,
  /** Time a tab is open: what the bell's 30 s poll would cost, against one socket opening per visit. */
  hoursOnline: 1,
  pollSeconds: 30,
  /** Both sides of a gig are members: gigs run from post to review per active member per day. */
  gigLives: 0.05,
  chatMessagesPerGig: 20,
};

const PEAK_TO_AVERAGE = 3;
const MEMBERS = [1_000, 100_000, 1_000_000];
/** ARCHIVE_AFTER_DAYS's default (worker/services/archive.ts): an ended gig's events, interest and notifications go to R2. */
const ARCHIVE_AFTER_DAYS = 365;
/** D1 read replicas answer a GET's reads (worker/d1-sessions.ts); Cloudflare places them in its regions. */
const REPLICA_REGIONS = 6;

/** The goals the model is held to (issue 30). */
const GOALS = { busyHourShareAt1M: 0.5, yearsTo10GbAt100k: 3 };

// ---- The model --------------------------------------------------------------------------------------------

const costs = measured(costsFile);
const route = (prefix) => {
  const r = costs.routes.find((x) => x.route.startsWith(prefix));
  if (!r) throw new Error(`no measured cost for "${prefix}"`);
  return r;
};
const GIG_LIFE = ["post a job", "fund it", "send interest", "approve interest", "enable claiming", "claim", "start work", "submit work", "approve and pay out", "review"];

/** Statements a member's day sends to D1, by what sends them: on the primary, and reads a replica may answer. */
function dailyStatements(pick) {
  const s = (prefix) => pick(route(prefix));
  const browseFromD1 = DAY.browsePages * (DAY.visitorShareOfBrowsing * (1 - DAY.edgeCacheHitRatio) + (1 - DAY.visitorShareOfBrowsing));
  const reading =
    DAY.visits *
    (browseFromD1 * s("browse page 1, member") +
      DAY.gigPages * s("gig page") +
      DAY.profilePages * s("profile page") +
      DAY.ownAccount * s("own account") +
      DAY.notificationLists * s("notification list") +
      DAY.myGigs * s("my gigs"));
  const signIn = DAY.signInsPerDay * s("sign-in");
  const gigs = DAY.gigLives * GIG_LIFE.reduce((sum, step) => sum + s(step), 0);
  const chat = DAY.gigLives * DAY.chatMessagesPerGig * s("chat message");
  // Pushed notifications: one count as each visit's socket opens, and each notification pushed reads the count again.
  const bell = DAY.visits * s("bell poll") + DAY.gigLives * (GIG_LIFE.length + DAY.chatMessagesPerGig) * s("its notification pushed");
  return { reading, signIn, gigs, chat, bell, total: reading + signIn + gigs + chat + bell };
}
const onReplica = dailyStatements((r) => r.replicaReads ?? 0);
const onPrimary = dailyStatements((r) => r.statements - (r.replicaReads ?? 0));

const g = costs.growth;
/** D1 bytes of one gig life with its chat's notifications, before and after its archive (chat itself lives in the room). */
const lifeBytes = g.bytesPerGigLife + DAY.chatMessagesPerGig * g.bytesPerChatMessage;
const keptBytes = g.bytesPerArchivedGigLife;
const livesPerMemberYear = DAY.gigLives * 365;
/** D1's size after `years` at `members`: every life whole until its archive, then what it keeps. */
function d1Bytes(members, years) {
  const lives = members * livesPerMemberYear;
  return lives * (keptBytes * years + (lifeBytes - keptBytes) * Math.min(years, ARCHIVE_AFTER_DAYS / 365));
}
/** Years until D1's 10 GB at `members` (the inverse of d1Bytes). */
function yearsTo10Gb(members) {
  const lives = members * livesPerMemberYear;
  const archiveYears = ARCHIVE_AFTER_DAYS / 365;
  if (lives * lifeBytes * archiveYears >= D1.maxDatabaseBytes) return D1.maxDatabaseBytes / (lives * lifeBytes);
  return (D1.maxDatabaseBytes / lives - (lifeBytes - keptBytes) * archiveYears) / keptBytes;
}

const fmt = (x, digits = 0) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const bytes = (b) => (b >= 1e9 ? `${fmt(b / 1e9, 1)} GB` : b >= 1e6 ? `${fmt(b / 1e6, 1)} MB` : `${fmt(b / 1e3, 1)} kB`);

/** A span of years as a person would say it. */
function within(years) {
  if (years >= 100) return "over 100 years";
  if (years >= 1) return `${fmt(years, 1)} years`;
  if (years * 12 >= 1) return `${fmt(years * 12, 1)} months`;
  return `${fmt(years * 365)} days`;
}

const peak = (perDay, members) => (perDay * members * PEAK_TO_AVERAGE) / 86_400;

function render() {
  const lines = [];
  lines.push(`Measured ${costs.measuredAt.slice(0, 10)} by \`npm run scale\` (the real Worker on workerd's local D1).`, "");
  lines.push(
    "### What each route costs D1",
    "",
    "A GET reads through a D1 session that may start at a read replica (worker/d1-sessions.ts); everything else, and every write, runs on the primary.",
    "",
    "| route | statements | of them, reads a replica may answer | rows read | rows written |",
    "|---|---:|---:|---:|---:|",
  );
  for (const r of costs.routes) lines.push(`| ${r.route} | ${r.statements} | ${r.replicaReads ?? 0} | ${r.rowsRead} | ${r.rowsWritten} |`);
  lines.push(
    "",
    `Growth of D1: one gig's whole life (posted, funded, interest, claimed, worked, approved, paid, reviewed) adds ${fmt(g.bytesPerGigLife)} bytes, and keeps ${fmt(keptBytes)} once archived (the archive takes its events, interest messages and notifications to R2: decision 033). One chat message adds ${fmt(g.bytesPerChatMessage)} bytes to D1 (its notification; archived with the gig) and ${fmt(g.roomBytesPerChatMessage)} bytes to its gig's room (the room's own SQLite: decision 031). Averaged over ${g.gigLives} lives and ${g.chatMessages} messages.`,
    "",
  );

  lines.push("### One active member's day", "");
  lines.push(
    `${DAY.visits} visits of ${DAY.browsePages} browse pages (half as a visitor, ${fmt(DAY.edgeCacheHitRatio * 100)}% of those from the edge cache), ${DAY.gigPages} gig pages, a profile, their account, their notifications and gigs; a sign-in every ${fmt(1 / DAY.signInsPerDay)} days; notifications pushed to their open tab; ${DAY.gigLives} gig lives (1 in ${fmt(1 / DAY.gigLives)} members completes one a day) with ${DAY.chatMessagesPerGig} chat messages each. Peak hour: ${PEAK_TO_AVERAGE}× the day's average.`,
    "",
    "| D1 statements per member per day | on the primary | reads a replica may answer |",
    "|---|---:|---:|",
  );
  for (const k of ["reading", "signIn", "gigs", "chat", "bell", "total"]) {
    const label = { reading: "reading pages", signIn: "signing in", gigs: "gigs' transitions", chat: "chat", bell: "the bell (pushed)", total: "**total**" }[k];
    lines.push(`| ${label} | ${fmt(onPrimary[k], 1)} | ${fmt(onReplica[k], 1)} |`);
  }
  lines.push("", `Storage in D1: ${bytes(DAY.gigLives * lifeBytes)} per active member per day, ${bytes(DAY.gigLives * keptBytes)} of it for good.`, "");

  lines.push(`### Against D1's limits (10 GB, one writer at about 1,000 queries/s; reads spread over ${REPLICA_REGIONS} replicas; archive after ${ARCHIVE_AFTER_DAYS} days)`, "");
  lines.push(
    "| active members | peak queries/s on the primary | share of its rate | peak reads/s per replica | D1 after 1 year | after 3 years | 10 GB reached in |",
    "|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const m of MEMBERS) {
    const primary = peak(onPrimary.total, m);
    lines.push(
      `| ${fmt(m)} | ${fmt(primary, primary < 10 ? 1 : 0)} | ${fmt((primary / D1.queriesPerSecond) * 100, 1)}% | ${fmt(peak(onReplica.total, m) / REPLICA_REGIONS)} | ${bytes(d1Bytes(m, 1))} | ${bytes(d1Bytes(m, 3))} | ${within(yearsTo10Gb(m))} |`,
    );
  }
  const roughly = (n) => fmt(Number(n.toPrecision(2)));
  const ceiling = (D1.queriesPerSecond * 86_400) / (onPrimary.total * PEAK_TO_AVERAGE);
  lines.push("", `The primary's rate carries about ${roughly(ceiling)} active members.`, "");

  // The goals, each met or not, and what meeting it would take.
  const share = peak(onPrimary.total, 1_000_000) / D1.queriesPerSecond;
  const years = yearsTo10Gb(100_000);
  const keptNeeded = (D1.maxDatabaseBytes / (100_000 * livesPerMemberYear) - (lifeBytes - 0) * Math.min(GOALS.yearsTo10GbAt100k, ARCHIVE_AFTER_DAYS / 365)) / (GOALS.yearsTo10GbAt100k - Math.min(GOALS.yearsTo10GbAt100k, ARCHIVE_AFTER_DAYS / 365));
  lines.push("### The goals", "");
  lines.push(
    `- **1,000,000 active members' busy hour within ${fmt(GOALS.busyHourShareAt1M * 100)}% of one database's rate:** ${fmt(share * 100, 1)}% of the primary's — ${share <= GOALS.busyHourShareAt1M ? "met" : `missed; it needs at most ${fmt((GOALS.busyHourShareAt1M / share) * onPrimary.total, 1)} statements on the primary per member per day`}.`,
    `- **10 GB not reached within ${GOALS.yearsTo10GbAt100k} years at 100,000 active members:** reached in ${within(years)} — ${years >= GOALS.yearsTo10GbAt100k ? "met" : `missed; with a whole life in D1 for its first ${ARCHIVE_AFTER_DAYS} days, a life could keep at most ${keptNeeded > 0 ? `${fmt(keptNeeded)} bytes for good` : "nothing (the whole lives of those days alone fill it)"}, against ${fmt(keptBytes)}. Were a life to keep nothing in this database, ${bytes(lifeBytes)} a life would have to leave it within ${fmt(Math.floor((D1.maxDatabaseBytes / (100_000 * livesPerMemberYear * lifeBytes)) * 365))} days of its end`}.`,
  );
  return lines.join("\n");
}

const table = render();
const START = "<!-- scale-model:start (bench/scale-model.mjs writes this part) -->";
const END = "<!-- scale-model:end -->";
const doc = readFileSync(docFile, "utf8");
const from = doc.indexOf(START);
const to = doc.indexOf(END);
if (from < 0 || to < from) throw new Error(`${docFile} lacks the scale model's markers`);
writeFileSync(docFile, `${doc.slice(0, from + START.length)}\n${table}\n${doc.slice(to)}`);
console.log(table);
console.log(`\nwritten into ${docFile}`);
