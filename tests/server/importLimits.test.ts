/**
 * An import's file in bounded memory, whatever it declares (server/lib/xlsxReader.ts behind studentimport): a zip
 * whose sheet declares a few kilobytes but inflates to hundreds of megabytes, one that declares its size honestly,
 * shared strings declared too large, two bombs at once, and an honest sheet of 100,000 rows, stopped at the row
 * limit. The files are built here part by part, so that each declares what the test wants.
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

interface Part {
  name: string;
  /** the deflated data, or text to deflate */
  data: Buffer | string;
  /** the size the archive declares it expands to (default: the true size) */
  declaredSize?: number;
  trueSize?: number;
}

/** A zip archive of the parts, each deflated, declaring the sizes given. */
function zip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const plain = typeof part.data === "string" ? Buffer.from(part.data) : undefined;
    const deflated = plain ? zlib.deflateRawSync(plain) : (part.data as Buffer);
    const size = part.declaredSize ?? plain?.length ?? part.trueSize ?? 0;
    const crc = plain ? zlib.crc32(plain) : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** The parts every workbook here has, and its sheet (and shared strings) as given. */
function workbook(sheet: Part, sharedStrings?: Part): Buffer {
  return zip([
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    },
    { name: "_rels/.rels", data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>` },
    { name: "xl/workbook.xml", data: `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>` },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    { ...sheet, name: "xl/worksheets/sheet1.xml" },
    ...(sharedStrings ? [{ ...sharedStrings, name: "xl/sharedStrings.xml" }] : []),
  ]);
}

const inline = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;
const HEADER = `<row r="1">${["Student name", "Student number", "Gender", "Grade", "Class"].map(inline).join("")}</row>`;

/** `size` bytes of XML whitespace inside the sheet data after the header, deflated as a stream (never held whole). */
async function deflatedPadding(size: number): Promise<{ data: Buffer; trueSize: number }> {
  const head = `<worksheet xmlns="${MAIN}"><sheetData>${HEADER}`;
  const tail = `</sheetData></worksheet>`;
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  deflate.write(head);
  for (let written = 0; written < size; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end(tail);
  await done;
  return { data: Buffer.concat(out), trueSize: head.length + size + tail.length };
}

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

/** a sheet that inflates to 400 MB of whitespace; deflated, about 400 KB (made once for both databases) */
let bombMade: Promise<{ data: Buffer; trueSize: number }> | undefined;

describeOnDatabases("import limits", (kind) => {
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
