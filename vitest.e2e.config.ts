import { defineConfig } from "vitest/config";

// Browser tests: the built SPA and the real server, driven in Debian's Chromium by playwright-core.
export default defineConfig({
  test: {
    name: "e2e",
    environment: "node",
    include: ["tests/e2e/**/*.test.ts"],
    // finds PostgreSQL (or fails unless TEST_SKIP=postgres leaves it out), then seeds the demo every file starts from
    globalSetup: ["tests/helpers/globalSetup.ts", "tests/helpers/browserDatabases.ts"],
    testTimeout: 120000,
    hookTimeout: 120000,
    // two files at once, each with its own server, database copy and Chromium: a browser test waits on the page
    // much of its time, and one file at a time left a core idle
    fileParallelism: true,
    maxWorkers: 2,
    // what a page shows after the server answers (a list read again, a title set) is waited for as a condition, up
    // to ten seconds: a busy machine answers later, never otherwise
    expect: { poll: { timeout: 10_000 } },
  },
});
