import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import LongestFirstSequencer from "./tests/helpers/sequencer";

const UNIT_DIR = "tests/unit";

/**
 * The unit test files that replace a module (vi.mock): a mock holds only where the module is imported afresh, so
 * these run isolated; the others share one module graph per worker (importing antd and the console once, not once a
 * file, halves the unit tests' time).
 */
const mockingUnitFiles = fs
  .readdirSync(UNIT_DIR, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.test\.tsx?$/.test(file) && fs.readFileSync(path.join(UNIT_DIR, file), "utf8").includes("vi.mock("))
  .map((file) => path.posix.join(UNIT_DIR, file.split(path.sep).join("/")));

const unitProject = {
  environment: "jsdom" as const,
  setupFiles: ["tests/helpers/jsdom-setup.ts"],
  // antd's forms render slowly in jsdom, more so with another test file on the other core
  testTimeout: 15000,
  // two copies of react-router break refine's router hooks in tests
  server: { deps: { inline: [/@refinedev\//] } },
};

// Unit/component tests run in jsdom; server tests run in node against a real database.
export default defineConfig({
  plugins: [react()],
  test: {
    // two files at a time even on two cores (vitest's default would leave one): much of a server test's time is
    // spent waiting on PostgreSQL, and a file at a time took twice as long
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // the longest files start first, on a fresh clone too
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { ...unitProject, name: "unit", isolate: false, include: [`${UNIT_DIR}/**/*.test.{ts,tsx}`], exclude: mockingUnitFiles },
      },
      {
        extends: true,
        test: { ...unitProject, name: "unit-mocking", include: mockingUnitFiles },
      },
      {
        extends: true,
        test: {
          name: "server",
          isolate: false,
          environment: "node",
          include: ["tests/server/**/*.test.ts"],
          // finds PostgreSQL (or fails unless TEST_SKIP=postgres leaves it out), then makes the databases test apps start from
          globalSetup: ["tests/helpers/globalSetup.ts", "tests/helpers/databaseImages.ts"],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
