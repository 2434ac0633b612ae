import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The SPA is built into dist/ and served by the Fastify server on the same port as /weapi.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { "/weapi": "http://127.0.0.1:8080", "/pay": "http://127.0.0.1:8080" },
  },
});
