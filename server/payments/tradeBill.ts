/**
 * WeChat Pay's trade bill (交易账单, GET /v3/bill/tradebill), the day's payments and refunds of a merchant as the
 * gateway has them: comma-separated text, every field prefixed with a backtick, in four parts (the detail header,
 * a row per payment or refund, the summary header, the summary row). Columns differ by bill type, so a bill is
 * read by its header's names, never by position. Amounts are yuan with two decimals, but the fees (手续费 of a row,
 * 手续费总金额 of the summary) are written to five (`0.04000`, `-0.27000`, `0.00000`: the layout of the bills in WeChat
 * Pay's SDKs' test data, tests/unit/fixtures/wechatpayTradeBills.ts); a refund row's fee is negative. A fee is read
 * exactly and rounded to the fen by `roundFeeToFen` alone. The sandbox writes its own bills in this layout
 * (TradeBillWriter), so reconciliation reads one format. A bill of a busy day is tens of megabytes: it is written and
 * read a row at a time (readTradeBillStream reads it from a file's bytes as they come), never held whole.
 */
import { fenToYuan } from "../../common/money";
import { businessTime } from "../../common/term";

/** One row of the bill: a payment (trade state SUCCESS) or a refund (REFUND). */
export interface TradeBillLine {
  /** 交易时间, China time "YYYY-MM-DD HH:mm:ss": the payment's, or the refund request's acceptance */
  tradeTime: string;
  /** 特约商户号: the sub-merchant (0 in direct mode) */
  subMchid: string;
  /** 微信订单号 */
  transactionId: string;
  /** 商户订单号: our pay_no */
  payNo: string;
  /** 交易状态: SUCCESS, REFUND or REVOKED */
  tradeState: string;
  /** 应结订单金额, fen: what the payer paid less coupons (0 on refund rows) */
  settlementFen: number;
  /** 微信退款单号 */
  refundId: string;
  /** 商户退款单号: our refund_no */
  refundNo: string;
  /** 退款金额, fen */
  refundFen: number;
  /** 退款状态 when the bill was made (SUCCESS, PROCESSING...): a snapshot, never updated */
  refundState: string;
  /** 手续费, fen (`roundFeeToFen` of the five decimals written): the channel's fee, negative on refund rows */
  feeFen: number;
  /** 费率, as written ("0.60%") */
  rate: string;
  /** 订单金额, fen */
  orderFen: number;
  /** 申请退款金额, fen */
  appliedRefundFen: number;
}

/** The summary row, as the bill states it. */
export interface TradeBillSummary {
  /** 总交易单数 */
  count: number;
  /** 应结订单总金额 */
  settlementFen: number;
  /** 退款总金额 (0 in a SUCCESS bill) */
  refundFen: number;
  /** 手续费总金额, fen (`roundFeeToFen` of the five decimals written) */
  feeFen: number;
  /** 订单总金额 */
  orderFen: number;
}

export interface TradeBill {
  lines: TradeBillLine[];
  summary: TradeBillSummary;
}

/** A bill that cannot be read: its line (1-based) and what is wrong there. */
export class TradeBillFormatError extends Error {
  override readonly name = "TradeBillFormatError";
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`trade bill line ${line}: ${message}`);
  }
}

/** the ALL bill's detail columns, in WeChat Pay's order */
export const TRADE_BILL_COLUMNS = [
  "交易时间",
  "公众账号ID",
  "商户号",
  "特约商户号",
  "设备号",
  "微信订单号",
  "商户订单号",
  "用户标识",
  "交易类型",
  "交易状态",
  "付款银行",
  "货币种类",
  "应结订单金额",
  "代金券金额",
  "微信退款单号",
  "商户退款单号",
  "退款金额",
  "充值券退款金额",
  "退款类型",
  "退款状态",
  "商品名称",
  "商户数据包",
  "手续费",
  "费率",
  "订单金额",
  "申请退款金额",
  "费率备注",
] as const;

/** the ALL bill's summary columns */
export const TRADE_BILL_SUMMARY_COLUMNS = ["总交易单数", "应结订单总金额", "退款总金额", "充值券退款总金额", "手续费总金额", "订单总金额", "申请退款总金额"] as const;

/** the columns reconciliation cannot do without (a SUCCESS bill has no refund columns: they read as empty) */
const REQUIRED_COLUMNS = ["交易时间", "特约商户号", "微信订单号", "商户订单号", "交易状态", "应结订单金额", "手续费", "订单金额"];
const SUMMARY_FIRST_COLUMN = TRADE_BILL_SUMMARY_COLUMNS[0];

