/** adminapiv2: subscription renewal (spec 4.3, 4.4). */
import { asc, eq } from "drizzle-orm";
import { fenToYuan } from "../../common/money";
import { tableColumn } from "../db/catalogueTables";
import { mealPackages } from "../db/schema";
import type { OperationRegistry } from "../protocol/registry";

/** Who may look at the packages: schools buy them, providers buy them for a school, operators issue codes for them. */
const PACKAGE_READERS = ["system", "systemv2", "service", "servicev2", "school", "schoolv2"] as const;

export function registerRenewalOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "getsetmeal",
    needsToken: true,
    roles: PACKAGE_READERS,
    async handler(ctx) {
      const rows = await ctx.db
        .select({
          id: tableColumn(mealPackages, "id"),
          title: tableColumn(mealPackages, "title"),
          fee: tableColumn(mealPackages, "fee"),
          term_months: tableColumn(mealPackages, "term_months"),
        })
        .from(mealPackages)
        .where(eq(tableColumn(mealPackages, "status"), "1"))
        .orderBy(asc(tableColumn(mealPackages, "sort")), asc(tableColumn(mealPackages, "id")));
      return { data: { items: rows.map((row) => ({ ...row, fee: fenToYuan(Number(row.fee)) })) } };
    },
  });
}
