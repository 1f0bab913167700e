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

// ---- The model --------------------------------------------------------------------------------------------

const costs = measured(costsFile);
const route = (prefix) => {
  const r = costs.routes.find((x) => x.route.startsWith(prefix));
  if (!r) throw new Error(`no measured cost for "${prefix}"`);
  return r;
};
const GIG_LIFE = ["post a job", "fund it", "send interest", "approve interest", "enable claiming", "claim", "start work", "submit work", "approve and pay out", "review"];

/** Statements a member's day sends to D1, by what sends them. */
function dailyStatements({ push }) {
  const s = (prefix) => route(prefix).statements;
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
  const polls = (DAY.hoursOnline * 3600) / DAY.pollSeconds;
  const bell = push
    ? // One count as each visit's socket opens, and each notification pushed reads the count again.
      DAY.visits * s("bell poll") + DAY.gigLives * (GIG_LIFE.length + DAY.chatMessagesPerGig) * s("its notification pushed")
    : polls * s("bell poll");
  return { reading, signIn, gigs, chat, bell, total: reading + signIn + gigs + chat + bell };
}

const bytesPerMemberDay = DAY.gigLives * (costs.growth.bytesPerGigLife + DAY.chatMessagesPerGig * costs.growth.bytesPerChatMessage);

const fmt = (x, digits = 0) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const bytes = (b) => (b >= 1e9 ? `${fmt(b / 1e9, 1)} GB` : b >= 1e6 ? `${fmt(b / 1e6, 1)} MB` : `${fmt(b / 1e3, 1)} kB`);

/** A span of years as a person would say it. */
function within(years) {
  if (years >= 100) return "over 100 years";
  if (years >= 1) return `${fmt(years, 1)} years`;
  if (years * 12 >= 1) return `${fmt(years * 12, 1)} months`;
  return `${fmt(years * 365)} days`;
}

function render() {
  const lines = [];
  lines.push(`Measured ${costs.measuredAt.slice(0, 10)} by \`npm run scale\` (the real Worker on workerd's local D1).`, "");
  lines.push("### What each route costs D1", "", "| route | statements | rows read | rows written |", "|---|---:|---:|---:|");
  for (const r of costs.routes) lines.push(`| ${r.route} | ${r.statements} | ${r.rowsRead} | ${r.rowsWritten} |`);
  lines.push("", `Growth: one gig's whole life (posted, funded, interest, claimed, worked, approved, paid, reviewed) adds ${fmt(costs.growth.bytesPerGigLife)} bytes; one chat message (with its notification) ${fmt(costs.growth.bytesPerChatMessage)} bytes (averaged over ${costs.growth.gigLives} lives and ${costs.growth.chatMessages} messages).`, "");

  const poll = dailyStatements({ push: false });
  const push = dailyStatements({ push: true });
  lines.push("### One active member's day", "");
  lines.push(
    `${DAY.visits} visits of ${DAY.browsePages} browse pages (half as a visitor, ${fmt(DAY.edgeCacheHitRatio * 100)}% of those from the edge cache), ${DAY.gigPages} gig pages, a profile, their account, their notifications and gigs; a sign-in every ${fmt(1 / DAY.signInsPerDay)} days; ${DAY.hoursOnline} h with a tab open; ${DAY.gigLives} gig lives (1 in ${fmt(1 / DAY.gigLives)} members completes one a day) with ${DAY.chatMessagesPerGig} chat messages each. Peak hour: ${PEAK_TO_AVERAGE}× the day's average.`,
    "",
    "| D1 statements per member per day | with the 30 s poll | with pushed notifications |",
    "|---|---:|---:|",
  );
  for (const k of ["reading", "signIn", "gigs", "chat", "bell", "total"]) {
    const label = { reading: "reading pages", signIn: "signing in", gigs: "gigs' transitions", chat: "chat", bell: "the bell", total: "**total**" }[k];
    lines.push(`| ${label} | ${fmt(poll[k], 1)} | ${fmt(push[k], 1)} |`);
  }
  lines.push("", `Storage: ${bytes(bytesPerMemberDay)} per active member per day.`, "");

  lines.push("### Against D1's limits (10 GB, one writer at about 1,000 queries/s)", "");
  lines.push("| active members | peak queries/s, polling | peak queries/s, pushed | share of D1's rate (pushed) | growth per year | 10 GB reached in |", "|---:|---:|---:|---:|---:|---:|");
  for (const m of MEMBERS) {
    const peak = (perDay) => (perDay * m * PEAK_TO_AVERAGE) / 86_400;
    const perYear = bytesPerMemberDay * m * 365;
    const years = D1.maxDatabaseBytes / perYear;
    lines.push(
      `| ${fmt(m)} | ${fmt(peak(poll.total))} | ${fmt(peak(push.total))} | ${fmt((peak(push.total) / D1.queriesPerSecond) * 100, 1)}% | ${bytes(perYear)} | ${within(years)} |`,
    );
  }
  const ceiling = (D1.queriesPerSecond * 86_400) / (push.total * PEAK_TO_AVERAGE);
  const roughly = (n) => fmt(Number(n.toPrecision(2)));
  lines.push("", `One database's rate carries about ${roughly(ceiling)} active members with pushed notifications (${roughly((D1.queriesPerSecond * 86_400) / (poll.total * PEAK_TO_AVERAGE))} with the poll).`);
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
