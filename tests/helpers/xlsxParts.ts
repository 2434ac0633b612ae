/**
 * .xlsx files for the import tests and the bench: as exceljs writes them, and built part by part, each part declaring
 * the size the caller wants: honest files, and the zip bombs the import must survive (a part that declares a few
 * kilobytes and inflates to hundreds of megabytes).
 */
import zlib from "node:zlib";
import ExcelJS from "exceljs";

export type Cell = string | number | null;

/** An .xlsx of one sheet as exceljs writes it: the header row, then the rows, as base64. */
export async function sheetBase64(header: Cell[], rows: Cell[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Sheet1");
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer()).toString("base64");
}

export interface Part {
  name: string;
  /** the deflated data, or text to deflate */
  data: Buffer | string;
  /** the size the archive declares it expands to (default: the true size) */
  declaredSize?: number;
  trueSize?: number;
}

/** A zip archive of the parts, each deflated, declaring the sizes given. */
export function zip(parts: Part[]): Buffer {
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

export const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** The parts every workbook here has, and its sheet (and shared strings) as given. */
export function workbook(sheet: Part, sharedStrings?: Part): Buffer {
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

export const inline = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;
export const STUDENT_HEADER_ROW = `<row r="1">${["Student name", "Student number", "Gender", "Grade", "Class"].map(inline).join("")}</row>`;

/** `size` bytes of XML whitespace inside the sheet data after the header, deflated as a stream (never held whole). */
export async function deflatedPadding(size: number): Promise<{ data: Buffer; trueSize: number }> {
  const head = `<worksheet xmlns="${MAIN}"><sheetData>${STUDENT_HEADER_ROW}`;
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

