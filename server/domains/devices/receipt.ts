/**
 * A shop order's receipt, whatever prints it: one vendor-neutral model laid out once in the 32 columns of a 58 mm
 * roll, then written three ways: Feie's markup, Yilianyun's markup, and a plain preview (the sandbox printer in
 * the console, and what a print job keeps to show).
 *
 * Columns: these printers print GBK, where an ASCII character is half-width (1 column) and every other one a
 * double-byte, full-width glyph (2 columns: Chinese, full-width punctuation, also é or ñ). Lines are wrapped and
 * amounts right-aligned by that count, so that no line of the preview is wider than the paper.
 *
 * User text (goods titles, specs, names, addresses) can never be read as markup: `<` and `>` become their
 * full-width forms (a title "<BR>" prints as "＜BR＞"), control characters and line breaks become spaces, and
 * invisible ones (zero-width, bidi, combining marks) are dropped. Every text is cut to MAX_FIELD_COLUMNS, which
 * bounds everything but the item lines; those are cut with a "… N more" line (the caller's words) when the
 * content would pass Feie's 5000 bytes.
 *
 * Every word printed comes from the caller (the receipt's texts and ReceiptLabels, translated): nothing here is
 * in a language.
 */

/** half-width columns of a 58 mm roll's line */
export const RECEIPT_COLUMNS = 32;
/** Feie's limit of one print's content, counted here in UTF-8 (3 bytes a Chinese character, Feie's GBK needs 2) */
export const FEIE_MAX_CONTENT_BYTES = 5000;
/** what Yilianyun takes is not in the documentation we read: the same budget keeps both printers alike */
export const YILIANYUN_MAX_CONTENT_BYTES = 5000;
/** the most columns of one text (five lines); a longer one ends with "..." */
export const MAX_FIELD_COLUMNS = 160;
/** a QR code's text is the caller's (an address of ours): longer is a mistake, not something to cut */
export const MAX_QR_CHARACTERS = 255;

export interface ReceiptItem {
  title: string;
  /** the SKU's spec, e.g. "160 / 蓝色" */
  spec?: string;
  qty: number;
  /** the line's amount as it prints, e.g. "25.00" */
  amount: string;
}

export type ReceiptDelivery =
  | { kind: "pickup"; point: string; code: string }
  | { kind: "receiver"; name: string; phone?: string; address: string };

export interface Receipt {
  /** the title line, e.g. the shop's name */
  title: string;
  school: string;
  orderNo: string;
  /** the paid time as it prints */
  paidAt: string;
  items: ReceiptItem[];
  /** the order's total as it prints */
  total: string;
  delivery?: ReceiptDelivery;
  footer?: string;
  /** a QR code's text (printed as a code by the printers, as text in the preview) */
  qr?: string;
}

/** The receipt's own words, in the language it prints in. */
export interface ReceiptLabels {
  orderNo: string;
  paidAt: string;
  total: string;
  pickupPoint: string;
  pickupCode: string;
  receiver: string;
  /** the line standing for the items left out, e.g. "... 3 more" */
  moreItems(count: number): string;
}

/** 1 for printable ASCII, 2 for anything else (a GBK printer's double-byte glyph) */
function charColumns(char: string): number {
  return char.codePointAt(0)! < 0x80 ? 1 : 2;
}

/** the columns a text takes on the paper */
export function columns(text: string): number {
  let total = 0;
  for (const char of text) total += charColumns(char);
  return total;
}

/** A user's text made safe to print: no markup, no control or invisible characters, at most `max` columns. */
export function printable(text: string, max = MAX_FIELD_COLUMNS): string {
  const safe = text
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/[\p{Cf}\p{M}]/gu, "")
    .replace(/</g, "＜")
    .replace(/>/g, "＞")
    .trim();
  if (columns(safe) <= max) return safe;
  let cut = "";
  for (const char of safe) {
    if (columns(cut) + charColumns(char) > max - 3) break;
    cut += char;
  }
  return `${cut.trimEnd()}...`;
}

const spaces = (count: number) => " ".repeat(Math.max(0, count));

const UNSPACED = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303f\\uff00-\\uffef";
const WRAP_TOKENS = new RegExp(` |[${UNSPACED}]|[^ ${UNSPACED}]+`, "gu");

