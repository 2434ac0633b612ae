import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// Unit/component tests run in jsdom; server tests run in node against a real database.
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "jsdom",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          setupFiles: ["tests/helpers/jsdom-setup.ts"],
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
          // finds PostgreSQL, or fails unless TEST_SKIP=postgres leaves it out
          globalSetup: ["tests/helpers/globalSetup.ts"],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
