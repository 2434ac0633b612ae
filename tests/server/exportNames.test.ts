/**
 * An export's file names what it holds, on both databases: the list's title in the caller's language, then the
 * values of the filters it was asked with (a referred record named as the list names it, a choice by its label, a
 * period as start~end), or the day it was asked for when nothing narrows it; another tenant's record named in a
 * filter is never named in the file; unsafe characters never reach the name, and its length is bounded.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { orderStates } from "../../catalogue/collectionOrders";
import { refTitleKey } from "../../common/fieldRules";
import { businessDay } from "../../common/term";
import { MAX_NAME_CHARS } from "../../server/engine/exportNames";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");
const en = translator("en");

describeOnEmbedded("export file names", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}, language?: string) =>
    t.call("adminapiv2", method, payload, { token: tokens[user], ...(language ? { headers: { "accept-language": language } } : {}) });

  /** the file name of the download an export call queued */
  async function exported(user: string, method: string, payload: Row, language?: string): Promise<string> {
    const started = await call(user, method, payload, language);
    expect(started.return_code, started.return_msg).toBe("SUCCESS");
    const id = Number((started.data?.items as Row).job_id);
    const listed = ((await call(user, "downloadlist")).data?.items as Row[]).find((d) => d.id === id);
    return String(listed?.filename);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "school", "harbour"]) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("names the list's title and the school, grade and class it was narrowed to, as the list names them", async () => {
    const [student] = (await call("svc", "studentlist", { limit: 1 })).data?.items as Row[];
    const filter = { sch_id: student!.sch_id, grade_id: student!.grade_id, class_id: student!.class_id };
    // the names the list gives the same records
    const [named] = (await call("svc", "studentlist", { ...filter, limit: 1 })).data?.items as Row[];
    const expected = [zh("entity.student"), ...["sch_id", "grade_id", "class_id"].map((field) => named![refTitleKey(field)])].join("_");
    expect(expected).not.toContain("undefined");
    expect(await exported("svc", "studentexport", filter)).toBe(`${expected}.xlsx`);
  });

  it("names a state by its label and a period as start~end, in the caller's language", async () => {
    const paid = orderStates.find((s) => s.value === "paid")!;
    const filter = { status: "paid", paid_at_start: "2026-11-01", paid_at_end: "2026-11-28" };
    expect(await exported("school", "orderexport", filter)).toBe(`${zh("collection.entity.order")}_${zh(paid.label)}_2026-11-01~2026-11-28.xlsx`);
    expect(await exported("school", "orderexport", filter, "en")).toBe(`${en("collection.entity.order")}_${en(paid.label)}_2026-11-01~2026-11-28.xlsx`);
    // one end of the period only
    expect(await exported("school", "orderexport", { paid_at_end: "2026-11-28" })).toBe(`${zh("collection.entity.order")}_~2026-11-28.xlsx`);
  });

  it("names the day it was asked for when nothing narrows it", async () => {
    expect(await exported("svc", "studentexport", {})).toBe(`${zh("entity.student")}_${businessDay(t.clock.now())}.xlsx`);
  });

  it("never names another tenant's record given as a filter", async () => {
    const [foreign] = (await call("harbour", "gradelist", { limit: 1 })).data?.items as Row[];
    expect(foreign?.title).toBeTruthy();
    const name = await exported("svc", "studentexport", { grade_id: foreign!.id });
    expect(name).not.toContain(String(foreign!.title));
    expect(name).toBe(`${zh("entity.student")}_${businessDay(t.clock.now())}.xlsx`);
  });

  it("names a student searched by name with the text searched", async () => {
    expect(await exported("school", "orderexport", { student_id: "张" })).toBe(`${zh("collection.entity.order")}_张.xlsx`);
    // an id beyond any record's is refused naming its field, never a system error
    const beyond = await call("svc", "studentexport", { class_id: 9_999_999_999 });
    expect(beyond).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("class_id") });
  });

  it("keeps unsafe characters out of the name and bounds each filter's part", async () => {
    const name = await exported("svc", "studentexport", { name: `a/b\\c:d*e?f"g<h>i|j ${"长".repeat(35)}`, student_no: "Z".repeat(32) });
    expect(name).not.toMatch(/[\\/:*?"<>|]/);
    // the name's part cut to 40 characters, the number's whole
    expect(name).toBe(`${zh("entity.student")}_a-b-c-d-e-f-g-h-i-j ${"长".repeat(40 - 20)}_${"Z".repeat(32)}.xlsx`);
    expect(Array.from(name.replace(/\.xlsx$/, "")).length).toBeLessThanOrEqual(MAX_NAME_CHARS);
  });
});
