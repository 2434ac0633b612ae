/**
 * The authorisation matrix, generated from the operation registry and the catalogue (never a hand-kept list):
 * every registered operation is called with no token, with every demo account's token, and with other tenants'
 * ids. It must answer token_error without a session, FAIL to a role it does not name, FAIL for a tenant outside
 * the caller's authority, FAIL for writes while the caller's term has expired, and never hand out another
 * tenant's rows: not in a list, a record, a report's rows or figures, nor in an exported file (read back with
 * exceljs), found by the tenant columns, the records referred to and the texts only one tenant's seeded rows hold.
 * The demo accounts are joined by a provider staff account with no school assigned, which sees no school's rows.
 * An operation registered tomorrow is covered by this file the day it is registered.
 */
import { auditLogEntity } from "../../catalogue/audit";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ReportDecl } from "../../common/catalogue";
import { refTitleKey } from "../../common/fieldRules";
import { yuanToFen } from "../../common/money";
import { hasAnyRole } from "../../common/roleKeys";
import { reports } from "../../resources.config";
import { loadAuthority } from "../../server/auth/authority";
import { termExpired } from "../../server/auth/expiry";
import { tenantColumnNames } from "../../server/db/catalogueTables";
import { catalogueTables, pickupPoints, providers, users } from "../../server/db/schema";
import { reportSources } from "../../server/domains/reports";
import type { ColumnOf } from "../../server/engine/crud";
import { translator } from "../../server/lib/i18n";
import type { Envelope } from "../../server/protocol/envelope";
import { ANY_SIGNED_IN, type Operation, type SessionOperation } from "../../server/protocol/registry";
import { describeOnEmbedded } from "../helpers/db";
import {
  demoAccountCases,
  demoRowsNeeded,
  entityOf,
  foreignNameIn,
  foreignRecordIn,
  foreignTenantIn,
  registeredOperations,
  sessionOf,
  sheetRows,
  tenantData,
  tenantMap,
  XLSX_MIME,
  type DemoAccountCase,
  type TenantData,
  type TenantMap,
} from "./registryCases";
import { createTestApp, idByTitle, type TestApp } from "./support";

const zh = translator("zh");
const SYSTEM_ERROR = zh("api.system_error");
const operations = registeredOperations();
const sessionOperations = operations.filter((o): o is SessionOperation<unknown> => o.needsToken);

function allows(operation: SessionOperation<unknown>, account: DemoAccountCase): boolean {
  return operation.roles === ANY_SIGNED_IN || hasAnyRole(account.auth.roles, operation.roles);
}

const label = (o: Operation<unknown>) => `${o.path}:${o.method}`;
const reportOf = (o: Operation<unknown>) => reports.find((r) => r.name === o.method || r.exportOperation === o.method);

/** A measure's value as the API gives it, in its stored form (money in fen). */
const stored = (report: ReportDecl, measure: string, value: unknown) =>
  report.measures.find((m) => m.name === measure)?.type === "money" ? yuanToFen(String(value)) : Number(value);

/** A measure's cell of an exported sheet in the API's form: a rate is a fraction there, a percentage in the API. */
const fromSheet = (report: ReportDecl, measure: string, cell: unknown) =>
  report.measures.find((m) => m.name === measure)?.type === "rate" ? Math.round(Number(cell) * 1000) / 10 : stored(report, measure, cell);

