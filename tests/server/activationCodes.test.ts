/**
 * Activation codes (issue 3): operators generate batches (actcodeadd), list and export them with providers
 * seeing their own; schools redeem with renew, providers with delay_foractcode; a code works once, only for
 * whom it is bound to and before it expires; wrong codes are throttled; of concurrent redemptions one wins.
 * Contract maintenance (servicedelay) and the renewal records are covered here too.
 */
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { DEFAULT_THROTTLE } from "../../server/auth/throttle";
import { tableColumn, type CatalogueTable } from "../../server/db/catalogueTables";
import { activationCodes, auditLog, loginThrottle, providers, schoolRenewals, schools } from "../../server/db/schema";
import { generateCode, normaliseCode } from "../../server/domains/renewals/codes";
import { businessTime } from "../../common/term";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;

/** wrong codes a redeemer may try a minute, in this file */
const REDEEM_TRIES = 5;
const EN = { "accept-language": "en" };
const CODE_FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

it("makes 20-character Crockford base32 codes with 100 random bits and reads them back however they are typed", () => {
  const codes = new Set(Array.from({ length: 2000 }, generateCode));
  expect(codes.size).toBe(2000);
  for (const code of codes) expect(code).toMatch(CODE_FORMAT);
  // every position takes every one of the 32 symbols: 20 x 5 = 100 bits
  const symbols = new Set([...codes].map((c) => c[0]));
  expect(symbols.size).toBe(32);
  const code = [...codes][0];
  expect(normaliseCode(code.toLowerCase().replace(/-/g, " "))).toBe(code);
  expect(normaliseCode("0000-1111-2222-3333-4444".replace(/0/g, "o").replace(/1/g, "l"))).toBe("0000-1111-2222-3333-4444");
  for (const bad of ["", "ABCD", "UUUU-UUUU-UUUU-UUUU-UUUU", `${code}-A`, 42, null]) expect(normaliseCode(bad)).toBeNull();
});

