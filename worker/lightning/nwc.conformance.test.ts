// Our NWC client (worker/lightning/nwc.ts) against an independent wallet service, through a real relay:
// @getalby/sdk's NWCWalletService behind @nostr-relay/core, both on 127.0.0.1 (scripts/local-nostr).
// Runs in Node (the "nwc" test project): the client code is the Worker's own, its WebSocket Node's.
import { Relay } from "nostr-tools/relay";
import * as nip44 from "nostr-tools/nip44";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startDropProxy, type DropProxy } from "../../scripts/local-nostr/drop-proxy";
import { startRelay, type LocalRelay } from "../../scripts/local-nostr/relay";
import { startWalletService, type LocalWallet } from "../../scripts/local-nostr/wallet-service";
import { NwcBackend, relayTransport, type NwcEncryption } from "./nwc";
import { decodeInvoice, hexToBytes, sha256Hex } from "./invoice";

let relay: LocalRelay;
let wallet: LocalWallet;

beforeAll(async () => {
  relay = await startRelay();
  wallet = await startWalletService(relay.url);
});

afterAll(async () => {
  wallet.close();
  await relay.close();
});

const client = (encryption: NwcEncryption, timeouts: { payTimeoutMs?: number; timeoutMs?: number } = {}) =>
  new NwcBackend({ url: wallet.nwcUrl, transport: relayTransport(), encryption, timeoutMs: timeouts.timeoutMs ?? 5_000, payTimeoutMs: timeouts.payTimeoutMs ?? 5_000 });

/** An invoice the simulated node issued for a payee (`name@wallet.test`): paying it settles with its real preimage. */
const payeeInvoice = (sats: number, name = "alice") => wallet.node.issue(sats * 1000, `Payout to ${name}`, 600, name);

for (const encryption of ["nip04", "nip44_v2"] as const) {
  describe(`NWC through a real relay (${encryption})`, () => {
    /** A payee of this run only (the wallet is shared by both encryptions). */
    const payee = (name: string) => `${name}-${encryption}`;
    it("make_invoice gives a real invoice for the amount; lookup_invoice follows it from pending to paid", async () => {
      const backend = client(encryption);
      const created = await backend.createInvoice(10_250, "Gigstr escrow: Design a logo", 600);
      expect(decodeInvoice(created.bolt11)).toMatchObject({ paymentHash: created.paymentHash, amountMsat: 10_250_000 });
      expect(await backend.lookupInvoice(created.paymentHash)).toMatchObject({ status: "pending", amountSats: 10_250 });
      wallet.node.payFromOutside(created.bolt11);
      expect(await backend.lookupInvoice(created.paymentHash)).toMatchObject({ status: "paid", amountSats: 10_250 });
    });

    it("pay_invoice pays once with a preimage that hashes to the invoice, and the fees the wallet reports", async () => {
      const backend = client(encryption);
      const invoice = await payeeInvoice(9_750, payee("alice"));
      wallet.node.setScenario(invoice.paymentHash, { kind: "fees", feesMsat: 3_000 });
      const paid = await backend.payInvoice(invoice.bolt11, 98);
      expect(paid).toEqual({ status: "succeeded", preimage: invoice.preimage, feeSats: 3 });
      expect(await sha256Hex(hexToBytes((paid as { preimage: string }).preimage))).toBe(invoice.paymentHash);
      expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage, feeSats: 3 });
      // Paying the same invoice again pays nothing more.
      expect(await backend.payInvoice(invoice.bolt11, 98)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
      expect(wallet.node.receivedBy(payee("alice"))).toBe(9_750);
    });

    it("a payment the wallet refuses is never called paid, and looking it up finds nothing to settle", async () => {
      const backend = client(encryption);
      const invoice = await payeeInvoice(500, payee("bob"));
      wallet.node.setScenario(invoice.paymentHash, { kind: "fail" });
      const result = await backend.payInvoice(invoice.bolt11, 10);
      expect(result.status).not.toBe("succeeded");
      expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "unknown", notFound: true });
      expect(wallet.node.receivedBy(payee("bob"))).toBe(0);
    });

    it("list_transactions: a payment lookup_invoice does not find but the wallet lists as failed is failed", async () => {
      const backend = client(encryption);
      const invoice = await payeeInvoice(200, payee("lena"));
      wallet.node.listedOnly.add(invoice.paymentHash);
      wallet.node.payments.set(invoice.paymentHash, { paymentHash: invoice.paymentHash, bolt11: invoice.bolt11, amountMsat: 200_000, feesMsat: 0, preimage: null, state: "failed", createdAt: 1, settledAt: null });
      expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "failed" });
    });

    it("a payment that times out and then succeeds is found settled by its look-up", async () => {
      const backend = client(encryption, { payTimeoutMs: 800 });
      const invoice = await payeeInvoice(700, payee("carol"));
      wallet.node.setScenario(invoice.paymentHash, { kind: "hold" });
      expect(await backend.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
      expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "pending" });
      wallet.node.release(invoice.paymentHash);
      await expect.poll(() => backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
    });

    it("a wallet that answers NOT_FOUND for an outgoing payment still in flight: never failed, found once it settles", async () => {
      const backend = client(encryption, { payTimeoutMs: 800 });
      const invoice = await payeeInvoice(800, payee("dave"));
      wallet.node.setScenario(invoice.paymentHash, { kind: "unknown_until_settled" });
      expect(await backend.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
      const meanwhile = await backend.lookupPayment(invoice.paymentHash);
      expect(meanwhile).toMatchObject({ status: "unknown", notFound: true });
      wallet.node.release(invoice.paymentHash);
      await expect.poll(() => backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
      expect(wallet.node.receivedBy(payee("dave"))).toBe(800);
    });

    it("a relay that drops the socket mid-request: the payment is unknown, then found by a look-up once the relay is back", async () => {
      // The drop is seen at once now, so the wallet (whose socket dropped too) may still be reconnecting when
      // the look-ups start: short look-ups, so that a first one it misses is soon asked again.
      const backend = client(encryption, { payTimeoutMs: 3_000, timeoutMs: 2_000 });
      const invoice = await payeeInvoice(900, payee("erin"));
      wallet.node.setScenario(invoice.paymentHash, { kind: "hold" });
      const paying = backend.payInvoice(invoice.bolt11, 10);
      await expect.poll(() => wallet.node.payments.has(invoice.paymentHash)).toBe(true);
      relay.dropConnections();
      expect(await paying).toMatchObject({ status: "unknown" });
      wallet.node.release(invoice.paymentHash);
      await expect.poll(() => backend.lookupPayment(invoice.paymentHash), { timeout: 10_000, interval: 500 }).toMatchObject({ status: "succeeded" });
    });
  });
}

