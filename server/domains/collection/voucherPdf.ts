/**
 * Payment vouchers as a PDF file: one A5 page per voucher, the same facts as the print page.
 *
 * Why written here rather than with a PDF library: the page needs text, lines and boxes only, and Chinese text
 * without shipping a font. PDF itself provides that: Adobe's standard Chinese font STSong-Light (Adobe-GB1, with the
 * predefined Unicode CMap UniGB-UTF16-H) is one every PDF reader supplies (Acrobat, pdf.js, PDFium, Preview), so
 * the file embeds no font and stays a few kilobytes, and its text is Unicode that readers copy and search.
 * Latin-1 text (numbers, amounts, English and Spanish labels) is set in Helvetica, another standard font.
 * A library (pdfkit) would need a CJK font of 10 MB or more in the package to embed a subset of, for the same page.
 */
import { deflateSync } from "node:zlib";

/** A5 in points (148 x 210 mm) */
export const A5_WIDTH = 419.53;
export const A5_HEIGHT = 595.28;

/** Helvetica's advance widths (per 1000 em) of the characters 32..126 */
const HELVETICA_ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
/** WinAnsi codes of the few characters beyond Latin-1 that Helvetica sets (dashes, quotes, ellipsis, euro) */
const WIN_ANSI_EXTRA: Record<string, [code: number, width: number]> = {
  "–": [0x96, 556],
  "—": [0x97, 1000],
  "‘": [0x91, 222],
  "’": [0x92, 222],
  "“": [0x93, 333],
  "”": [0x94, 333],
  "…": [0x85, 1000],
  "€": [0x80, 556],
};

/** The WinAnsi code and width of a character Helvetica sets, or undefined (then the Chinese font sets it). */
function latin(char: string): [code: number, width: number] | undefined {
  const code = char.codePointAt(0)!;
  if (code >= 32 && code <= 126) return [code, HELVETICA_ASCII[code - 32]];
  if (code >= 0xa0 && code <= 0xff) {
    // an accented letter is as wide as its letter (á as a, Ñ as N); other signs about a digit's width
    const base = char.normalize("NFD")[0].codePointAt(0)!;
    return [code, base >= 32 && base <= 126 ? HELVETICA_ASCII[base - 32] : 556];
  }
  return WIN_ANSI_EXTRA[char];
}

type Run = { font: "latin" | "cjk"; text: string; width: number };

/** Splits a text into runs of one font each, with their widths per 1000 em. */
function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  for (const char of text) {
    const l = latin(char);
    const font = l ? "latin" : "cjk";
    const width = l ? l[1] : 1000;
    const last = runs[runs.length - 1];
    if (last?.font === font) {
      last.text += char;
      last.width += width;
    } else runs.push({ font, text: char, width });
  }
  return runs;
}

export function textWidth(text: string, size: number): number {
  return (runsOf(text).reduce((sum, run) => sum + run.width, 0) * size) / 1000;
}

function latinString(text: string): string {
  let out = "(";
  for (const char of text) {
    const code = latin(char)![0];
    if (char === "(" || char === ")" || char === "\\") out += `\\${char}`;
    else if (code < 32 || code > 126) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += char;
  }
  return `${out})`;
}

function utf16Hex(text: string): string {
  let hex = "<";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `${hex}>`;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

/** One page's drawing operators. */
export class PdfPage {
  private readonly ops: string[] = [];

  /** Sets a text with its left edge at x (or its centre or right edge), baseline y, shrunk to fit maxWidth. */
  text(text: string, x: number, y: number, size: number, options: { align?: "left" | "center" | "right"; maxWidth?: number; grey?: boolean } = {}): void {
    if (!text) return;
    let fitted = size;
    if (options.maxWidth) {
      const width = textWidth(text, size);
      if (width > options.maxWidth) fitted = Math.max(5, (size * options.maxWidth) / width);
    }
    const width = textWidth(text, fitted);
    let left = x;
    if (options.align === "center") left = x - width / 2;
    else if (options.align === "right") left = x - width;
    this.ops.push(options.grey ? "0.4 g" : "0 g");
    for (const run of runsOf(text)) {
      const font = run.font === "latin" ? "/F1" : "/F2";
      const shown = run.font === "latin" ? latinString(run.text) : utf16Hex(run.text);
      this.ops.push(`BT ${font} ${num(fitted)} Tf 1 0 0 1 ${num(left)} ${num(y)} Tm ${shown} Tj ET`);
      left += (run.width * fitted) / 1000;
    }
  }

  line(x1: number, y1: number, x2: number, y2: number, width = 0.6): void {
    this.ops.push(`0 G ${num(width)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S`);
  }

  rect(x: number, y: number, w: number, h: number, width = 0.8): void {
    this.ops.push(`0 G ${num(width)} w ${num(x)} ${num(y)} ${num(w)} ${num(h)} re S`);
  }

  content(): string {
    return this.ops.join("\n");
  }
}

/** A PDF document of A5 pages, written as the PDF 1.4 file format describes (objects, cross-reference table, trailer). */
export function pdfDocument(pages: readonly PdfPage[], title: string): Buffer {
  const objects: (string | Buffer)[] = [];
  const add = (body: string | Buffer): number => objects.push(body);
  const catalog = add("");
  const pageTree = add("");
  const helvetica = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const descriptor = add("<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>");
  const cidFont = add(`<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor ${descriptor} 0 R /DW 1000 >>`);
  const song = add(`<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light-UniGB-UTF16-H /Encoding /UniGB-UTF16-H /DescendantFonts [${cidFont} 0 R] >>`);
  const pageIds: number[] = [];
  for (const page of pages) {
    const data = deflateSync(Buffer.from(page.content(), "latin1"));
    const stream = add(Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, "latin1"), data, Buffer.from("\nendstream", "latin1")]));
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 ${A5_WIDTH} ${A5_HEIGHT}] /Resources << /Font << /F1 ${helvetica} 0 R /F2 ${song} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R /ViewerPreferences << /DisplayDocTitle true >> >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pageIds.length} >>`;
  const info = add(`<< /Title ${utf16Title(title)} /Producer (Campus Pay Console) >>`);

  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", "latin1")];
  let offset = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, "latin1"), typeof body === "string" ? Buffer.from(body, "latin1") : body, Buffer.from("\nendobj\n", "latin1")]);
    offsets.push(offset);
    offset += chunk.length;
    chunks.push(chunk);
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}

/** A text string in UTF-16BE with its byte order mark, as PDF writes text outside a page (the title). */
function utf16Title(text: string): string {
  return `<FEFF${utf16Hex(text).slice(1, -1)}>`;
}
