import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { buildKeyBackupPdf, KEY_CARD_SIZE_PT } from "./key-backup-pdf";

describe("key backup PDF", () => {
  it("is made of 100 x 63 mm cards, one for the npub and one for the nsec", async () => {
    const bytes = await buildKeyBackupPdf({ npub: "npub1" + "a".repeat(58), nsec: "nsec1" + "b".repeat(58) });
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(2);
    for (const page of pdf.getPages()) {
      expect(page.getWidth()).toBeCloseTo(283.46, 1);
      expect(page.getHeight()).toBeCloseTo(178.58, 1);
    }
    expect(KEY_CARD_SIZE_PT[0]).toBeCloseTo(283.46, 2);
    expect(KEY_CARD_SIZE_PT[1]).toBeCloseTo(178.58, 2);
  });
});
