/**
 * WeChat Pay's trade bill as reconciliation reads it: by its header's names whatever the bill type's columns, every
 * field behind a backtick, amounts read to the fen and fees to five decimals, rounded to the fen half up, the
 * summary line apart; a line it cannot read is named. Held to bills in WeChat Pay's layout from public SDK test
 * data and WeChat's documentation (./fixtures/wechatpayTradeBills.ts), and to what the sandbox writes.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatTradeBill, parseTradeBill, rateFee, readTradeBillStream, roundFeeToFen, TradeBillFormatError, type TradeBill } from "../../server/payments/tradeBill";
import { GO_SDK_ALL_BILL, WECHAT_DOC_SUB_MERCHANT_BILL, WXJAVA_ALL_BILL, WXJAVA_REFUND_BILL, WXJAVA_SUCCESS_BILL } from "./fixtures/wechatpayTradeBills";

/** A SUCCESS bill: no refund columns, as WeChat Pay writes it for bill_type=SUCCESS, its fees to five decimals. */
const SUCCESS_BILL = [
  "\uFEFF交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,商品名称,商户数据包,手续费,费率,订单金额,费率备注",
  "`2026-11-26 09:12:03,`wx1,`1900009191,`1900000109,`,`4200000001,`P1,`oUp,`NATIVE,`SUCCESS,`CMB_CREDIT,`CNY,`956.50,`0.00,`学费,`,`5.74000,`0.60%,`956.50,`",
  "`2026-11-26 10:00:00,`wx1,`1900009191,`1900000109,`,`4200000002,`P2,`oUp,`JSAPI,`SUCCESS,`OTHERS,`CNY,`0.01,`0.00,`书费,`,`0.00000,`0.60%,`0.01,`",
  "总交易单数,应结订单总金额,手续费总金额,订单总金额",
  "`2,`956.51,`5.74000,`956.51",
].join("\r\n");

/** a bill's lines and summary as the figures reconciliation uses */
function figures(text: string) {
  const bill = parseTradeBill(text);
  return {
    lines: bill.lines.map((l) => ({ payNo: l.payNo, state: l.tradeState, settlement: l.settlementFen, order: l.orderFen, refund: l.refundFen, applied: l.appliedRefundFen, fee: l.feeFen, rate: l.rate })),
    summary: bill.summary,
  };
}

/** WXJAVA_ALL_BILL with its one row's fee written otherwise */
const withFee = (fee: string) => WXJAVA_ALL_BILL.replace("`0.04000,", `\`${fee},`);

