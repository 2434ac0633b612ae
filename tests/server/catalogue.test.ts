import { and, eq, getTableColumns, getTableName, is, isNull, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHILD_SORT_FIELD } from "../../catalogue/assemble";
import type { EntityDecl } from "../../common/catalogue";
import { entities } from "../../resources.config";
import { auditLog, catalogueTables, providers, sessions, users } from "../../server/db/schema";
import * as schema from "../../server/db/schema";
import { tableColumn } from "../../server/db/catalogueTables";
import { queryRows } from "../../server/db/client";
import { registerOperations } from "../../server/domains";
import { CHILD_ORDER_FIELD } from "../../server/engine/children";
import { registerCatalogueOperations } from "../../server/engine/crud";
import { translator } from "../../server/lib/i18n";
import { OperationRegistry } from "../../server/protocol/registry";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");

const newProvider = (overrides: Row = {}): Row => ({
  title: "Riverside Learning",
  contact: "Xu Lan",
  phone: "021-5550999",
  servicer_ver: "v2",
  end_time: "2027-01-31",
  year_fee: "365.50",
  xcx_upload: "N",
  status: "1",
  username: "riverside",
  password: "secret-1",
  ...overrides,
});

/**
 * An entity's table: the generated one, or for an entity its domain implements (implementedBy "domain"), the
 * hand-written table of that name, which has no generated twin; other records may refer to it through a second view
 * of it by API names (server/db/referableTables.ts), whose every column is one of that table's, of the same type.
 */
function tableOf(entity: EntityDecl): PgTable {
  if (entity.implementedBy !== "domain") return catalogueTables[entity.name];
  const table = (Object.values(schema) as unknown[]).find((v): v is PgTable => is(v, PgTable) && getTableName(v) === entity.table);
  if (!table) throw new Error(`no table ${entity.table} in server/db/schema.ts for ${entity.name}`);
  const view = catalogueTables[entity.name];
  if (view) {
    expect(view, entity.name).not.toBe(table);
    const columns = new Map(Object.values(getTableColumns(table)).map((c) => [c.name, c.getSQLType()]));
    for (const column of Object.values(getTableColumns(view))) expect([entity.name, column.name, columns.get(column.name)]).toEqual([entity.name, column.name, column.getSQLType()]);
  }
  return table;
}

describe("schema", () => {
  it("exports a table for every catalogue entity by name, for drizzle-kit", () => {
    const exportedTables = new Set<unknown>(Object.values(schema).filter((v) => v && typeof v === "object" && Object.values(catalogueTables).includes(v as never)));
    for (const entity of entities) {
      if (entity.implementedBy === "domain") {
        expect(Object.values(schema)).toContain(tableOf(entity));
        continue;
      }
      if (entity.ownTable) {
        // a hand-written table of schema.ts, read by the engine through a view of it
        expect(Object.values(schema).some((value) => is(value, PgTable) && getTableName(value) === entity.table)).toBe(true);
        expect(getTableName(catalogueTables[entity.name])).toBe(entity.table);
        continue;
      }
      expect(getTableName(catalogueTables[entity.name])).toBe(entity.table);
      expect(exportedTables.has(catalogueTables[entity.name])).toBe(true);
    }
  });
});

describe("domain hooks", () => {
  it("refuses at start hooks given under no entity of the generic operations, naming the key", () => {
    expect(() => registerCatalogueOperations(new OperationRegistry(), entities, { studnet: {} })).toThrow(/hooks are given for "studnet"/);
    // the accounts are implemented by their domain: hooks there would never run either
    expect(() => registerCatalogueOperations(new OperationRegistry(), entities, { users: {} })).toThrow(/"users"/);
    expect(() => registerCatalogueOperations(new OperationRegistry(), entities, { student: {} })).not.toThrow();
  });
});

