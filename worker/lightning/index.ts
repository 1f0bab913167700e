// Chooses the platform's Lightning backend from LIGHTNING_BACKEND (DESIGN.md §5, §11):
// `dev` (the default), `lnbits` or `nwc`; anything else is a configuration error, never a silent
// fallback to the simulated wallet.
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

/** The backend LIGHTNING_BACKEND names: `dev` when unset; throws LightningError("configuration") otherwise. */
export function lightningBackendKind(env: LightningSettings): LightningBackendKind {
  const kind = (env.LIGHTNING_BACKEND ?? "").trim().toLowerCase() || "dev";
  if (kind === "dev" || kind === "lnbits" || kind === "nwc") return kind;
  throw new LightningError(`LIGHTNING_BACKEND must be dev, lnbits or nwc, not "${env.LIGHTNING_BACKEND}"`, "configuration");
}

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
