// The receipt of a gig with a plan (issue 28): each milestone with what the hirer paid for it, what the worker
// received and what came back to the hirer, the totals, and a page that holds it all.
import { describe, expect, it } from "vitest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { adminSignIn, asAdmin } from "../test/admin";
import { api, call, submittedJob, type Member } from "../test/factories";
import { approve, deliver, disputeSecond, fund, ok, plannedJob } from "../test/milestones";
import { expectLedgerBalanced } from "../test/money";
import { pdfTextLines } from "../test/pdf";

async function receiptOf(gigId: string, member: Member) {
  const res = await api(`/api/gigs/${gigId}/receipt`, { token: member.token });
  expect(res.status).toBe(200);
  return res.arrayBuffer();
}

describe("the receipt of a gig without a plan", () => {
  it("reads as it always did: one payment, no milestones", async () => {
    const job = await submittedJob();
    await call(`/api/gigs/${job.gigId}/approve`, job.hirer.token, "POST");
    const lines = await pdfTextLines(await receiptOf(job.gigId, job.hirer));
    expect(lines.slice(7)).toEqual([
      "Amounts",
      "Gig payment: 10,000 sats",
      "Hirer platform fee (2.5%): 250 sats",
      "Total paid by hirer: 10,250 sats",
      "Worker platform fee (2.5%): 250 sats",
      "Paid to worker: 9,750 sats",
      "Paid over the Bitcoin Lightning Network. 100,000,000 sats = 1 bitcoin.",
    ]);
    expect((await PDFDocument.load(await receiptOf(job.gigId, job.worker))).getPageCount()).toBe(1);
  });
});

