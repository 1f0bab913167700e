// The receipt of a completed gig: a PDF for its hirer and worker. A gig with a plan (issue 28) also lists each
// milestone with what the hirer paid for it, what the worker received and what came back to the hirer, and the
// totals; its text wraps to the page and goes on to further pages when the plan is long.
import { eq } from "drizzle-orm";
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { platformFee, totalCharge, workerPayout } from "../../domain/fees";
import { formatSats } from "../../domain/format";
import { milestoneLabel } from "../../domain/milestones";
import type { UserRow } from "../db/client";
import { payouts } from "../db/schema";
import { loadMilestones, milestoneTitle, type MilestoneRow } from "./escrow";
import { gigToAct } from "./gig-transitions";
import { memberViewer, type GigRow } from "./gig-views";
import { findUserById } from "./users";
import type { Deps } from "./deps";

type PayoutFact = { purpose: string; amount: number; milestone: number };

export async function gigReceiptPdf(deps: Deps, me: UserRow, gigId: string): Promise<Uint8Array> {
  const gig = await gigToAct(deps, gigId, "receipt", memberViewer(me));
  const planned = gig.milestoneCount > 1;
  const [hirer, worker, paid, milestones] = await Promise.all([
    findUserByIdOrGone(deps, gig.hirerId!),
    findUserByIdOrGone(deps, gig.workerId!),
    deps.db
      .select({ purpose: payouts.purpose, amount: payouts.amount, milestone: payouts.milestone })
      .from(payouts)
      .where(eq(payouts.gigId, gig.id)),
    planned ? loadMilestones(deps, gig) : Promise.resolve([]),
  ]);

  const pdf = await PDFDocument.create();
  pdf.setTitle(`Gigstr receipt ${gig.id.slice(0, 8)}`);
  const doc = new Writer(pdf, await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold));

  doc.line("Gigstr - Receipt", { size: 22, b: true, gap: 36 });
  doc.line(`Gig: ${ascii(gig.title)}`, { b: true });
  doc.line(`Gig ID: ${gig.id}`);
  doc.line(`Type: ${gig.gigType === "job_request" ? "Hiring Now (job request)" : "For Hire (service offering)"}`);
  doc.line(`Completed: ${gig.completedAt ?? ""}`, { gap: 32 });
  doc.line(`Hirer: ${ascii(hirer)}`);
  doc.line(`Worker: ${ascii(worker)}`, { gap: 32 });
  if (planned) milestoneSections(doc, gig, milestones, paid);
  else amountsSection(doc, gig, paid);
  doc.line("Paid over the Bitcoin Lightning Network. 100,000,000 sats = 1 bitcoin.", { size: 9 });
  doc.numberPages();
  return pdf.save();
}

/** A gig without a plan: its one payment, as the receipt always read. */
function amountsSection(doc: Writer, gig: GigRow, paid: PayoutFact[]) {
  // What actually went out: the worker's payout, and after a dispute split the hirer's share too.
  const toWorker = paid.find((p) => p.purpose === "worker_payout")?.amount ?? workerPayout(gig.payment);
  const toHirer = paid.find((p) => p.purpose === "hirer_refund")?.amount ?? null;
  doc.line("Amounts", { b: true, size: 13 });
  doc.line(`Gig payment: ${formatSats(gig.payment)}`);
  doc.line(`Hirer platform fee (2.5%): ${formatSats(platformFee(gig.payment))}`);
  doc.line(`Total paid by hirer: ${formatSats(totalCharge(gig.payment))}`);
  doc.line(`Worker platform fee (2.5%): ${formatSats(platformFee(gig.payment))}`);
  if (toHirer !== null) doc.line(`Returned to hirer (dispute settled by the admin): ${formatSats(toHirer)}`);
  doc.line(`Paid to worker: ${formatSats(toWorker)}`, { gap: 32 });
}

/** What one milestone came to: paid in by the hirer, out to the worker, back to the hirer, kept as fees. */
interface MilestoneReceiptLine {
  number: number;
  title: string;
  amount: number;
  hirerPaid: number;
  toWorker: number;
  toHirer: number;
  platformFees: number;
  ended: string;
}

/** How a milestone of a completed gig ended, in the receipt's words. */
function endedAs(m: MilestoneRow): string {
  if (m.escrow === "unfunded") return "Not funded: the gig ended before it";
  switch (m.resolution) {
    case "approved":
      return "Approved";
    case "auto_released":
      return "Auto-released";
    case "pay_worker":
      return "Paid by the admin";
    case "split":
      return "Split by the admin";
    case "refund_hirer":
      return "Refunded by the admin";
    case "cancelled":
      return "Refunded in full: the gig ended before it";
    default:
      return m.escrow === "funded" ? "Held in escrow" : "Settled";
  }
}

/**
 * Each milestone's money. The worker's and the hirer's sats are the payouts recorded for that milestone (owed
 * to them from its escrow, whether already arrived or still on their way); the platform keeps both fees of a
 * milestone released or split, nothing of one refunded.
 */
function milestoneReceiptLines(gig: Pick<GigRow, "title">, milestones: readonly MilestoneRow[], paid: readonly PayoutFact[]): MilestoneReceiptLine[] {
  return milestones.map((m) => {
    const payout = (purpose: string) => paid.filter((p) => p.milestone === m.number && p.purpose === purpose).reduce((s, p) => s + p.amount, 0);
    const funded = m.escrow !== "unfunded";
    return {
      number: m.number,
      title: milestoneTitle(gig, m),
      amount: m.amount,
      hirerPaid: funded ? totalCharge(m.amount) : 0,
      toWorker: payout("worker_payout"),
      toHirer: payout("hirer_refund"),
      platformFees: m.escrow === "released" || m.escrow === "split" ? 2 * platformFee(m.amount) : 0,
      ended: endedAs(m),
    };
  });
}