/** A field without its backtick and surrounding blanks. */
function field(raw: string | undefined): string {
  const text = (raw ?? "").trim();
  return text.startsWith("`") ? text.slice(1).trim() : text;
}

/** Digits after the point: amounts are written to the fen, fees to the hundred-thousandth of a yuan. */
const AMOUNT_DECIMALS = 2;
const FEE_DECIMALS = 5;
/** an amount: at most twelve digits of yuan; a fee: ten, so that its thousandths of a fen stay exact integers */
const AMOUNT_PATTERN = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/;
const FEE_PATTERN = /^(-?)(\d{1,10})(?:\.(\d{1,5}))?$/;

/** A decimal of yuan as an integer of its smallest written unit (10^-decimals yuan), exactly (never through a float). */
function decimalUnits(raw: string, decimals: number, pattern: RegExp, column: string, line: number): number {
  if (raw === "") return 0;
  const match = pattern.exec(raw);
  if (!match) throw new TradeBillFormatError(`${column} is not an amount: "${raw.slice(0, 40)}"`, line);
  const value = Number(match[2]) * 10 ** decimals + Number((match[3] ?? "").padEnd(decimals, "0"));
  return match[1] === "-" ? -value : value;
}

/** "12.34", "-0.05", "0" in yuan to fen. */
function fen(raw: string, column: string, line: number): number {
  return decimalUnits(raw, AMOUNT_DECIMALS, AMOUNT_PATTERN, column, line);
}

/** A fee as written ("0.04000", "-0.27000", older bills "0.04" or "0") in fen, rounded by `roundFeeToFen`. */
function writtenFee(raw: string, column: string, line: number): number {
  return roundFeeToFen(decimalUnits(raw, FEE_DECIMALS, FEE_PATTERN, column, line));
}

/**
 * A fee in thousandths of a fen (the five decimals of yuan the bill writes) rounded to the fen: the one place where
 * a fee is rounded, for the fees a bill states and for those computed at a rate (`rateFee`). WeChat Pay's bill
 * documentation (pay.weixin.qq.com/docs/merchant/products/bill-download/format-trade.html) states no rounding
 * rule; the fees in its bills are whole fen written to five decimals, rounded half up (6.00 yuan at 0.60 % is
 * 0.036, written `0.04000` in WxJava's test bill), so a fee is rounded half up to the fen, away from zero for the
 * negative fee of a refund (the same rule as PostgreSQL's round() of a numeric).
 */
export function roundFeeToFen(thousandthsOfFen: number): number {
  const rounded = Math.floor((Math.abs(thousandthsOfFen) + 500) / 1000);
  // 0 - 0 is 0, where -1 * 0 would be -0
  return thousandthsOfFen < 0 ? 0 - rounded : rounded;
}

/** A fee in fen as the bill writes it: yuan to five decimals. */
function feeText(fenAmount: number): string {
  return `${fenToYuan(fenAmount)}${"0".repeat(FEE_DECIMALS - AMOUNT_DECIMALS)}`;
}

/**
 * Reads a bill's rows in order, whatever they come from: each row given (without its line ending, blank ones too,
 * numbered from 1) answers the payment or refund it holds, if any, and `end` answers the summary. The header names
 * the columns; the summary's own header ends the detail rows; nothing after the summary row is read. Throws
 * TradeBillFormatError naming the line.
 */
class TradeBillParser {
  private names: string[] | undefined;
  private index = new Map<string, number>();
  private summaryNames: string[] | undefined;
  private summary: TradeBillSummary | undefined;
  private lastLine = 0;

