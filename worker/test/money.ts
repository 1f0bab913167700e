// Money assertions shared by the escrow tests: the ledger's invariants and the dev wallet's books.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { checkLedger } from "../services/ledger";
import { makeDeps } from "../composition";

export async function expectLedgerBalanced() {
  const check = await checkLedger(env.DB);
  expect(check.problems).toEqual([]);
  return check;
}

/** Sats that `name@wallet.test` has received from the platform's payouts. */
export async function receivedBy(address: string): Promise<number> {
  const deps = makeDeps(env, () => {});
  return deps.devWallet!.receivedBy(address.split("@")[0]!);
}

export async function escrowBalance(gigId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COALESCE(SUM(amount), 0) AS b FROM ledger_entries WHERE account = ?").bind(`escrow:${gigId}`).first<{ b: number }>();
  return row?.b ?? 0;
}

export async function payoutsOf(gigId: string) {
  const rows = await env.DB.prepare("SELECT * FROM payouts WHERE gig_id = ? ORDER BY created_at").bind(gigId).all<Record<string, any>>();
  return rows.results;
}
