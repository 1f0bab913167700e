// Money Health's "last answer, last error" per backend: what a wrapped backend records, and that it
// behaves exactly like the backend it wraps.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { makeDeps } from "../composition";
import { moneyHealth } from "../services/admin-money";
import { LightningError, type LightningBackend } from "./backend";
import { d1CallRecorder, recordingCalls } from "./call-record";
import { openDb } from "../db/client";
import { statement } from "../db/test-statements";

const status = () => statement("SELECT * FROM backend_status WHERE backend = 'nwc'").first<Record<string, string | null>>();

describe("recorded Lightning calls", () => {
  it("keeps the last answered call and the last error, and passes every answer and error through", async () => {
    let clock = Date.parse("2026-11-25T10:00:00.000Z");
    const deferred: Promise<unknown>[] = [];
    const recorder = d1CallRecorder(openDb(env.DB), (work) => deferred.push(work()), () => clock);
    const backend: LightningBackend = {
      kind: "nwc",
      createInvoice: async () => ({ bolt11: "lnbc1", paymentHash: "aa".repeat(32), expiresAt: "2026-11-25T11:00:00.000Z" }),
      lookupInvoice: async () => {
        throw new LightningError("the relay did not answer in 15 s");
      },
      payInvoice: async () => ({ status: "unknown", reason: "no answer from the wallet" }),
      lookupPayment: async () => ({ status: "unknown", reason: "no payment", notFound: true }),
    };
    const wallet = recordingCalls(backend, recorder);

    expect(await wallet.createInvoice(1000, "memo", 600)).toMatchObject({ bolt11: "lnbc1" });
    await Promise.all(deferred);
    expect(await status()).toMatchObject({ last_ok_at: "2026-11-25T10:00:00.000Z", last_ok_call: "createInvoice", last_error: null });

    clock += 5_000;
    await expect(wallet.lookupInvoice("aa".repeat(32))).rejects.toThrow("the relay did not answer in 15 s");
    expect(await wallet.payInvoice("lnbc1", 10)).toEqual({ status: "unknown", reason: "no answer from the wallet" });
    // "Not found" is an answer, not an error; successes are written at most once a minute.
    expect(await wallet.lookupPayment("aa".repeat(32))).toMatchObject({ notFound: true });
    await Promise.all(deferred);
    expect((await status())!.last_ok_call).toBe("createInvoice");
    clock += 61_000;
    expect(await wallet.lookupPayment("aa".repeat(32))).toMatchObject({ notFound: true });
    await Promise.all(deferred);
    expect(await status()).toMatchObject({
      last_ok_call: "lookupPayment",
      last_ok_at: "2026-11-25T10:01:06.000Z",
      last_error_at: "2026-11-25T10:00:05.000Z",
      last_error_call: "payInvoice",
      last_error: "no answer from the wallet",
    });

    const health = await moneyHealth(makeDeps(env, () => {}));
    expect(health.backends).toContainEqual(
      expect.objectContaining({ backend: "nwc", lastErrorCall: "payInvoice", lastError: "no answer from the wallet", lastErrorAt: "2026-11-25T10:00:05.000Z" }),
    );
  });
});