describe("WeChat Pay's own bills", () => {
  it("reads WxJava's ALL bill: a fee of 0.036 yuan written 0.04000 is 4 fen, the summary's 0.01000 is 1", () => {
    expect(figures(WXJAVA_ALL_BILL)).toEqual({
      lines: [{ payNo: "XXXXXXXXXX", state: "SUCCESS", settlement: 600, order: 600, refund: 0, applied: 0, fee: 4, rate: "0.60%" }],
      summary: { count: 48, settlementFen: 576, refundFen: 142, feeFen: 1, orderFen: 576 },
    });
  });

  it("reads WxJava's SUCCESS bill, without refund columns", () => {
    expect(figures(WXJAVA_SUCCESS_BILL)).toEqual({
      lines: [{ payNo: "XXX", state: "SUCCESS", settlement: 1, order: 1, refund: 0, applied: 0, fee: 0, rate: "0.60%" }],
      summary: { count: 31, settlementFen: 305, refundFen: 0, feeFen: 2, orderFen: 305 },
    });
  });

  it("reads WxJava's REFUND bill, its request and success times between the columns, the summary's fee negative", () => {
    const bill = parseTradeBill(WXJAVA_REFUND_BILL);
    expect(bill.lines[0]).toMatchObject({ tradeTime: "2019-07-23 20:53:36", tradeState: "REFUND", refundId: "xxxx", refundNo: "xxx", refundState: "SUCCESS", refundFen: 1 });
    expect(figures(WXJAVA_REFUND_BILL)).toEqual({
      lines: [{ payNo: "xxxx", state: "REFUND", settlement: 0, order: 0, refund: 1, applied: 1, fee: 0, rate: "0.60%" }],
      summary: { count: 4, settlementFen: 0, refundFen: 202, feeFen: -2, orderFen: 0 },
    });
  });

  it("reads the Go SDK's downloaded bill, three payments at 1.00 %", () => {
    const bill = parseTradeBill(GO_SDK_ALL_BILL);
    expect(bill.lines.map((l) => [l.tradeTime, l.subMchid, l.transactionId, l.payNo, l.settlementFen, l.feeFen, l.rate])).toEqual([
      ["2021-01-28 17:07:11", "0", "4200000925202101284997714292", "S20210128170702357723", 1, 0, "1.00%"],
      ["2021-01-28 15:35:18", "0", "4200000910202101282955148400", "S20210128153505214586", 1, 0, "1.00%"],
      ["2021-01-28 16:59:46", "0", "4200000926202101281412639609", "S20210128165824499930", 1, 0, "1.00%"],
    ]);
    expect(bill.summary).toEqual({ count: 3, settlementFen: 3, refundFen: 0, feeFen: 0, orderFen: 3 });
  });

  it("reads WeChat's documented sub-merchant bill", () => {
    const bill = parseTradeBill(WECHAT_DOC_SUB_MERCHANT_BILL);
    expect(bill.lines).toEqual([
      expect.objectContaining({ subMchid: "176531292", transactionId: "420000612032130748613220688", payNo: "2021WERUN1647840687637", settlementFen: 1, orderFen: 1, feeFen: 0, rate: "0.90%" }),
    ]);
    expect(bill.summary).toEqual({ count: 12, settlementFen: 6, refundFen: 6, feeFen: 0, orderFen: 6 });
  });

  it("rounds a fee's five decimals to the fen half up, a refund's negative fee away from zero", () => {
    const fee = (written: string) => parseTradeBill(withFee(written)).lines[0]!.feeFen;
    expect([fee("0.03500"), fee("0.03499"), fee("0.00499"), fee("0.00500"), fee("-0.27000"), fee("-0.00500"), fee("-0.00499"), fee("0.04"), fee("0")]).toEqual([4, 3, 0, 1, -27, -1, 0, 4, 0]);
    // the one rounding serves the fees at a rate too: 0.6 % of 5.83 yuan is 0.03498, of 5.84 yuan 0.03504
    expect([rateFee(583, 6), rateFee(584, 6), rateFee(-250, 6), roundFeeToFen(1500), roundFeeToFen(-1500)]).toEqual([3, 4, -2, 2, -2]);
  });

  it("names the column of a fee past five decimals or an amount past two", () => {
    expect(() => parseTradeBill(withFee("0.040001"))).toThrow(new TradeBillFormatError('手续费 is not an amount: "0.040001"', 2));
    expect(() => parseTradeBill(WXJAVA_ALL_BILL.replace("`6.00,`0.00,`0,", "`6.00000,`0.00,`0,"))).toThrow(new TradeBillFormatError('应结订单金额 is not an amount: "6.00000"', 2));
    expect(() => parseTradeBill(WXJAVA_ALL_BILL.replace("`0.01000,", "`0.0100x,"))).toThrow(new TradeBillFormatError('手续费总金额 is not an amount: "0.0100x"', 4));
  });
});