describe("NWC through a real relay: answers that are not the wallet's", () => {
  it("ignores a stranger's forged reply to our payment (signed by another key, sent first) and takes the wallet's", async () => {
    // A stranger on the same relay watches for requests and answers each at once with "paid" and a made-up preimage.
    const stranger = await Relay.connect(relay.url);
    const forger = generateSecretKey();
    const forged: string[] = [];
    stranger.subscribe([{ kinds: [23194] }], {
      onevent: (request) => {
        const reply = finalizeEvent(
          {
            kind: 23195,
            created_at: request.created_at,
            tags: [["e", request.id], ["p", request.pubkey]],
            content: JSON.stringify({ result_type: "pay_invoice", result: { preimage: "00".repeat(32) } }),
          },
          forger,
        );
        forged.push(reply.id);
        stranger.publish(reply).catch(() => undefined);
      },
    });
    try {
      const backend = client("nip44_v2");
      const invoice = await payeeInvoice(600, "frank-forged");
      wallet.node.setScenario(invoice.paymentHash, { kind: "fees", feesMsat: 0 });
      const paid = await backend.payInvoice(invoice.bolt11, 10);
      expect(forged.length).toBeGreaterThan(0);
      expect(paid).toEqual({ status: "succeeded", preimage: invoice.preimage, feeSats: 0 });
    } finally {
      stranger.close();
    }
  });
});

describe("NWC through a real relay: the wallet check and a wallet that answers twice", () => {
  it("get_info: the connection may pay (Money Health's wallet check)", async () => {
    expect(await client("nip04").checkWallet()).toMatchObject({ ok: true });
  });

  it("two replies to one request (the same wallet running twice): paid once, the first reply taken", async () => {
    const twin = await startWalletService(relay.url, wallet.node, wallet.keys);
    const watcher = await Relay.connect(relay.url);
    const replies = new Map<string, number>();
    watcher.subscribe([{ kinds: [23195], authors: [wallet.walletPubkey] }], {
      onevent: (reply) => {
        const to = reply.tags.find((t) => t[0] === "e")?.[1] ?? "";
        replies.set(to, (replies.get(to) ?? 0) + 1);
      },
    });
    try {
      const backend = client("nip44_v2");
      const invoice = await payeeInvoice(400, "gina-twice");
      const paid = await backend.payInvoice(invoice.bolt11, 10);
      await expect.poll(() => Math.max(0, ...replies.values())).toBe(2);
      expect(paid).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
      expect(wallet.node.receivedBy("gina-twice")).toBe(400);
      expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded" });
    } finally {
      watcher.close();
      twin.close();
    }
  });
});