/** `text` broken into lines of at most `width` columns: at spaces where a line holds words, anywhere in Chinese */
export function wrap(text: string, width = RECEIPT_COLUMNS): string[] {
  const lines: string[] = [];
  let line = "";
  // a space, one character of a script written without spaces, or a word
  for (const token of text.match(WRAP_TOKENS) ?? []) {
    // a line does not start with the space it broke at
    if (token === " " && line === "" && lines.length > 0) continue;
    if (columns(line) + columns(token) <= width) {
      line += token;
      continue;
    }
    if (token === " ") {
      lines.push(line);
      line = "";
      continue;
    }
    if (line.trim() !== "") lines.push(line.trimEnd());
    line = "";
    // a word longer than a line is cut where the line ends
    for (const char of token) {
      if (columns(line) + charColumns(char) > width) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line.trim() !== "" || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

function centred(text: string): string[] {
  return wrap(text).map((line) => spaces(Math.floor((RECEIPT_COLUMNS - columns(line)) / 2)) + line);
}

/** `left` and `right` on one line, `right` against the edge; `left` wrapped above it when both do not fit */
function leftRight(left: string, right: string): string[] {
  const rightColumns = columns(right);
  if (columns(left) + 1 + rightColumns <= RECEIPT_COLUMNS) return [left + spaces(RECEIPT_COLUMNS - columns(left) - rightColumns) + right];
  return [...wrap(left), spaces(RECEIPT_COLUMNS - rightColumns) + right];
}

const RULE = "-".repeat(RECEIPT_COLUMNS);
/** columns of the quantity ("x2") and of the amount, at the right of an item's last line */
const QTY_COLUMNS = 4;
const AMOUNT_COLUMNS = 10;
const SPEC_INDENT = "  ";

/** An item: its title, its spec indented below, and the quantity and amount on the last of those lines. */
function itemLines(item: ReceiptItem): string[] {
  const lines = wrap(printable(item.title));
  const spec = printable(item.spec ?? "");
  if (spec !== "") lines.push(...wrap(spec, RECEIPT_COLUMNS - SPEC_INDENT.length).map((line) => SPEC_INDENT + line));
  const qty = `x${item.qty}`;
  const amount = printable(item.amount, AMOUNT_COLUMNS * 2);
  // an amount wider than its column still keeps a space from the quantity
  const right = spaces(QTY_COLUMNS - columns(qty)) + qty + spaces(Math.max(1, AMOUNT_COLUMNS - columns(amount))) + amount;
  const last = lines[lines.length - 1];
  if (columns(last) + 1 + columns(right) <= RECEIPT_COLUMNS) lines[lines.length - 1] = last + spaces(RECEIPT_COLUMNS - columns(last) - columns(right)) + right;
  else lines.push(spaces(RECEIPT_COLUMNS - columns(right)) + right);
  return lines;
}

/** The receipt laid out, before any vendor's markup: lines are already within RECEIPT_COLUMNS. */
type Block =
  /** the title: large and centred */
  | { kind: "heading"; text: string }
  /** the pickup code: larger still where the printer has it, centred */
  | { kind: "code"; text: string }
  | { kind: "centre"; text: string }
  | { kind: "lines"; lines: string[] }
  | { kind: "total"; label: string; amount: string }
  | { kind: "qr"; text: string };

/** the receipt's blocks with its first `shown` items, and a line for the others */
function blocksOf(receipt: Receipt, labels: ReceiptLabels, shown: number): Block[] {
  const labelled = (label: string, value: string) => wrap(`${printable(label)}: ${printable(value)}`);
  const blocks: Block[] = [
    { kind: "heading", text: printable(receipt.title) },
    { kind: "centre", text: printable(receipt.school) },
    { kind: "lines", lines: [...labelled(labels.orderNo, receipt.orderNo), ...labelled(labels.paidAt, receipt.paidAt), RULE] },
  ];
  for (const item of receipt.items.slice(0, shown)) blocks.push({ kind: "lines", lines: itemLines(item) });
  const left = receipt.items.length - shown;
  if (left > 0) blocks.push({ kind: "lines", lines: wrap(printable(labels.moreItems(left))) });
  blocks.push({ kind: "lines", lines: [RULE] }, { kind: "total", label: printable(labels.total), amount: printable(receipt.total) });
  const delivery = receipt.delivery;
  if (delivery?.kind === "pickup") {
    blocks.push(
      { kind: "lines", lines: [RULE, ...labelled(labels.pickupPoint, delivery.point), ...wrap(`${printable(labels.pickupCode)}:`)] },
      { kind: "code", text: printable(delivery.code) },
    );
  } else if (delivery?.kind === "receiver") {
    const who = [delivery.name, delivery.phone ?? ""].map((part) => printable(part)).filter((part) => part !== "");
    blocks.push({ kind: "lines", lines: [RULE, ...labelled(labels.receiver, who.join(" ")), ...wrap(printable(delivery.address))] });
  }
  if (receipt.footer && printable(receipt.footer) !== "") blocks.push({ kind: "centre", text: printable(receipt.footer) });
  if (receipt.qr) {
    if (Array.from(receipt.qr).length > MAX_QR_CHARACTERS) throw new RangeError(`a receipt's QR code holds at most ${MAX_QR_CHARACTERS} characters`);
    blocks.push({ kind: "qr", text: printable(receipt.qr, Number.POSITIVE_INFINITY) });
  }
  return blocks;
}

function previewOf(blocks: Block[]): string[] {
  return blocks.flatMap((block) => {
    switch (block.kind) {
      case "heading":
      case "code":
      case "centre":
        return centred(block.text);
      case "lines":
        return block.lines;
      case "total":
        return leftRight(block.label, block.amount);
      case "qr":
        return wrap(`[QR] ${block.text}`);
    }
  });
}

function feieOf(blocks: Block[]): string {
  return blocks
    .map((block) => {
      switch (block.kind) {
        case "heading":
        case "code":
          return `<CB>${block.text}</CB><BR>`;
        case "centre":
          return `<C>${block.text}</C><BR>`;
        case "lines":
          return block.lines.map((line) => `${line}<BR>`).join("");
        case "total":
          return leftRight(block.label, block.amount)
            .map((line) => `<BOLD>${line}</BOLD><BR>`)
            .join("");
        case "qr":
          return `<QR>${block.text}</QR>`;
      }
    })
    .join("");
}

function yilianyunOf(blocks: Block[], copies: number): string {
  const body = blocks
    .map((block) => {
      switch (block.kind) {
        case "heading":
          return `<FS><center>${block.text}</center></FS>\n`;
        case "code":
          return `<FS2><center>${block.text}</center></FS2>\n`;
        case "centre":
          return `<center>${block.text}</center>\n`;
        case "lines":
          return block.lines.map((line) => `${line}\n`).join("");
        case "total":
          // <LR> splits at its comma: a text holding one is laid out by spaces instead
          if (!`${block.label}${block.amount}`.includes(",")) return `<LR>${block.label},${block.amount}</LR>\n`;
          return leftRight(block.label, block.amount)
            .map((line) => `${line}\n`)
            .join("");
        case "qr":
          return `<QR>${block.text}</QR>\n`;
      }
    })
    .join("");
  return copies > 1 ? `<MN>${copies}</MN>${body}` : body;
}

/** the rendering with as many items as fit in `maxBytes`, the rest standing as one line */
function fitted(receipt: Receipt, labels: ReceiptLabels, render: (blocks: Block[]) => string, maxBytes: number): string {
  const withItems = (shown: number) => render(blocksOf(receipt, labels, shown));
  const whole = withItems(receipt.items.length);
  if (Buffer.byteLength(whole, "utf8") <= maxBytes) return whole;
  // the most items that fit: each item adds more bytes than the "more" line's count can take away
  let fits = 0;
  let over = receipt.items.length;
  if (Buffer.byteLength(withItems(0), "utf8") > maxBytes) throw new RangeError("a receipt without its items is longer than the printer takes");
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (Buffer.byteLength(withItems(middle), "utf8") <= maxBytes) fits = middle;
    else over = middle;
  }
  return withItems(fits);
}

/** Feie's markup: <CB> large and centred, <C> centred, <BOLD>, <BR> after every line, <QR>; within 5000 bytes. */
export function feieReceipt(receipt: Receipt, labels: ReceiptLabels): string {
  return fitted(receipt, labels, feieOf, FEIE_MAX_CONTENT_BYTES);
}

/**
 * Yilianyun's markup: <FS><center> large and centred (<FS2> larger, the pickup code), <center>, <LR>label,amount</LR>, "\n" after every line,
 * <QR>, and <MN>n</MN> first for more than one copy (the Yilianyun driver sets it from the job's copies anyway).
 */
export function yilianyunReceipt(receipt: Receipt, labels: ReceiptLabels, copies = 1): string {
  return fitted(receipt, labels, (blocks) => yilianyunOf(blocks, copies), YILIANYUN_MAX_CONTENT_BYTES);
}

/** The receipt as plain lines of at most RECEIPT_COLUMNS columns, all its items shown. */
export function receiptPreview(receipt: Receipt, labels: ReceiptLabels): string[] {
  return previewOf(blocksOf(receipt, labels, receipt.items.length));
}
