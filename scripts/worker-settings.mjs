/**
 * The Worker's settings (DESIGN.md §11) that `npm start` passes from the shell, and that test runs set themselves.
 * LOCAL_DEV is not among them: start.mjs always sets it itself (worker/deployment.ts).
 */
export const WORKER_SETTINGS = [
  "LIGHTNING_BACKEND",
  "LNBITS_URL",
  "LNBITS_ADMIN_KEY",
  "NWC_URL",
  "LOCAL_WALLET_URL",
  "WEBHOOK_SECRET",
  "ADMIN_PIN",
  "ADMIN_PUBKEYS",
  "ALIAS_DOMAIN",
  "LNURL_OVERRIDES",
  "INVOICE_EXPIRY_SECONDS",
  "AUTO_RELEASE_DAYS",
  "PUBLIC_CACHE_SECONDS",
  "NOSTR_SECRET_KEY",
  "NOSTR_RELAYS",
];
