/** The texts a PDF of payment vouchers shows, page by page (server/domains/collection/voucherPdf.ts writes it). */
import { inflateSync } from "node:zlib";

/** Each content stream inflated, its literal (Helvetica) and UTF-16 (STSong) strings decoded and joined. */
export function pdfPageTexts(pdf: Buffer): string[] {
  const source = pdf.toString("latin1");
  const pages: string[] = [];
  for (const match of source.matchAll(/<< \/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/g)) {
    const start = match.index + match[0].length;
    const content = inflateSync(pdf.subarray(start, start + Number(match[1]))).toString("latin1");
    let text = "";
    for (const shown of content.matchAll(/(\((?:\\.|[^\\)])*\)|<[0-9A-F]+>) Tj/g)) {
      const s = shown[1];
      if (s.startsWith("<")) text += Buffer.from(s.slice(1, -1), "hex").swap16().toString("utf16le");
      else text += s.slice(1, -1).replace(/\\([0-7]{3}|.)/g, (_, e: string) => (e.length === 3 ? String.fromCharCode(parseInt(e, 8)) : e));
    }
    pages.push(text);
  }
  return pages;
}
