/**
 * The authorisation matrix, generated from the operation registry and the catalogue (never a hand-kept list):
 * every registered operation is called with no token, with every demo account's token, and with other tenants'
 * ids. It must answer token_error without a session, FAIL to a role it does not name, FAIL for a tenant outside
 * the caller's authority, FAIL for writes while the caller's term has expired, and never hand out another
 * tenant's rows. An operation registered tomorrow is covered by this file the day it is registered.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { hasAnyRole } from "../../common/roleKeys";
import { termExpired } from "../../server/auth/expiry";
import { tenantColumnNames } from "../../server/db/catalogueTables";
import { catalogueTables } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { ANY_SIGNED_IN, type Operation, type SessionOperation } from "../../server/protocol/registry";
import { describeOnDatabases } from "../helpers/db";
import { demoAccountCases, entityOf, foreignTenantIn, registeredOperations, sessionOf, tenantMap, type DemoAccountCase, type TenantMap } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

const zh = translator("zh");
const SYSTEM_ERROR = zh("api.system_error");
const operations = registeredOperations();
const sessionOperations = operations.filter((o): o is SessionOperation<unknown> => o.needsToken);

function allows(operation: SessionOperation<unknown>, account: DemoAccountCase): boolean {
  return operation.roles === ANY_SIGNED_IN || hasAnyRole(account.auth.roles, operation.roles);
}

const label = (o: Operation<unknown>) => `${o.path}:${o.method}`;

it("registers every operation that needs a session with its roles and its effect", () => {
  expect(sessionOperations.length).toBeGreaterThan(30);
  for (const operation of sessionOperations) {
    expect(operation.roles === ANY_SIGNED_IN || operation.roles.length > 0, label(operation)).toBe(true);
    expect(["read", "write", "renewal", "account"], label(operation)).toContain(operation.effect);
  }
  // what may be called without a session is short and known
  expect(operations.filter((o) => !o.needsToken).map(label).sort()).toEqual(["adminapi:login", "adminapiv2:getwebsetinfo"]);
});

describeOnDatabases("authorisation matrix", (kind) => {
  let t: TestApp;
  let accounts: DemoAccountCase[];
  let tenants: TenantMap;

  beforeAll(async () => {
    t = await createTestApp(kind);
    accounts = await demoAccountCases(t);
    tenants = await tenantMap(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A provider the account may not act in, and a school outside its schools (a sibling school where it has one). */
  function foreignTenants(account: DemoAccountCase): { sysid: number; schId: number } {
    const sysid = tenants.providers.find((p) => p !== account.sysid)!;
    const schools = [...tenants.providerOfSchool.entries()];
    const sibling = schools.find(([id, p]) => p === account.sysid && account.schids !== null && !account.schids.includes(id));
    const other = schools.find(([, p]) => p !== account.sysid)!;
    return { sysid, schId: (sibling ?? other)[0] };
  }

  it("answers token_error to every session operation called without a session, or with a revoked one", async () => {
    for (const operation of sessionOperations) {
      const res = await t.call(operation.path, operation.method, {});
      expect(res.return_code, label(operation)).toBe("token_error");
      const forged = await t.call(operation.path, operation.method, {}, { token: "x".repeat(43) });
      expect(forged.return_code, label(operation)).toBe("token_error");
    }
  });

  it("refuses every operation to the roles it does not name, and serves the others without a fault or another tenant's rows", async () => {
    let allowedCalls = 0;
    for (const operation of sessionOperations) {
      for (const account of accounts) {
        const token = await sessionOf(t, account);
        const res = await t.call(operation.path, operation.method, {}, { token });
        const where = `${label(operation)} as ${account.username}`;
        if (!allows(operation, account)) {
          expect(res, where).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
          continue;
        }
        allowedCalls++;
        expect(res.return_code, where).not.toBe("token_error");
        expect(res.return_msg, where).not.toBe(SYSTEM_ERROR);
        expect(foreignTenantIn(res.data, account, tenants), where).toBeNull();
      }
    }
    expect(allowedCalls).toBeGreaterThan(100);
  });

  it("refuses every provider and school outside the caller's authority, named by sysid or sch_id, without revealing anything", async () => {
    for (const operation of sessionOperations) {
      for (const account of accounts.filter((a) => a.sysid !== null && allows(operation, a))) {
        const foreign = foreignTenants(account);
        for (const payload of [{ sysid: foreign.sysid }, { sch_id: foreign.schId }, { sysid: account.sysid, sch_id: foreign.schId }]) {
          const token = await sessionOf(t, account);
          const res = await t.call(operation.path, operation.method, payload, { token });
          const where = `${label(operation)} as ${account.username} with ${JSON.stringify(payload)}`;
          expect(res.return_code, where).toBe("FAIL");
          expect(res.return_msg, where).toBe(zh("api.not_found"));
          expect(res.data, where).toBeUndefined();
        }
      }
    }
  });

  it("answers a record of another tenant, named by id, like a missing one", async () => {
    let checked = 0;
    for (const operation of sessionOperations) {
      const entity = entityOf(operation);
      if (!entity || !["info", "edit", "del"].some((action) => operation.method === `${entity.name}${action}`)) continue;
      const table = catalogueTables[entity.name]!;
      const tenant = tenantColumnNames(entity);
      const providerColumn = entity.providerColumn;
      if (!tenant.sysid && !tenant.schid && !providerColumn) continue;
      const rows = (await t.db.select().from(table)) as Record<string, unknown>[];
      for (const account of accounts.filter((a) => a.sysid !== null && allows(operation, a))) {
        const foreignRow = rows.find((row) => {
          const sysid = Number(row[tenant.sysid ?? providerColumn ?? ""]);
          const schId = tenant.schid ? Number(row[tenant.schid]) : null;
          return sysid !== account.sysid || (schId !== null && account.schids !== null && !account.schids.includes(schId));
        });
        if (!foreignRow) continue;
        const token = await sessionOf(t, account);
        const res = await t.call(operation.path, operation.method, { id: foreignRow.id, title: "Changed" }, { token });
        // an expired account is stopped before the record is looked for: that reveals nothing either
        const refusal = operation.effect === "write" && termExpired(account.auth, t.clock.now()) ? "api.term_expired" : "api.not_found";
        expect(res, `${label(operation)} as ${account.username} on ${entity.name} ${String(foreignRow.id)}`).toEqual({ return_code: "FAIL", return_msg: zh(refusal) });
        checked++;
      }
      // the row is still there, unchanged
      const after = (await t.db.select().from(table)) as Record<string, unknown>[];
      expect(after.length, entity.name).toBe(rows.length);
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("refuses every write while the caller's term has expired, and keeps reading and renewal open", async () => {
    const expired = accounts.find((a) => a.username === "harbour")!;
    expect(termExpired(expired.auth, t.clock.now())).toBe(true);
    let writes = 0;
    for (const operation of sessionOperations.filter((o) => allows(o, expired))) {
      const token = await sessionOf(t, expired);
      const res = await t.call(operation.path, operation.method, {}, { token });
      if (operation.effect === "write") {
        writes++;
        expect(res, label(operation)).toEqual({ return_code: "FAIL", return_msg: zh("api.term_expired") });
      } else {
        expect(res.return_msg, label(operation)).not.toBe(zh("api.term_expired"));
      }
    }
    expect(writes).toBeGreaterThan(3);
  });
});
