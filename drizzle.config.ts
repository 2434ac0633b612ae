import { defineConfig } from "drizzle-kit";

// One schema and one migration set for PGlite and PostgreSQL; migrations are applied at server start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema.ts",
  out: "./server/db/migrations",
});