describe("NWC through a real relay: odd replies signed with the wallet's own key", () => {
  /** Watches requests on the relay and answers each, first, with `reply(request)` signed as the wallet. */
  async function walletImpostor(reply: (request: { id: string; pubkey: string; created_at: number }) => { tags: string[][]; content: string }) {
    const watcher = await Relay.connect(relay.url);
    let sent = 0;
    watcher.subscribe([{ kinds: [23194] }], {
      onevent: (request) => {
        const { tags, content } = reply(request);
        sent += 1;
        // Closed with the test: a reply still waiting for its OK then is of no interest.
        watcher.publish(finalizeEvent({ kind: 23195, created_at: request.created_at, tags, content }, hexToBytes(wallet.keys.walletSecret))).catch(() => undefined);
      },
    });
    return { sent: () => sent, close: () => watcher.close() };
  }

  it("a reply to a request we never sent never reaches us: the real reply is taken", async () => {
    const impostor = await walletImpostor((request) => ({
      tags: [["e", "ab".repeat(32)], ["p", request.pubkey]],
      content: nip44.encrypt(JSON.stringify({ result_type: "pay_invoice", result: { preimage: "00".repeat(32) } }), nip44.getConversationKey(hexToBytes(wallet.keys.walletSecret), request.pubkey)),
    }));
    try {
      const invoice = await payeeInvoice(300, "hal-never-sent");
      expect(await client("nip44_v2").payInvoice(invoice.bolt11, 10)).toEqual({ status: "succeeded", preimage: invoice.preimage, feeSats: 0 });
      expect(impostor.sent()).toBeGreaterThan(0);
    } finally {
      impostor.close();
    }
  });

  it("a reply encrypted for another key is not read as an answer: the payment is unknown, and its look-up finds it paid", async () => {
    const impostor = await walletImpostor((request) => ({
      tags: [["e", request.id], ["p", request.pubkey]],
      content: nip44.encrypt(
        JSON.stringify({ result_type: "pay_invoice", result: { preimage: "00".repeat(32) } }),
        nip44.getConversationKey(hexToBytes(wallet.keys.walletSecret), getPublicKey(generateSecretKey())),
      ),
    }));
    const invoice = await payeeInvoice(350, "ivy-other-key");
    // The wallet holds the payment, so the unreadable reply surely comes first.
    wallet.node.setScenario(invoice.paymentHash, { kind: "hold" });
    const backend = client("nip44_v2", { payTimeoutMs: 3_000 });
    try {
      expect(await backend.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
      expect(impostor.sent()).toBeGreaterThan(0);
    } finally {
      impostor.close();
    }
    wallet.node.release(invoice.paymentHash);
    await expect.poll(() => backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
    expect(wallet.node.receivedBy("ivy-other-key")).toBe(350);
  });
});

describe("NWC through a real relay: the encryption the wallet offers", () => {
  it("speaks NIP-44 v2 to a wallet whose info event offers it, with no setting", async () => {
    const watcher = await Relay.connect(relay.url);
    const requestTags: string[][][] = [];
    watcher.subscribe([{ kinds: [23194] }], { onevent: (request) => void requestTags.push(request.tags) });
    try {
      const backend = new NwcBackend({ url: wallet.nwcUrl, transport: relayTransport(), timeoutMs: 5_000 });
      const created = await backend.createInvoice(1_000, "Gigstr escrow: a sticker", 600);
      expect(created.bolt11).toMatch(/^lnbcrt/);
      await expect.poll(() => requestTags.length).toBeGreaterThan(0);
      expect(requestTags.at(-1)).toContainEqual(["encryption", "nip44_v2"]);
    } finally {
      watcher.close();
    }
  });
});

describe("NWC through a relay that fails at the worst moment (a proxy in front of the real relay)", () => {
  /** A proxy in front of the relay for this test only, closed with it. */
  async function proxy(): Promise<DropProxy> {
    const started = await startDropProxy(relay.url);
    onTestFinished(() => started.close());
    return started;
  }
  /** NWC_URL for the same wallet connection over these relays, in this order. */
  const urlOver = (...relays: string[]) => {
    const clientSecret = new URL(wallet.nwcUrl.replace(/^nostr\+walletconnect:/, "https:")).searchParams.get("secret");
    return `nostr+walletconnect://${wallet.walletPubkey}?${relays.map((r) => `relay=${encodeURIComponent(r)}`).join("&")}&secret=${clientSecret}`;
  };
  const clientOver = (relays: string[], encryption: NwcEncryption = "nip44_v2", payTimeoutMs = 3_000) =>
    new NwcBackend({ url: urlOver(...relays), transport: relayTransport(), encryption, timeoutMs: 5_000, payTimeoutMs });

  for (const encryption of ["nip04", "nip44_v2"] as const) {
    it(`a relay that takes the pay request and drops the socket before its OK: unknown, never failed; the wallet paid, and the look-up finds it (${encryption})`, async () => {
      const relayProxy = await proxy();
      const backend = clientOver([relayProxy.url], encryption);
      const recipient = `kim-dropped-${encryption}`;
      const invoice = await payeeInvoice(1_100, recipient);
      relayProxy.nextEvent("drop_after_forward");
      const result = await backend.payInvoice(invoice.bolt11, 10);
      expect(result.status).toBe("unknown");
      expect(relayProxy.stats).toMatchObject({ requests: 1, forwarded: 1, droppedSockets: 1 });
      expect(relayProxy.stats.faults.drop_after_forward).toBe(1);
      await expect.poll(() => wallet.node.receivedBy(recipient)).toBe(1_100);
      expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
    });
  }

  it("a relay that drops the socket after its OK, before the answer: unknown; the wallet paid", async () => {
    const relayProxy = await proxy();
    const backend = clientOver([relayProxy.url]);
    const invoice = await payeeInvoice(1_200, "lou-after-ok");
    relayProxy.nextEvent("drop_after_ok");
    expect(await backend.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
    await expect.poll(() => wallet.node.receivedBy("lou-after-ok")).toBe(1_200);
    expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
  });

  it("a relay that loses the answer (no OK, no reply, the socket open): unknown at the time-out; the wallet paid", async () => {
    const relayProxy = await proxy();
    const backend = clientOver([relayProxy.url], "nip44_v2", 1_000);
    const invoice = await payeeInvoice(1_300, "max-swallowed");
    relayProxy.nextEvent("swallow_answer");
    expect(await backend.payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "unknown" });
    expect(relayProxy.stats.swallowedFrames).toBeGreaterThanOrEqual(1);
    await expect.poll(() => wallet.node.receivedBy("max-swallowed")).toBe(1_300);
    expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "succeeded", preimage: invoice.preimage });
  });

  it("a relay that drops the socket before passing the request on: unknown or failed, and then nothing was paid", async () => {
    const relayProxy = await proxy();
    const backend = clientOver([relayProxy.url]);
    const invoice = await payeeInvoice(1_400, "ned-never-forwarded");
    relayProxy.nextEvent("drop_before_forward");
    const result = await backend.payInvoice(invoice.bolt11, 10);
    expect(["unknown", "failed"]).toContain(result.status);
    expect(relayProxy.stats).toMatchObject({ requests: 1, forwarded: 0, droppedSockets: 1 });
    // The relay never had the request: the wallet has no payment, and says so when asked.
    expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "unknown", notFound: true });
    expect(wallet.node.payments.has(invoice.paymentHash)).toBe(false);
    expect(wallet.node.receivedBy("ned-never-forwarded")).toBe(0);
  });

  it("a relay that refuses the request (OK false): failed, and nothing was paid", async () => {
    const relayProxy = await proxy();
    const backend = clientOver([relayProxy.url]);
    const invoice = await payeeInvoice(1_500, "olga-refused");
    relayProxy.nextEvent("refuse");
    const result = await backend.payInvoice(invoice.bolt11, 10);
    expect(result).toMatchObject({ status: "failed", reason: expect.stringContaining("refused the request (blocked: refused by the proxy)") });
    expect(relayProxy.stats).toMatchObject({ requests: 1, forwarded: 0 });
    expect(await backend.lookupPayment(invoice.paymentHash)).toMatchObject({ status: "unknown", notFound: true });
    expect(wallet.node.receivedBy("olga-refused")).toBe(0);
  });

  it("a relay that cannot be reached: failed, nothing paid", async () => {
    const relayProxy = await proxy();
    relayProxy.refuseConnections(true);
    const invoice = await payeeInvoice(1_550, "pia-unreachable");
    expect(await clientOver([relayProxy.url]).payInvoice(invoice.bolt11, 10)).toMatchObject({ status: "failed" });
    expect(relayProxy.stats).toMatchObject({ refusedConnections: 1, requests: 0 });
    expect(wallet.node.receivedBy("pia-unreachable")).toBe(0);
  });

  it("a request the first relay refused goes to the next and is paid once; one the first relay may have passed on does not", async () => {
    const first = await proxy();
    const refused = await payeeInvoice(1_600, "quinn-next-relay");
    first.nextEvent("refuse");
    expect(await clientOver([first.url, relay.url]).payInvoice(refused.bolt11, 10)).toMatchObject({ status: "succeeded", preimage: refused.preimage });
    expect(wallet.node.receivedBy("quinn-next-relay")).toBe(1_600);

    const second = await proxy();
    const counted = await proxy();
    const dropped = await payeeInvoice(1_700, "rosa-not-again");
    second.nextEvent("drop_after_forward");
    const backend = clientOver([second.url, counted.url]);
    expect(await backend.payInvoice(dropped.bolt11, 10)).toMatchObject({ status: "unknown" });
    expect(counted.stats.requests).toBe(0);
    await expect.poll(() => wallet.node.receivedBy("rosa-not-again")).toBe(1_700);
  });
});
