/**
 * The typed tables of the catalogue entities are generated from their declarations and checked in: this fails
 * while server/db/catalogue.generated.ts differs from what the catalogue gives (run `npm run generate:tables`,
 * then `npx drizzle-kit generate`).
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { entities } from "../../resources.config";
import { GENERATED_TABLES_FILE, renderCatalogueTables } from "../../server/db/generateTables";

it("keeps the checked-in tables of the catalogue entities in step with their declarations", () => {
  expect(fs.readFileSync(GENERATED_TABLES_FILE, "utf8")).toBe(renderCatalogueTables(entities));
});
