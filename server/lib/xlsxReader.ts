/**
 * The rows of an .xlsx file's first sheet, read as a stream in bounded memory whatever the file declares.
 *
 * An .xlsx is a zip archive of XML parts. Its central directory names each part with the size it expands to, and
 * nothing makes that size true: a few megabytes of upload may expand to gigabytes. So this reader
 *
 * - reads only the parts a sheet's cells need (workbook, its relationships, shared strings, styles, the sheet),
 * - refuses a part held whole whose declared size passes its cap, and counts the bytes actually inflated, part by
 *   part and in total, stopping at the cap whatever was declared (yauzl also stops a part at its declared size); the
 *   sheet is judged by what inflates only, so a long honest sheet meets the caller's row limit first,
 * - parses the XML as it inflates (saxes), hands each row to the caller and keeps none, so the caller can stop at
 *   its row limit without the rest of the sheet being inflated,
 * - keeps the cells of the first `maxColumns` columns only.
 *
 * Values arrive as text the way a user reads them: numbers as written, dates (a number in a date format) as
 * YYYY-MM-DD, booleans as TRUE / FALSE, rich text joined, a formula by its cached result, errors empty.
 */
import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";
import { SaxesParser, type SaxesTagPlain } from "saxes";
import yauzl, { type Entry, type ZipFile } from "yauzl";

export interface XlsxLimits {
  /** the most bytes a part held whole (shared strings, styles, the workbook) may expand to */
  maxPartBytes: number;
  /** the most bytes the sheet, read as a stream and kept row by row, may expand to */
  maxSheetBytes: number;
  /** the most bytes all parts read may expand to together */
  maxTotalBytes: number;
  /** cells of later columns are left aside */
  maxColumns: number;
}

/** Why a file could not be read: no .xlsx this reader takes, or parts that expand beyond the limits. */
export class XlsxRefusal extends Error {
  constructor(
    readonly reason: "bad_file" | "too_large",
    /** with too_large: the cap passed, in bytes */
    readonly limit = 0,
  ) {
    super(`xlsx refused: ${reason}`);
  }
}

/**
 * A row of the sheet: `values[c]` is the text of column c (1-based, as exceljs numbers them), empty cells absent.
 * Returning false stops the reading.
 */
export type RowHandler = (rowNumber: number, values: string[]) => boolean | void;

const RELATIONSHIP_OFFICE_DOCUMENT = /\/officeDocument$/;
const RELATIONSHIP_SHARED_STRINGS = /\/sharedStrings$/;
const RELATIONSHIP_STYLES = /\/styles$/;

/** Built-in number formats that show a date or time (ECMA-376 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/** A custom number format that shows a date: d, m, y, h or s outside quotes, brackets of colour and escapes. */
function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?:[^\]]*)\]/g, "")
    .split(";")[0];
  return /[dmyhs]/i.test(bare) && !/[#0?]/.test(bare);
}

/** "AB12" -> 28 */
function columnOf(ref: string): number | undefined {
  let column = 0;
  for (const char of ref) {
    const code = char.charCodeAt(0);
    if (code >= 65 && code <= 90) column = column * 26 + (code - 64);
    else if (code >= 97 && code <= 122) column = column * 26 + (code - 96);
    else break;
  }
  return column > 0 ? column : undefined;
}

/** An Excel serial day as YYYY-MM-DD, or a full ISO time when it has a time of day. */
function serialDate(serial: number, date1904: boolean): string {
  // 25569: days from 1899-12-30 (the 1900 system's day 0, its leap-year bug included) to 1970-01-01
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

function number(text: string): string {
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? String(n) : text;
}

/** The parts of an archive by name, read from its central directory. */
async function openArchive(bytes: Buffer): Promise<{ zip: ZipFile; entries: Map<string, Entry> }> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, file) => (err ? reject(err) : resolve(file))),
  ).catch(() => {
    throw new XlsxRefusal("bad_file");
  });
  const entries = new Map<string, Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: Entry) => {
      entries.set(entry.fileName.replace(/^\/+/, ""), entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve());
    zip.on("error", () => reject(new XlsxRefusal("bad_file")));
    zip.readEntry();
  });
  return { zip, entries };
}

interface PartHandlers {
  open?: (tag: SaxesTagPlain) => void;
  text?: (text: string) => void;
  close?: (tag: SaxesTagPlain) => void;
  /** true ends the reading after the chunk being parsed */
  done?: () => boolean;
}

