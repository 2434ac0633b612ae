/**
 * WeChat Pay's trade bill as reconciliation reads it: by its header's names whatever the bill type's columns, every
 * field behind a backtick, amounts read to the fen, the summary line apart; a line it cannot read is named.
 */
import { describe, expect, it } from "vitest";
import { formatTradeBill, parseTradeBill, TradeBillFormatError } from "../../server/payments/tradeBill";

/** A SUCCESS bill: no refund columns, as WeChat Pay writes it for bill_type=SUCCESS. */
const SUCCESS_BILL = [
  "\uFEFF交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,商品名称,商户数据包,手续费,费率,订单金额,费率备注",
  "`2026-11-26 09:12:03,`wx1,`1900009191,`1900000109,`,`4200000001,`P1,`oUp,`NATIVE,`SUCCESS,`CMB_CREDIT,`CNY,`956.50,`0.00,`学费,`,`5.74,`0.60%,`956.50,`",
  "`2026-11-26 10:00:00,`wx1,`1900009191,`1900000109,`,`4200000002,`P2,`oUp,`JSAPI,`SUCCESS,`OTHERS,`CNY,`0.01,`0.00,`书费,`,`0.00,`0.60%,`0.01,`",
  "总交易单数,应结订单总金额,手续费总金额,订单总金额",
  "`2,`956.51,`5.74,`956.51",
].join("\r\n");

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
    expect(text.split("\r\n")[1].startsWith("`2026-11-26 10:00:00,")).toBe(true);
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