describe("the receipt of a gig with a plan", () => {
  it("lists each milestone's money when milestone 2 was split by the admin", async () => {
    const job = await plannedJob([
      { title: "Wireframes", amount: 2_000 },
      { title: "Shop pages", amount: 3_000 },
      { title: "Checkout with Lightning", amount: 5_000 },
    ]);
    await disputeSecond(job);
    const admin = await adminSignIn();
    ok(await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "split", workerSharePercent: 50 }), "split");
    await fund(job, 3);
    await deliver(job, 3);
    await approve(job, 3);
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "completed" });

    const lines = await pdfTextLines(await receiptOf(job.gigId, job.worker));
    // Milestone 2: 3,000 + 75 fee paid in; 3,000 − 75 = 2,925 split in two: 1,462 to the worker, 1,463 back.
    expect(lines).toEqual([
      "Gigstr - Receipt",
      "Gig: Build a shop",
      `Gig ID: ${job.gigId}`,
      "Type: Hiring Now (job request)",
      expect.stringMatching(/^Completed: \d{4}-/),
      `Hirer: Hirer (${(await call("/api/user/me", job.hirer.token)).body.username})`,
      `Worker: Worker (${(await call("/api/user/me", job.worker.token)).body.username})`,
      "Milestones",
      "Milestone 1 of 3: Wireframes",
      "Amount: 2,000 sats. Ended: Approved.",
      "Hirer paid 2,050 sats, worker received 1,950 sats, returned to hirer 0 sats.",
      "Milestone 2 of 3: Shop pages",
      "Amount: 3,000 sats. Ended: Split by the admin.",
      "Hirer paid 3,075 sats, worker received 1,462 sats, returned to hirer 1,463 sats.",
      "Milestone 3 of 3: Checkout with Lightning",
      "Amount: 5,000 sats. Ended: Approved.",
      "Hirer paid 5,125 sats, worker received 4,875 sats, returned to hirer 0 sats.",
      "Totals",
      "Gig payment (3 milestones): 10,000 sats",
      "Total paid by hirer: 10,250 sats",
      "Paid to worker: 8,287 sats",
      "Returned to hirer: 1,463 sats",
      "Platform fees (2.5% from each side): 500 sats",
      "Paid over the Bitcoin Lightning Network. 100,000,000 sats = 1 bitcoin.",
    ]);
    // The hirer's copy says the same.
    expect(await pdfTextLines(await receiptOf(job.gigId, job.hirer))).toEqual(lines);
    await expectLedgerBalanced();
  });

  it("says which milestones were refunded or never funded when the admin ended the gig early", async () => {
    const job = await plannedJob([
      { title: "Wireframes", amount: 2_000 },
      { title: "Shop pages", amount: 3_000 },
      { title: "Checkout", amount: 4_000 },
      { title: "Launch", amount: 1_000 },
    ]);
    await disputeSecond(job, { fundThird: true });
    const admin = await adminSignIn();
    ok(await asAdmin(admin, `/api/admin/disputes/${job.gigId}/resolve`, "POST", { resolution: "refund_hirer", endGig: true }), "refund and end");
    // Milestone 1 was paid: the gig ended completed, with a receipt.
    expect((await call(`/api/gigs/${job.gigId}`, job.hirer.token)).body).toMatchObject({ status: "completed" });

    const lines = await pdfTextLines(await receiptOf(job.gigId, job.hirer));
    const from = lines.indexOf("Milestones");
    expect(lines.slice(from, from + 19)).toEqual([
      "Milestones",
      "Milestone 1 of 4: Wireframes",
      "Amount: 2,000 sats. Ended: Approved.",
      "Hirer paid 2,050 sats, worker received 1,950 sats, returned to hirer 0 sats.",
      "Milestone 2 of 4: Shop pages",
      "Amount: 3,000 sats. Ended: Refunded by the admin.",
      "Hirer paid 3,075 sats, worker received 0 sats, returned to hirer 3,075 sats.",
      "Milestone 3 of 4: Checkout",
      "Amount: 4,000 sats. Ended: Refunded in full: the gig ended before it.",
      "Hirer paid 4,100 sats, worker received 0 sats, returned to hirer 4,100 sats.",
      "Milestone 4 of 4: Launch",
      "Amount: 1,000 sats. Ended: Not funded: the gig ended before it.",
      "Hirer paid 0 sats, worker received 0 sats, returned to hirer 0 sats.",
      "Totals",
      "Gig payment (4 milestones): 10,000 sats",
      "Total paid by hirer: 9,225 sats",
      "Paid to worker: 1,950 sats",
      "Returned to hirer: 7,175 sats",
      "Platform fees (2.5% from each side): 100 sats",
    ]);
    await expectLedgerBalanced();
  });

  it("fits a 10-milestone plan with long titles on the page: titles wrap, the rest goes on a second page", async () => {
    const title = (n: number) => `Milestone work package number ${n} with a very long descriptive title that goes on and on`;
    const plan = Array.from({ length: 10 }, (_, i) => ({ title: title(i + 1), amount: 1_000 }));
    const job = await plannedJob(plan, "A long project with ten steps, each of them described at great length for the receipt");
    for (let n = 1; n <= 10; n++) {
      if (n > 1) await fund(job, n);
      await deliver(job, n);
      await approve(job, n);
    }
    const pdf = await receiptOf(job.gigId, job.worker);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2);

    const drawn = await drawnText(pdf);
    const lines = drawn.map((d) => d.text);
    // Every title can be read in full: its wrapped lines follow each other.
    for (let n = 1; n <= 10; n++) {
      const first = lines.findIndex((l) => l.startsWith(`Milestone ${n} of 10: `));
      expect(`${lines[first]} ${lines[first + 1]}`).toBe(`Milestone ${n} of 10: ${title(n)}`);
      expect(lines[first + 2]).toBe("Amount: 1,000 sats. Ended: Approved.");
      expect(lines[first + 3]).toBe("Hirer paid 1,025 sats, worker received 975 sats, returned to hirer 0 sats.");
    }
    expect(lines).toEqual(expect.arrayContaining(["Total paid by hirer: 10,250 sats", "Paid to worker: 9,750 sats", "Page 1 of 2", "Page 2 of 2"]));

    // Every line fits between the page's margins and above its foot.
    const scratch = await PDFDocument.create();
    const regular = await scratch.embedFont(StandardFonts.Helvetica);
    const bold = await scratch.embedFont(StandardFonts.HelveticaBold);
    for (const d of drawn) {
      const width = (d.bold ? bold : regular).widthOfTextAtSize(d.text, d.size);
      expect({ text: d.text, right: d.x + width <= 595.28 - 56 }).toEqual({ text: d.text, right: true });
      expect(d.y).toBeGreaterThanOrEqual(28);
    }
  });
});

/** Each text a pdf-lib PDF draws, with its font size, boldness and position (pdf-lib writes `/Font size Tf`, `1 0 0 1 x y Tm`). */
async function drawnText(pdf: ArrayBuffer) {
  const bytes = new Uint8Array(pdf);
  const text = new TextDecoder("latin1").decode(bytes);
  const out: { text: string; size: number; bold: boolean; x: number; y: number }[] = [];
  for (let at = text.indexOf("stream\n"); at !== -1; at = text.indexOf("stream\n", at + 1)) {
    if (text.slice(at - 3, at) === "end") continue;
    const start = at + "stream\n".length;
    const end = text.indexOf("\nendstream", start);
    if (end === -1 || !text.slice(text.lastIndexOf("<<", at), at).includes("/FlateDecode")) continue;
    let content: string;
    try {
      const stream = new Blob([bytes.slice(start, end)]).stream().pipeThrough(new DecompressionStream("deflate"));
      content = new TextDecoder("latin1").decode(await new Response(stream).arrayBuffer());
    } catch {
      continue;
    }
    for (const m of content.matchAll(/\/(\S+) ([\d.]+) Tf[\s\S]*?1 0 0 1 ([\d.]+) ([\d.]+) Tm\s*<([0-9A-Fa-f]*)>\s*Tj/g)) {
      out.push({
        bold: m[1]!.includes("Bold"),
        size: Number(m[2]),
        x: Number(m[3]),
        y: Number(m[4]),
        text: m[5]!.replace(/../g, (h) => String.fromCharCode(parseInt(h, 16))),
      });
    }
  }
  return out;
}
