// Chooses the platform's Lightning backend from LIGHTNING_BACKEND (DESIGN.md §5, §11):
// `dev` (the default on a local run), `lnbits` or `nwc`. Anything else, or the dev wallet on a
// deployed Worker, switches payments off (a 503 naming the setting), never a silent fallback to
// the simulated wallet (decision 011).
import { isLocalRun } from "../deployment";
import { AppError } from "../errors";
import { LightningError, type LightningBackend } from "./backend";
import { DevWallet, type DevWalletOptions, type DevWalletStore } from "./dev-backend";
import { LnbitsBackend } from "./lnbits";
import type { FetchLike } from "./lnurl";
import { NwcBackend, relayTransport, type NwcEncryption, type NwcTransport } from "./nwc";

export type { CreatedInvoice, InvoiceLookup, InvoiceStatus, LightningBackend, PaymentLookup, PayResult } from "./backend";
export { LightningError, routingFeeCap } from "./backend";

/** The settings this module reads (a subset of the Worker's Env). */
export interface LightningSettings {
  LIGHTNING_BACKEND?: string;
  LNBITS_URL?: string;
  LNBITS_ADMIN_KEY?: string;
  NWC_URL?: string;
  LOCAL_DEV?: string;
}

export interface LightningDeps {
  /** Outbound HTTP for LNbits. Default: the global fetch. */
  fetch?: FetchLike;
  /** The dev wallet's books (D1 in the app, MemoryDevWalletStore in tests). Required for `dev`. */
  devStore?: DevWalletStore;
  devOptions?: DevWalletOptions;
  /** LNbits posts paid invoices here (/api/webhooks/lightning/<secret>). */
  webhookUrl?: string;
  /** NIP-47 transport; default a WebSocket to the relay (`webSocket`, default the global WebSocket). */
  nwcTransport?: NwcTransport;
  webSocket?: typeof WebSocket;
  nwcEncryption?: NwcEncryption;
  now?: () => number;
}

export type LightningBackendKind = LightningBackend["kind"];

/** No money moves on this Worker: every use of the wallet answers 503 with the reason (app.onError). */
export class PaymentsSwitchedOff extends AppError {
  constructor(message: string) {
    super(503, "payments_off", message);
    this.name = "PaymentsSwitchedOff";
  }
}

/**
 * Why no money may move on this Worker, or null when it may: a LIGHTNING_BACKEND it does not know,
 * or the dev wallet (also the default when unset) on a deployed Worker. A `wrangler deploy` that
 * forgot the setting, or took the top-level `dev` of wrangler.toml, must not take real people's
 * orders with a simulated wallet anybody can "pay" through /api/dev.
 */
export function paymentsOffReason(env: LightningSettings): string | null {
  const name = backendName(env);
  if (name !== "dev" && name !== "lnbits" && name !== "nwc") {
    return `Payments are switched off: LIGHTNING_BACKEND is "${env.LIGHTNING_BACKEND}"; it must be lnbits or nwc (or dev on a local run).`;
  }
  if (name === "dev" && !isLocalRun(env)) {
    return "Payments are switched off: LIGHTNING_BACKEND must be set to lnbits or nwc on a deployed Gigstr (the simulated dev wallet only runs locally).";
  }
  return null;
}

/** Throws PaymentsSwitchedOff unless money may move here; for work that writes before it reaches the wallet. */
export function assertPaymentsOn(env: LightningSettings): void {
  const reason = paymentsOffReason(env);
  if (reason) throw new PaymentsSwitchedOff(reason);
}

/** The backend LIGHTNING_BACKEND names (`dev` when unset); throws PaymentsSwitchedOff when payments are off. */
export function lightningBackendKind(env: LightningSettings): LightningBackendKind {
  assertPaymentsOn(env);
  return backendName(env) as LightningBackendKind;
}

/** Whether this Worker may use the simulated dev wallet: LIGHTNING_BACKEND is dev (or unset) on a local run. */
export function devWalletAllowed(env: LightningSettings): boolean {
  return isLocalRun(env) && backendName(env) === "dev";
}

const backendName = (env: LightningSettings) => (env.LIGHTNING_BACKEND ?? "").trim().toLowerCase() || "dev";

export function lightningBackendFor(env: LightningSettings, deps: LightningDeps = {}): LightningBackend {
  switch (lightningBackendKind(env)) {
    case "dev":
      if (!deps.devStore) throw new LightningError("LIGHTNING_BACKEND=dev needs the dev wallet's store", "configuration");
      return new DevWallet(deps.devStore, { now: deps.now, ...deps.devOptions });
    case "lnbits":
      if (!env.LNBITS_URL || !env.LNBITS_ADMIN_KEY) throw new LightningError("LIGHTNING_BACKEND=lnbits needs LNBITS_URL and LNBITS_ADMIN_KEY", "configuration");
      return new LnbitsBackend({
        url: env.LNBITS_URL,
        adminKey: env.LNBITS_ADMIN_KEY,
        fetch: deps.fetch ?? ((url, init) => fetch(url, init)),
        webhookUrl: deps.webhookUrl,
        now: deps.now,
      });
    case "nwc":
      if (!env.NWC_URL) throw new LightningError("LIGHTNING_BACKEND=nwc needs NWC_URL", "configuration");
      return new NwcBackend({
        url: env.NWC_URL,
        transport: deps.nwcTransport ?? relayTransport(deps.webSocket),
        encryption: deps.nwcEncryption,
        now: deps.now,
      });
  }
}
