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
    // one file at a time: a file's server and Chromium keep both cores busy (two files at once took 1,173 s against
    // 1,258 s one at a time, every test slower and nearer its time limits)
    fileParallelism: false,
    // the files share one module graph (the server, playwright, the helpers are imported once, not once a file): each
    // file still starts its own server on its own copy of the demo, and its own Chromium
    isolate: false,
    // what a page shows after the server answers (a list read again, a title set) is waited for as a condition, up
    // to ten seconds: a busy machine answers later, never otherwise
    expect: { poll: { timeout: 10_000 } },
  },
});
