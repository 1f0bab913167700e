// The receipt of a completed gig: a one-page PDF for its hirer and worker.
import { eq } from "drizzle-orm";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { platformFee, totalCharge, workerPayout } from "../../domain/fees";
import { formatSats } from "../../domain/format";
import type { UserRow } from "../db/client";
import { payouts } from "../db/schema";
import { authorise } from "./gig-transitions";
import { loadGig } from "./gig-views";
import { findUserById } from "./users";
import type { Deps } from "./deps";

export async function gigReceiptPdf(deps: Deps, me: UserRow, gigId: string): Promise<Uint8Array> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "receipt", { userId: me.id, isAdmin: false });
  const [hirer, worker, paid] = await Promise.all([
    findUserByIdOrGone(deps, gig.hirerId!),
    findUserByIdOrGone(deps, gig.workerId!),
    deps.db.select({ purpose: payouts.purpose, amount: payouts.amount }).from(payouts).where(eq(payouts.gigId, gig.id)),
  ]);
  // What actually went out: the worker's payout, and after a dispute split the hirer's share too.
  const toWorker = paid.find((p) => p.purpose === "worker_payout")?.amount ?? workerPayout(gig.payment);
  const toHirer = paid.find((p) => p.purpose === "hirer_refund")?.amount ?? null;

  const pdf = await PDFDocument.create();
  pdf.setTitle(`Gigstr receipt ${gig.id.slice(0, 8)}`);
  const page = pdf.addPage([595.28, 841.89]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 780;
  const line = (text: string, opts: { size?: number; b?: boolean; gap?: number } = {}) => {
    page.drawText(text, { x: 56, y, size: opts.size ?? 11, font: opts.b ? bold : font, color: rgb(0.1, 0.1, 0.1) });
    y -= opts.gap ?? 20;
  };
  const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "?");

  line("Gigstr - Receipt", { size: 22, b: true, gap: 36 });
  line(`Gig: ${ascii(gig.title)}`, { b: true });
  line(`Gig ID: ${gig.id}`);
  line(`Type: ${gig.gigType === "job_request" ? "Hiring Now (job request)" : "For Hire (service offering)"}`);
  line(`Completed: ${gig.completedAt ?? ""}`, { gap: 32 });
  line(`Hirer: ${ascii(hirer)}`);
  line(`Worker: ${ascii(worker)}`, { gap: 32 });
  line("Amounts", { b: true, size: 13 });
  line(`Gig payment: ${formatSats(gig.payment)}`);
  line(`Hirer platform fee (2.5%): ${formatSats(platformFee(gig.payment))}`);
  line(`Total paid by hirer: ${formatSats(totalCharge(gig.payment))}`);
  line(`Worker platform fee (2.5%): ${formatSats(platformFee(gig.payment))}`);
  if (toHirer !== null) line(`Returned to hirer (dispute settled by the admin): ${formatSats(toHirer)}`);
  line(`Paid to worker: ${formatSats(toWorker)}`, { gap: 32 });
  line("Paid over the Bitcoin Lightning Network. 100,000,000 sats = 1 bitcoin.", { size: 9 });
  return pdf.save();
}

async function findUserByIdOrGone(deps: Deps, id: string): Promise<string> {
  try {
    const u = await findUserById(deps, id);
    return u.displayName ? `${u.displayName} (${u.username})` : u.username;
  } catch {
    return "Deleted user";
  }
}