/** Reads the parts of one archive within the limits, counting what they expand to. */
class PartReader {
  private inflated = 0;

  constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    private readonly limits: XlsxLimits,
  ) {}

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Parses a part's XML as it inflates; a missing part is no error (the caller checks the parts it needs). */
  async parse(name: string, handlers: PartHandlers, streamed = false): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    const cap = streamed ? this.limits.maxSheetBytes : this.limits.maxPartBytes;
    if (!streamed && entry.uncompressedSize > cap) throw new XlsxRefusal("too_large", cap);
    if (!streamed && this.inflated + entry.uncompressedSize > this.limits.maxTotalBytes) throw new XlsxRefusal("too_large", this.limits.maxTotalBytes);
    if (entry.isEncrypted() || !entry.canDecodeFileData()) throw new XlsxRefusal("bad_file");
    const stream = await new Promise<Readable>((resolve, reject) => this.zip.openReadStream(entry, (err, s) => (err ? reject(new XlsxRefusal("bad_file")) : resolve(s))));
    const parser = new SaxesParser({ xmlns: false, position: false });
    // a handler's own failure goes to the caller as it is; only the file's faults become refusals
    let handlerError: unknown;
    const guarded = <A>(handler: (arg: A) => void) => (arg: A) => {
      try {
        handler(arg);
      } catch (err) {
        handlerError = err;
        throw err;
      }
    };
    if (handlers.open) parser.on("opentag", guarded(handlers.open));
    if (handlers.text) parser.on("text", guarded(handlers.text));
    if (handlers.close) parser.on("closetag", guarded(handlers.close));
    const decoder = new StringDecoder("utf8");
    let partBytes = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        partBytes += chunk.length;
        this.inflated += chunk.length;
        // the declared size may lie: what counts is what inflates
        if (partBytes > cap) throw new XlsxRefusal("too_large", cap);
        if (this.inflated > this.limits.maxTotalBytes) throw new XlsxRefusal("too_large", this.limits.maxTotalBytes);
        parser.write(decoder.write(chunk));
        // the rest of the part is never inflated
        if (handlers.done?.()) return;
      }
      parser.write(decoder.end()).close();
    } catch (err) {
      if (err instanceof XlsxRefusal || (handlerError !== undefined && err === handlerError)) throw err;
      // a part larger than declared (yauzl), broken deflate data or XML
      throw new XlsxRefusal("bad_file");
    } finally {
      stream.destroy();
    }
  }

  /** A small part's attributes of the tags with this local name. */
  async tags(name: string, wanted: string): Promise<Record<string, string>[]> {
    const found: Record<string, string>[] = [];
    await this.parse(name, { open: (tag) => void (localName(tag.name) === wanted && found.push(tag.attributes)) });
    return found;
  }
}

/** Resolves a relationship target against the folder of the part that declares it. */
function resolveTarget(from: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = from.split("/").slice(0, -1);
  for (const piece of target.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== "." && piece !== "") parts.push(piece);
  }
  return parts.join("/");
}

const relsOf = (part: string) => {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
};

/** Reads the first sheet's rows of an .xlsx file, handing each to `onRow`, within the limits. */
export async function readFirstSheet(bytes: Buffer, limits: XlsxLimits, onRow: RowHandler): Promise<void> {
  const { zip, entries } = await openArchive(bytes);
  try {
    const parts = new PartReader(zip, entries, limits);

    const rootRels = await parts.tags("_rels/.rels", "Relationship");
    const officeTarget = rootRels.find((r) => RELATIONSHIP_OFFICE_DOCUMENT.test(r.Type ?? ""))?.Target;
    const workbookPart = officeTarget ? resolveTarget("", officeTarget) : "xl/workbook.xml";
    if (!parts.has(workbookPart)) throw new XlsxRefusal("bad_file");

    let date1904 = false;
    let firstSheetRel: string | undefined;
    await parts.parse(workbookPart, {
      open: (tag) => {
        const name = localName(tag.name);
        if (name === "workbookPr") date1904 = ["1", "true"].includes(tag.attributes.date1904 ?? "");
        else if (name === "sheet" && firstSheetRel === undefined) firstSheetRel = tag.attributes["r:id"] ?? Object.entries(tag.attributes).find(([k]) => localName(k) === "id")?.[1];
      },
    });
    const workbookRels = await parts.tags(relsOf(workbookPart), "Relationship");
    const target = (predicate: (r: Record<string, string>) => boolean) => {
      const found = workbookRels.find(predicate)?.Target;
      return found ? resolveTarget(workbookPart, found) : undefined;
    };
    const sheetPart = target((r) => r.Id === firstSheetRel);
    if (!sheetPart || !parts.has(sheetPart)) throw new XlsxRefusal("bad_file");

    const sharedStrings = await readSharedStrings(parts, target((r) => RELATIONSHIP_SHARED_STRINGS.test(r.Type ?? "")));
    const dateStyles = await readDateStyles(parts, target((r) => RELATIONSHIP_STYLES.test(r.Type ?? "")));
    await readRows(parts, sheetPart, limits, { sharedStrings, dateStyles, date1904 }, onRow);
  } finally {
    zip.close();
  }
}

