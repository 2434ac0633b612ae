/**
 * What the imports that run row by row share (tracking numbers through the deliver action, trace-source codes): a
 * row's outcome is kept per row instead of all or nothing, so they answer counts by outcome and a result file of
 * every row with its outcome and why, beside the sheet's columns found by their header in any language.
 */
import { labelText, type Translate } from "../lib/i18n";
import { ApiFailure } from "../protocol/envelope";
import { everyLanguage, normalised, XLSX_MIME } from "./imports";

export interface SheetColumn<Key extends string> {
  key: Key;
  /** translation key of its header */
  label: string;
  required: boolean;
}

/**
 * Where each column is in the header row (-1: absent); a missing required column refuses the file, naming it under
 * `missingKey` ({column}).
 */
export function columnPlaces<Key extends string>(t: Translate, columns: readonly SheetColumn<Key>[], header: string[], missingKey: string): Record<Key, number> {
  const places = {} as Record<Key, number>;
  const headers = header.map(normalised);
  for (const column of columns) {
    const names = new Set(everyLanguage(column.label, column.key).map(normalised));
    const at = headers.findIndex((h) => names.has(h));
    if (at < 0 && column.required) {
      const name = labelText(t, column.label, column.key);
      throw new ApiFailure(missingKey, { column: name }, { errors: [{ field: "content_base64", message: t(missingKey, { column: name }) }] });
    }
    places[column.key] = at;
  }
  return places;
}

/** The rows' count and how many came to each outcome. */
export function outcomeCounts<Outcome extends string>(rows: readonly { outcome: Outcome }[], outcomes: readonly Outcome[]): { total: number } & Record<Outcome, number> {
  const counts = { total: rows.length } as { total: number } & Record<Outcome, number>;
  for (const outcome of outcomes) (counts as Record<Outcome, number>)[outcome] = rows.filter((r) => r.outcome === outcome).length;
  return counts;
}

export interface ResultColumn {
  header: string;
  key: string;
  width: number;
  /** kept as text (a number of 20 digits, a code) */
  text?: boolean;
}

/**
 * The result file: the rows as sent, each with its outcome and why, after the sheet's columns; named after the file
 * imported with `resultName` appended.
 */
export async function resultFile(
  filename: string,
  { sheetName, resultName, reasonName, columns, rows }: { sheetName: string; resultName: string; reasonName: string; columns: readonly ResultColumn[]; rows: readonly Record<string, unknown>[] },
): Promise<{ filename: string; mime: string; content_base64: string }> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = [
    ...columns.map((c) => ({ header: c.header, key: c.key, width: c.width, ...(c.text ? { style: { numFmt: "@" } } : {}) })),
    { header: resultName, key: "outcome", width: 12 },
    { header: reasonName, key: "message", width: 40 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: "frozen", ySplit: 1 }];
  for (const row of rows) sheet.addRow(row);
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  return { filename: `${filename.replace(/\.xlsx$/i, "")}-${resultName}.xlsx`, mime: XLSX_MIME, content_base64: content.toString("base64") };
}