it("registers every operation that needs a session with its roles and its effect", () => {
  expect(sessionOperations.length).toBeGreaterThan(30);
  for (const operation of sessionOperations) {
    expect(operation.roles === ANY_SIGNED_IN || operation.roles.length > 0, label(operation)).toBe(true);
    expect(["read", "write", "renewal", "account"], label(operation)).toContain(operation.effect);
  }
  // what may be called without a session is short and known
  // (the payer page's calls: tests/server/payerApi.test.ts checks they answer one student's records only,
  // feePayments.test.ts the WeChat sign-in, shopOrders.test.ts the school shop's, afterSales.test.ts its after-sales,
  // expressTemplates.test.ts its freight, shopPages.test.ts its pages,
  // traceSource.test.ts a garment's public facts, registrations.test.ts a provider's application)
  expect(operations.filter((o) => !o.needsToken).map(label).sort()).toEqual([
    "adminapi:login",
    "adminapiv2:getwebsetinfo",
    "adminapiv2:registerapply",
    "adminapiv2:registerpassword",
    "adminapiv2:registerstatus",
    "h5api:h5aftersaleadd",
    "h5api:h5aftersalecancel",
    "h5api:h5aftersalereturn",
    "h5api:h5aftersales",
    "h5api:h5checkpay",
    "h5api:h5entry",
    "h5api:h5find",
    "h5api:h5goodsinfo",
    "h5api:h5goodslist",
    "h5api:h5oauth",
    "h5api:h5pay",
    "h5api:h5pickuppoints",
    "h5api:h5receipt",
    "h5api:h5shopfreight",
    "h5api:h5shoporder",
    "h5api:h5shopordercancel",
    "h5api:h5shoporderinfo",
    "h5api:h5shoporders",
    "h5api:h5shoppage",
    "h5api:h5tracesource",
  ]);
});

