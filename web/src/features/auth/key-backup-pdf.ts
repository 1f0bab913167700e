// The key backup (SPEC.md §2, DESIGN.md §6): a PDF of wallet-sized cards, 100 × 63 mm, one with the public
// key (npub, safe to share) and one with the private key (nsec, secret). Built in the browser; pdf-lib is
// loaded only when a backup is made.

const MM_TO_PT = 72 / 25.4;
/** 100 × 63 mm in PDF points: 283.46 × 178.58. */
export const KEY_CARD_SIZE_PT: [number, number] = [100 * MM_TO_PT, 63 * MM_TO_PT];

export interface KeyBackup {
  npub: string;
  nsec: string;
}

function chunk(text: string, size: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += size) lines.push(text.slice(i, i + size));
  return lines;
}

export async function buildKeyBackupPdf({ npub, nsec }: KeyBackup, createdAt = new Date()): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  pdf.setTitle("Gigstr key backup");
  pdf.setCreator("Gigstr");
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const orange = rgb(0.969, 0.576, 0.102);
  const dark = rgb(0.11, 0.1, 0.09);
  const grey = rgb(0.4, 0.38, 0.36);
  const [width, height] = KEY_CARD_SIZE_PT;

  const cards = [
    { heading: "PUBLIC KEY (npub)", note: "Your identity. Safe to share.", key: npub, accent: orange },
    { heading: "PRIVATE KEY (nsec): KEEP SECRET", note: "Anyone with this key controls your account. Never share it.", key: nsec, accent: rgb(0.8, 0.15, 0.15) },
  ];

  for (const card of cards) {
    const page = pdf.addPage([width, height]);
    page.drawRectangle({ x: 0, y: height - 30, width, height: 30, color: card.accent });
    page.drawText("Gigstr", { x: 14, y: height - 20, size: 13, font: bold, color: rgb(1, 1, 1) });
    page.drawText("Nostr key backup", { x: width - 14 - regular.widthOfTextAtSize("Nostr key backup", 8), y: height - 18, size: 8, font: regular, color: rgb(1, 1, 1) });
    page.drawText(card.heading, { x: 14, y: height - 48, size: 9, font: bold, color: dark });
    let y = height - 66;
    for (const line of chunk(card.key, 32)) {
      page.drawText(line, { x: 14, y, size: 9.5, font: mono, color: dark });
      y -= 13;
    }
    page.drawText(card.note, { x: 14, y: 26, size: 7, font: regular, color: grey, maxWidth: width - 28 });
    page.drawText(`Created ${createdAt.toISOString().slice(0, 10)}`, { x: 14, y: 14, size: 7, font: regular, color: grey });
  }
  return pdf.save();
}

/** Builds the backup and hands it to the browser as a download. */
export async function downloadKeyBackup(keys: KeyBackup): Promise<void> {
  const bytes = await buildKeyBackupPdf(keys);
  const blob = new Blob([bytes as BlobPart], { type: "application/pdf" });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = `gigstr-key-backup-${keys.npub.slice(0, 12)}.pdf`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
