import { mkdirSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// wrangler.toml points static assets at the built bundle; tests do not need it built.
mkdirSync("dist/web", { recursive: true });

// A test's deadline is only how long to wait before calling it stuck, never a speed check: a web file's first
// test, which also loads its modules, took 2.5 s on a quiet machine and ran past vitest's 5 s default under load
// (CI failed that way once). expect.poll waits as long as findBy does (web/src/test/setup.ts).
const DEADLINES = { testTimeout: 60_000, expect: { poll: { timeout: 15_000 } } };

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "domain", include: ["domain/**/*.test.ts"], environment: "node", ...DEADLINES },
      },
      {
        // The Worker's NWC client against an independent wallet service through a real relay, both started
        // in Node on 127.0.0.1 (scripts/local-nostr); the relay and the service cannot run inside workerd.
        test: { name: "nwc", include: ["worker/**/*.conformance.test.ts"], environment: "node", testTimeout: 20_000 },
      },
      {
        // The payout machine under injected faults through NWC (worker/services/payouts.chaos.test.ts): the
        // Worker's payout service on a real D1 (wrangler's platform proxy) beside a Node relay and wallet service.
        test: { name: "chaos", include: ["worker/**/*.chaos.test.ts"], environment: "node", testTimeout: 600_000 },
      },
      workerProject("worker", ["worker/**/*.test.ts", "durable-objects/**/*.test.ts"], ["worker/**/*.conformance.test.ts", "worker/**/*.chaos.test.ts"]),
      // What each main route costs D1 (`npm run scale`, bench/scale-model.mjs): not part of `npm test`.
      workerProject("costs", ["bench/**/*.measure.ts"]),
      {
        plugins: [react()],
        test: {
          name: "web",
          include: ["web/**/*.test.tsx", "web/**/*.test.ts"],
          environment: "jsdom",
          setupFiles: ["./web/src/test/setup.ts"],
          ...DEADLINES,
        },
      },
    ],
  },
});

/** Tests that run inside the Worker's runtime (workerd, with the bindings of wrangler.toml and a migrated D1). */
function workerProject(name: string, include: string[], exclude: string[] = []) {
  return {
    plugins: [
      cloudflareTest(async () => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
            LIGHTNING_BACKEND: "dev",
            ADMIN_PIN: "135790",
            LNURL_OVERRIDES: "",
            // A local run (worker/deployment.ts); tests of a deployed Worker pass LOCAL_DEV: undefined.
            LOCAL_DEV: "1",
            // Visitors' reads are not cached here (worker/public-cache.test.ts switches it on), so a test
            // reads what it just wrote.
            PUBLIC_CACHE_SECONDS: "0",
            // The platform's Nostr key (a fixed test key): every gig's listing goes to the outbox as it would on a
            // deployed Worker. Its relay is a closed port, so a cron run's sends fail at once and are retried later;
            // the tests that publish pass a relay of their own (worker/services/nostr-outbox*.test.ts).
            NOSTR_SECRET_KEY: "5c0d6a6a2f9e4b0f8a3d1e7c9b2a4f6e8d0c2b4a6f8e0d2c4b6a8f0e2d4c6b8a",
            NOSTR_RELAYS: "ws://127.0.0.1:1",
            // The payout chaos test's sequences and seed (npm run chaos; worker/services/payouts.property.test.ts).
            CHAOS_RUNS: process.env.CHAOS_RUNS ?? "",
            CHAOS_SEED: process.env.CHAOS_SEED ?? "",
          },
        },
      })),
    ],
    // A test that fills a rate limit may first wait for a fresh window (worker/test/factories.ts inOneRateWindow).
    test: { name, include, exclude, setupFiles: ["./worker/test/apply-migrations.ts"], ...DEADLINES },
  };
}
