// Chooses the platform's Lightning backend from LIGHTNING_BACKEND (DESIGN.md §5, §11).
import { LightningError, type LightningBackend } from "./backend";
import { DevWallet, type DevWalletStore } from "./dev-backend";
import type { FetchLike } from "./lnurl";

export interface LightningSettings {
  LIGHTNING_BACKEND?: string;
  LNBITS_URL?: string;
  LNBITS_ADMIN_KEY?: string;
  NWC_URL?: string;
}

export interface LightningDeps {
  fetch?: FetchLike;
  devStore?: DevWalletStore;
}

export function lightningBackendFor(env: LightningSettings, deps: LightningDeps = {}): LightningBackend {
  const kind = (env.LIGHTNING_BACKEND ?? "").trim().toLowerCase() || "dev";
  if (kind === "dev") {
    if (!deps.devStore) throw new LightningError("LIGHTNING_BACKEND=dev needs a dev wallet store", "configuration");
    return new DevWallet(deps.devStore);
  }
  throw new LightningError(`LIGHTNING_BACKEND "${kind}" is not available yet`, "configuration");
}
