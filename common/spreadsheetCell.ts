/**
 * Cells of every file the console hands out as a spreadsheet (the entity and report exports in .xlsx, the import
 * errors in CSV). A text a user typed, such as a student named `=HYPERLINK("http://x","y")`, must stay text: a
 * spreadsheet program turns a cell starting with a formula sign into a formula once the cell is edited or the sheet
 * saved as CSV. As OWASP's CSV-injection guidance says, in CSV a text starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is written with a single quote before it. An .xlsx writes it as it is in a string cell with the
 * quote-prefix style instead (server/engine/exports.ts), which shows no quote. A number cell (negative money
 * included) is a number, not text, and is written as it is.
 */

/** the first characters a spreadsheet program may read as the start of a formula */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Whether a spreadsheet program may read the text as the start of a formula. */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** A CSV text cell that no spreadsheet program reads as a formula. */
export function safeCellText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell value made safe: a text as `safeCellText` writes it; a number, a date, a boolean or an empty cell as it is. */
export function safeCell<T>(value: T): T | string {
  return typeof value === "string" ? safeCellText(value) : value;
}
