import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The SPA is built into dist/ and served by the Fastify server on the same port as /weapi.
export default defineConfig({
  plugins: [react()],
  // a JSON module exports its object only: named exports would write every key of a locale chunk twice
  json: { namedExports: false },
  build: {
    outDir: "dist",
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
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