describe("child records", () => {
  it("are kept in order by the field the catalogue requires of every child entity when it loads", () => {
    expect(CHILD_ORDER_FIELD).toBe(CHILD_SORT_FIELD);
    const children = entities.flatMap((e) => e.children ?? []);
    expect(children.length).toBeGreaterThan(0);
    for (const decl of children) expect(entities.find((e) => e.name === decl.entity)?.fields.find((f) => f.name === CHILD_ORDER_FIELD)?.type, decl.entity).toBe("int");
  });
});

describe("field declarations", () => {
  it("put range filters only on dates and times, which the list page picks by day", () => {
    const ranges = entities.flatMap((entity) => entity.fields.filter((f) => f.filter === "range").map((f) => `${entity.name}.${f.name}:${f.type}`));
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.filter((r) => !/:(date|datetime)$/.test(r))).toEqual([]);
  });
});

describe("record actions", () => {
  it("are operations of the server allowed to exactly the role keys the catalogue gives them", () => {
    const registry = new OperationRegistry();
    registerOperations(registry);
    const actions = entities.flatMap((entity) => (entity.actions ?? []).map((action) => ({ entity, action })));
    expect(actions.length).toBeGreaterThan(0);
    for (const { entity, action } of actions) {
      const operation = registry.get(entity.apiPath ?? "adminapiv2", action.name);
      expect(operation?.needsToken ? operation.roles : undefined, action.name).toEqual(action.roles);
    }
  });
});