describe("trade bill", () => {
  it("reads a bill by its header's names, without the columns its type leaves out", () => {
    const bill = parseTradeBill(SUCCESS_BILL);
    expect(bill.lines.map((l) => [l.payNo, l.tradeState, l.settlementFen, l.feeFen, l.orderFen, l.refundNo, l.refundFen])).toEqual([
      ["P1", "SUCCESS", 95650, 574, 95650, "", 0],
      ["P2", "SUCCESS", 1, 0, 1, "", 0],
    ]);
    expect(bill.lines[0]).toMatchObject({ tradeTime: "2026-11-26 09:12:03", subMchid: "1900000109", transactionId: "4200000001", rate: "0.60%" });
    expect(bill.summary).toEqual({ count: 2, settlementFen: 95651, refundFen: 0, feeFen: 574, orderFen: 95651 });
  });

  it("reads back what it writes, refunds with their negative fees", () => {
    const at = new Date("2026-11-26T02:00:00Z");
    const text = formatTradeBill("0", [
      { at, subMchid: "9900000001", transactionId: "T1", payNo: "P1", kind: "payment", amountFen: 150000, orderFen: 150000, feeFen: 900, title: "学费, 一年级" },
      { at, subMchid: "9900000001", transactionId: "T1", payNo: "P1", kind: "refund", amountFen: 30000, orderFen: 0, refundId: "R1", refundNo: "P1R01", refundState: "SUCCESS", feeFen: -180, title: "学费" },
    ]);
    const rows = text.split("\r\n");
    expect(rows[1].startsWith("`2026-11-26 10:00:00,")).toBe(true);
    // WeChat Pay's layout: every field of a row behind a backtick, fees to five decimals, the summary's too
    expect(rows[1].split(",").every((field) => field.startsWith("`"))).toBe(true);
    expect(rows[1]).toContain(",`9.00000,`0.60%,");
    expect(rows[2]).toContain(",`-1.80000,`0.60%,");
    expect(rows[4]).toBe("`2,`1500.00,`300.00,`0.00,`7.20000,`1500.00,`300.00");
    const bill = parseTradeBill(text);
    expect(bill.lines.map((l) => [l.tradeState, l.refundNo, l.refundFen, l.feeFen, l.refundState])).toEqual([
      ["SUCCESS", "0", 0, 900, ""],
      ["REFUND", "P1R01", 30000, -180, "SUCCESS"],
    ]);
    expect(bill.summary).toEqual({ count: 2, settlementFen: 150000, refundFen: 30000, feeFen: 720, orderFen: 150000 });
  });

  it("names the line of what it cannot read", () => {
    const read = (text: string) => {
      try {
        parseTradeBill(text);
      } catch (err) {
        return err instanceof TradeBillFormatError ? [err.line, err.message] : err;
      }
      return "read";
    };
    expect(read("")).toEqual([1, "trade bill line 1: the bill is empty"]);
    expect(read("交易时间,商户订单号\r\n")).toEqual([1, expect.stringContaining("the header has no column 特约商户号")]);
    const badAmount = SUCCESS_BILL.replace("`956.50,`0.00,`学费", "`9x6.50,`0.00,`学费");
    expect(read(badAmount)).toEqual([2, expect.stringContaining('应结订单金额 is not an amount: "9x6.50"')]);
    expect(read(SUCCESS_BILL.split("\r\n").slice(0, 3).join("\r\n"))).toEqual([3, "trade bill line 3: the bill ends without its summary"]);
  });
});

/** A bill read from chunks as they come (bytes or text), into its lines and summary; a fault as its line and message. */
async function readChunks(chunks: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>): Promise<TradeBill | [number, string]> {
  const source = async function* () {
    yield* chunks;
  };
  const lines = [];
  try {
    const reading = readTradeBillStream(source());
    for (let next = await reading.next(); ; next = await reading.next()) {
      if (next.done) return { lines, summary: next.value };
      lines.push(next.value);
    }
  } catch (err) {
    if (err instanceof TradeBillFormatError) return [err.line, err.message];
    throw err;
  }
}

/** The same from the whole text. */
function readWhole(text: string): TradeBill | [number, string] {
  try {
    return parseTradeBill(text);
  } catch (err) {
    if (err instanceof TradeBillFormatError) return [err.line, err.message];
    throw err;
  }
}

/** bytes cut at the given offsets */
function cut(bytes: Uint8Array, at: readonly number[]): Uint8Array[] {
  const bounds = [0, ...at, bytes.length];
  return bounds.slice(1).map((end, i) => bytes.subarray(bounds[i], end));
}

