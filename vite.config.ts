import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

/** A package and every package it depends on, by name, as installed under node_modules/. */
function withDependencies(roots: string[]): Set<string> {
  const found = new Set<string>();
  const visit = (name: string) => {
    if (found.has(name)) return;
    const manifest = path.resolve("node_modules", name, "package.json");
    if (!fs.existsSync(manifest)) return;
    found.add(name);
    const { dependencies = {} } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> };
    Object.keys(dependencies).forEach(visit);
  };
  roots.forEach(visit);
  return found;
}

// @refinedev/antd is one module that imports react-markdown for its MarkdownField, which the console never
// shows; those packages declare no `sideEffects`, so without this the whole markdown parser ships with the hooks
const markdownPackages = withDependencies(["react-markdown", "remark-gfm"]);
const packageOf = (id: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];

// The SPA is built into dist/ and served by the Fastify server on the same port as /weapi.
export default defineConfig({
  plugins: [react()],
  // a JSON module exports its object only: named exports would write every key of a locale chunk twice
  json: { namedExports: false },
  build: {
    outDir: "dist",
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      treeshake: {
        moduleSideEffects: (id) => {
          const name = packageOf(id);
          return !(name && markdownPackages.has(name));
        },
      },
      output: {
        // a language's namespace files travel together: one request when it is chosen, not one per namespace
        manualChunks: (id) => {
          const language = /\/locales\/([a-z]{2})\/[^/]+\.json$/.exec(id)?.[1];
          if (language) return `locale-${language}`;
          // the charting library (only the report pages' chart imports it): a lazy chunk of its own, kept in the
          // browser's cache across releases that change the report pages only
          if (/\/node_modules\/(echarts|zrender)\//.test(id)) return "echarts";
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: { "/weapi": "http://127.0.0.1:8080", "/pay": "http://127.0.0.1:8080" },
  },
});
