import { mkdirSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// wrangler.toml points static assets at the built bundle; tests do not need it built.
mkdirSync("dist/web", { recursive: true });

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "domain", include: ["domain/**/*.test.ts"], environment: "node" },
      },
      {
        // The Worker's NWC client against an independent wallet service through a real relay, both started
        // in Node on 127.0.0.1 (scripts/local-nostr); the relay and the service cannot run inside workerd.
        test: { name: "nwc", include: ["worker/**/*.conformance.test.ts"], environment: "node", testTimeout: 20_000 },
      },
      {
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
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["worker/**/*.test.ts", "durable-objects/**/*.test.ts"],
          exclude: ["worker/**/*.conformance.test.ts"],
          setupFiles: ["./worker/test/apply-migrations.ts"],
        },
      },
      {
        plugins: [react()],
        test: {
          name: "web",
          include: ["web/**/*.test.tsx", "web/**/*.test.ts"],
          environment: "jsdom",
          setupFiles: ["./web/src/test/setup.ts"],
        },
      },
    ],
  },
});