describe("a bill read as it arrives, from a download or a file", () => {
  // a byte order mark, two-, three- and four-byte characters in the product names, \r\n line ends
  const at = new Date("2026-11-26T02:00:00Z");
  const text = `\uFEFF${formatTradeBill("0", [
    { at, subMchid: "9900000001", transactionId: "T1", payNo: "P1", kind: "payment", amountFen: 150000, orderFen: 150000, feeFen: 900, title: "学费 Ñandú 𠀀 一年级" },
    { at, subMchid: "9900000001", transactionId: "T2", payNo: "P2", kind: "payment", amountFen: 1, orderFen: 1, feeFen: 0, title: "书费😀" },
    { at, subMchid: "9900000001", transactionId: "T1", payNo: "P1", kind: "refund", amountFen: 30000, orderFen: 0, refundId: "R1", refundNo: "P1R01", refundState: "SUCCESS", feeFen: -180, title: "学费" },
  ])}`;
  const bytes = Buffer.from(text, "utf8");
  const whole = parseTradeBill(text);

  it("reads the same lines and summary wherever the bytes are cut: inside a character, between \\r and \\n", async () => {
    expect(whole.lines.map((l) => l.payNo)).toEqual(["P1", "P2", "P1"]);
    const insideCharacter = bytes.indexOf(Buffer.from("𠀀")) + 2;
    const insideLineEnd = bytes.indexOf(Buffer.from("\r\n")) + 1;
    const offsets = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(offsets).toContain(insideCharacter);
    expect(offsets).toContain(insideLineEnd);
    // in two at every byte
    for (const offset of offsets) expect(await readChunks(cut(bytes, [offset])), `cut at byte ${offset}`).toEqual(whole);
    // a byte at a time, and in pieces of every length up to 64
    expect(await readChunks(cut(bytes, offsets))).toEqual(whole);
    for (let size = 2; size <= 64; size++) {
      const at = Array.from({ length: Math.ceil(bytes.length / size) - 1 }, (_, i) => (i + 1) * size);
      expect(await readChunks(cut(bytes, at)), `pieces of ${size} bytes`).toEqual(whole);
    }
    // a text cut between \r and \n
    const cr = text.indexOf("\r\n") + 1;
    expect(await readChunks([text.slice(0, cr), text.slice(cr)])).toEqual(whole);
  });

  it("reads a file in small pieces as it reads the text", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "trade-bill-test-"));
    try {
      const file = path.join(directory, "bill.csv");
      await writeFile(file, bytes);
      expect(await readChunks(createReadStream(file, { highWaterMark: 7 }))).toEqual(whole);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("reads WeChat Pay's own bills a byte at a time as it reads their text, either line end", async () => {
    for (const bill of [WXJAVA_ALL_BILL, WXJAVA_SUCCESS_BILL, WXJAVA_REFUND_BILL, GO_SDK_ALL_BILL, WECHAT_DOC_SUB_MERCHANT_BILL, SUCCESS_BILL]) {
      const billBytes = Buffer.from(bill, "utf8");
      expect(await readChunks(cut(billBytes, Array.from({ length: billBytes.length - 1 }, (_, i) => i + 1)))).toEqual(parseTradeBill(bill));
    }
  });

  it("names the same line of what it cannot read", async () => {
    const faulty = [
      "",
      "\r\n\r\n",
      "交易时间,商户订单号\r\n",
      SUCCESS_BILL.replace("`956.50,`0.00,`学费", "`9x6.50,`0.00,`学费"),
      SUCCESS_BILL.split("\r\n").slice(0, 3).join("\r\n"),
      `${SUCCESS_BILL.split("\r\n").slice(0, 3).join("\r\n")}\r\n\r\n`,
      SUCCESS_BILL.split("\r\n").slice(0, 4).join("\r\n"),
    ];
    for (const bill of faulty) {
      const expected = readWhole(bill);
      expect(Array.isArray(expected), bill).toBe(true);
      const billBytes = Buffer.from(bill, "utf8");
      expect(await readChunks([billBytes]), bill).toEqual(expected);
      expect(await readChunks(cut(billBytes, Array.from({ length: Math.max(0, billBytes.length - 1) }, (_, i) => i + 1))), bill).toEqual(expected);
    }
  });
});
