/**
 * The declared record actions (server/engine/actions.ts), generated from the catalogue: every action of an
 * entity with states refuses a record in a state it does not start from, changing nothing and auditing nothing,
 * whoever calls it; the same call from a state it starts from gets past the state check. Roles and other
 * tenants' ids are covered for every action by authorization.test.ts, bad values by fuzz.test.ts.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ActionDecl, EntityDecl } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { termExpired } from "../../server/auth/expiry";
import { tableColumn, tenantColumnNames } from "../../server/db/catalogueTables";
import { auditLog, catalogueTables } from "../../server/db/schema";
import { entities } from "../../resources.config";
import { describeOnDatabases } from "../helpers/db";
import { demoAccountCases, sessionOf, type DemoAccountCase } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

const stateful = entities.flatMap((entity) =>
  entity.implementedBy === "domain" || !entity.stateField ? [] : (entity.actions ?? []).filter((action) => action.from).map((action) => ({ entity, action })),
);

/** Whether the row lies in the account's tenant. */
function ownRow(entity: EntityDecl, row: Row, account: DemoAccountCase): boolean {
  if (account.sysid === null) return true;
  const tenant = tenantColumnNames(entity);
  const sysidColumn = tenant.sysid ?? entity.providerColumn;
  if (sysidColumn && Number(row[sysidColumn]) !== account.sysid) return false;
  return !tenant.schid || account.schids === null || account.schids.includes(Number(row[tenant.schid]));
}

it("lists the actions of the entities with states, each starting from states its entity declares", () => {
  expect(stateful.length).toBeGreaterThan(0);
  for (const { entity, action } of stateful) {
    const states = entity.fields.find((f) => f.name === entity.stateField)?.options?.map((o) => o.value) ?? [];
    expect(states.length, entity.name).toBeGreaterThan(1);
    for (const state of [...action.from!, ...(typeof action.to === "string" ? [action.to] : (action.to ?? []))]) expect(states, `${action.name}: ${state}`).toContain(state);
  }
});

describeOnDatabases("record actions", (kind) => {
  let t: TestApp;
  let accounts: DemoAccountCase[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    accounts = await demoAccountCases(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One of the entity's records the account may act on, put in `state` (written directly, as a test fixture). */
  async function recordIn(entity: EntityDecl, account: DemoAccountCase, state: string): Promise<Row> {
    const table = catalogueTables[entity.name]!;
    const rows = (await t.db.select().from(table)) as Row[];
    const row = rows.find((r) => ownRow(entity, r, account));
    expect(row, `the demo data holds a ${entity.name} record of ${account.username}`).toBeDefined();
    await t.db
      .update(table)
      .set({ [entity.stateField!]: state })
      .where(eq(tableColumn(table, "id"), row!.id));
    return { ...row!, [entity.stateField!]: state };
  }

  async function stored(entity: EntityDecl, id: unknown): Promise<Row> {
    const table = catalogueTables[entity.name]!;
    const [row] = (await t.db.select().from(table).where(eq(tableColumn(table, "id"), id))) as Row[];
    return row;
  }

  async function audited(action: ActionDecl, id: unknown): Promise<number> {
    return (await t.db.select().from(auditLog).where(and(eq(auditLog.action, action.name), eq(auditLog.entityId, String(id))))).length;
  }

  it("refuses every action on a record in a state it does not start from, and changes nothing", async () => {
    let checked = 0;
    for (const { entity, action } of stateful) {
      const states = entity.fields.find((f) => f.name === entity.stateField)!.options!.map((o) => o.value);
      for (const account of accounts.filter((a) => hasAnyRole(a.auth.roles, action.roles) && !termExpired(a.auth, t.clock.now()))) {
        const token = await sessionOf(t, account);
        for (const state of states.filter((s) => !action.from!.includes(s))) {
          const row = await recordIn(entity, account, state);
          const auditsBefore = await audited(action, row.id);
          const res = await t.call(entity.apiPath ?? "adminapiv2", action.name, { [action.idField ?? "id"]: row.id }, { token, headers: { "accept-language": "en" } });
          const where = `${action.name} as ${account.username} from ${state}`;
          expect(res.return_code, where).toBe("FAIL");
          expect(res.return_msg, where).toMatch(/is not possible: the record is /);
          expect(await stored(entity, row.id), where).toEqual(row);
          expect(await audited(action, row.id), where).toBe(auditsBefore);
          checked++;
        }
        // from a state it starts from, the state check lets it through (its fields or its effect may still refuse)
        const row = await recordIn(entity, account, action.from![0]);
        const res = await t.call(entity.apiPath ?? "adminapiv2", action.name, { [action.idField ?? "id"]: row.id }, { token, headers: { "accept-language": "en" } });
        expect(res.return_msg, `${action.name} as ${account.username} from ${action.from![0]}`).not.toMatch(/is not possible: the record is /);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