function milestoneSections(doc: Writer, gig: GigRow, milestones: readonly MilestoneRow[], paid: PayoutFact[]) {
  const lines = milestoneReceiptLines(gig, milestones, paid);
  doc.line("Milestones", { b: true, size: 13 });
  for (const l of lines) {
    const block: Para[] = [
      { text: `${milestoneLabel(l.number, lines.length)}: ${ascii(l.title)}`, b: true, gap: 15 },
      { text: `Amount: ${formatSats(l.amount)}. Ended: ${l.ended}.`, size: 10, gap: 14 },
      {
        text: `Hirer paid ${formatSats(l.hirerPaid)}, worker received ${formatSats(l.toWorker)}, returned to hirer ${formatSats(l.toHirer)}.`,
        size: 10,
        gap: 22,
      },
    ];
    doc.block(block);
  }
  const sum = (f: (l: MilestoneReceiptLine) => number) => lines.reduce((s, l) => s + f(l), 0);
  doc.block([
    { text: "Totals", b: true, size: 13, gap: 20 },
    { text: `Gig payment (${lines.length} milestones): ${formatSats(gig.payment)}` },
    { text: `Total paid by hirer: ${formatSats(sum((l) => l.hirerPaid))}` },
    { text: `Paid to worker: ${formatSats(sum((l) => l.toWorker))}` },
    { text: `Returned to hirer: ${formatSats(sum((l) => l.toHirer))}` },
    { text: `Platform fees (2.5% from each side): ${formatSats(sum((l) => l.platformFees))}`, gap: 32 },
  ]);
}

const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "?");

interface Para {
  text: string;
  size?: number;
  b?: boolean;
  /** Space below the paragraph's last line. */
  gap?: number;
}

/** Lines of text down A4 pages: wrapped to the margins, a new page when the next block does not fit. */
class Writer {
  private static readonly SIZE: [number, number] = [595.28, 841.89];
  private static readonly MARGIN = 56;
  private static readonly TOP = 780;
  private readonly pages: PDFPage[] = [];
  private y = Writer.TOP;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.pages.push(pdf.addPage(Writer.SIZE));
  }

  private get width() {
    return Writer.SIZE[0] - 2 * Writer.MARGIN;
  }

  /** The paragraph's lines: broken between words, a word longer than the line broken where it must. */
  private wrap(p: Para): string[] {
    const font = p.b ? this.bold : this.font;
    const size = p.size ?? 11;
    const fits = (s: string) => font.widthOfTextAtSize(s, size) <= this.width;
    const out: string[] = [];
    let current = "";
    for (const word of p.text.split(" ")) {
      const next = current ? `${current} ${word}` : word;
      if (fits(next)) {
        current = next;
        continue;
      }
      if (current) out.push(current);
      current = word;
      while (!fits(current)) {
        let cut = current.length - 1;
        while (cut > 1 && !fits(current.slice(0, cut))) cut--;
        out.push(current.slice(0, cut));
        current = current.slice(cut);
      }
    }
    out.push(current);
    return out;
  }

  private lineHeight(p: Para) {
    return Math.max(13, Math.round((p.size ?? 11) * 1.3));
  }

  private height(p: Para) {
    const n = this.wrap(p).length;
    return (n - 1) * this.lineHeight(p) + (p.gap ?? 20);
  }

  /** Paragraphs kept together on one page (a new page first if they do not fit on this one). */
  block(paras: Para[]) {
    const need = paras.reduce((s, p) => s + this.height(p), 0) - (paras.at(-1)?.gap ?? 20);
    if (this.y - need < Writer.MARGIN && this.y < Writer.TOP) this.newPage();
    for (const p of paras) this.para(p);
  }

  line(text: string, opts: { size?: number; b?: boolean; gap?: number } = {}) {
    this.block([{ text, ...opts }]);
  }

  private para(p: Para) {
    const lines = this.wrap(p);
    lines.forEach((text, i) => {
      if (this.y < Writer.MARGIN) this.newPage();
      this.page.drawText(text, { x: Writer.MARGIN, y: this.y, size: p.size ?? 11, font: p.b ? this.bold : this.font, color: rgb(0.1, 0.1, 0.1) });
      this.y -= i === lines.length - 1 ? (p.gap ?? 20) : this.lineHeight(p);
    });
  }

  private get page() {
    return this.pages.at(-1)!;
  }

  private newPage() {
    this.pages.push(this.pdf.addPage(Writer.SIZE));
    this.y = Writer.TOP;
  }

  /** "Page 1 of 2" at the foot of each page, when there is more than one. */
  numberPages() {
    if (this.pages.length < 2) return;
    this.pages.forEach((page, i) =>
      page.drawText(`Page ${i + 1} of ${this.pages.length}`, { x: Writer.MARGIN, y: 30, size: 9, font: this.font, color: rgb(0.3, 0.3, 0.3) }),
    );
  }
}

async function findUserByIdOrGone(deps: Deps, id: string): Promise<string> {
  try {
    const u = await findUserById(deps, id);
    return u.displayName ? `${u.displayName} (${u.username})` : u.username;
  } catch {
    return "Deleted user";
  }
}
