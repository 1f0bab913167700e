import { decode } from "light-bolt11-decoder";
import { describe, expect, it } from "vitest";
import { routingFeeCap } from "./backend";
import { DEV_NODE_PRIVATE_KEY, DEV_NODE_PUBKEY, DevWallet, DevWalletError, MemoryDevWalletStore, devWalletLnurl, recoverPayeeNodeKey, type DevPayFault } from "./dev-backend";
import { decodeInvoice, sha256Hex } from "./invoice";
import { encodeSignedInvoice, nodePublicKey } from "./invoice-encoder";
import { requestInvoice, resolveLightningAddress } from "./lnurl";
import { strangerInvoice } from "./test-helpers";

function devWallet(opts: { now?: () => number; externalFeeSats?: number; fault?: DevPayFault } = {}) {
  const store = new MemoryDevWalletStore();
  const wallet = new DevWallet(store, { now: opts.now, externalFeeSats: opts.externalFeeSats, faults: () => opts.fault });
  return { store, wallet, lnurl: { fetch: devWalletLnurl(wallet) } };
}

const section = (bolt11: string, name: string) => decode(bolt11).sections.find((s) => s.name === name) as { value?: unknown } | undefined;

describe("dev invoices", () => {
  it("are real regtest BOLT11 invoices with the amount, hash, memo and expiry asked, signed by the dev node", async () => {
    const { wallet, store } = devWallet();
    const created = await wallet.createInvoice(10_250, "Gigstr: Logo design", 3600);

    expect(created.bolt11).toMatch(/^lnbcrt/);
    expect(section(created.bolt11, "amount")?.value).toBe("10250000");
    expect(section(created.bolt11, "payment_hash")?.value).toBe(created.paymentHash);
    expect(section(created.bolt11, "description")?.value).toBe("Gigstr: Logo design");
    expect(section(created.bolt11, "expiry")?.value).toBe(3600);
    expect(Date.parse(created.expiresAt)).toBe(decodeInvoice(created.bolt11).expiresAtMs);

    // The signature is valid and recovers the dev node's key.
    expect(await recoverPayeeNodeKey(created.bolt11)).toBe(DEV_NODE_PUBKEY);

    const record = store.invoices.get(created.paymentHash)!;
    expect(await sha256Hex(Uint8Array.from(record.preimage.match(/../g)!.map((h) => parseInt(h, 16))))).toBe(created.paymentHash);
  });

  it("are written exactly as the bolt11 package writes and signs them", async () => {
    // Made with bolt11@1.4.1 in Node: sign(encode({network: regtest, millisatoshis: "10250000",
    // timestamp: 1795312331, tags: [payment_hash, payment_secret, description "Gigstr gig",
    // expire_time 3600]}), DEV_NODE_PRIVATE_KEY). bolt11.decode of it recovers DEV_NODE_PUBKEY.
    const made = await encodeSignedInvoice(
      {
        network: "bcrt",
        amountMsat: 10_250_000,
        timestamp: 1795312331,
        paymentHash: "4c78050396f1650eb92a71566112dc07f9784f0b8d2745d923f9526530dd7fe0",
        paymentSecret: "bf26392053bb6aaa1f43e9c8c0585e3272fd67693170395474cf4c8e0c01aec1",
        description: "Gigstr gig",
        expirySec: 3600,
      },
      DEV_NODE_PRIVATE_KEY,
    );
    expect(made).toBe(
      "lnbcrt102500n1p4syjktpp5f3uq2quk79jsawf2w9txzykuqluhsnct35n5tkfrl9fx2vxa0lsqsp5hunrjgznhd42586ra8yvqkz7xfe06emfx9crj4r5eaxgurqp4mqsdqsga5kwum5wgsxw6t8xqrrss9qypqsqcqpf7ct5mpdmtyds7d8hr2wlxx58nh7ysr7d3nnd8g34l46c3sv62jx5t2493gardynjt2z2lfw8n3ptvqqpzhzwe9adx68397f4z5dddhcqz6vcjy",
    );
    expect(nodePublicKey(DEV_NODE_PRIVATE_KEY)).toBe(DEV_NODE_PUBKEY);
  });

  it("are refused by signature recovery once tampered with", async () => {
    const { wallet } = devWallet();
    const { bolt11 } = await wallet.createInvoice(1_000, "x", 60);
    // Same checksum-valid shape, different amount: re-encode the data under another prefix.
    const { bech32Decode, bech32Encode } = await import("./bech32");
    const { words } = bech32Decode(bolt11);
    const forged = bech32Encode("lnbcrt20u", words);
    expect(await recoverPayeeNodeKey(forged)).not.toBe(DEV_NODE_PUBKEY);
  });

  it("get a fresh payment hash each time", async () => {
    const { wallet } = devWallet();
    const a = await wallet.createInvoice(1, "a", 60);
    const b = await wallet.createInvoice(1, "a", 60);
    expect(a.paymentHash).not.toBe(b.paymentHash);
  });

  it("are pending, then paid once through payDevInvoice", async () => {
    const { wallet } = devWallet();
    const inv = await wallet.createInvoice(500, "funding", 3600);
    expect(await wallet.lookupInvoice(inv.paymentHash)).toMatchObject({ status: "pending", amountSats: 500 });

    expect(await wallet.payDevInvoice(inv.bolt11)).toEqual({ paymentHash: inv.paymentHash, amountSats: 500, alreadyPaid: false });
    expect(await wallet.lookupInvoice(inv.paymentHash)).toMatchObject({ status: "paid", amountSats: 500 });
    expect(await wallet.payDevInvoice(inv.bolt11)).toMatchObject({ alreadyPaid: true });
  });

  it("expire, and an expired invoice cannot be paid", async () => {
    let now = Date.parse("2026-11-20T12:00:00Z");
    const { wallet } = devWallet({ now: () => now });
    const inv = await wallet.createInvoice(500, "funding", 60);
    now += 61_000;
    expect((await wallet.lookupInvoice(inv.paymentHash)).status).toBe("expired");
    await expect(wallet.payDevInvoice(inv.bolt11)).rejects.toMatchObject({ code: "expired" });
  });

  it("payDevInvoice refuses invoices it did not issue and text that is no invoice", async () => {
    const { wallet } = devWallet();
    const other = await devWallet().wallet.createInvoice(500, "elsewhere", 60);
    await expect(wallet.payDevInvoice(other.bolt11)).rejects.toMatchObject({ code: "unknown_invoice" });
    await expect(wallet.payDevInvoice("lnbc1nonsense")).rejects.toBeInstanceOf(DevWalletError);
  });
});

