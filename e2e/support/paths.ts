import path from "node:path";

/** Screenshots and the server log of an e2e run (gitignored). */
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, "..", "artifacts");

/** The admin PIN the e2e app is started with. */
export const E2E_ADMIN_PIN = "246810";

/** The app's log file in ARTIFACTS_DIR for a suite run on `backend` (dev or nwc). */
export const serverLogName = (backend: string) => `server-app-${backend}.log`;
