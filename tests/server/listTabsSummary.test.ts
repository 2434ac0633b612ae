/**
 * Lists users keep coming back to: an entity with states answers each state's count under the list's other
 * filters (`data.tabs`, the activation codes), one with a summary the sums of its money fields over the whole
 * filter, not the page (`data.summary`, the school renewals' fees); both keep to the caller's tenant, and an entity
 * with neither answers neither.
 */
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tableColumn } from "../../server/db/catalogueTables";
import { activationCodes, providers, schoolRenewals, schools } from "../../server/db/schema";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnDatabases("list tabs and summary", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const list = async (username: string, method: string, payload: Row = {}) => {
    const res = await t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });
    expect(res.return_code, `${method} as ${username}: ${res.return_msg}`).toBe("SUCCESS");
    return res.data as { items: Row[]; total: number; tabs?: unknown; summary?: unknown };
  };
  const counts = (tabs: unknown) => {
    const { total, states } = tabs as { total: number; states: { value: string; count: number }[] };
    return { total, ...Object.fromEntries(states.map((s) => [s.value, s.count])) };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "svc", "harbour", "school"]) tokens[u] = await t.login(u);
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    ids.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    ids.bay = await idByTitle(t.db, schools, "Harbour Bay School");

    // the demo codes: Sunrise 3 unused and 1 void, Harbour 2 unused; one more batch of Sunrise's, one of it used
    const batch = await t.call("adminapiv2", "actcodeadd", { count: 3, target: "school", term_months: 12, expires_on: "2027-03-02", sysid: ids.sunrise }, { token: tokens.sysadmin });
    expect(batch.return_code, batch.return_msg).toBe("SUCCESS");
    const batchNo = (batch.data?.items as { batch_no: string }).batch_no;
    const [first] = await t.db.select({ id: activationCodes.id }).from(activationCodes).where(eq(tableColumn(activationCodes, "batch_no"), batchNo)).limit(1);
    await t.db.update(activationCodes).set({ status: "used" }).where(eq(activationCodes.id, first.id));
    tokens.batchNo = batchNo;

    // renewals of two Sunrise schools and a Harbour one, fees in fen
    const renewal = (sysid: number, schId: number, way: string, fee: number) => ({
      sysid, sch_id: schId, school_title: "x", way, title: "One year", term_months: 12, fee, new_end: "2027-03-02", operator: "test",
    });
    await t.db.insert(schoolRenewals).values([
      renewal(ids.sunrise, ids.no1, "pay", 100000),
      renewal(ids.sunrise, ids.no1, "pay", 60050),
      renewal(ids.sunrise, ids.no1, "code", 0),
      renewal(ids.sunrise, ids.no2, "pay", 180000),
      renewal(ids.harbour, ids.bay, "pay", 99999),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts every state under the other filters, whichever state the list shows, and only its tenant's", async () => {
    const all = await list("sysadmin", "actcodelist", { page: 1, limit: 2 });
    expect(counts(all.tabs)).toEqual({ total: 9, unused: 7, used: 1, void: 1 });
    expect(all.total).toBe(9);
    // the tab narrows the rows, not the counts
    const unused = await list("sysadmin", "actcodelist", { page: 1, limit: 20, status: "unused" });
    expect(unused.items.map((r) => r.status)).toEqual(Array(7).fill("unused"));
    expect(unused.total).toBe(7);
    expect(counts(unused.tabs)).toEqual(counts(all.tabs));
    // another filter narrows the counts
    const batch = await list("sysadmin", "actcodelist", { batch_no: tokens.batchNo, status: "void" });
    expect(batch.items).toEqual([]);
    expect(counts(batch.tabs)).toEqual({ total: 3, unused: 2, used: 1, void: 0 });
    // beyond the last page the counts still stand
    const beyond = await list("sysadmin", "actcodelist", { page: 9, limit: 20, status: "unused" });
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(unused.total);
    expect(counts(beyond.tabs)).toEqual(counts(all.tabs));

    // a provider counts the codes bound to it, nothing of another's
    expect(counts((await list("svc", "actcodelist")).tabs)).toEqual({ total: 7, unused: 5, used: 1, void: 1 });
    expect(counts((await list("harbour", "actcodelist", { status: "void" })).tabs)).toEqual({ total: 2, unused: 2, used: 0, void: 0 });
    expect((await list("harbour", "actcodelist", { status: "void" })).items).toEqual([]);
  });

  it("refuses a state that is none of the entity's, and exports the tab the list shows", async () => {
    const bad = await t.call("adminapiv2", "actcodelist", { status: "lost" }, { token: tokens.sysadmin, headers: EN });
    expect(bad).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("status") });

    const res = await t.exportFile("adminapiv2", "actcodeexport", { status: "used" }, { token: tokens.sysadmin, headers: EN });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from((res.data?.items as { content_base64: string }).content_base64, "base64") as unknown as ArrayBuffer);
    // the header and the one used code
    expect(book.worksheets[0].rowCount).toBe(2);
  });

  it("sums the money fields over the whole filter, not the page, within the caller's tenant", async () => {
    const all = await list("sysadmin", "schoolrenewlist", { page: 1, limit: 1 });
    expect(all.items).toHaveLength(1);
    expect(all.summary).toEqual({ count: 5, fee: "4400.49" });
    expect(all.tabs).toBeUndefined();
    expect((await list("sysadmin", "schoolrenewlist", { way: "pay", page: 2, limit: 2 })).summary).toEqual({ count: 4, fee: "4400.49" });
    expect((await list("sysadmin", "schoolrenewlist", { way: "code" })).summary).toEqual({ count: 1, fee: "0.00" });
    // beyond the last page, and with nothing matched
    const beyond = await list("sysadmin", "schoolrenewlist", { way: "pay", page: 5, limit: 2 });
    expect(beyond).toMatchObject({ items: [], total: 4, summary: { count: 4, fee: "4400.49" } });
    expect((await list("sysadmin", "schoolrenewlist", { way: "manual" })).summary).toEqual({ count: 0, fee: "0.00" });

    // a provider sums its schools' renewals, a school its own
    expect((await list("svc", "schoolrenewlist")).summary).toEqual({ count: 4, fee: "3400.50" });
    expect((await list("svc", "schoolrenewlist", { sch_id: ids.no2 })).summary).toEqual({ count: 1, fee: "1800.00" });
    expect((await list("school", "schoolrenewlist")).summary).toEqual({ count: 3, fee: "1600.50" });
    expect((await list("harbour", "schoolrenewlist")).summary).toEqual({ count: 1, fee: "999.99" });
  });

  it("answers neither for an entity that declares neither", async () => {
    const providersList = await list("sysadmin", "servicelist", { limit: 1 });
    expect(providersList.total).toBeGreaterThan(1);
    expect(Object.keys(providersList).sort()).toEqual(["items", "total"]);
  });
});