describeOnEmbedded("catalogue", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const list = (entity: string, username: string, payload: Row = {}) => t.call("adminapiv2", `${entity}list`, payload, { token: tokens[username] });
  const items = (res: { data?: Row }) => res.data?.items as Row[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "sysv1", "svc", "staff", "pickup", "school", "harbour", "svcv1", "schoolv1"]) tokens[u] = await t.login(u);
    const all = items(await list("service", "sysadmin", { limit: 100 }));
    for (const p of all) ids[String(p.title)] = Number(p.id);
    const schools = items(await list("school", "sysadmin", { limit: 100 }));
    for (const s of schools) ids[String(s.title)] = Number(s.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("has migrated every column of every catalogue table (drizzle-kit generate was run)", async () => {
    for (const entity of entities) {
      const rows = await queryRows<{ column_name: string }>(t.db, sql`select column_name from information_schema.columns where table_name = ${entity.table}`);
      const inDatabase = rows.map((r) => r.column_name).sort();
      const declared = Object.values(getTableColumns(tableOf(entity))).map((c) => c.name).sort();
      expect(inDatabase).toEqual(declared);
    }
  });

  describe("serviceinfo and schoolinfo", () => {
    it("gives a provider its own record with the fields the shell uses", async () => {
      const res = await t.call("adminapiv2", "serviceinfo", { id: ids["Sunrise Campus Services"] }, { token: tokens.svc });
      expect(res.return_code).toBe("SUCCESS");
      expect(res.data?.items).toMatchObject({
        id: ids["Sunrise Campus Services"],
        title: "Sunrise Campus Services",
        end_time: "2026-03-12",
        open_activity_mode: "1",
        xcx_upload: "Y",
        is_show_fee: "Y",
        servicer_ver: "v2",
        year_fee: "3650.00",
      });
      expect(res.data?.items).not.toHaveProperty("password");
    });

    it("answers another provider's id like a missing one, with no data", async () => {
      const other = await t.call("adminapiv2", "serviceinfo", { id: ids["Harbour Education Services"] }, { token: tokens.svc });
      const missing = await t.call("adminapiv2", "serviceinfo", { id: 999999 }, { token: tokens.svc });
      expect(other).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      expect(missing).toEqual(other);
      for (const u of ["staff", "pickup", "school"]) {
        expect((await t.call("adminapiv2", "serviceinfo", { id: ids["Sunrise Campus Services"] }, { token: tokens[u] })).return_code).toBe("SUCCESS");
        expect((await t.call("adminapiv2", "serviceinfo", { id: ids["Old Town Education"] }, { token: tokens[u] })).return_code).toBe("FAIL");
      }
      expect((await t.call("adminapiv2", "serviceinfo", { id: ids["Old Town Education"] }, { token: tokens.sysadmin })).return_code).toBe("SUCCESS");
    });

    it("gives schoolinfo by sch_id and sysid within the caller's schools only", async () => {
      const sunrise = ids["Sunrise Campus Services"];
      const own = await t.call("adminapiv2", "schoolinfo", { sch_id: ids["Sunrise No.1 Primary School"], sysid: sunrise }, { token: tokens.school });
      expect(own.return_code).toBe("SUCCESS");
      expect(own.data?.items).toMatchObject({ title: "Sunrise No.1 Primary School", endtime: "2026-03-14", id: ids["Sunrise No.1 Primary School"] });
      const sibling = await t.call("adminapiv2", "schoolinfo", { sch_id: ids["Sunrise No.2 Primary School"], sysid: sunrise }, { token: tokens.school });
      expect(sibling).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      const foreign = await t.call("adminapiv2", "schoolinfo", { sch_id: ids["Harbour Bay School"], sysid: ids["Harbour Education Services"] }, { token: tokens.svc });
      expect(foreign).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      const staffAssigned = await t.call("adminapiv2", "schoolinfo", { sch_id: ids["Sunrise No.2 Primary School"], sysid: sunrise }, { token: tokens.staff });
      expect(staffAssigned.return_code).toBe("SUCCESS");
      const staffOther = await t.call("adminapiv2", "schoolinfo", { sch_id: ids["Sunrise Middle School"], sysid: sunrise }, { token: tokens.staff });
      expect(staffOther.return_code).toBe("FAIL");
      const v1 = await t.call("adminapiv2", "schoolinfo", { sch_id: ids["Old Town Middle School"] }, { token: tokens.schoolv1 });
      expect(v1.data?.items).toMatchObject({ select_paymode: "Y" });
    });
  });

  describe("school list scoping", () => {
    const titles = async (username: string, payload: Row = {}) => items(await list("school", username, payload)).map((s) => s.title).sort();

    it("shows each role only its schools", async () => {
      expect(await titles("svc")).toEqual(["Sunrise Middle School", "Sunrise No.1 Primary School", "Sunrise No.2 Primary School"]);
      expect(await titles("staff")).toEqual(["Sunrise No.1 Primary School", "Sunrise No.2 Primary School"]);
      expect(await titles("school")).toEqual(["Sunrise No.1 Primary School"]);
      expect(await titles("harbour")).toEqual(["Harbour Bay School", "Harbour Hill Academy"]);
      expect((await list("school", "sysadmin")).data?.total).toBe(7);
      expect(await titles("sysadmin", { sysid: ids["Old Town Education"] })).toEqual(["Old Town Middle School", "Old Town Primary School"]);
    });

    it("refuses a foreign sysid or sch_id without revealing anything", async () => {
      expect(await list("school", "svc", { sysid: ids["Harbour Education Services"] })).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      expect((await list("school", "staff", { sch_id: ids["Sunrise Middle School"] })).return_code).toBe("FAIL");
      expect((await list("school", "svc", { sysid: "1 or 1=1" })).return_code).toBe("FAIL");
    });

    it("refuses roles the entity does not name", async () => {
      expect(await list("school", "pickup")).toEqual({ return_code: "FAIL", return_msg: "没有权限执行此操作" });
    });
  });

  describe("service CRUD", () => {
    it("lists with filters, sort and pagination", async () => {
      const all = await list("service", "sysadmin");
      expect(all.data?.total).toBe(3);
      expect(items(all).map((p) => p.id)).toEqual([...items(all).map((p) => p.id as number)].sort((a, b) => b - a));
      expect(items(await list("service", "sysadmin", { title: "harb" })).map((p) => p.title)).toEqual(["Harbour Education Services"]);
      expect((await list("service", "sysadmin", { title: "%" })).data?.total).toBe(0);
      expect(items(await list("service", "sysadmin", { servicer_ver: "v1" })).map((p) => p.title)).toEqual(["Old Town Education"]);
      expect(items(await list("service", "sysadmin", { xcx_upload: "Y" })).map((p) => p.title)).toEqual(["Sunrise Campus Services"]);
      const soon = await list("service", "sysadmin", { end_time_start: "2026-03-01", end_time_end: "2026-12-31" });
      expect(items(soon).map((p) => p.title)).toEqual(["Sunrise Campus Services"]);
      expect(items(await list("service", "sysadmin", { sort: "title" })).map((p) => p.title)).toEqual(["Harbour Education Services", "Old Town Education", "Sunrise Campus Services"]);
      expect(items(await list("service", "sysadmin", { sort: "-end_time" }))[0].title).toBe("Old Town Education");
      const page2 = await list("service", "sysadmin", { sort: "title", page: 2, limit: 2 });
      expect(page2.data?.total).toBe(3);
      expect(items(page2).map((p) => p.title)).toEqual(["Sunrise Campus Services"]);
      // a page beyond the last still tells the total, so the pager can lead back
      const beyond = await list("service", "sysadmin", { page: 5 });
      expect(items(beyond)).toEqual([]);
      expect(beyond.data?.total).toBe(3);
      expect((await list("service", "sysadmin", { page: 2, title: "Harbour" })).data?.total).toBe(1);
    });

    it("refuses bad pagination, sort and filter values", async () => {
      expect(await list("service", "sysadmin", { page: 0 })).toMatchObject({ return_code: "FAIL", return_msg: "页码必须是不小于 1 的整数" });
      expect(await list("service", "sysadmin", { limit: 101 })).toMatchObject({ return_code: "FAIL", return_msg: "每页条数必须在 1 到 100 之间" });
      expect((await list("service", "sysadmin", { limit: 0 })).return_code).toBe("FAIL");
      expect((await list("service", "sysadmin", { page: "abc" })).return_code).toBe("FAIL");
      expect(await list("service", "sysadmin", { sort: "remark" })).toMatchObject({ return_code: "FAIL", return_msg: "不支持按 remark 排序" });
      expect((await list("service", "sysadmin", { sort: "title; drop table users" })).return_code).toBe("FAIL");
      expect((await list("service", "sysadmin", { end_time_start: "2026-02-30" })).return_code).toBe("FAIL");
      expect((await list("service", "sysadmin", { status: "7" })).return_code).toBe("FAIL");
      expect((await list("service", "sysadmin", { title: { $gt: "" } })).return_code).toBe("FAIL");
      // a search text is bounded: 100 characters are searched, 101 refused naming the field, in the caller's language
      expect((await list("service", "sysadmin", { title: "x".repeat(100) })).data?.total).toBe(0);
      expect(await list("service", "sysadmin", { title: "x".repeat(101) })).toEqual({ return_code: "FAIL", return_msg: "title 的搜索内容最多 100 个字符" });
      const english = await t.call("adminapiv2", "orderlist", { student_id: "张".repeat(20_000) }, { token: tokens.svc, headers: { cookie: "language=en" } });
      expect(english).toEqual({ return_code: "FAIL", return_msg: "Search text of student_id: at most 100 characters" });
    });

    it("adds a provider with its first service account, in one transaction", async () => {
      const res = await t.call("adminapiv2", "serviceadd", newProvider(), { token: tokens.sysadmin });
      expect(res.return_code).toBe("SUCCESS");
      const created = res.data?.items as Row;
      expect(created).toMatchObject({ title: "Riverside Learning", year_fee: "365.50", end_time: "2027-01-31", is_show_fee: "N", open_activity_mode: "1" });
      expect(created).not.toHaveProperty("password");
      const token = await t.login("riverside", "secret-1");
      const info = await t.call("adminapi", "getuserinfo", {}, { token });
      expect((info.data?.items as Row).roles).toEqual(["servicev2"]);
      const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, "serviceadd"));
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ username: "sysadmin", entity: "service", entityId: String(created.id) });
    });

    it("refuses a duplicate title or username clearly and keeps nothing", async () => {
      const dupTitle = await t.call("adminapiv2", "serviceadd", newProvider({ title: "Sunrise Campus Services", username: "fresh-name" }), { token: tokens.sysadmin });
      expect(dupTitle.return_code).toBe("FAIL");
      expect(dupTitle.return_msg).toContain("已存在");
      const dupUser = await t.call("adminapiv2", "serviceadd", newProvider({ title: "Brand New Provider", username: "svc" }), { token: tokens.sysadmin });
      expect(dupUser).toMatchObject({ return_code: "FAIL", return_msg: "该用户名不可用，请换一个" });
      expect((await list("service", "sysadmin", { title: "Brand New" })).data?.total).toBe(0);
      expect(await t.db.select().from(users).where(eq(users.username, "fresh-name"))).toHaveLength(0);
    });

    it("validates fields with localised messages per field", async () => {
      const res = await t.call(
        "adminapiv2",
        "serviceadd",
        newProvider({ title: "", phone: "call me", end_time: "2026-13-01", year_fee: "12.345", servicer_ver: "v9", username: "x", password: "123" }),
        { token: tokens.sysadmin },
      );
      expect(res.return_code).toBe("FAIL");
      const errors = (res.data?.errors as { field: string; message: string }[]).map((e) => e.field).sort();
      expect(errors).toEqual(["end_time", "password", "phone", "servicer_ver", "title", "username", "year_fee"]);
      const english = await t.call("adminapiv2", "serviceadd", newProvider({ title: "Another", year_fee: "abc" }), { token: tokens.sysadmin, headers: { cookie: "language=en" } });
      const message = (english.data?.errors as { field: string; message: string }[])[0].message;
      expect(message).toMatch(/must be an amount with at most two decimals$/);
      expect(english.return_msg).toBe("Invalid parameter: year_fee");
      const spanish = await t.call("adminapiv2", "serviceadd", newProvider({ title: "Otra", end_time: "" }), { token: tokens.sysadmin, headers: { cookie: "language=es" } });
      expect((spanish.data?.errors as { message: string }[])[0].message).toMatch(/es obligatorio$/);
    });

    it("edits a provider and refuses a duplicate title", async () => {
      const id = ids["Harbour Education Services"];
      const res = await t.call("adminapiv2", "serviceedit", { id, contact: "Chen Hui", year_fee: "100" }, { token: tokens.sysadmin });
      expect(res.return_code).toBe("SUCCESS");
      expect(res.data?.items).toMatchObject({ contact: "Chen Hui", year_fee: "100.00", title: "Harbour Education Services" });
      const dup = await t.call("adminapiv2", "serviceedit", { id, title: "Old Town Education" }, { token: tokens.sysadmin });
      expect(dup.return_code).toBe("FAIL");
      const emptied = await t.call("adminapiv2", "serviceedit", { id, title: "" }, { token: tokens.sysadmin });
      expect(emptied.return_code).toBe("FAIL");
      expect((await t.call("adminapiv2", "serviceedit", { id: 999999, contact: "x" }, { token: tokens.sysadmin })).return_msg).toBe("记录不存在");
    });

    it("refuses provider management to a provider", async () => {
      for (const method of ["serviceadd", "serviceedit", "servicelist"]) {
        const res = await t.call("adminapiv2", method, newProvider({ id: ids["Sunrise Campus Services"], title: "Hijack" }), { token: tokens.svc });
        expect(res).toEqual({ return_code: "FAIL", return_msg: "没有权限执行此操作" });
      }
      expect((await t.call("adminapiv2", "servicedel", { id: 1 }, { token: tokens.sysadmin })).return_msg).toBe("未知的操作");
    });

    it("logs out a disabled provider's users at once", async () => {
      const harbourToken = await t.login("harbour");
      const res = await t.call("adminapiv2", "serviceedit", { id: ids["Harbour Education Services"], status: "0" }, { token: tokens.sysadmin });
      expect(res.return_code).toBe("SUCCESS");
      expect((await t.call("adminapi", "getuserinfo", {}, { token: harbourToken })).return_code).toBe("token_error");
      expect((await t.call("adminapi", "login", { username: "harbour", password: "demo1234" })).return_code).toBe("FAIL");
      await t.call("adminapiv2", "serviceedit", { id: ids["Harbour Education Services"], status: "1" }, { token: tokens.sysadmin });
      await expect(t.login("harbour")).resolves.toBeTruthy();
    });

    it("logs out a disabled school's accounts at once and for good: enabling it again brings no old token back", async () => {
      const school = ids["Sunrise No.1 Primary School"];
      const schoolTokens = [tokens.school, await t.login("school")];
      const userinfo = (token: string) => t.call("adminapi", "getuserinfo", {}, { token });
      const off = await t.call("adminapiv2", "schooledit", { id: school, status: "0", sysid: ids["Sunrise Campus Services"] }, { token: tokens.svc });
      expect(off.return_code, off.return_msg).toBe("SUCCESS");
      for (const token of schoolTokens) expect((await userinfo(token)).return_code).toBe("token_error");
      // revoked in the database, so every server process sees it
      const [{ id: schoolUser }] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, "school"));
      const live = await t.db.select().from(sessions).where(and(eq(sessions.userId, schoolUser), isNull(sessions.revokedAt)));
      expect(live).toEqual([]);
      expect(await t.call("adminapi", "login", { username: "school", password: "demo1234" })).toEqual({ return_code: "FAIL", return_msg: "账号已停用" });
      // the provider's staff working in the school are not the school's accounts
      expect((await userinfo(tokens.staff)).return_code).toBe("SUCCESS");

      const on = await t.call("adminapiv2", "schooledit", { id: school, status: "1", sysid: ids["Sunrise Campus Services"] }, { token: tokens.svc });
      expect(on.return_code, on.return_msg).toBe("SUCCESS");
      for (const token of schoolTokens) expect((await userinfo(token)).return_code).toBe("token_error");
      tokens.school = await t.login("school");
      expect((await userinfo(tokens.school)).return_code).toBe("SUCCESS");
    });
  });

  describe("role switching", () => {
    it("lets a system user act as the provider it names", async () => {
      const sunrise = ids["Sunrise Campus Services"];
      const without = await t.call("adminapiv2", "schooladd", { title: "Sunrise Kindergarten", endtime: "2027-06-30" }, { token: tokens.sysadmin });
      expect(without.return_code).toBe("FAIL");
      const switched = await t.call("adminapiv2", "schooladd", { sysid: sunrise, title: "Sunrise Kindergarten", endtime: "2027-06-30" }, { token: tokens.sysadmin });
      expect(switched.return_code).toBe("SUCCESS");
      expect(switched.data?.items).toMatchObject({ sysid: sunrise, title: "Sunrise Kindergarten", select_paymode: "N", status: "1" });
      const v1 = await t.call("adminapiv2", "schooladd", { sysid: ids["Old Town Education"], title: "Old Town Annex", endtime: "2027-06-30" }, { token: tokens.sysv1 });
      expect(v1.return_code).toBe("SUCCESS");
      const unknown = await t.call("adminapiv2", "schooladd", { sysid: 999999, title: "Nowhere", endtime: "2027-06-30" }, { token: tokens.sysadmin });
      expect(unknown.return_code).toBe("FAIL");
    });

    it("keeps a provider's school writes inside its provider", async () => {
      const add = await t.call("adminapiv2", "schooladd", { sysid: ids["Harbour Education Services"], title: "Smuggled", endtime: "2027-06-30" }, { token: tokens.svc });
      expect(add).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      const own = await t.call("adminapiv2", "schooladd", { title: "Sunrise Night School", endtime: "2027-06-30", sysid: 0 }, { token: tokens.svc });
      expect(own.return_code).toBe("FAIL");
      const ok = await t.call("adminapiv2", "schooladd", { title: "Sunrise Night School", endtime: "2026-03-10" }, { token: tokens.svc });
      expect(ok.data?.items).toMatchObject({ sysid: ids["Sunrise Campus Services"] });
      const editForeign = await t.call("adminapiv2", "schooledit", { id: ids["Harbour Bay School"], title: "Mine now" }, { token: tokens.svc });
      expect(editForeign).toEqual({ return_code: "FAIL", return_msg: "记录不存在" });
      const [row] = await t.db.select().from(providers).where(eq(tableColumn(providers, "id"), ids["Harbour Education Services"]));
      expect(row).toBeTruthy();
    });

    it("moves a school's term only by renewal: never past the provider's own term at add, never by edit", async () => {
      const sunrise = await t.call("adminapiv2", "serviceinfo", { id: ids["Sunrise Campus Services"] }, { token: tokens.svc });
      const sunriseEnd = String((sunrise.data?.items as Record<string, unknown>).end_time);
      const beyond = await t.call("adminapiv2", "schooladd", { title: "Sunrise Forever School", endtime: "2099-12-31" }, { token: tokens.svc });
      expect(beyond.return_code).toBe("FAIL");
      expect(beyond.data?.errors).toEqual([{ field: "endtime", message: expect.stringContaining(sunriseEnd) }]);
      const school = ids["Sunrise No.2 Primary School"];
      const before = (await t.call("adminapiv2", "schoolinfo", { sch_id: school }, { token: tokens.svc })).data?.items as Record<string, unknown>;
      const edit = await t.call("adminapiv2", "schooledit", { id: school, endtime: "2099-12-31" }, { token: tokens.svc });
      expect(edit).toMatchObject({ return_code: "FAIL", data: { errors: [{ field: "endtime" }] } });
      const after = (await t.call("adminapiv2", "schoolinfo", { sch_id: school }, { token: tokens.svc })).data?.items as Record<string, unknown>;
      expect(after.endtime).toBe(before.endtime);
    });

    it("takes a school sent back whole, its term as it stands being no change, and still refuses another term", async () => {
      const school = ids["Sunrise No.2 Primary School"];
      const record = (await t.call("adminapiv2", "schoolinfo", { sch_id: school }, { token: tokens.svc })).data?.items as Record<string, unknown>;
      expect(record.endtime).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const whole = await t.call("adminapiv2", "schooledit", { ...record, title: "Sunrise No.2 Primary School (east)" }, { token: tokens.svc });
      expect(whole.return_code, JSON.stringify(whole)).toBe("SUCCESS");
      expect(whole.data?.items).toMatchObject({ title: "Sunrise No.2 Primary School (east)", endtime: record.endtime });
      const message = zh("api.field_readonly", { label: zh("field.endtime") });
      const readonly = { return_code: "FAIL", return_msg: message, data: { errors: [{ field: "endtime", message }] } };
      const nextDay = new Date(Date.parse(`${String(record.endtime)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      for (const endtime of [nextDay, "", "someday"]) {
        expect(await t.call("adminapiv2", "schooledit", { ...record, endtime }, { token: tokens.svc }), endtime).toEqual(readonly);
      }
      const back = await t.call("adminapiv2", "schooledit", { id: school, title: record.title, endtime: record.endtime }, { token: tokens.svc });
      expect(back.data?.items).toMatchObject({ title: record.title, endtime: record.endtime });
    });
  });
});