describeOnEmbedded("authorisation matrix", (kind) => {
  let t: TestApp;
  let accounts: DemoAccountCase[];
  let tenants: TenantMap;
  let data: TenantData;
  /** a provider staff account with no school assigned (yet, or any more) */
  let unassigned: DemoAccountCase;

  beforeAll(async () => {
    t = await createTestApp(kind);
    accounts = await demoAccountCases(t);
    const sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    const [user] = await t.db
      .insert(users)
      .values({ username: "staff_unassigned", passwordHash: "-", name: "Unassigned Staff", userType: "service_schadmin", sysid: sunrise })
      .returning({ id: users.id });
    const auth = (await loadAuthority(t.db, user!.id))!;
    expect(auth.usable && auth.assignedSchoolIds.length === 0).toBe(true);
    unassigned = { username: "staff_unassigned", userId: user!.id, auth, sysid: sunrise, schids: [], pickupPointIds: null };
    accounts.push(unassigned);
    // a clerk verifying at two of Sunrise's points (the demo clerk verifies at one), beside a third it may not see
    const [clerk] = await t.db.insert(users).values({ username: "clerk_two_points", passwordHash: "-", name: "Two Points Clerk", userType: "pickup", sysid: sunrise }).returning({ id: users.id });
    const north = await idByTitle(t.db, pickupPoints, "Sunrise North Gate Pickup");
    await t.db.update(pickupPoints).set({ verifiers: sql`array_append(${pickupPoints.verifiers}, ${clerk!.id})` }).where(eq(pickupPoints.id, north));
    await t.db.insert(pickupPoints).values({ sysid: sunrise, title: "Sunrise East Gate Pickup", address: "East Gate, 1 Sunrise Road", verifiers: [clerk!.id], sch_ids: [] });
    const clerkAccount = (await demoAccountCases(t, ["clerk_two_points"]))[0]!;
    expect(clerkAccount.pickupPointIds).toHaveLength(2);
    accounts.push(clerkAccount);
    tenants = await tenantMap(t);
    data = await tenantData(t);
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

  /** The operation's answer; an export's is its file, followed through its job and the download centre. */
  function callOrExport(operation: SessionOperation<unknown>, payload: Record<string, unknown>, token: string): Promise<Envelope> {
    const exports = operation.method === entityOf(operation)?.exportOperation || operation.method === reportOf(operation)?.exportOperation;
    return exports ? t.exportFile(operation.path, operation.method, payload, { token }) : t.call(operation.path, operation.method, payload, { token });
  }

  /** The rows of the file an export answered, after checking none of its texts is another tenant's. */
  async function fileRows(res: Envelope, account: DemoAccountCase, where: string): Promise<unknown[][] | null> {
    const file = res.data?.items as { mime?: unknown; content_base64?: unknown } | undefined;
    if (file?.mime !== XLSX_MIME || typeof file.content_base64 !== "string") return null;
    const rows = await sheetRows(file.content_base64);
    expect(foreignNameIn(rows, account, data, "file"), where).toBeNull();
    return rows;
  }

  // what the operations below answered: every role's calls and the files read back, checked once they have all run
  let allowedCalls = 0;
  let files = 0;

  it.each(sessionOperations.map((operation) => [label(operation), operation] as const))(
    "%s: refused to the roles it does not name, served to the others without a fault or another tenant's rows",
    async (_label, operation) => {
      const entity = entityOf(operation);
      const report = reportOf(operation);
      for (const account of accounts) {
        const token = await sessionOf(t, account);
        const res = await callOrExport(operation, {}, token);
        const where = `${label(operation)} as ${account.username}`;
        if (!allows(operation, account)) {
          expect(res, where).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
          continue;
        }
        allowedCalls++;
        expect(res.return_code, where).not.toBe("token_error");
        expect(res.return_msg, where).not.toBe(SYSTEM_ERROR);
        expect(foreignTenantIn(res.data, account, tenants), where).toBeNull();
        expect(foreignRecordIn(res.data, account, data, entity), where).toBeNull();
        expect(foreignNameIn(res.data, account, data), where).toBeNull();

        const rows = await fileRows(res, account, where);
        if (!rows) continue;
        files++;
        if (entity && operation.method === entity.exportOperation) {
          // an entity's export holds the rows its list counts for the same caller, no more; the audit log's list
          // counts the export's own entry too, written once its file was
          const list = await t.call(operation.path, `${entity.name}list`, { limit: 1 }, { token });
          expect(list.return_code, where).toBe("SUCCESS");
          const writtenByExport = entity.name === auditLogEntity.name ? 1 : 0;
          expect(rows.length - 1 + writtenByExport, where).toBe(Number(list.data?.total));
        } else if (report && operation.method === report.exportOperation) {
          // a report's export holds the rows and total its answer gives the same caller, no more
          const answer = await t.call(operation.path, report.name, {}, { token });
          const items = answer.data?.items as Record<string, unknown>[];
          const measures = (row: Record<string, unknown>) => report.measures.map((m) => stored(report, m.name, row[m.name]));
          expect(rows.length, where).toBe(items.length + 2);
          const sheetRow = (row: unknown[]) => [row[0], ...report.measures.map((m, i) => fromSheet(report, m.name, row[i + 1]))];
          expect(rows.slice(1, -1).map(sheetRow), where).toEqual(items.map((item) => [item[refTitleKey(report.dimension.name)], ...measures(item)]));
          expect(sheetRow(rows.at(-1)!).slice(1), where).toEqual(measures(answer.data?.sums as Record<string, unknown>));
        }
      }
    },
  );

  it("served a hundred calls and more, and read back the student export, the activation codes' and every report's", () => {
    expect(allowedCalls).toBeGreaterThan(100);
    expect(files).toBeGreaterThan(5);
  });

  it("answers every report's figures from the caller's own schools only, as the report's source counts them there", async () => {
    let checked = 0;
    for (const report of reports) {
      const source = reportSources[report.name];
      if (!source) throw new Error(`report ${report.name} has no source`);
      for (const account of accounts.filter((a) => hasAnyRole(a.auth.roles, report.roles))) {
        // the tenant's conditions, made here from the account alone
        const tenantOnly = (column: ColumnOf) => {
          const conditions: SQL[] = [];
          if (account.sysid !== null) conditions.push(eq(column("sysid"), account.sysid));
          if (report.scope === "school" && account.schids !== null) conditions.push(account.schids.length > 0 ? inArray(column("sch_id"), account.schids) : eq(column("sch_id"), -1));
          return conditions.length > 0 ? and(...conditions) : undefined;
        };
        const expected = await source.rows(t.db, { dimension: report.dimension, payload: {}, where: tenantOnly });
        const res = await t.call("adminapiv2", report.name, {}, { token: await sessionOf(t, account) });
        const where = `${report.name} as ${account.username}`;
        expect(res.return_code, where).toBe("SUCCESS");
        const sums = res.data?.sums as Record<string, unknown>;
        // a rate is computed from two of the sums, never summed
        for (const measure of report.measures.filter((m) => m.type !== "rate")) {
          const total = expected.reduce((sum, row) => sum + (Number(row[measure.name] ?? 0) || 0), 0);
          expect(stored(report, measure.name, sums[measure.name]), `${where}: ${measure.name}`).toBe(total);
        }
        // an account of no school has nothing to count
        if (account.schids?.length !== 0) expect(report.measures.some((m) => Number(sums[m.name]) > 0), `${where} counts something`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(reports.length);
  });

  it("shows a provider staff account with no school assigned no school's rows and no figures", async () => {
    const token = await sessionOf(t, unassigned);
    let lists = 0;
    for (const operation of sessionOperations.filter((o) => o.effect === "read" && allows(o, unassigned))) {
      const where = label(operation);
      const entity = entityOf(operation);
      const report = reportOf(operation);
      const res = await callOrExport(operation, {}, token);
      expect(res.return_msg, where).not.toBe(SYSTEM_ERROR);
      if (entity && operation.method === `${entity.name}list` && tenantColumnNames(entity).schid) {
        expect(res.return_code, where).toBe("SUCCESS");
        expect(res.data, where).toMatchObject({ items: [], total: 0 });
        lists++;
      } else if (report && operation.method === report.name) {
        for (const measure of report.measures) expect(Number((res.data?.sums as Record<string, unknown>)[measure.name]), where).toBe(0);
      } else if (operation.method === "dashboard") {
        const figures = (res.data?.items as { figures: { key: string; value: number }[] }).figures;
        expect(figures.length, where).toBeGreaterThan(0);
        for (const figure of figures) expect(figure.value, `${where}: ${figure.key}`).toBe(0);
      }
      const rows = await fileRows(res, unassigned, where);
      if (rows && (operation.method === entity?.exportOperation || operation.method === report?.exportOperation)) expect(rows.length, where).toBeLessThanOrEqual(2);
    }
    // the schools, grades, classes and import log lists at least
    expect(lists).toBeGreaterThanOrEqual(4);
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
      if (!entity || entity.implementedBy === "domain") continue;
      const recordOperation = ["info", "edit", "del"].some((action) => operation.method === `${entity.name}${action}`) || entity.actions?.some((action) => action.name === operation.method);
      if (!recordOperation) continue;
      const table = catalogueTables[entity.name]!;
      const tenant = tenantColumnNames(entity);
      const providerColumn = entity.providerColumn;
      if (!tenant.sysid && !tenant.schid && !providerColumn) continue;
      const rows = (await t.db.select().from(table)) as Record<string, unknown>[];
      if (rows.length === 0) demoRowsNeeded(entity, 0, `${label(operation)} is tried on, as another tenant's record`);
      for (const account of accounts.filter((a) => a.sysid !== null && allows(operation, a))) {
        const foreignRow = rows.find((row) => {
          const sysid = Number(row[tenant.sysid ?? providerColumn ?? ""]);
          const schId = tenant.schid ? Number(row[tenant.schid]) : null;
          return sysid !== account.sysid || (schId !== null && account.schids !== null && !account.schids.includes(schId));
        });
        if (!foreignRow) continue;
        const token = await sessionOf(t, account);
        // an action names its record by its own field (refundadd: order_id), or by the value of its key (a code)
        const action = entity.actions?.find((a) => a.name === operation.method);
        const key = action?.key;
        const naming = key ? { [key]: foreignRow[key] } : { [action?.idField ?? "id"]: foreignRow.id };
        const res = await t.call(operation.path, operation.method, { ...naming, title: "Changed" }, { token });
        const where = `${label(operation)} as ${account.username} on ${entity.name} ${String(foreignRow.id)}`;
        // an expired account is stopped before the record is looked for: that reveals nothing either
        if (operation.effect === "write" && termExpired(account.auth, t.clock.now())) expect(res, where).toEqual({ return_code: "FAIL", return_msg: zh("api.term_expired") });
        else if (key) {
          // a value found nowhere in the caller's tenant, in the words of a value no record holds, naming the key's field
          const value = String(foreignRow[key]);
          const keyLabel = zh(entity.fields.find((f) => f.name === key)!.label);
          const message = zh(action.keyUnknown ?? "api.key_unknown", { field: keyLabel, value, [key]: value });
          expect(res, where).toEqual({ return_code: "FAIL", return_msg: message, data: { errors: [{ field: key, message }] } });
        } else expect(res, where).toEqual({ return_code: "FAIL", return_msg: zh("api.not_found") });
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
