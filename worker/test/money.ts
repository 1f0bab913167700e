// Money assertions shared by the escrow tests: the ledger's invariants and the dev wallet's books.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { checkLedger } from "../services/ledger";
import { makeDeps } from "../composition";
import { openDb } from "../db/client";
import { statement } from "../db/test-statements";

export async function expectLedgerBalanced() {
  const check = await checkLedger(openDb(env.DB));
  expect(check.problems).toEqual([]);
  return check;
}

/** Sats that `name@wallet.test` has received from the platform's payouts. */
export async function receivedBy(address: string): Promise<number> {
  const deps = makeDeps(env, () => {});
  return deps.devWallet!.receivedBy(address.split("@")[0]!);
}

export async function escrowBalance(gigId: string): Promise<number> {
  const row = await statement("SELECT COALESCE(SUM(amount), 0) AS b FROM ledger_entries WHERE account = ?", `escrow:${gigId}`).first<{ b: number }>();
  return row?.b ?? 0;
}

export async function payoutsOf(gigId: string) {
  const rows = await statement("SELECT * FROM payouts WHERE gig_id = ? ORDER BY created_at", gigId).all<Record<string, any>>();
  return rows.results;
}