async function readSharedStrings(parts: PartReader, part: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!part) return strings;
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  await parts.parse(part, {
    open: (tag) => {
      const name = localName(tag.name);
      if (name === "si") current = [];
      else if (name === "rPh") phonetic++;
      else if (name === "t" && phonetic === 0) inText = true;
    },
    text: (text) => {
      if (inText && current) current.push(text);
    },
    close: (tag) => {
      const name = localName(tag.name);
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si" && current) {
        strings.push(current.join(""));
        current = undefined;
      }
    },
  });
  return strings;
}

/** The cell style indexes (`s`) whose number format shows a date. */
async function readDateStyles(parts: PartReader, part: string | undefined): Promise<Set<number>> {
  const dates = new Set<number>();
  if (!part) return dates;
  const customDates = new Set<number>();
  let inCellXfs = false;
  let index = 0;
  await parts.parse(part, {
    open: (tag) => {
      const name = localName(tag.name);
      if (name === "numFmt" && isDateFormat(tag.attributes.formatCode ?? "")) customDates.add(Number(tag.attributes.numFmtId));
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(tag.attributes.numFmtId ?? 0);
        if (BUILTIN_DATE_FORMATS.has(id) || customDates.has(id)) dates.add(index);
        index++;
      }
    },
    close: (tag) => {
      if (localName(tag.name) === "cellXfs") inCellXfs = false;
    },
  });
  return dates;
}

async function readRows(
  parts: PartReader,
  sheetPart: string,
  limits: XlsxLimits,
  book: { sharedStrings: string[]; dateStyles: Set<number>; date1904: boolean },
  onRow: RowHandler,
): Promise<void> {
  let rowNumber = 0;
  let values: string[] = [];
  let column = 0;
  let cell: { column: number; type: string; style: number; text: string[] } | undefined;
  /** inside a cell's <v>, or a <t> of its inline string (not of a phonetic run) */
  let collecting = false;
  let phonetic = 0;
  let stopped = false;

  const cellValue = (raw: string, type: string, style: number): string => {
    switch (type) {
      case "s":
        return book.sharedStrings[Number(raw)] ?? "";
      case "inlineStr":
      case "str":
        return raw;
      case "b":
        return raw.trim() === "1" ? "TRUE" : "FALSE";
      case "e":
        return "";
      default: {
        const serial = Number(raw);
        if (book.dateStyles.has(style) && raw.trim() !== "" && Number.isFinite(serial)) return serialDate(serial, book.date1904);
        return number(raw);
      }
    }
  };

  await parts.parse(sheetPart, {
    done: () => stopped,
    open: (tag) => {
      if (stopped) return;
      const name = localName(tag.name);
      if (name === "row") {
        const r = Number(tag.attributes.r);
        rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
        values = [];
        column = 0;
      } else if (name === "c") {
        const ref = tag.attributes.r;
        column = (ref ? columnOf(ref) : undefined) ?? column + 1;
        cell = { column, type: tag.attributes.t ?? "n", style: Number(tag.attributes.s ?? 0), text: [] };
      } else if (cell && name === "rPh") phonetic++;
      else if (cell && (name === "v" || (name === "t" && phonetic === 0))) collecting = true;
    },
    text: (chunk) => {
      if (collecting && cell && !stopped) cell.text.push(chunk);
    },
    close: (tag) => {
      if (stopped) return;
      const name = localName(tag.name);
      if (name === "v" || name === "t") collecting = false;
      else if (name === "rPh") phonetic--;
      else if (name === "c") {
        if (cell && cell.column <= limits.maxColumns) {
          const value = cellValue(cell.text.join(""), cell.type, cell.style);
          if (value !== "") values[cell.column] = value;
        }
        cell = undefined;
      } else if (name === "row" && onRow(rowNumber, values) === false) stopped = true;
    },
  }, true);
}
