// Mutation testing of the money rules: `npm run test:mutation` (Stryker with its Vitest runner).
// It mutates the files in `mutate` and fails (exit 1) below a 90 % mutation score.
//
// Only the `domain` Vitest project may run here (the others need workerd or jsdom). Stryker's Vitest
// runner has no project filter, and its `testFiles` option cannot be used for this: with it, Stryker
// 10.1 activates static mutants (module-level values such as payout-rule.ts's NEVER_SENT) only after
// the module was imported, so they are reported Survived although the tests kill them
// (stryker-mutator/stryker-js#6144). Instead the sandbox Stryker copies holds no test file but the
// domain project's: the other projects then have nothing to run and start no pool, and Vitest's related
// mode picks the domain tests that import the mutated file.

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.config.ts" },
  mutate: ["domain/payout-rule.ts", "domain/fees.ts"],
  ignorePatterns: [
    // every test file of the other projects (worker, durable-objects, nwc, web, costs) stays out of the sandbox
    "**/*.test.ts",
    "**/*.test.tsx",
    "!domain/**/*.test.ts",
    "bench/**/*.measure.ts",
    // not needed to run the domain tests
    "dist",
    "e2e",
    "test-results",
    "reports",
    ".wrangler",
  ],
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ["clear-text", "progress", "html", "json"],
  clearTextReporter: { allowColor: false, logTests: false },
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
};
