/**
 * An import's file in bounded memory, whatever it declares (server/lib/xlsxReader.ts behind studentimport): a zip
 * whose sheet declares a few kilobytes but inflates to hundreds of megabytes, one that declares its size honestly,
 * shared strings declared too large, two bombs at once, and an honest sheet of 100,000 rows, stopped at the row
 * limit. The files are built here part by part, so that each declares what the test wants.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOnEmbedded } from "../helpers/db";
import { deflatedPadding, inline, MAIN, STUDENT_HEADER_ROW as HEADER, workbook } from "../helpers/xlsxParts";
import { createTestApp, type TestApp } from "./support";

/** The largest resident set seen while `work` runs, beyond the one before it. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / (1024 * 1024) };
  } finally {
    clearInterval(timer);
  }
}

/** a sheet that inflates to 400 MB of whitespace; deflated, about 400 KB (made once) */
let bombMade: Promise<{ data: Buffer; trueSize: number }> | undefined;

describeOnEmbedded("import limits", (kind) => {
  let t: TestApp;
  let token: string;
  let schId: number;
  let bomb: { data: Buffer; trueSize: number };

  const importFile = (content: Buffer) =>
    t.call("adminapiv2", "studentimport", { sch_id: schId, filename: "file.xlsx", content_base64: content.toString("base64") }, { token, headers: { cookie: "language=en" } });

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login("svc");
    const schools = await t.call("adminapiv2", "schoollist", { limit: 100 }, { token });
    schId = Number((schools.data?.items as { id: number; title: string }[]).find((s) => s.title === "Sunrise No.1 Primary School")?.id);
    bomb = await (bombMade ??= deflatedPadding(400 * 1024 * 1024));
  });
  afterAll(async () => {
    await t?.close();
  });

  const expectRefused = (res: { return_code: string; return_msg: string; data?: Record<string, unknown> }, message: RegExp) => {
    expect(res.return_code).toBe("FAIL");
    expect(res.return_msg).toMatch(message);
    expect(res.data?.errors).toEqual([expect.objectContaining({ field: "content_base64" })]);
  };

  it("refuses a sheet that declares 4 KB and inflates to 400 MB, having inflated no more than its cap", async () => {
    const lying = workbook({ name: "", data: bomb.data, declaredSize: 4096 });
    expect(lying.length).toBeLessThan(2 * 1024 * 1024);
    const { result, growthMb } = await peakGrowth(() => importFile(lying));
    // a part that inflates beyond what it declares is no honest .xlsx
    expectRefused(result, /not a readable \.xlsx|expands to more than/);
    expect(growthMb).toBeLessThan(200);
  });

  it("refuses a sheet that declares its 400 MB honestly once 32 MB have inflated, and shared strings declared too large unread", async () => {
    const honest = workbook({ name: "", data: bomb.data, declaredSize: bomb.trueSize });
    const { result, growthMb } = await peakGrowth(() => importFile(honest));
    expectRefused(result, /expands to more than 32 MB/);
    expect(growthMb).toBeLessThan(200);

    const strings = workbook({ name: "", data: `<worksheet xmlns="${MAIN}"><sheetData>${HEADER}</sheetData></worksheet>` }, { name: "", data: bomb.data, declaredSize: bomb.trueSize });
    expectRefused(await importFile(strings), /expands to more than 16 MB/);
  });

  it("takes two bombs at once in bounded memory, and stays ready for an honest import", async () => {
    const lying = workbook({ name: "", data: bomb.data, declaredSize: 4096 });
    const honest = workbook({ name: "", data: bomb.data, declaredSize: bomb.trueSize });
    const { result, growthMb } = await peakGrowth(() => Promise.all([importFile(lying), importFile(honest), importFile(lying)]));
    for (const res of result) expect(res.return_code).toBe("FAIL");
    expect(growthMb).toBeLessThan(300);

    const rows = `<row r="2">${[inline("Limit Pupil"), inline("LIM-0001"), inline("Female"), inline("一年级"), inline("1班")].join("")}</row>`;
    const small = workbook({ name: "", data: `<worksheet xmlns="${MAIN}"><sheetData>${HEADER}${rows}</sheetData></worksheet>` });
    const res = await importFile(small);
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(res.data?.items).toMatchObject({ total: 1, imported: 1 });
  });

  describe("an honest sheet of 100,000 rows", () => {
    it("is refused at the row limit, without the rest of the sheet being read", async () => {
      const rows: string[] = [];
      for (let i = 2; i <= 100_001; i++) rows.push(`<row r="${i}">${inline(`Pupil ${i}`)}${inline(`BIG-${i}`)}${inline("Male")}${inline("一年级")}${inline("1班")}</row>`);
      const big = workbook({ name: "", data: `<worksheet xmlns="${MAIN}"><sheetData>${HEADER}${rows.join("")}</sheetData></worksheet>` });
      const res = await importFile(big);
      expectRefused(res, /more than 10000 rows/);
    });
  });
});
