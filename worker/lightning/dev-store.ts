// The dev wallet's books in D1 (LIGHTNING_BACKEND=dev). Its two writes are compare-and-set.
import type { DevInvoiceRecord, DevPaymentRecord, DevWalletStore } from "./dev-backend";

export class D1DevWalletStore implements DevWalletStore {
  constructor(private readonly d1: D1Database) {}

  async insertInvoice(invoice: DevInvoiceRecord): Promise<void> {
    await this.d1
      .prepare("INSERT INTO dev_lightning_invoices (payment_hash, recipient, status, record) VALUES (?, ?, ?, ?)")
      .bind(invoice.paymentHash, invoice.recipient, invoice.status, JSON.stringify(invoice))
      .run();
  }

  async getInvoice(paymentHash: string): Promise<DevInvoiceRecord | null> {
    const row = await this.d1.prepare("SELECT record FROM dev_lightning_invoices WHERE payment_hash = ?").bind(paymentHash).first<{ record: string }>();
    return row ? (JSON.parse(row.record) as DevInvoiceRecord) : null;
  }

  async markInvoicePaid(paymentHash: string, paidAt: string): Promise<boolean> {
    const result = await this.d1
      .prepare(
        `UPDATE dev_lightning_invoices SET status = 'paid', record = json_set(record, '$.status', 'paid', '$.paidAt', ?)
         WHERE payment_hash = ? AND status = 'pending'`,
      )
      .bind(paidAt, paymentHash)
      .run();
    return result.meta.changes === 1;
  }

  async insertPayment(payment: DevPaymentRecord): Promise<boolean> {
    const result = await this.d1
      .prepare("INSERT INTO dev_lightning_payments (payment_hash, record) VALUES (?, ?) ON CONFLICT (payment_hash) DO NOTHING")
      .bind(payment.paymentHash, JSON.stringify(payment))
      .run();
    return result.meta.changes === 1;
  }

  async getPayment(paymentHash: string): Promise<DevPaymentRecord | null> {
    const row = await this.d1.prepare("SELECT record FROM dev_lightning_payments WHERE payment_hash = ?").bind(paymentHash).first<{ record: string }>();
    return row ? (JSON.parse(row.record) as DevPaymentRecord) : null;
  }

  async listPaidInvoicesFor(recipient: string): Promise<DevInvoiceRecord[]> {
    const rows = await this.d1
      .prepare("SELECT record FROM dev_lightning_invoices WHERE recipient = ? AND status = 'paid'")
      .bind(recipient)
      .all<{ record: string }>();
    return rows.results.map((r) => JSON.parse(r.record) as DevInvoiceRecord);
  }
}
