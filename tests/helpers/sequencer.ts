/**
 * The order the unit, component and server test files start in. vitest starts first the files that took longest on its
 * last run in this checkout; a fresh clone has no such record, and vitest then starts the largest files first. The
 * longest server files are short ones (the whole registry fuzzed from a few declarations, server processes killed and
 * started again): started among the last, one core worked alone on them at the end of the run. They start first here,
 * whatever vitest knows; the other files keep vitest's order.
 */
import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** the longest files first, as measured on two cores (seconds of a worker's time) */
const LONGEST_FILES = [
  "tests/server/fuzz.test.ts", // 150: every operation sent every kind of bad value
  "tests/server/killed.test.ts", // 140: server processes killed and started again, on both databases
  "tests/server/process.test.ts", // 75: server processes started as an operator starts them
  "tests/server/backups.test.ts", // 55: dumps and restores through PostgreSQL's own tools
  "tests/server/authorization.test.ts", // 35: every operation called by every role
  "tests/server/demoData.test.ts", // 30: the demo seeded twice
  "tests/server/throttle.test.ts", // 30: bursts of logins on both databases
];

// a file renamed or removed fails here, naming it, instead of quietly starting late again
const ROOT = path.resolve(import.meta.dirname, "../..");
for (const file of LONGEST_FILES) if (!fs.existsSync(path.join(ROOT, file))) throw new Error(`tests/helpers/sequencer.ts lists ${file}, which does not exist`);

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FILES.indexOf(path.relative(file.project.config.root, file.moduleId).split(path.sep).join("/"));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    // a stable sort: the files not listed stay in vitest's order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
