// Browser tests (DESIGN.md §10): Playwright driving Debian's Chromium against a fresh `npm start`.
// Run with `npm run test:e2e`; the root vitest.config.ts never picks these files up.
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    root: path.resolve(import.meta.dirname, ".."),
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["e2e/support/global-setup.ts"],
    // One app, one browser at a time: the files run one after another.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