  row(row: string, lineNo: number): TradeBillLine | undefined {
    this.lastLine = lineNo;
    if (this.summary || row.trim() === "") return undefined;
    if (!this.names) {
      this.names = row.split(",").map(field);
      this.index = new Map(this.names.map((name, i) => [name, i]));
      for (const name of REQUIRED_COLUMNS) if (!this.index.has(name)) throw new TradeBillFormatError(`the header has no column ${name}`, lineNo);
      return undefined;
    }
    const cells = row.split(",").map(field);
    if (this.summaryNames) {
      this.summary = this.summaryOf(cells, lineNo);
      return undefined;
    }
    if (cells[0] === SUMMARY_FIRST_COLUMN) {
      this.summaryNames = cells;
      return undefined;
    }
    if (cells.length < this.names.length) throw new TradeBillFormatError(`${cells.length} fields where the header has ${this.names.length}`, lineNo);
    const get = (name: string) => {
      const i = this.index.get(name);
      return i === undefined ? "" : cells[i];
    };
    const amount = (name: string) => fen(get(name), name, lineNo);
    return {
      tradeTime: get("交易时间"),
      subMchid: get("特约商户号"),
      transactionId: get("微信订单号"),
      payNo: get("商户订单号"),
      tradeState: get("交易状态"),
      settlementFen: amount("应结订单金额"),
      refundId: get("微信退款单号"),
      refundNo: get("商户退款单号"),
      refundFen: amount("退款金额"),
      refundState: get("退款状态"),
      feeFen: writtenFee(get("手续费"), "手续费", lineNo),
      rate: get("费率"),
      orderFen: amount("订单金额"),
      appliedRefundFen: amount("申请退款金额"),
    };
  }

  /** the bill's end: its summary, or what it lacks */
  end(): TradeBillSummary {
    if (this.summary) return this.summary;
    if (!this.names) throw new TradeBillFormatError("the bill is empty", 1);
    if (!this.summaryNames) throw new TradeBillFormatError("the bill ends without its summary", this.lastLine);
    throw new TradeBillFormatError("the summary header has no row", this.lastLine);
  }

  private summaryOf(cells: string[], at: number): TradeBillSummary {
    const names = this.summaryNames!;
    const value = (name: string) => {
      const i = names.indexOf(name);
      return i < 0 ? "" : (cells[i] ?? "");
    };
    const countText = value("总交易单数");
    if (!/^\d{1,9}$/.test(countText)) throw new TradeBillFormatError(`总交易单数 is not a count: "${countText.slice(0, 40)}"`, at);
    return {
      count: Number(countText),
      settlementFen: fen(value("应结订单总金额"), "应结订单总金额", at),
      refundFen: fen(value("退款总金额"), "退款总金额", at),
      feeFen: writtenFee(value("手续费总金额"), "手续费总金额", at),
      orderFen: fen(value("订单总金额"), "订单总金额", at),
    };
  }
}

/** a file saved by a spreadsheet may begin with a byte order mark */
const BYTE_ORDER_MARK = 0xfeff;

/**
 * Reads a bill's text (either line ending) a line at a time: yields each line, then answers the summary. Its rows are
 * those of `split(/\r?\n/)`, taken one at a time rather than made all at once. Throws TradeBillFormatError naming the
 * line.
 */
export function* readTradeBill(text: string): Generator<TradeBillLine, TradeBillSummary, undefined> {
  const parser = new TradeBillParser();
  let offset = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  for (let lineNo = 1; offset <= text.length; lineNo++) {
    const newline = text.indexOf("\n", offset);
    const end = newline < 0 ? text.length : newline;
    const line = parser.row(text.slice(offset, end > offset && text.charCodeAt(end - 1) === 13 ? end - 1 : end), lineNo);
    offset = end + 1;
    if (line) yield line;
  }
  return parser.end();
}

/**
 * Reads a bill as it arrives, in chunks of UTF-8 bytes (a file's read stream, a download) or of text, cut anywhere:
 * inside a character, between a line's \r and its \n. Only the row being read is held, so a bill of any length takes
 * the memory of a chunk and a row. Yields and answers as readTradeBill does for the whole text.
 */
