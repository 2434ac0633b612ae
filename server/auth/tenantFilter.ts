/**
 * The one tenant filter (DESIGN 5): the conditions that keep a query inside a call's checked scope. CRUD lists and
 * records, reports, the dashboard, imports and domain handlers all call it, so a change to the tenant rule is one
 * change. A scope names its provider (`sysid`; null for a system user acting platform-wide) and the schools the
 * call may touch (`schids`; null: every school of the provider, empty: none, so no row at all); a pickup clerk's
 * also its pickup points (`pickupPointIds`), and a table without a pickup-point column holds none of its rows: the
 * filter fails closed.
 */
import { eq, inArray, sql, type Column, type SQL } from "drizzle-orm";
import type { Scope } from "./scope";

/** The columns a table carries its tenant in; a table without one of them is not narrowed by it. */
export interface TenantColumns {
  sysid?: Column;
  schid?: Column;
  pickupPoint?: Column;
}

export interface TenantFilterOptions {
  /**
   * A value as the statement should carry it: itself (default), or a placeholder of a statement prepared once per
   * shape; `part` names the value's place in the shape.
   */
  bind?: (part: string, value: number) => unknown;
  /** told when the condition is always false (no school in the scope, or a clerk's points on a table without them): a shape of its own */
  onNoSchool?: () => void;
}

export function tenantFilter(scope: Pick<Scope, "sysid" | "schids"> & Partial<Pick<Scope, "pickupPointIds">>, columns: TenantColumns, options: TenantFilterOptions = {}): SQL[] {
  const bind = options.bind ?? ((_part: string, value: number) => value);
  const conditions: SQL[] = [];
  if (columns.sysid && scope.sysid !== null) conditions.push(eq(columns.sysid, bind("sysid", scope.sysid)));
  if (columns.schid && scope.schids !== null) {
    if (scope.schids.length === 0) {
      options.onNoSchool?.();
      conditions.push(sql`false`);
    } else if (scope.schids.length === 1) conditions.push(eq(columns.schid, bind("schid", scope.schids[0])));
    else conditions.push(inArray(columns.schid, scope.schids.map((id) => bind("schids", id))));
  }
  const points = scope.pickupPointIds;
  if (points !== null && points !== undefined) {
    if (!columns.pickupPoint || points.length === 0) {
      options.onNoSchool?.();
      conditions.push(sql`false`);
    } else conditions.push(inArray(columns.pickupPoint, points.map((id) => bind("points", id))));
  }
  return conditions;
}
