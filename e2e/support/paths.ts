import path from "node:path";

/** Screenshots and the server log of an e2e run (gitignored). */
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, "..", "artifacts");

/** The admin PIN the e2e app is started with. */
export const E2E_ADMIN_PIN = "246810";
