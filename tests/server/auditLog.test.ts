/**
 * The audit log page (auditlog): the platform's operators read every entry, a provider only its own, filtered by
 * who, what, which record and when; each change shows who made it, from where and what changed; exported through
 * the download centre with the same filter; nobody writes it through the page.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeOnEmbedded } from "../helpers/db";
import { en } from "../helpers/locales";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnEmbedded("the audit log", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const entries = async (user: string, payload: Row = {}) => {
    const res = await call(user, "auditloglist", { limit: 50, ...payload });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return { items: res.data?.items as Row[], total: Number(res.data?.total) };
  };
  let sunrise: number;
  let harbour: number;
  let no1: { id: number; title: string };

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const user of ["sysadmin", "svc", "harbour", "staff", "school", "pickup", "svcv1"]) tokens[user] = await t.login(user);
    const schools = (await call("svc", "schoollist", { limit: 50 })).data?.items as Row[];
    const first = schools.find((s) => String(s.title) === "Sunrise No.1 Primary School")!;
    no1 = { id: Number(first.id), title: String(first.title) };
    sunrise = Number(first.sysid);
    harbour = Number((((await call("harbour", "schoollist", { limit: 1 })).data?.items as Row[])[0]).sysid);
    // a change by the provider, and one by another provider
    expect((await call("svc", "schooledit", { id: no1.id, contact: "Audit Teacher" })).return_code).toBe("SUCCESS");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows a provider's change with who, where from and what changed, newest first", async () => {
    const { items } = await entries("svc", { action: "schooledit" });
    expect(items[0]).toMatchObject({ username: "svc", action: "schooledit", entity: "school", entity_id: String(no1.id), sch_id: no1.id, sch_title: no1.title });
    expect(items[0].detail).toEqual({ fields: ["contact"] });
    expect(String(items[0].ip)).not.toBe("");
    const ids = (await entries("svc")).items.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("keeps each provider to its own entries, and shows the operators every one", async () => {
    const own = await entries("svc");
    expect(own.total).toBeGreaterThan(0);
    expect(own.items.every((e) => e.sysid === undefined || e.sysid === sunrise)).toBe(true);
    const all = await call("sysadmin", "auditloglist", { limit: 100 });
    const sysids = new Set((all.data?.items as Row[]).map((e) => e.sysid));
    expect(Number(all.data?.total)).toBeGreaterThan(own.total);
    // the operators' own sign-ins concern no provider
    expect((await entries("sysadmin", { username: "sysadmin", action: "login" })).total).toBeGreaterThan(0);
    expect(sysids.size).toBeGreaterThan(1);
    // another provider's entries are not there for the asking
    const asked = await entries("harbour", { username: "svc" });
    expect(asked.total).toBe(0);
    const named = await call("harbour", "auditloglist", { sysid: sunrise });
    expect(named.return_code === "FAIL" || (named.data?.items as Row[]).length === 0).toBe(true);
    expect((await entries("harbour")).items.every((e) => e.sysid === undefined || e.sysid === harbour)).toBe(true);
    const entry = own.items[0];
    expect((await call("harbour", "auditloginfo", { id: entry.id })).return_code).toBe("FAIL");
    expect((await call("svc", "auditloginfo", { id: entry.id })).data?.items).toMatchObject({ id: entry.id, action: entry.action });
  });

  it("filters by who, what, which record, school and time", async () => {
    const byRecord = await entries("svc", { entity: "school", entity_id: String(no1.id) });
    expect(byRecord.total).toBeGreaterThan(0);
    expect(byRecord.items.every((e) => e.entity === "school" && e.entity_id === String(no1.id))).toBe(true);
    expect((await entries("svc", { username: "svc", action: "login" })).items.every((e) => e.username === "svc" && e.action === "login")).toBe(true);
    expect((await entries("svc", { sch_id: no1.id })).items.every((e) => e.sch_id === no1.id)).toBe(true);
    // an entry is stamped by the database's clock, read as a day of the business time zone
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const recent = await entries("svc", { at_start: today, at_end: today, action: "schooledit" });
    expect(recent.items.some((e) => e.entity === "school")).toBe(true);
    expect((await entries("svc", { at_start: "2020-01-01", at_end: "2020-01-02" })).total).toBe(0);
  });

  it("exports what the page lists through the download centre", async () => {
    const exported = await t.exportFile("adminapiv2", "auditlogexport", { action: "schooledit" }, { token: tokens.svc, headers: EN });
    expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
    const file = exported.data?.items as { content_base64: string };
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(file.content_base64, "base64") as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining([en.audit.field.at, en.audit.field.username, en.audit.field.action, en.audit.field.detail]));
    const detail = header.indexOf(en.audit.field.detail) + 1;
    expect(sheet.getRow(2).getCell(detail).value).toBe('{"fields":["contact"]}');
    const listed = await entries("svc", { action: "schooledit" });
    expect(sheet.rowCount - 1).toBe(listed.total);
  });

  it("is read by the operators and the providers only, and written by no one through it", async () => {
    for (const user of ["staff", "school", "pickup"]) {
      const res = await call(user, "auditloglist");
      expect(res.return_code, user).toBe("FAIL");
      expect(res.return_msg).toBe(en.api.no_permission);
    }
    expect((await call("svcv1", "auditloglist")).return_code).toBe("SUCCESS");
    for (const method of ["auditlogadd", "auditlogedit", "auditlogdel"]) {
      expect((await call("sysadmin", method, { id: 1, action: "x" })).return_code, method).toBe("FAIL");
    }
  });
});
