// The dev wallet's books in D1 (LIGHTNING_BACKEND=dev). Its two writes are compare-and-set.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { devLightningInvoices, devLightningPayments } from "../db/schema";
import type { DevInvoiceRecord, DevPaymentRecord, DevWalletStore } from "./dev-backend";

export class D1DevWalletStore implements DevWalletStore {
  constructor(private readonly db: Db) {}

  async insertInvoice(invoice: DevInvoiceRecord): Promise<void> {
    await this.db
      .insert(devLightningInvoices)
      .values({ paymentHash: invoice.paymentHash, recipient: invoice.recipient, status: invoice.status, record: JSON.stringify(invoice) });
  }

  async getInvoice(paymentHash: string): Promise<DevInvoiceRecord | null> {
    const row = await this.db.select({ record: devLightningInvoices.record }).from(devLightningInvoices).where(eq(devLightningInvoices.paymentHash, paymentHash)).get();
    return row ? (JSON.parse(row.record) as DevInvoiceRecord) : null;
  }

  async markInvoicePaid(paymentHash: string, paidAt: string): Promise<boolean> {
    const result = await this.db
      .update(devLightningInvoices)
      .set({ status: "paid", record: sql`json_set(${devLightningInvoices.record}, '$.status', 'paid', '$.paidAt', ${paidAt})` })
      .where(and(eq(devLightningInvoices.paymentHash, paymentHash), eq(devLightningInvoices.status, "pending")))
      .run();
    return result.meta.changes === 1;
  }

  async insertPayment(payment: DevPaymentRecord): Promise<boolean> {
    const result = await this.db
      .insert(devLightningPayments)
      .values({ paymentHash: payment.paymentHash, record: JSON.stringify(payment) })
      .onConflictDoNothing({ target: devLightningPayments.paymentHash })
      .run();
    return result.meta.changes === 1;
  }

  async getPayment(paymentHash: string): Promise<DevPaymentRecord | null> {
    const row = await this.db.select({ record: devLightningPayments.record }).from(devLightningPayments).where(eq(devLightningPayments.paymentHash, paymentHash)).get();
    return row ? (JSON.parse(row.record) as DevPaymentRecord) : null;
  }

  async listPaidInvoicesFor(recipient: string): Promise<DevInvoiceRecord[]> {
    const rows = await this.db
      .select({ record: devLightningInvoices.record })
      .from(devLightningInvoices)
      .where(and(eq(devLightningInvoices.recipient, recipient), eq(devLightningInvoices.status, "paid")));
    return rows.map((r) => JSON.parse(r.record) as DevInvoiceRecord);
  }
}