describe("dev payouts", () => {
  it("pays name@wallet.test offline: the exact sats arrive at the address", async () => {
    const { wallet, store, lnurl } = devWallet();
    const payRequest = await resolveLightningAddress("alice@wallet.test", lnurl);
    const invoice = await requestInvoice(payRequest, 9_750, lnurl);
    expect(invoice.descriptionHash).toBe(await sha256Hex(DevWallet.metadataFor("alice")));

    const paid = await wallet.payInvoice(invoice.bolt11, routingFeeCap(9_750));
    expect(paid).toMatchObject({ status: "succeeded", feeSats: 0 });
    expect(await wallet.receivedBy("alice")).toBe(9_750);
    expect(await wallet.receivedBy("bob")).toBe(0);
    // the preimage is the real one: it hashes to the invoice's payment hash
    const preimage = (paid as { preimage: string }).preimage;
    expect(await sha256Hex(Uint8Array.from(preimage.match(/../g)!.map((h) => parseInt(h, 16))))).toBe(invoice.paymentHash);
    expect(await wallet.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage });
    expect(store.payments.get(invoice.paymentHash)).toMatchObject({ destination: "internal", recipient: "alice", amountMsat: 9_750_000 });
  });

  it("never records a payment twice when the same invoice is paid again", async () => {
    const { wallet, store, lnurl } = devWallet();
    const invoice = await requestInvoice(await resolveLightningAddress("alice@wallet.test", lnurl), 100, lnurl);
    const first = await wallet.payInvoice(invoice.bolt11, 10);
    const second = await wallet.payInvoice(invoice.bolt11, 10);
    expect(second).toEqual(first);
    expect(store.payments.size).toBe(1);
    expect(await wallet.receivedBy("alice")).toBe(100);
  });

  it("records an outside invoice as paid (simulated) and charges the simulated routing fee within the cap", async () => {
    const { wallet, store } = devWallet({ externalFeeSats: 3 });
    const outside = await strangerInvoice({ amountMsat: 2_000_000, description: "elsewhere" });
    expect(await wallet.payInvoice(outside.bolt11, 10)).toMatchObject({ status: "succeeded", feeSats: 3 });
    expect(store.payments.get(outside.paymentHash)).toMatchObject({ destination: "external", amountMsat: 2_000_000, feeSats: 3 });
  });

  it("fails, paying nothing, when the routing fee would exceed the cap", async () => {
    const { wallet, store } = devWallet({ externalFeeSats: 11 });
    const outside = await strangerInvoice({ amountMsat: 1_000_000 });
    expect(await wallet.payInvoice(outside.bolt11, 10)).toMatchObject({ status: "failed" });
    expect(store.payments.size).toBe(0);
  });

  it("refuses expired and amountless invoices, and its own funding invoices", async () => {
    const { wallet, store } = devWallet();
    const expired = await strangerInvoice({ amountMsat: 1000, timestampSec: Math.floor(Date.now() / 1000) - 7200, expirySec: 60 });
    expect(await wallet.payInvoice(expired.bolt11, 10)).toMatchObject({ status: "failed", reason: "invoice expired" });
    const amountless = await strangerInvoice({ amountMsat: null });
    expect(await wallet.payInvoice(amountless.bolt11, 10)).toMatchObject({ status: "failed" });
    const own = await wallet.createInvoice(100, "funding", 60);
    expect(await wallet.payInvoice(own.bolt11, 10)).toMatchObject({ status: "failed" });
    expect(await wallet.payInvoice("not an invoice", 10)).toMatchObject({ status: "failed" });
    expect(store.payments.size).toBe(0);
  });

  it("can lose the answer after paying; the lookup then finds the payment and a retry pays nothing more", async () => {
    const { wallet, lnurl } = devWallet({ fault: "unknown_after_paying" });
    const invoice = await requestInvoice(await resolveLightningAddress("carol@wallet.test", lnurl), 1_000, lnurl);
    expect(await wallet.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
    expect(await wallet.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded" });
    expect(await wallet.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "succeeded" });
    expect(await wallet.receivedBy("carol")).toBe(1_000);
  });

  it("can lose the answer before paying; the lookup then finds nothing", async () => {
    const { wallet, lnurl } = devWallet({ fault: "unknown_before_paying" });
    const invoice = await requestInvoice(await resolveLightningAddress("dave@wallet.test", lnurl), 1_000, lnurl);
    expect(await wallet.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
    expect(await wallet.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "unknown", notFound: true });
    expect(await wallet.receivedBy("dave")).toBe(0);
  });

  it("can fail explicitly", async () => {
    const { wallet, lnurl } = devWallet({ fault: "fail" });
    const invoice = await requestInvoice(await resolveLightningAddress("erin@wallet.test", lnurl), 1_000, lnurl);
    expect(await wallet.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "failed" });
    expect(await wallet.receivedBy("erin")).toBe(0);
  });
});
