/**
 * adminapiv2 `waitingcounts`: what waits for the caller's decision, for the menu's badges and the home page in one
 * call. For every action the catalogue declares `waiting` (a refund request for its provider, a channel submitted
 * for the platform's operators) whose roles the caller holds: the records in the action's `from` states within the
 * caller's tenant (an operator acting platform-wide: every provider's; a provider, or an operator switched into
 * it: that provider's), how many, and the one waiting longest. Each is one read of the state's index: waiting
 * records are few.
 */
import { and, inArray, sql } from "drizzle-orm";
import type { ActionDecl, EntityDecl } from "../../../common/catalogue";
import { anyOf, hasAnyRole } from "../../../common/roleKeys";
import type { WaitingCount } from "../../../common/waiting";
import { entities } from "../../../resources.config";
import { resolveScope } from "../../auth/scope";
import { tableColumn, tenantColumnNames } from "../../db/catalogueTables";
import { catalogueTables } from "../../db/schema";
import { entityTenantConditions } from "../../engine/crud";
import { notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";

interface Waiting {
  entity: EntityDecl;
  action: ActionDecl & { waiting: string; from: readonly string[] };
}

/** The actions whose records wait for a decision, with their entities. */
export const WAITING: readonly Waiting[] = entities.flatMap((entity) =>
  (entity.actions ?? []).filter((action): action is Waiting["action"] => Boolean(action.waiting && action.from && entity.stateField)).map((action) => ({ entity, action })),
);

/** Who may ask: whoever may take one of the decisions. */
export const WAITING_ROLES: readonly string[] = anyOf(...WAITING.map((w) => w.action.roles));

async function countOf(ctx: OperationContext, { entity, action }: Waiting): Promise<WaitingCount> {
  const table = catalogueTables[entity.name];
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const id = tableColumn(table, "id");
  // a platform's record (a provider's application) is in no provider
  const sysidColumn = tenantColumnNames(entity).sysid;
  const sysid = sysidColumn ? tableColumn(table, sysidColumn) : sql`0`;
  // one aggregate over the state's index: how many, and the one waiting longest with its provider
  const [row] = await ctx.db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      first: sql<number | null>`min(${id})`,
      firstSysid: sql<number | null>`(array_agg(${sysid} order by ${id}))[1]`,
    })
    .from(table)
    .where(and(inArray(tableColumn(table, entity.stateField!), [...action.from]), ...entityTenantConditions(entity, table, ctx, scope)));
  return {
    key: action.waiting,
    entity: entity.name,
    action: action.name,
    states: [...action.from],
    count: row?.count ?? 0,
    first: row?.first == null ? null : { id: Number(row.first), sysid: Number(row.firstSysid) },
  };
}

/** The counts of the decisions the caller's roles may take (those of a switched provider included). */
export async function waitingCounts(ctx: OperationContext): Promise<WaitingCount[]> {
  if (!ctx.auth) throw notFound();
  return Promise.all(WAITING.filter((w) => hasAnyRole(ctx.roles, w.action.roles)).map((w) => countOf(ctx, w)));
}

export function registerWaitingOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "waitingcounts",
    needsToken: true,
    roles: WAITING_ROLES,
    effect: "read",
    async handler(ctx) {
      return { data: { items: await waitingCounts(ctx) } };
    },
  });
}
