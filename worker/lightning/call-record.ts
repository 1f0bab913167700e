// Each Lightning backend's last answered call and last error, kept in D1 for the admin's Money Health:
// "the wallet last answered 2 minutes ago; its last error was ...". A call the backend could not answer
// (it threw, or a payment's outcome is unknown) is an error; an answer, even a refusal, is a success.
// Successes are written at most once a minute per isolate (they are many); errors every time.
import type { Db } from "../db/client";
import { backendStatus } from "../db/schema";
import type { LightningBackend, PayResult, PaymentLookup } from "./backend";

export interface CallRecorder {
  ok(backend: string, call: string): void;
  error(backend: string, call: string, message: string): void;
}

const OK_WRITE_EVERY_MS = 60_000;
const lastOkWrite = new Map<string, number>();

/** A recorder writing to `backend_status` through `defer` (after the answer), never failing the call. */
export function d1CallRecorder(db: Db, defer: (work: () => Promise<unknown>) => void, now = () => Date.now()): CallRecorder {
  const write = (set: Omit<typeof backendStatus.$inferInsert, "backend">, backend: string) =>
    defer(() =>
      db
        .insert(backendStatus)
        .values({ backend, ...set })
        .onConflictDoUpdate({ target: backendStatus.backend, set })
        .run()
        .catch((err) => console.error("could not record a Lightning call", err)),
    );
  return {
    ok(backend, call) {
      const at = now();
      if (at - (lastOkWrite.get(backend) ?? 0) < OK_WRITE_EVERY_MS) return;
      lastOkWrite.set(backend, at);
      write({ lastOkAt: new Date(at).toISOString(), lastOkCall: call }, backend);
    },
    error(backend, call, message) {
      write({ lastErrorAt: new Date(now()).toISOString(), lastErrorCall: call, lastError: message.slice(0, 500) }, backend);
    },
  };
}

/** The backend, with every call's outcome told to `recorder`. Behaves exactly as the backend does. */
export function recordingCalls(backend: LightningBackend, recorder: CallRecorder): LightningBackend {
  const kind = backend.kind;
  async function timed<T>(call: string, run: () => Promise<T>, unanswered: (result: T) => string | null): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (err) {
      recorder.error(kind, call, err instanceof Error ? err.message : String(err));
      throw err;
    }
    const problem = unanswered(result);
    if (problem) recorder.error(kind, call, problem);
    else recorder.ok(kind, call);
    return result;
  }
  const never = () => null;
  const wrapped: LightningBackend = {
    kind,
    createInvoice: (amountSats, memo, expirySec) => timed("createInvoice", () => backend.createInvoice(amountSats, memo, expirySec), never),
    lookupInvoice: (paymentHash) => timed("lookupInvoice", () => backend.lookupInvoice(paymentHash), never),
    payInvoice: (bolt11, maxFeeSats) => timed("payInvoice", () => backend.payInvoice(bolt11, maxFeeSats), (r: PayResult) => (r.status === "unknown" ? r.reason : null)),
    lookupPayment: (paymentHash) =>
      timed("lookupPayment", () => backend.lookupPayment(paymentHash), (r: PaymentLookup) => (r.status === "unknown" && !r.notFound ? (r.reason ?? "no answer") : null)),
  };
  if (backend.checkWallet) wrapped.checkWallet = () => backend.checkWallet!();
  return wrapped;
}
