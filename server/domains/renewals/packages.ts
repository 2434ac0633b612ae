/** Renewal packages as buyers see them: getsetmeal, and the package an order or a code is for. */
import { and, asc, eq } from "drizzle-orm";
import { fenToYuan } from "../../../common/money";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES, SCHOOL_ROLES } from "../../../common/roleKeys";
import { tableColumn } from "../../db/catalogueTables";
import type { DbOrTx } from "../../db/client";
import { mealPackages } from "../../db/schema";
import { parseTenantId } from "../../auth/scope";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationRegistry } from "../../protocol/registry";

/** Who may look at the packages: schools buy them, providers buy them for a school, operators issue codes for them. */
const PACKAGE_READERS = anyOf(OPERATOR_ROLES, PROVIDER_ROLES, SCHOOL_ROLES);

const packageColumns = {
  id: tableColumn(mealPackages, "id"),
  title: tableColumn(mealPackages, "title"),
  fee: tableColumn(mealPackages, "fee"),
  term_months: tableColumn(mealPackages, "term_months"),
};
const enabled = eq(tableColumn(mealPackages, "status"), "1");

export interface MealPackage {
  id: number;
  title: string;
  feeFen: number;
  termMonths: number;
}

/** An enabled package by the id a client sent; FAIL (package unavailable) otherwise. */
export async function enabledPackage(db: DbOrTx, rawId: unknown): Promise<MealPackage> {
  let id: number | undefined;
  try {
    id = parseTenantId(rawId);
  } catch {
    id = undefined;
  }
  if (id === undefined) throw new ApiFailure("api.meal_unavailable");
  const [row] = await db.select(packageColumns).from(mealPackages).where(and(eq(packageColumns.id, id), enabled));
  if (!row) throw new ApiFailure("api.meal_unavailable");
  return { id: Number(row.id), title: String(row.title), feeFen: Number(row.fee), termMonths: Number(row.term_months) };
}

export function registerPackageOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "getsetmeal",
    needsToken: true,
    roles: PACKAGE_READERS,
    effect: "read",
    async handler(ctx) {
      const rows = await ctx.db
        .select(packageColumns)
        .from(mealPackages)
        .where(enabled)
        .orderBy(asc(tableColumn(mealPackages, "sort")), asc(packageColumns.id));
      return { data: { items: rows.map((row) => ({ ...row, fee: fenToYuan(Number(row.fee)) })) } };
    },
  });
}
