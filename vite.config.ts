import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";
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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Every text file of the build, once written, gets file.br and file.gz beside it at the strongest settings (the
 * server sends them as they are, to a browser that accepts them): compressed once here, never per request.
 */
function precompress(): Plugin {
  let outDir = "dist";
  const compressible = /\.(js|mjs|css|html|svg|json|txt|xml|map|ico|webmanifest)$/;
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? files(full) : compressible.test(entry.name) ? [full] : [];
    });
  return {
    name: "precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await Promise.all(
        files(outDir).map(async (file) => {
          const content = fs.readFileSync(file);
          // below this, the headers would outweigh the saving
          if (content.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzip(content, { level: 9 }),
          ]);
          fs.writeFileSync(`${file}.br`, br);
          fs.writeFileSync(`${file}.gz`, gz);
        }),
      );
    },
  };
}

// The SPA is built into dist/ and served by the Fastify server on the same port as /weapi.
export default defineConfig({
  plugins: [react(), precompress()],
  // a JSON module exports its object only: named exports would write every key of a locale chunk twice
  json: { namedExports: false },
  build: {
    outDir: "dist",
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // two pages: the console (index.html) and the payer's phone pages (h5.html, served for /h5/{code}), which
      // share no code with the console but React (and the QR code generator its pay step loads)
      input: {
        index: path.resolve(import.meta.dirname, "index.html"),
        h5: path.resolve(import.meta.dirname, "h5.html"),
      },
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
