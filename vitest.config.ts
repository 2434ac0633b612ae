import os from "node:os";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// Unit/component tests run in jsdom; server tests run in node against a real database.
export default defineConfig({
  plugins: [react()],
  test: {
    // two files at a time even on two cores (vitest's default would leave one): much of a server test's time is
    // spent waiting on PostgreSQL, and a file at a time took twice as long
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "jsdom",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          setupFiles: ["tests/helpers/jsdom-setup.ts"],
          // antd's forms render slowly in jsdom, more so with another test file on the other core
          testTimeout: 15000,
          // two copies of react-router break refine's router hooks in tests
          server: { deps: { inline: [/@refinedev\//] } },
        },
      },
      {
        extends: true,
        test: {
          name: "server",
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
