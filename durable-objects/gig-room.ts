// GigRoom: one per gig. Watches the gig's open funding invoice with alarms (and, with the chat
// work, holds the gig's chat sockets). Alarms re-arm only while an invoice is still pending.
import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { Env } from "../worker/env";
import { makeDeps } from "../worker/composition";
import { gigs, invoices } from "../worker/db/schema";
import { checkInvoice, expireInvoice } from "../worker/services/escrow";

/** Poll quickly at first (a payer is usually at the screen), then back off. */
export function nextCheckDelayMs(watchingSinceMs: number, nowMs: number): number {
  const elapsed = nowMs - watchingSinceMs;
  if (elapsed < 2 * 60_000) return 2_000;
  if (elapsed < 10 * 60_000) return 10_000;
  return 60_000;
}

export class GigRoom extends DurableObject<Env> {
  /** Starts (or keeps) watching the gig's funding invoice. */
  async watchFunding(gigId: string): Promise<void> {
    await this.ctx.storage.put("gigId", gigId);
    await this.ctx.storage.put("watchingSince", Date.now());
    const current = await this.ctx.storage.getAlarm();
    if (current === null) await this.ctx.storage.setAlarm(Date.now() + 2_000);
  }

  async alarm(): Promise<void> {
    const gigId = await this.ctx.storage.get<string>("gigId");
    if (!gigId) return;
    const pending: Promise<unknown>[] = [];
    const deps = makeDeps(this.env, (work) => pending.push(work()));
    const gig = await deps.db.query.gigs.findFirst({ where: eq(gigs.id, gigId) });
    const invoiceId = gig?.status === "pending_payment" ? gig.fundingInvoiceId : null;
    const invoice = invoiceId ? await deps.db.query.invoices.findFirst({ where: eq(invoices.id, invoiceId) }) : undefined;
    if (!invoice || invoice.status !== "pending") return; // nothing to watch: do not re-arm

    let state: "pending" | "paid" | "expired";
    try {
      state = await checkInvoice(deps, invoice);
      if (state === "expired") await expireInvoice(deps, invoice);
    } catch (err) {
      console.error("invoice check failed; will try again", err);
      state = "pending";
    }
    await Promise.allSettled(pending);
    if (state === "pending") {
      const since = (await this.ctx.storage.get<number>("watchingSince")) ?? Date.now();
      await this.ctx.storage.setAlarm(Date.now() + nextCheckDelayMs(since, Date.now()));
    }
  }
}