export async function* readTradeBillStream(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<TradeBillLine, TradeBillSummary, undefined> {
  const parser = new TradeBillParser();
  // keeps the bytes of a character cut by a chunk's end for the next; a byte order mark is left to `take`, as for a text
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let pending = "";
  let lineNo = 0;
  let first = true;
  const take = function* (text: string): Generator<TradeBillLine> {
    if (first && text !== "") {
      first = false;
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    }
    pending += text;
    let offset = 0;
    for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n", offset)) {
      const row = pending.slice(offset, newline > offset && pending.charCodeAt(newline - 1) === 13 ? newline - 1 : newline);
      offset = newline + 1;
      const line = parser.row(row, ++lineNo);
      if (line) yield line;
    }
    pending = pending.slice(offset);
  };
  for await (const chunk of chunks) yield* take(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  yield* take(decoder.decode());
  // the last row, as split gives it after the last line break (empty when the text ends with one)
  const line = parser.row(pending, ++lineNo);
  if (line) yield line;
  return parser.end();
}

/** Reads a whole bill's text into its lines and summary; throws TradeBillFormatError naming the line. */
export function parseTradeBill(text: string): TradeBill {
  const lines: TradeBillLine[] = [];
  const reading = readTradeBill(text);
  for (;;) {
    const next = reading.next();
    if (next.done) return { lines, summary: next.value };
    lines.push(next.value);
  }
}

/** What the sandbox writes of one of its payments or refunds. */
export interface TradeBillEntry {
  at: Date;
  subMchid: string;
  transactionId: string;
  payNo: string;
  kind: "payment" | "refund";
  /** the payment's amount, or the refund's */
  amountFen: number;
  /** the order's total */
  orderFen: number;
  refundId?: string;
  refundNo?: string;
  refundState?: string;
  feeFen: number;
  title: string;
}

/** the rate the sandbox charges, as WeChat Pay's usual one for schools: 0.6 % */
export const SANDBOX_RATE_PER_MILLE = 6;

/** The fee of an amount at a rate in per mille, rounded to the fen by `roundFeeToFen` (negative amounts give negative fees). */
export function rateFee(amountFen: number, perMille: number): number {
  // fen times per mille is the fee in thousandths of a fen
  return roundFeeToFen(amountFen * perMille);
}

function csvText(value: string): string {
  // a comma or line break would break the bill's structure: WeChat Pay's bills never carry one in a field
  return `\`${value.replace(/[,\r\n`]/g, " ")}`;
}

/**
 * Writes an ALL bill as WeChat Pay does, a row at a time: every field of the rows behind a backtick, fees to five
 * decimals, each row ended by \r\n. `header()` first, then `row()` for each payment or refund in the bill's order,
 * then `summary()`, which states the rows' count and sums. Holds only those sums, so a bill of any length can be
 * written in pieces.
 */
export class TradeBillWriter {
  private count = 0;
  private settlement = 0;
  private refund = 0;
  private fee = 0;
  private order = 0;

  constructor(private readonly spMchid: string) {}

  header(): string {
    return `${TRADE_BILL_COLUMNS.join(",")}\r\n`;
  }

  row(entry: TradeBillEntry): string {
    const isRefund = entry.kind === "refund";
    const cells: Record<(typeof TRADE_BILL_COLUMNS)[number], string> = {
      交易时间: businessTime(entry.at),
      公众账号ID: "",
      商户号: this.spMchid,
      特约商户号: entry.subMchid,
      设备号: "",
      微信订单号: entry.transactionId,
      商户订单号: entry.payNo,
      用户标识: "",
      交易类型: "NATIVE",
      交易状态: isRefund ? "REFUND" : "SUCCESS",
      付款银行: "OTHERS",
      货币种类: "CNY",
      应结订单金额: fenToYuan(isRefund ? 0 : entry.amountFen),
      代金券金额: "0.00",
      微信退款单号: isRefund ? (entry.refundId ?? "") : "0",
      商户退款单号: isRefund ? (entry.refundNo ?? "") : "0",
      退款金额: fenToYuan(isRefund ? entry.amountFen : 0),
      充值券退款金额: "0.00",
      退款类型: isRefund ? "ORIGINAL" : "",
      退款状态: isRefund ? (entry.refundState ?? "SUCCESS") : "",
      商品名称: entry.title,
      商户数据包: "",
      手续费: feeText(entry.feeFen),
      费率: "0.60%",
      订单金额: fenToYuan(isRefund ? 0 : entry.orderFen),
      申请退款金额: fenToYuan(isRefund ? entry.amountFen : 0),
      费率备注: "",
    };
    this.count++;
    if (isRefund) this.refund += entry.amountFen;
    else {
      this.settlement += entry.amountFen;
      this.order += entry.orderFen;
    }
    this.fee += entry.feeFen;
    return `${TRADE_BILL_COLUMNS.map((name) => csvText(cells[name])).join(",")}\r\n`;
  }

  summary(): string {
    const { count, settlement, refund, fee, order } = this;
    const row = [String(count), fenToYuan(settlement), fenToYuan(refund), "0.00", feeText(fee), fenToYuan(order), fenToYuan(refund)].map(csvText).join(",");
    return `${TRADE_BILL_SUMMARY_COLUMNS.join(",")}\r\n${row}\r\n`;
  }
}

/** The ALL bill of the given entries, as WeChat Pay writes it (TradeBillWriter), as one text. */
export function formatTradeBill(spMchid: string, entries: readonly TradeBillEntry[]): string {
  const writer = new TradeBillWriter(spMchid);
  return writer.header() + entries.map((entry) => writer.row(entry)).join("") + writer.summary();
}
