// The ledger: every movement of sats is one double-entry transaction in `ledger_entries`.
//
// Convention. Each transaction is a set of rows (account, signed amount) that sums to zero.
// Accounts:
//   wallet             the outside world's side of the platform's Lightning wallet: its balance is
//                      MINUS what the wallet holds (money coming in is -amount here).
//   escrow:<gigId>     what the platform holds for a gig without a milestone plan (its implicit milestone).
//   escrow:<gigId>:<n> what the platform holds for milestone n of a gig with a plan (domain/milestones.ts).
//   fees               what the platform has earned (and spent on routing fees).
//   payable:<payoutId> what the platform owes one payout's recipient until it is paid.
// Invariants (checkLedger): every transaction sums to zero; no account but `wallet` is negative;
// a terminal gig's escrow accounts are 0; a milestone's account holds its total charge while funded and 0
// otherwise; -wallet = Σ escrow + fees + payables.
//
// Money flows:
//   funding paid     wallet -T            escrow +T            (T = payment + fee)
//   release          escrow -T            fees +2·fee, payable(worker) +(payment - fee)
//   refund           escrow -T            payable(hirer) +T
//   late payment     wallet -T            payable(payer) +T    (paid to a gig no longer waiting)
//   payout paid      payable -amount      wallet +amount;      routing fee: fees -f, wallet +f
import type { AtomicChange, Guard } from "../db/atomic";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { gigMilestones, gigs, ledgerEntries } from "../db/schema";
import type { LedgerCheck } from "../../domain/admin-views";
import { BPS_DENOMINATOR, PLATFORM_FEE_BPS } from "../../domain/fees";

export type { LedgerCheck };

export type Posting = readonly [account: string, amount: number];

export const escrowAccount = (gigId: string) => `escrow:${gigId}`;

/**
 * domain/fees.ts totalCharge in SQL, over an integer column of sats (`amount + ceil(amount × 2.5 %)`), for the
 * queries that sum what escrow holds: the one fee rule, not its numbers written again.
 */
export const totalChargeSql = (amount: string) =>
  sql.raw(`(${amount} + (${amount} * ${PLATFORM_FEE_BPS} + ${BPS_DENOMINATOR - 1}) / ${BPS_DENOMINATOR})`);
export const payableAccount = (payoutId: string) => `payable:${payoutId}`;
export const WALLET = "wallet";
export const FEES = "fees";

/** Adds one balanced transaction to an atomic change. Throws (a programming error) when it does not balance. */
export function postTransaction(change: AtomicChange, memo: string, postings: readonly Posting[], when: Guard): string {
  const sum = postings.reduce((s, [, amount]) => s + amount, 0);
  if (sum !== 0) throw new Error(`unbalanced ledger transaction "${memo}": sums to ${sum}`);
  const txId = crypto.randomUUID();
  for (const [account, amount] of postings) {
    if (amount === 0) continue;
    change.insert(ledgerEntries, { txId, account, amount, memo, createdAt: change.at }, when);
  }
  return txId;
}

export async function balanceOf(db: Db, account: string): Promise<number> {
  const row = await db.get<{ balance: number }>(sql`SELECT COALESCE(SUM(amount), 0) AS balance FROM ${ledgerEntries} WHERE account = ${account}`);
  return row?.balance ?? 0;
}

/** Checks every invariant of the convention above over the whole ledger. */
export async function checkLedger(db: Db): Promise<LedgerCheck> {
  const problems: string[] = [];
  const unbalanced = await db.all<{ tx_id: string; total: number }>(
    sql`SELECT tx_id, SUM(amount) AS total FROM ${ledgerEntries} GROUP BY tx_id HAVING SUM(amount) <> 0 LIMIT 20`,
  );
  for (const r of unbalanced) problems.push(`transaction ${r.tx_id} sums to ${r.total}`);

  const negative = await db.all<{ account: string; balance: number }>(
    sql`SELECT account, SUM(amount) AS balance FROM ${ledgerEntries} WHERE account <> 'wallet' GROUP BY account HAVING SUM(amount) < 0 LIMIT 20`,
  );
  for (const r of negative) problems.push(`account ${r.account} is negative (${r.balance})`);

  // Every escrow account by its gig: `escrow:<gig>` or `escrow:<gig>:<n>` (gig ids hold no colon).
  const stuckEscrow = await db.all<{ id: string; balance: number }>(
    sql`WITH escrows AS (
         SELECT CASE WHEN instr(substr(account, 8), ':') > 0 THEN substr(account, 8, instr(substr(account, 8), ':') - 1) ELSE substr(account, 8) END AS gig_id,
                SUM(amount) AS balance
         FROM ${ledgerEntries} WHERE account LIKE 'escrow:%' GROUP BY gig_id)
       SELECT g.id, e.balance FROM escrows e JOIN ${gigs} g ON g.id = e.gig_id
       WHERE g.status IN ('completed', 'cancelled') AND e.balance <> 0 LIMIT 20`,
  );
  for (const r of stuckEscrow) problems.push(`terminal gig ${r.id} still holds ${r.balance} sats in escrow`);

  // A milestone's escrow holds exactly its total charge (amount + ceil(2.5 %)) while funded, nothing otherwise.
  const wrongMilestones = await db.all<{ gig_id: string; number: number; escrow: string; balance: number; expected: number }>(
    sql`SELECT m.gig_id, m.number, m.escrow, COALESCE((SELECT SUM(l.amount) FROM ${ledgerEntries} l WHERE l.account = m.escrow_account), 0) AS balance,
              CASE WHEN m.escrow = 'funded' THEN ${totalChargeSql("m.amount")} ELSE 0 END AS expected
       FROM ${gigMilestones} m
       WHERE COALESCE((SELECT SUM(l.amount) FROM ${ledgerEntries} l WHERE l.account = m.escrow_account), 0)
             <> CASE WHEN m.escrow = 'funded' THEN ${totalChargeSql("m.amount")} ELSE 0 END
       LIMIT 20`,
  );
  for (const r of wrongMilestones) problems.push(`milestone ${r.number} of gig ${r.gig_id} is ${r.escrow} but its escrow holds ${r.balance} sats (expected ${r.expected})`);

  const totals = await db.get<{ wallet: number; escrow: number; fees: number; payables: number }>(
    sql`SELECT
         COALESCE(SUM(CASE WHEN account = 'wallet' THEN amount END), 0) AS wallet,
         COALESCE(SUM(CASE WHEN account LIKE 'escrow:%' THEN amount END), 0) AS escrow,
         COALESCE(SUM(CASE WHEN account = 'fees' THEN amount END), 0) AS fees,
         COALESCE(SUM(CASE WHEN account LIKE 'payable:%' THEN amount END), 0) AS payables
       FROM ${ledgerEntries}`,
  );
  const t = totals ?? { wallet: 0, escrow: 0, fees: 0, payables: 0 };
  if (-t.wallet !== t.escrow + t.fees + t.payables) {
    problems.push(`wallet holds ${-t.wallet} but escrow + fees + payables is ${t.escrow + t.fees + t.payables}`);
  }
  return { ok: problems.length === 0, problems, wallet: -t.wallet, escrow: t.escrow, fees: t.fees, payables: t.payables };
}
