// The closing lines of a test run (`.ci/run` prints them last): each failed test by file and name with the
// first line of its failure, read from the suites' JSON reports. CI's log is long and is often read from its
// end, where a failure in the unit tests, which run first, is otherwise out of sight.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const REPORTS = [
  ["unit tests (npm test)", "test-results/unit.json"],
  ["browser tests (dev)", "e2e/artifacts/results.json"],
  ["browser tests (nwc)", "e2e/artifacts/results-nwc.json"],
];

for (const [label, file] of REPORTS) {
  const at = path.join(root, file);
  if (!existsSync(at)) {
    console.log(`${label}: no report (${file}); the suite did not run to its end, see its output above`);
    continue;
  }
  const report = JSON.parse(readFileSync(at, "utf8"));
  console.log(`${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  for (const suite of report.testResults ?? []) {
    const file = path.relative(root, suite.name);
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    // A file that failed before any test ran (an import that threw) has no failed test, only a message.
    if (failed.length === 0 && suite.status === "failed") console.log(`  ✗ ${file}: ${firstLine(suite.message)}`);
    for (const t of failed) console.log(`  ✗ ${file} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
}

function firstLine(text) {
  return String(text ?? "").split("\n").find((line) => line.trim() !== "") ?? "";
}
