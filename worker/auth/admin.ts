// The administrator's sign-in (DESIGN.md §6): a 6-digit PIN compared in constant time against the
// ADMIN_PIN secret, a lockout counted in D1, a second factor (the member session of one of the
// ADMIN_PUBKEYS: required on a deployed Worker, optional on a local run), and admin tokens of 32
// random bytes of which only the SHA-256 is kept, 12 hours.
//
// Lockout. Every counted try first inserts a row into admin_login_failures, but only while its
// bucket is not blocked; that conditional insert is one SQL statement, so concurrent guesses cannot
// slip past the limit. A correct PIN deletes the row again. A bucket is blocked for 15 minutes after
// the failure that made 5 failures within 15 minutes. A try without the second factor (when one is
// asked for) is refused before the PIN is looked at and never counts.
// - Local run: one bucket per client address, and 20 for all clients together.
// - Deployed: one bucket per admin key. Only an admin key's session reaches the PIN, so strangers
//   cannot fill any bucket and lock the admin out of settling disputes; the "20 in all" bucket is
//   not used there, since it would only let one admin key's failures lock out the others (and the
//   keys are few: at most 5 guesses per key per 15 minutes in all).
//
// Admin tokens end with their key (decision 023). An admin token remembers the ADMIN_PUBKEYS key whose
// member session opened it. It holds only while that key is still in ADMIN_PUBKEYS (checked on every
// admin request, so removing a key ends its tokens at once), and "Sign out everywhere" by that member
// ends them too (worker/services/auth.ts). A PIN-only token (no key) holds only on a local run without
// ADMIN_PUBKEYS.
import { and, eq, gt, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import * as nip19 from "nostr-tools/nip19";
import type { AppContext } from "../context";
import type { Db, UserRow } from "../db/client";
import { adminLoginFailures, adminSessions, users } from "../db/schema";
import { isLocalRun } from "../deployment";
import type { Env } from "../env";
import { AppError, forbidden, tooManyRequests, unauthorized } from "../errors";
import { randomHex, sha256Hex, timingSafeEqual } from "./tokens";
import type { Deps } from "../services/deps";
import { dbOf } from "../d1-sessions";

export const ADMIN_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
export const LOCKOUT_WINDOW_MINUTES = 15;
export const FAILURES_PER_CLIENT = 5;
export const FAILURES_IN_ALL = 20;
export const BLOCKED_MESSAGE = `Too many incorrect PINs: admin sign-in is blocked for ${LOCKOUT_WINDOW_MINUTES} minutes.`;
export const INCORRECT_PIN = "Incorrect PIN";

const WINDOW_MS = LOCKOUT_WINDOW_MINUTES * 60 * 1000;
const PIN_PATTERN = /^\d{6}$/;

/** Who is trying: Cloudflare's client address, else one shared bucket. */
export function adminClientOf(connectingIp: string | undefined): string {
  const ip = connectingIp?.trim();
  return ip ? ip.slice(0, 100) : "unknown";
}

/** The configured admin keys as hex public keys; null when ADMIN_PUBKEYS is unset or empty. Throws when an entry is not a key. */
export function adminPubkeys(env: Pick<Env, "ADMIN_PUBKEYS">): Set<string> | null {
  const entries = (env.ADMIN_PUBKEYS ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const keys = new Set<string>();
  for (const entry of entries) {
    if (/^[0-9a-f]{64}$/i.test(entry)) {
      keys.add(entry.toLowerCase());
      continue;
    }
    try {
      const decoded = nip19.decode(entry);
      if (decoded.type === "npub") {
        keys.add(decoded.data.toLowerCase());
        continue;
      }
    } catch {
      /* reported below */
    }
    throw new AppError(503, "admin_misconfigured", "Admin sign-in is misconfigured: ADMIN_PUBKEYS holds an entry that is not an npub or a hex public key.");
  }
  return keys;
}

function configuredPin(env: Pick<Env, "ADMIN_PIN">): string {
  const pin = env.ADMIN_PIN?.trim();
  if (!pin) throw new AppError(503, "admin_disabled", "Admin sign-in is not configured on this server (ADMIN_PIN is not set).");
  if (!PIN_PATTERN.test(pin)) throw new AppError(503, "admin_misconfigured", "Admin sign-in is misconfigured: ADMIN_PIN must be 6 digits.");
  return pin;
}

const minus = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();

/** Holds when the failures chosen by `scope` (a condition on the alias it is given) are blocked at `at`. */
function blocked(scope: (alias: SQL) => SQL, windowStart: string, at: string, limit: number): SQL {
  const f = sql.raw("f");
  const g = sql.raw("g");
  return sql`EXISTS (
    SELECT 1 FROM ${adminLoginFailures} ${f}
    WHERE ${scope(f)} AND ${f}.created_at > ${windowStart} AND ${f}.created_at <= ${at}
      AND (SELECT COUNT(*) FROM ${adminLoginFailures} ${g}
           WHERE ${scope(g)}
             AND ${g}.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', ${f}.created_at, ${`-${LOCKOUT_WINDOW_MINUTES} minutes`})
             AND ${g}.created_at <= ${f}.created_at) >= ${limit})`;
}

/** Whose failures a try counts against (the `client` column); `andEverybody` adds the all-clients bucket. */
interface LockoutBucket {
  client: string;
  andEverybody: boolean;
}

/**
 * Records a try unless its bucket is blocked; answers the row's id, or null when blocked.
 * One statement: the check and the insert cannot be separated by a concurrent try.
 */
async function recordTry(db: Db, bucket: LockoutBucket, now: Date): Promise<number | null> {
  const at = now.toISOString();
  const windowStart = minus(now, WINDOW_MS);
  const mine = blocked((t) => sql`${t}.client = ${bucket.client}`, windowStart, at, FAILURES_PER_CLIENT);
  const everybody = bucket.andEverybody ? sql`AND NOT ${blocked(() => sql`1 = 1`, windowStart, at, FAILURES_IN_ALL)}` : sql``;
  const row = await db.get<{ id: number } | undefined>(
    sql`INSERT INTO ${adminLoginFailures} (client, created_at) SELECT ${bucket.client}, ${at} WHERE NOT ${mine} ${everybody} RETURNING id`,
  );
  return row?.id ?? null;
}

export const ADMIN_KEYS_REQUIRED =
  "Admin sign-in is switched off: ADMIN_PUBKEYS must be set on a deployed Gigstr (the administrators' Nostr keys, npub or hex; the PIN alone is not enough).";
export const ADMIN_KEY_SESSION_REQUIRED = "Admin sign-in also needs you to be signed in with an administrator's Nostr key.";

export interface AdminSignIn {
  pin: string;
  client: string;
  /** The member session the request carries (the second factor when ADMIN_PUBKEYS is set). */
  member: UserRow | null;
}

/** Checks the second factor and the PIN, then issues an admin token. */
export async function signInAdmin({ db }: Pick<Deps, "db">, env: Env, attempt: AdminSignIn, now = new Date()): Promise<{ adminToken: string; expiresAt: string }> {
  const pin = configuredPin(env);
  const keys = adminPubkeys(env);
  const deployed = !isLocalRun(env);
  if (deployed && !keys) throw new AppError(503, "admin_keys_required", ADMIN_KEYS_REQUIRED);

  const memberKey = attempt.member?.nostrPubkey?.toLowerCase();
  const adminKey = keys && memberKey && keys.has(memberKey) ? memberKey : null;
  // Not a guess at the PIN: refused before any lockout is looked at or counted.
  if (keys && !adminKey) throw forbidden(ADMIN_KEY_SESSION_REQUIRED, "admin_key_required");
  const bucket: LockoutBucket = deployed ? { client: `admin-key:${adminKey}`, andEverybody: false } : { client: attempt.client, andEverybody: true };

  // Old rows are of no use to the lockout any more.
  await db.delete(adminLoginFailures).where(lt(adminLoginFailures.createdAt, minus(now, 2 * WINDOW_MS)));
  const tryId = await recordTry(db, bucket, now);
  if (tryId === null) throw tooManyRequests(BLOCKED_MESSAGE, "admin_blocked");
  if (!timingSafeEqual(attempt.pin, pin)) throw unauthorized(INCORRECT_PIN, "incorrect_pin");

  const adminToken = randomHex(32);
  const expiresAt = new Date(now.getTime() + ADMIN_TOKEN_TTL_MS).toISOString();
  await db.batch([
    db.delete(adminLoginFailures).where(or(eq(adminLoginFailures.id, tryId), eq(adminLoginFailures.client, bucket.client))),
    db.delete(adminSessions).where(lte(adminSessions.expiresAt, now.toISOString())),
    db.insert(adminSessions).values({ tokenHash: await sha256Hex(adminToken), expiresAt, createdAt: now.toISOString(), pubkey: adminKey }),
  ]);
  return { adminToken, expiresAt };
}

/**
 * Whether an admin token opened by `pubkey` (null: the PIN alone) still holds under these settings: its
 * key is still in ADMIN_PUBKEYS, or, for a PIN-only token, this is a local run without ADMIN_PUBKEYS.
 * A broken ADMIN_PUBKEYS holds nobody (as admin sign-in refuses everybody).
 */
export function adminKeyHolds(pubkey: string | null, env: Pick<Env, "ADMIN_PUBKEYS" | "LOCAL_DEV">): boolean {
  let keys: Set<string> | null;
  try {
    keys = adminPubkeys(env);
  } catch {
    return false;
  }
  if (pubkey !== null) return keys?.has(pubkey.toLowerCase()) ?? false;
  return keys === null && isLocalRun(env);
}

/**
 * Whether a token is a live admin session. Other services (the chat room) use this too. With `env`, the
 * token must also hold under its ADMIN_PUBKEYS (`adminKeyHolds`); one whose key was removed is ended here.
 */
export async function isAdminToken(db: Db, token: string, now = new Date(), env?: Pick<Env, "ADMIN_PUBKEYS" | "LOCAL_DEV">): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const tokenHash = await sha256Hex(token);
  const row = await db
    .select({ tokenHash: adminSessions.tokenHash, pubkey: adminSessions.pubkey })
    .from(adminSessions)
    .where(and(eq(adminSessions.tokenHash, tokenHash), gt(adminSessions.expiresAt, now.toISOString())))
    .get();
  if (row === undefined) return false;
  if (env === undefined || adminKeyHolds(row.pubkey, env)) return true;
  // Its key left ADMIN_PUBKEYS (or the PIN alone no longer suffices): ended for good, even if the key
  // comes back, and for the checks that do not see the settings (the chat room's).
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, tokenHash));
  return false;
}

/** Ends the admin tokens a member's key opened ("Sign out everywhere"); one statement for a batch. */
export function endAdminTokensOfMember(db: Db, userId: string) {
  return db
    .delete(adminSessions)
    .where(inArray(adminSessions.pubkey, db.select({ pubkey: users.nostrPubkey }).from(users).where(eq(users.id, userId))));
}

export async function signOutAdmin({ db }: Pick<Deps, "db">, token: string): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, await sha256Hex(token)));
}

/** The resolver `identify(...)` uses to set `c.var.isAdmin` (after it opened the request's database). */
export const resolveAdminToken = (c: AppContext, token: string) => isAdminToken(dbOf(c), token, new Date(), c.env);