describeOnDatabases("activation codes", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });
  const exportedFile = (username: string, method: string, payload: Row = {}) => t.exportFile("adminapiv2", method, payload, { token: tokens[username], headers: EN });
  const inAYear = "2027-03-02";

  const batch = async (payload: Row, username = "sysadmin") => {
    const res = await call(username, "actcodeadd", { count: 1, term_months: 12, expires_on: inAYear, ...payload });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const { batch_no: batchNo } = res.data?.items as { batch_no: string };
    const rows = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "batch_no"), batchNo));
    return rows.map((r) => String(r.code));
  };
  const endOf = async (table: CatalogueTable, id: number, column: string) => {
    const [row] = await t.db.select({ end: tableColumn(table, column) }).from(table).where(eq(tableColumn(table, "id"), id));
    return String(row.end);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { throttle: { ...DEFAULT_THROTTLE, perRedeemer: { maxFailures: REDEEM_TRIES, windowMs: 60_000, firstLockMs: 60_000, maxLockMs: 3_600_000 } } });
    for (const u of ["sysadmin", "sysv1", "svc", "staff", "pickup", "school", "harbour", "schoolv1", "svcv1"]) tokens[u] = await t.login(u);
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    ids.oldTownProvider = await idByTitle(t.db, providers, "Old Town Education");
    ids.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    ids.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    ids.oldTown = await idByTitle(t.db, schools, "Old Town Middle School");
    const meals = (await call("school", "getsetmeal")).data?.items as Row[];
    ids.halfYear = Number(meals.find((m) => m.title === "Half year")!.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("generates a batch of unique codes for a package, recorded with its creator and audited", async () => {
    const res = await call("sysadmin", "actcodeadd", { count: 50, target: "school", meal_id: ids.halfYear, expires_on: inAYear, remark: "autumn fair" });
    expect(res).toMatchObject({ return_code: "SUCCESS", return_msg: "50 activation codes generated" });
    const { batch_no: batchNo, count } = res.data?.items as { batch_no: string; count: number };
    expect(count).toBe(50);
    const list = await call("sysadmin", "actcodelist", { batch_no: batchNo, limit: 100 });
    expect(list.data?.total).toBe(50);
    const items = list.data?.items as Row[];
    expect(new Set(items.map((r) => r.code)).size).toBe(50);
    expect(items[0]).toMatchObject({ target: "school", status: "unused", title: "Half year", term_months: 6, expires_on: inAYear, sysid: null, sch_id: null });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, batchNo));
    expect(audit).toMatchObject({ action: "actcodeadd", username: "sysadmin" });
  });

  it("refuses a batch with a bad count, both or neither of package and months, a past expiry or an unknown binding", async () => {
    for (const bad of [
      { count: 0, target: "school", term_months: 12, expires_on: inAYear },
      { count: 1001, target: "school", term_months: 12, expires_on: inAYear },
      { count: "ten", target: "school", term_months: 12, expires_on: inAYear },
      { count: 1, target: "teacher", term_months: 12, expires_on: inAYear },
      { count: 1, target: "school", expires_on: inAYear },
      { count: 1, target: "school", term_months: 12, meal_id: ids.halfYear, expires_on: inAYear },
      { count: 1, target: "school", term_months: 121, expires_on: inAYear },
      { count: 1, target: "school", term_months: 12, expires_on: "2026-03-01" },
      { count: 1, target: "school", term_months: 12, expires_on: "2026-02-30" },
      { count: 1, target: "school", meal_id: 999999, expires_on: inAYear },
      { count: 1, target: "school", term_months: 12, expires_on: inAYear, sysid: 999999 },
      { count: 1, target: "school", term_months: 12, expires_on: inAYear, sysid: ids.harbour, sch_id: ids.no1 },
      { count: 1, target: "school", term_months: 12, expires_on: inAYear, remark: "x".repeat(201) },
    ]) {
      const res = await call("sysadmin", "actcodeadd", bad);
      expect(res.return_code, JSON.stringify(bad)).toBe("FAIL");
      // no batch: at most the fields that failed
      expect(Object.keys(res.data ?? {}).filter((key) => key !== "errors"), JSON.stringify(bad)).toEqual([]);
    }
  });

  it("lets only operators generate codes", async () => {
    for (const username of ["svc", "school", "pickup", "staff", "harbour"]) {
      const res = await call(username, "actcodeadd", { count: 1, target: "school", term_months: 12, expires_on: inAYear });
      expect(res, username).toMatchObject({ return_code: "FAIL", return_msg: "You are not allowed to do this" });
    }
  });

  it("renews a school with a code once: the term grows from its current end, the code is used up and recorded", async () => {
    const [code] = await batch({ target: "school" });
    const before = await endOf(schools, ids.no1, "endtime");
    const res = await call("school", "renew", { code: code.toLowerCase(), sch_id: ids.no1, sysid: ids.sunrise });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const after = await endOf(schools, ids.no1, "endtime");
    expect(before).toBe("2026-03-14");
    expect(after).toBe("2027-03-14");
    expect(res.return_msg).toBe("Renewal succeeded: valid until 2027-03-14");
    const [used] = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "code"), code));
    expect(used).toMatchObject({ status: "used", used_by: "school", used_sysid: ids.sunrise, used_sch_id: ids.no1 });
    const [record] = await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "act_code"), code));
    expect(record).toMatchObject({ way: "code", term_months: 12, fee: 0, old_end: before, new_end: after });

    const again = await call("school", "renew", { code, sch_id: ids.no1, sysid: ids.sunrise });
    expect(again).toMatchObject({ return_code: "FAIL", return_msg: "This activation code has already been used" });
    expect(await endOf(schools, ids.no1, "endtime")).toBe(after);
  });

  it("lets exactly one of two concurrent redemptions of a code win", async () => {
    const [code] = await batch({ target: "school", sysid: ids.sunrise });
    const before = await endOf(schools, ids.no2, "endtime");
    const answers = await Promise.all([
      call("svc", "renew", { code, sch_id: ids.no2, sysid: ids.sunrise }),
      call("svc", "renew", { code, sch_id: ids.no2, sysid: ids.sunrise }),
      call("svc", "renew", { code, sch_id: ids.no1, sysid: ids.sunrise }),
    ]);
    expect(answers.filter((a) => a.return_code === "SUCCESS")).toHaveLength(1);
    const records = await t.db.select().from(schoolRenewals).where(eq(tableColumn(schoolRenewals, "act_code"), code));
    expect(records).toHaveLength(1);
    if (records[0].sch_id === ids.no2) expect(records[0].old_end).toBe(before);
  });

  it("lets operators void an unused code, which can then no longer be redeemed; used and void codes stay as they are", async () => {
    const [code, used] = await batch({ target: "school", count: 2 });
    const idOf = async (c: string) => Number((await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "code"), c)))[0].id);
    expect((await call("school", "renew", { code: used, sch_id: ids.no1 })).return_code).toBe("SUCCESS");

    for (const username of ["svc", "school", "staff", "pickup"]) {
      expect((await call(username, "actcodevoid", { id: await idOf(code) })).return_msg, username).toBe("You are not allowed to do this");
    }
    const voided = await call("sysadmin", "actcodevoid", { id: await idOf(code) });
    expect(voided).toMatchObject({ return_code: "SUCCESS", return_msg: "“Void” done", data: { items: { status: "void" } } });
    expect(await call("school", "renew", { code, sch_id: ids.no1 })).toMatchObject({ return_code: "FAIL", return_msg: "This activation code is not valid" });
    expect(await call("sysv1", "actcodevoid", { id: await idOf(code) })).toMatchObject({ return_code: "FAIL", return_msg: "“Void” is not possible: the record is Void" });
    expect(await call("sysadmin", "actcodevoid", { id: await idOf(used) })).toMatchObject({ return_code: "FAIL", return_msg: "“Void” is not possible: the record is Used" });
    for (const id of [999999, "abc", null, { id: 1 }]) {
      expect(await call("sysadmin", "actcodevoid", { id }), JSON.stringify(id)).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    }
    const rows = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "batch_no"), (await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "code"), code)))[0].batch_no as string));
    expect(Object.fromEntries(rows.map((r) => [r.code, r.status]))).toEqual({ [code]: "void", [used]: "used" });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, "actcodevoid"));
    expect(audit.at(-1)).toMatchObject({ username: "sysadmin", entityId: String(await idOf(code)), detail: { from: "unused", to: "void" } });
  });

  it("refuses expired codes, codes for providers, and codes bound to another provider or school", async () => {
    const [expiring] = await batch({ target: "school", expires_on: "2026-03-02" });
    const [forProviders] = await batch({ target: "service" });
    const [harbourOnly] = await batch({ target: "school", sysid: ids.harbour });
    const [no2Only] = await batch({ target: "school", sch_id: ids.no2 });
    t.clock.advance(24 * 3600 * 1000);
    tokens.school = await t.login("school");
    try {
      expect(await call("school", "renew", { code: expiring, sch_id: ids.no1 })).toMatchObject({ return_code: "FAIL", return_msg: "This activation code has expired" });
      for (const code of [forProviders, harbourOnly, no2Only]) {
        expect(await call("school", "renew", { code, sch_id: ids.no1 })).toMatchObject({ return_code: "FAIL", return_msg: "This activation code is not valid" });
      }
    } finally {
      t.clock.advance(-24 * 3600 * 1000);
      tokens.school = await t.login("school");
    }
    const unused = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "code"), no2Only));
    expect(unused[0]).toMatchObject({ status: "unused", sysid: ids.sunrise, sch_id: ids.no2, bound_title: "Sunrise No.2 Primary School" });
  });

  it("refuses renewals outside the caller's school and provider, and to roles that do not renew", async () => {
    const [code] = await batch({ target: "school" });
    for (const [username, payload] of [
      ["school", { code, sch_id: ids.no2, sysid: ids.sunrise }],
      ["school", { code, sch_id: ids.oldTown }],
      ["svc", { code, sch_id: ids.oldTown }],
      ["schoolv1", { code, sch_id: ids.no1, sysid: ids.sunrise }],
    ] as const) {
      const res = await call(username, "renew", payload);
      expect(res, `${username} ${JSON.stringify(payload)}`).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    }
    expect(await call("svc", "renew", { code })).toMatchObject({ return_code: "FAIL", return_msg: "Choose a school first" });
    for (const username of ["pickup", "staff", "sysadmin"]) {
      expect((await call(username, "renew", { code, sch_id: ids.no1 })).return_msg, username).toBe("You are not allowed to do this");
    }
    const [row] = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "code"), code));
    expect(row.status).toBe("unused");
  });

  it("renews a provider with a provider code, from today when its term has already ended", async () => {
    const [code] = await batch({ target: "service", term_months: 6 });
    const [schoolCode] = await batch({ target: "school" });
    expect(await call("harbour", "delay_foractcode", { sysid: ids.harbour, act_code: schoolCode })).toMatchObject({ return_msg: "This activation code is not valid" });
    const res = await call("harbour", "delay_foractcode", { sysid: ids.harbour, act_code: code });
    expect(res).toMatchObject({ return_code: "SUCCESS", return_msg: "Renewal succeeded: valid until 2026-09-02" });
    expect(await endOf(providers, ids.harbour, "end_time")).toBe("2026-09-02");
    expect((await call("svc", "delay_foractcode", { sysid: ids.sunrise, act_code: code })).return_msg).toBe("This activation code has already been used");
    expect(await call("svc", "delay_foractcode", { sysid: ids.harbour, act_code: code })).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    expect((await call("school", "delay_foractcode", { sysid: ids.sunrise, act_code: code })).return_msg).toBe("You are not allowed to do this");

    const records = await call("sysadmin", "servicedelaylist", { sysid: ids.harbour, way: "code" });
    expect(records.data?.items).toEqual([expect.objectContaining({ act_code: code, term_months: 6, old_end: "2026-02-25", new_end: "2026-09-02", operator: "harbour" })]);
  });

  it("throttles wrong codes per user: after the limit even a good code waits", async () => {
    const [good] = await batch({ target: "service" });
    for (let i = 0; i < 5; i++) {
      const res = await call("svcv1", "delay_foractcode", { sysid: ids.oldTownProvider, act_code: `WRNG-${i}` });
      expect(res.return_msg).toBe("This activation code is not valid");
    }
    const locked = await call("svcv1", "delay_foractcode", { sysid: ids.oldTownProvider, act_code: good });
    expect(locked.return_code).toBe("FAIL");
    expect(locked.return_msg).toMatch(/^Too many wrong activation codes, please try again in \d+ seconds$/);
    t.clock.advance(61_000);
    const later = await call("svcv1", "delay_foractcode", { sysid: ids.oldTownProvider, act_code: good });
    expect(later.return_code, later.return_msg).toBe("SUCCESS");
  });

  it("looks up no more codes of a burst of wrong ones than the limit allows, and refuses a good code sent with them", async () => {
    // from a clean count (earlier tests moved the clock back and forth over the users' windows)
    await t.db.delete(loginThrottle);
    const [good] = await batch({ target: "school", sysid: ids.sunrise });
    const refusals = async () => (await t.db.select().from(auditLog).where(eq(auditLog.action, "actcode_refused"))).filter((r) => r.username === "school").length;
    const before = await refusals();
    const renew = (code: string) => call("school", "renew", { code, sch_id: ids.no1, sysid: ids.sunrise });
    const wrong = Promise.all(Array.from({ length: 30 }, () => renew(generateCode())));
    // the good code comes once the wrong ones hold every lookup the rule allows (sent at once with them, it could
    // reach the count first under load, and be looked up as it should)
    await vi.waitFor(async () => {
      const rows = await t.db.select().from(loginThrottle);
      const user = rows.find((r) => r.key.startsWith("redeem:user:"));
      expect(user && (user.failures >= REDEEM_TRIES || (user.lockedUntil ?? 0) > t.clock.now())).toBe(true);
    });
    const goodAnswer = renew(good);
    const burst = [...(await wrong), await goodAnswer];

    expect((await refusals()) - before).toBe(5);
    expect(burst.filter((r) => r.return_msg === "This activation code is not valid")).toHaveLength(5);
    // refused while the allowed lookups ran (try again in a moment) or after they failed (locked)
    expect(burst.filter((r) => /^Too many wrong activation codes, please try again in \d+ seconds$/.test(r.return_msg))).toHaveLength(26);
    expect(burst.at(-1)?.return_code).toBe("FAIL");
    expect((await renew(good)).return_msg).toBe("Too many wrong activation codes, please try again in 60 seconds");
    const [row] = await t.db.select().from(activationCodes).where(eq(tableColumn(activationCodes, "code"), good));
    expect(row.status).toBe("unused");
  });

  it("does not count the losers of a concurrent redemption of a good code as wrong codes", async () => {
    await t.db.delete(loginThrottle);
    const [code] = await batch({ target: "school", sysid: ids.oldTownProvider });
    const renew = (c: string) => call("schoolv1", "renew", { code: c, sch_id: ids.oldTown, sysid: ids.oldTownProvider });
    const answers = await Promise.all(Array.from({ length: 5 }, () => renew(code)));
    expect(answers.filter((a) => a.return_code === "SUCCESS")).toHaveLength(1);
    expect(answers.filter((a) => a.return_msg === "This activation code has already been used")).toHaveLength(4);
    // all five tries are still there
    for (let i = 0; i < 5; i++) expect((await renew(generateCode())).return_msg).toBe("This activation code is not valid");
    expect((await renew(generateCode())).return_msg).toBe("Too many wrong activation codes, please try again in 60 seconds");
  });

  it("shows providers the codes bound to them only, and exports the filtered list as a spreadsheet", async () => {
    const mine = await batch({ target: "service", sysid: ids.sunrise, term_months: 3 });
    const list = await call("svc", "actcodelist", {});
    expect(list.return_code).toBe("SUCCESS");
    const rows = list.data?.items as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.sysid === ids.sunrise)).toBe(true);
    expect(rows.find((r) => r.code === mine[0])).toMatchObject({ bound_title: "Sunrise Campus Services", target: "service", term_months: 3 });
    const other = await call("svc", "actcodelist", { sysid: ids.harbour });
    expect(other).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    expect(other.data).toBeUndefined();
    for (const username of ["school", "pickup", "staff"]) expect((await call(username, "actcodelist")).return_code, username).toBe("FAIL");

    const exported = await exportedFile("svc", "actcodeexport", { target: "service" });
    expect(exported.return_code, exported.return_msg).toBe("SUCCESS");
    const file = exported.data?.items as { filename: string; mime: string; content_base64: string };
    // named by the list's title and the filter it was asked with
    expect(file.filename).toBe("Activation code_Providers.xlsx");
    expect(file.mime).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = new ExcelJS.Workbook();
    // exceljs types name the Node Buffer of older @types/node
    await workbook.xlsx.load(Buffer.from(file.content_base64, "base64") as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain("Activation code");
    const codeColumn = header.indexOf("Activation code") + 1;
    const codes = sheet.getColumn(codeColumn).values.slice(2);
    expect(codes).toContain(mine[0]);
    expect(codes.length).toBe(rows.filter((r) => r.target === "service").length);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toContain("Providers");
    // times are date cells reading as the list shows them, in the business time zone, not raw UTC
    const createdColumn = header.indexOf("Created") + 1;
    expect(createdColumn).toBeGreaterThan(0);
    const created = rows.find((r) => r.code === sheet.getRow(2).getCell(codeColumn).value)!.created_at as string;
    const cell = sheet.getRow(2).getCell(createdColumn);
    expect(cell.value).toBeInstanceOf(Date);
    expect(cell.numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    // a spreadsheet's time has no zone: its wall-clock reading is China's
    expect((cell.value as Date).toISOString().slice(0, 19).replace("T", " ")).toBe(businessTime(new Date(created)));
    expect((await call("school", "actcodeexport")).return_code).toBe("FAIL");
  });

  it("filters codes by the business days they were created on, counted in Asia/Shanghai", async () => {
    const [code] = await batch({ target: "school" });
    // 17:00 UTC on 1 March is already 01:00 on 2 March in Shanghai
    await t.db.update(activationCodes).set({ created_at: new Date("2026-03-01T17:00:00Z") }).where(eq(tableColumn(activationCodes, "code"), code));
    const codesCreated = async (start: string, end: string) =>
      ((await call("sysadmin", "actcodelist", { created_at_start: start, created_at_end: end, limit: 50 })).data?.items as Row[]).map((r) => r.code);
    expect(await codesCreated("2026-03-02", "2026-03-02")).toEqual([code]);
    expect(await codesCreated("2026-02-28", "2026-03-01")).toEqual([]);
    expect(await codesCreated("2026-03-02", "")).toContain(code);
    // exact times bound exactly
    expect(await codesCreated("2026-03-02T00:59:59+08:00", "2026-03-02T01:00:00+08:00")).toEqual([code]);
    expect(await codesCreated("2026-03-02T01:00:01+08:00", "2026-03-02T23:00:00+08:00")).toEqual([]);
    for (const bad of ["2026-02-30", "2026-02-30T01:00:00+08:00", "yesterday", "2026-03-02 01:00"]) {
      expect((await call("sysadmin", "actcodelist", { created_at_start: bad })).return_code, bad).toBe("FAIL");
    }
  });

  it("extends a provider by contract maintenance for operators only, with fee and remark recorded", async () => {
    const before = await endOf(providers, ids.oldTownProvider, "end_time");
    const res = await call("sysadmin", "servicedelay", { sysid: ids.oldTownProvider, term_months: 24, fee: "2000.00", remark: "two-year contract" });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const end = (res.data?.items as { end_time: string }).end_time;
    expect(end > before).toBe(true);
    const records = await call("sysadmin", "servicedelaylist", { sysid: ids.oldTownProvider, way: "manual" });
    expect(records.data?.items).toEqual([expect.objectContaining({ fee: "2000.00", term_months: 24, old_end: before, new_end: end, operator: "sysadmin" })]);
    for (const bad of [{ sysid: ids.oldTownProvider, term_months: 0 }, { sysid: ids.oldTownProvider, term_months: 12, fee: "-1" }, { sysid: 999999, term_months: 12 }, { term_months: 12 }]) {
      expect((await call("sysadmin", "servicedelay", bad)).return_code, JSON.stringify(bad)).toBe("FAIL");
    }
    for (const username of ["svc", "school"]) expect((await call(username, "servicedelay", { sysid: ids.sunrise, term_months: 12 })).return_msg).toBe("You are not allowed to do this");
    expect((await call("svc", "servicedelaylist")).return_code).toBe("FAIL");
  });

  it("shows renewal records to the school itself and to its provider only", async () => {
    const own = await call("school", "schoolrenewlist");
    expect((own.data?.items as Row[]).every((r) => r.school_title === "Sunrise No.1 Primary School")).toBe(true);
    const provider = await call("svc", "schoolrenewlist");
    expect((provider.data?.total as number) >= (own.data?.total as number)).toBe(true);
    const id = (own.data?.items as Row[])[0].id;
    expect((await call("school", "schoolrenewinfo", { id })).return_code).toBe("SUCCESS");
    for (const username of ["schoolv1", "harbour", "svcv1"]) {
      const res = await call(username, "schoolrenewinfo", { id });
      expect(res.return_code, username).toBe("FAIL");
      expect(res.data).toBeUndefined();
    }
    expect((await call("harbour", "schoolrenewlist")).data?.items).toEqual([]);
  });
});
