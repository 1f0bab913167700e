// The receipt of a completed gig: a one-page PDF for its hirer and worker.
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { platformFee, totalCharge, workerPayout } from "../../domain/fees";
import { formatSats } from "../../domain/format";
import type { UserRow } from "../context";
import { authorise } from "./gig-actions";
import { loadGig } from "./gigs";
import { findUserById } from "./users";
import type { Deps } from "./deps";

export async function gigReceiptPdf(deps: Deps, me: UserRow, gigId: string): Promise<Uint8Array> {
  const gig = await loadGig(deps, gigId);
  authorise(gig, "receipt", { userId: me.id, isAdmin: false });
  const [hirer, worker] = await Promise.all([findUserByIdOrGone(deps, gig.hirerId!), findUserByIdOrGone(deps, gig.workerId!)]);

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
  line(`Paid to worker: ${formatSats(workerPayout(gig.payment))}`, { gap: 32 });
  line("Paid over the Bitcoin Lightning Network. 100,000,000 sats = 1 bitcoin.", { size: 9 });
  return pdf.save();
}

async function findUserByIdOrGone(deps: Deps, id: string): Promise<string> {
  try {
    const u = await findUserById(deps.db, id);
    return u.displayName ? `${u.displayName} (${u.username})` : u.username;
  } catch {
    return "Deleted user";
  }
}
