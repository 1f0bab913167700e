import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api";

/** GET /api/config: what the app needs to know about this deployment. */
export interface AppConfig {
  aliasDomain: string;
  lightningBackend: string;
  /** POST /api/dev/invoices/pay works here (a local run's simulated payer): the "Pay with dev wallet" button. */
  devWallet?: boolean;
  platformFeePercent: number;
  /** The platform's Nostr key (null while publishing is off) and its relays; a remote signer's QR code names these relays. */
  nostr?: { platformPubkey: string | null; relays: string[] };
}

export const configKeys = {
  all: () => ["/api/config"] as const,
};

export function useConfig() {
  return useQuery({ queryKey: configKeys.all(), queryFn: () => apiJson<AppConfig>("GET", "/api/config") });
}

/** The alias domain for display: the deployment's setting, else this site's host (DESIGN.md §11). */
export function useAliasDomain(): string {
  const { data } = useConfig();
  return data?.aliasDomain || window.location.hostname;
}
