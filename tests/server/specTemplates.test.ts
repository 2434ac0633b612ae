/**
 * Spec templates and the price and stock log (catalogue/goods.ts): a v1 provider keeps templates of spec names and
 * their values, checked by the field kind (each refusal naming the field), the title once per provider, each
 * provider's own; every price or stock change a person makes to a goods item's SKUs or to a v1 fee project's amount
 * is logged in its transaction with the values before and after and who, read-only. On the embedded database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { goods as goodsTable, goodsLogs, specTemplates } from "../../server/db/schema";
import { specGroupsProblem } from "../../common/specs";
import { skuChanges } from "../../server/domains/retail/goodsLogs";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";
import { registeredOperations } from "./registryCases";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describe("a template's specs", () => {
  it("are 1 to 10 names, each once, each with 1 to 50 values, each once", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    expect(specGroupsProblem([{ name: "尺码", values: ["120", "130"] }], 20)).toBeNull();
    expect(specGroupsProblem([], 20)).toBe("required");
    expect(specGroupsProblem(Array.from({ length: 11 }, (_, i) => ({ name: `n${i}`, values: ["a"] })), 20)).toBe("over_count");
    expect(specGroupsProblem([{ name: "尺码", values: ["1"] }, { name: "尺码", values: ["2"] }], 20)).toBe("duplicate");
    expect(specGroupsProblem([{ name: "尺码", values: [] }], 20)).toBe("spec_values");
    expect(specGroupsProblem([{ name: "尺码", values: values(51) }], 20)).toBe("spec_values");
    expect(specGroupsProblem([{ name: "尺码", values: values(50) }], 20)).toBeNull();
    expect(specGroupsProblem([{ name: "尺码", values: ["1", "1"] }], 20)).toBe("spec_values");
    expect(specGroupsProblem([{ name: "x".repeat(21), values: ["1"] }], 20)).toBe("too_long");
    expect(specGroupsProblem([{ name: "", values: ["1"] }], 20)).toBe("required");
  });
});

describe("the SKU changes logged", () => {
  it("compare SKUs by their specs, whatever the order of the names", () => {
    const a = { specs: { 尺码: "120", 颜色: "藏青" }, price: 12_800, stock: 10 };
    expect(skuChanges([a], [{ ...a, specs: { 颜色: "藏青", 尺码: "120" } }])).toEqual([]);
    expect(skuChanges([a], [{ ...a, price: 13_000, stock: 4 }])).toEqual([
      { specs: "尺码 120 · 颜色 藏青", field: "price", before: "128.00", after: "130.00" },
      { specs: "尺码 120 · 颜色 藏青", field: "stock", before: "10", after: "4" },
    ]);
    expect(skuChanges([a], [])).toEqual([
      { specs: "尺码 120 · 颜色 藏青", field: "price", before: "128.00", after: null },
      { specs: "尺码 120 · 颜色 藏青", field: "stock", before: "10", after: null },
    ]);
  });
});

describeOnEmbedded("spec templates and the price and stock log", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const item = (res: { data?: Record<string, unknown> }) => res.data?.items as Row;
  const items = (res: { data?: Record<string, unknown> }) => res.data?.items as Row[];
  const errors = (res: { data?: Record<string, unknown> }) => res.data?.errors as { field: string; message: string }[] | undefined;
  const specs = [
    { name: "尺码", values: ["120", "130", "140"] },
    { name: "颜色", values: ["藏青", "白色"] },
  ];

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "harbour", "svcv1", "schoolv1", "school", "staff"]) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("adds, reads and edits a template, its specs kept as given", async () => {
    const added = await call("svcv1", "spectemplateadd", { title: "运动服", specs, sort: 3, status: "1" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    expect(item(added)).toMatchObject({ title: "运动服", specs, sort: 3, status: "1" });
    const id = item(added).id;
    expect(item(await call("svcv1", "spectemplateinfo", { id }))).toMatchObject({ title: "运动服", specs });
    const edited = await call("svcv1", "spectemplateedit", { id, specs: [{ name: " 尺码 ", values: [" S ", "M"] }] });
    expect(edited.return_code, edited.return_msg).toBe("SUCCESS");
    expect(item(edited).specs).toEqual([{ name: "尺码", values: ["S", "M"] }]);
    const list = items(await call("svcv1", "spectemplatelist", { title: "运动" }));
    expect(list.map((r) => r.title)).toEqual(["运动服"]);
    expect(list[0].specs).toEqual([{ name: "尺码", values: ["S", "M"] }]);
    expect((await call("svcv1", "spectemplatedel", { id })).return_code).toBe("SUCCESS");
  });

  it("refuses specs out of bounds, each refusal naming the field", async () => {
    const refusal = async (value: unknown) => errors(await call("svcv1", "spectemplateadd", { title: "坏模板", specs: value }));
    expect(await refusal([])).toEqual([{ field: "specs", message: "Specs is required" }]);
    expect(await refusal([{ name: "尺码", values: ["1"] }, { name: "尺码", values: ["2"] }])).toEqual([{ field: "specs", message: "Specs names the same value twice" }]);
    expect(await refusal(Array.from({ length: 11 }, (_, i) => ({ name: `n${i}`, values: ["a"] })))).toEqual([{ field: "specs", message: "Specs holds at most 10" }]);
    const spec = "Specs: each spec name needs 1 to 50 values, none twice";
    expect(await refusal([{ name: "尺码", values: [] }])).toEqual([{ field: "specs", message: spec }]);
    expect(await refusal([{ name: "尺码", values: ["1", "1"] }])).toEqual([{ field: "specs", message: spec }]);
    expect(await refusal([{ name: "尺码", values: Array.from({ length: 51 }, (_, i) => String(i)) }])).toEqual([{ field: "specs", message: spec }]);
    expect((await refusal([{ name: "尺码".repeat(11), values: ["1"] }]))?.[0]?.field).toBe("specs");
    expect((await refusal("尺码"))?.[0]?.field).toBe("specs");
    expect((await refusal([{ name: 3, values: "1" }]))?.[0]?.field).toBe("specs");
    expect((await call("svcv1", "spectemplatelist", { title: "坏模板" })).data?.total).toBe(0);
  });

  it("names a template once per provider", async () => {
    const first = await call("svcv1", "spectemplateadd", { title: "唯一", specs, sort: 0, status: "1" });
    expect(first.return_code).toBe("SUCCESS");
    expect(errors(await call("svcv1", "spectemplateadd", { title: "唯一", specs, sort: 0, status: "1" }))?.[0]?.field).toBe("title");
    // another provider's template of that title is its own
    const [sunrise] = await t.db.select({ sysid: goodsTable.sysid }).from(goodsTable).where(eq(goodsTable.title, "冬季校服冲锋衣"));
    await t.db.insert(specTemplates).values({ sysid: sunrise.sysid, title: "唯一", specs });
  });

  it("keeps each provider's templates to itself and from every other role", async () => {
    const own = new Set(items(await call("svcv1", "spectemplatelist", { pageSize: 100 })).map((r) => r.id));
    const rows = await t.db.select({ id: specTemplates.id, sysid: specTemplates.sysid }).from(specTemplates);
    const oldTown = rows.find((r) => own.has(r.id))!.sysid;
    const foreign = rows.filter((r) => r.sysid !== oldTown);
    expect(foreign.length).toBeGreaterThan(0);
    for (const row of foreign) {
      expect(own.has(row.id)).toBe(false);
      expect((await call("svcv1", "spectemplateinfo", { id: row.id })).return_code).toBe("FAIL");
      expect((await call("svcv1", "spectemplateedit", { id: row.id, title: "改名" })).return_code).toBe("FAIL");
      expect((await call("svcv1", "spectemplatedel", { id: row.id })).return_code).toBe("FAIL");
    }
    const sunriseTitles = (await t.db.select({ title: specTemplates.title }).from(specTemplates).where(eq(specTemplates.sysid, foreign[0].sysid))).map((r) => r.title);
    expect(sunriseTitles.sort()).toEqual(["唯一", "运动服尺码"]);
    for (const user of ["schoolv1", "school", "staff"]) {
      expect((await call(user, "spectemplatelist")).return_code, user).toBe("FAIL");
      expect((await call(user, "spectemplateadd", { title: "x", specs })).return_code, user).toBe("FAIL");
    }
    // the second generation's provider reads its own templates for its goods form, and keeps none
    expect(items(await call("svc", "spectemplatelist")).map((r) => r.title).sort()).toEqual(["唯一", "运动服尺码"]);
    expect(items(await call("harbour", "spectemplatelist"))).toEqual([]);
    for (const user of ["svc", "harbour"]) {
      expect((await call(user, "spectemplateadd", { title: "x", specs })).return_code, user).toBe("FAIL");
      expect((await call(user, "spectemplatedel", { id: [...own][0] })).return_code, user).toBe("FAIL");
    }
  });

  const logsOf = async (sysidOf: string, since: number) => {
    const rows = await t.db.select().from(goodsLogs).where(eq(goodsLogs.username, sysidOf));
    return rows.filter((r) => r.id > since).sort((a, b) => a.id - b.id);
  };
  const lastLogId = async () => Math.max(0, ...(await t.db.select({ id: goodsLogs.id }).from(goodsLogs)).map((r) => r.id));

  it("logs the price and stock changes of a goods item's SKUs, made by svc, and nothing for an edit changing neither", async () => {
    const cate = items(await call("svc", "goodscatelist", { title: "教辅资料" }))[0];
    const since = await lastLogId();
    const base = { title: "四年级语文练习", cate_id: cate.id, spec_names: ["版本"], delivery: "express", sch_scope: "all", status: "off", sort: 0 };
    const sku = (edition: string, price: string, stock: number) => ({ spec_values: { 版本: edition }, price, stock, barcode: "" });
    const added = await call("svc", "goodsadd", { ...base, skus: [sku("人教版", "28.00", 10), sku("北师大版", "30.00", 0)] });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const goods = item(added);
    const shown = (rows: Awaited<ReturnType<typeof logsOf>>) => rows.map(({ kind, record_id, title, specs, field, before_value, after_value }) => ({ kind, record_id, title, specs, field, before_value, after_value }));
    const at = { kind: "goodssku", record_id: goods.id, title: "四年级语文练习" };
    // added: each SKU's price and stock from nothing
    const onAdd = await logsOf("svc", since);
    expect(shown(onAdd)).toEqual([
      { ...at, specs: "版本 人教版", field: "price", before_value: null, after_value: "28.00" },
      { ...at, specs: "版本 人教版", field: "stock", before_value: null, after_value: "10" },
      { ...at, specs: "版本 北师大版", field: "price", before_value: null, after_value: "30.00" },
      { ...at, specs: "版本 北师大版", field: "stock", before_value: null, after_value: "0" },
    ]);
    expect(onAdd[0].user_id).toBeTypeOf("number");

    // one price and one stock changed, the SKUs sent in another order
    const afterAdd = await lastLogId();
    const sent = [sku("北师大版", "30.00", 25), sku("人教版", "26.50", 10)];
    const res = await call("svc", "goodsedit", { id: goods.id, skus: sent });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(shown(await logsOf("svc", afterAdd))).toEqual([
      { ...at, specs: "版本 北师大版", field: "stock", before_value: "0", after_value: "25" },
      { ...at, specs: "版本 人教版", field: "price", before_value: "28.00", after_value: "26.50" },
    ]);

    // saved again as it stands: nothing logged
    const again = await lastLogId();
    expect((await call("svc", "goodsedit", { id: goods.id, skus: sent, title: "四年级语文练习" })).return_code).toBe("SUCCESS");
    expect((await call("svc", "goodsedit", { id: goods.id, sort: 3 })).return_code).toBe("SUCCESS");
    expect(await lastLogId()).toBe(again);

    // the list: svc's own provider's rows, newest first, filtered by field and kind; read-only
    const list = items(await call("svc", "goodsloglist", { field: "price", kind: "goodssku", username: "svc" }));
    expect(list[0]).toMatchObject({ title: "四年级语文练习", field: "price", before_value: "28.00", after_value: "26.50", username: "svc" });
    expect(items(await call("svc", "goodsloglist", { title: "语文" })).length).toBe(6);
    expect(items(await call("svcv1", "goodsloglist", { title: "语文" }))).toEqual([]);
    expect(items(await call("harbour", "goodsloglist"))).toEqual([]);
  });

  it("logs a v1 fee project's amount as its price, made by svcv1", async () => {
    const project = items(await call("svcv1", "serviceprojectlist", { title: "Winter uniform" }))[0];
    const since = await lastLogId();
    expect((await call("svcv1", "serviceprojectedit", { id: project.id, amount: "388.00" })).return_code).toBe("SUCCESS");
    // the same amount again, another field changed: nothing
    expect((await call("svcv1", "serviceprojectedit", { id: project.id, amount: "388.00", remark: "含外套" })).return_code).toBe("SUCCESS");
    const logged = await logsOf("svcv1", since);
    expect(logged.map(({ kind, record_id, title, specs, field, before_value, after_value }) => ({ kind, record_id, title, specs, field, before_value, after_value }))).toEqual([
      { kind: "serviceproject", record_id: project.id, title: "Winter uniform", specs: null, field: "price", before_value: project.amount, after_value: "388.00" },
    ]);
    expect(logged[0].user_id).toBeTypeOf("number");

    const added = item(await call("svcv1", "serviceprojectadd", { title: "Bus card", amount_mode: "fixed", amount: "50.00" }));
    const [addLog] = await logsOf("svcv1", since + 0).then((rows) => rows.filter((r) => r.record_id === added.id));
    expect(addLog).toMatchObject({ kind: "serviceproject", before_value: null, after_value: "50.00" });

    const list = items(await call("svcv1", "goodsloglist", { kind: "serviceproject" }));
    expect(list[0]).toMatchObject({ title: "Bus card", after_value: "50.00", username: "svcv1" });
    expect(list.some((r) => r.title === "Winter uniform" && r.after_value === "388.00")).toBe(true);
    // svc reads its own provider's log only
    expect(items(await call("svc", "goodsloglist", { kind: "serviceproject" }))).toEqual([]);
    // schools and the school's accounts read none
    for (const user of ["schoolv1", "school", "staff"]) expect((await call(user, "goodsloglist")).return_code, user).toBe("FAIL");
  });

  it("is read-only: no add, edit or delete of a log row", async () => {
    const methods = registeredOperations().map((o) => o.method);
    expect(methods).toContain("goodsloglist");
    expect(methods).toContain("goodsloginfo");
    for (const m of ["goodslogadd", "goodslogedit", "goodslogdel"]) expect(methods).not.toContain(m);
    const [row] = await t.db.select({ id: goodsLogs.id }).from(goodsLogs).limit(1);
    expect((await call("svcv1", "goodslogedit", { id: row.id, after_value: "1.00" })).return_code).toBe("FAIL");
  });
});
