/**
 * The cloud receipt printers' drivers against stand-ins speaking Feie's and Yilianyun's protocols (no database):
 * a printer is added, prints, reports its state and its jobs'; a wrong key or secret is refused as "auth" and
 * named in no message; offline and out of paper are reported, and a print waits until the printer is back;
 * Yilianyun's token is kept, fetched again once Yilianyun stops taking it or it expires, and its origin_id keeps a
 * job from printing twice; Feie's signed callback is verified and a forged one refused. The signatures are
 * checked against the vendors' documented formulas, computed apart from the code (the hex digests below).
 * And the receipt: its three renderings against strings written by hand, the 32 columns with Chinese, markup in
 * a user's text neutralised, Feie's 5000 bytes kept.
 */
import { generateKeyPairSync, createSign } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feieReceipt, receiptPreview, wrap, yilianyunReceipt, type Receipt, type ReceiptLabels } from "../../server/domains/devices/receipt";
import { FeieDriver, PrinterError, printerDriver, YilianyunDriver, type FeiePrinter, type PrinterErrorCode, type YilianyunPrinter } from "../../server/domains/devices/printers";
import { ManualClock } from "../../server/lib/clock";
import { FakeFeieCloud, FakeYilianyunCloud } from "../helpers/fakePrinterClouds";

/** a loopback server answering every request with `answer(path)` and keeping the forms it was sent */
async function capturing(answer: (path: string) => unknown): Promise<{ url: string; requests: { path: string; form: Record<string, string> }[]; close(): Promise<void> }> {
  const requests: { path: string; form: Record<string, string> }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push({ path, form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(path)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** the PrinterError a call fails with (and that it fails) */
async function failure(call: Promise<unknown>): Promise<PrinterError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PrinterError);
  return error as PrinterError;
}

async function expectCode(call: Promise<unknown>, code: PrinterErrorCode, secrets: string[]): Promise<void> {
  const error = await failure(call);
  expect(error.code).toBe(code);
  for (const secret of secrets) expect(error.message).not.toContain(secret);
}

/** 2026-11-28 03:20:00 UTC */
const FIXED_SECONDS = 1764300000;

describe("Feie's driver", () => {
  const account = { user: "shop@example.com", ukey: "UKEYtest7Kx9" };
  const printer: FeiePrinter = { vendor: "feie", sn: "916500001", key: "k7Hq2Zp9", title: "北门 #1 前台", copies: 1, account };
  const second: FeiePrinter = { ...printer, sn: "916500002", key: "Wq81mZx0" };
  let feie: FakeFeieCloud;
  let driver: FeieDriver;

  beforeAll(async () => {
    feie = await FakeFeieCloud.start([account], [printer, second, { sn: "916500003", key: "Pp00aa11" }]);
    driver = new FeieDriver({ origin: feie.url, callbackPublicKey: feie.publicKeyPem });
  });
  afterAll(() => feie.close());

  it("signs every call as Feie documents: sig = sha1(user + UKEY + stime) in hex, stime in unix seconds", async () => {
    const capture = await capturing(() => ({ msg: "ok", ret: 0, data: "在线，工作状态正常", serverExecutedTime: 3 }));
    try {
      const signed = new FeieDriver({ origin: capture.url, now: () => new Date(FIXED_SECONDS * 1000) });
      expect(await signed.printerStatus(printer)).toBe("online");
      expect(capture.requests).toEqual([
        {
          path: "/Api/Open/",
          // sha1("shop@example.com" + "UKEYtest7Kx9" + "1764300000"), computed apart (Python's hashlib)
          form: { user: "shop@example.com", stime: "1764300000", sig: "d75cbca33da7009d22d76c96f2c782a9bb9fe788", apiname: "Open_queryPrinterStatus", sn: "916500001" },
        },
      ]);
    } finally {
      await capture.close();
    }
  });

  it("adds a printer (again: still added), prints its copies and reports the printer and the job", async () => {
    await driver.addPrinter(printer);
    await driver.addPrinter(printer);
    expect(feie.boundTo(printer.sn)).toBe(account.user);
    const { providerJobId } = await driver.print(printer, { dedupeKey: "SO1J1", content: "<CB>取货单</CB><BR>", copies: 2 });
    expect(feie.printed(printer.sn)).toEqual([{ orderId: providerJobId, sn: printer.sn, user: account.user, content: "<CB>取货单</CB><BR>", times: 2, printed: true }]);
    expect(await driver.jobStatus(printer, providerJobId)).toBe("printed");
    expect(await driver.jobStatus(printer, "916500001_20261128000000_1")).toBe("unknown");
    expect(await driver.printerStatus(printer)).toBe("online");
  });

  it("reports a printer offline or out of paper; a print waits and prints once it is back", async () => {
    feie.setOnline(printer.sn, false);
    expect(await driver.printerStatus(printer)).toBe("offline");
    const { providerJobId } = await driver.print(printer, { dedupeKey: "SO2J1", content: "2<BR>", copies: 1 });
    expect(await driver.jobStatus(printer, providerJobId)).toBe("waiting");
    feie.setOnline(printer.sn, true);
    expect(await driver.jobStatus(printer, providerJobId)).toBe("printed");
    feie.setPaper(printer.sn, false);
    expect(await driver.printerStatus(printer)).toBe("no_paper");
    feie.setPaper(printer.sn, true);
    expect(await driver.printerStatus(printer)).toBe("online");
  });

  it("refuses a wrong printer key and a wrong UKEY as auth, naming neither", async () => {
    await expectCode(driver.addPrinter({ ...second, key: "WRONGkey99" }), "auth", ["WRONGkey99", account.ukey]);
    expect(feie.boundTo(second.sn)).toBeUndefined();
    const wrongUkey = { ...printer, account: { ...account, ukey: "UKEYwrong000" } };
    await expectCode(driver.printerStatus(wrongUkey), "auth", ["UKEYwrong000"]);
    await expectCode(driver.print(wrongUkey, { dedupeKey: "X1", content: "x", copies: 1 }), "auth", ["UKEYwrong000"]);
    await expectCode(driver.jobStatus(wrongUkey, "any"), "auth", ["UKEYwrong000"]);
    await expectCode(driver.printerStatus({ ...printer, account: { user: "nobody@example.com", ukey: "x" } }), "auth", []);
  });

  it("refuses a printer of no account, a bad job and a clock far off, as rejected", async () => {
    await expectCode(driver.print({ ...printer, sn: "916500003" }, { dedupeKey: "A1", content: "x", copies: 1 }), "rejected", []);
    await expectCode(driver.print(printer, { dedupeKey: "not-alnum", content: "x", copies: 1 }), "rejected", []);
    await expectCode(driver.print(printer, { dedupeKey: "A1", content: "x", copies: 0 }), "rejected", []);
    const late = new FeieDriver({ origin: feie.url, now: () => new Date(Date.now() - 10 * 60_000) });
    await expectCode(late.printerStatus(printer), "rejected", [account.ukey]);
  });

  it("removes a printer (again: still removed), which then prints no more", async () => {
    await driver.addPrinter(second);
    await driver.removePrinter(second);
    await driver.removePrinter(second);
    expect(feie.boundTo(second.sn)).toBeUndefined();
    await expectCode(driver.print(second, { dedupeKey: "A2", content: "x", copies: 1 }), "rejected", []);
  });

  it("verifies Feie's signed callback, by PEM or by Feie's bare base64 key, and refuses a forged one", async () => {
    const { providerJobId } = await driver.print(printer, { dedupeKey: "SO3J1", content: "3<BR>", copies: 1 });
    const fields = feie.callbackFields(providerJobId);
    expect(driver.verifyCallback(fields)).toEqual({ providerJobId, printed: true });
    expect(new FeieDriver({ callbackPublicKey: feie.publicKeyBase64 }).verifyCallback(fields)).toEqual({ providerJobId, printed: true });

    const forgeries = [{ ...fields, orderId: "916500001_20261128000000_9" }, { ...fields, status: "0" }, { ...fields, stime: String(Number(fields.stime) + 1) }, { ...fields, sign: "" }, { orderId: providerJobId, status: "1" }];
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const signedByAnother = createSign("RSA-SHA256").update(`orderId=${providerJobId}&status=1&stime=${fields.stime}`).sign(other.privateKey, "base64");
    forgeries.push({ ...fields, sign: signedByAnother });
    for (const forged of forgeries) expect(() => driver.verifyCallback(forged)).toThrowError(expect.objectContaining({ code: "auth" }));
    expect(() => new FeieDriver().verifyCallback(fields)).toThrowError(expect.objectContaining({ code: "auth" }));
  });

  it("posts the signed callback over HTTP as Feie does", async () => {
    const { providerJobId } = await driver.print(printer, { dedupeKey: "SO4J1", content: "4<BR>", copies: 1 });
    const receiver = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      try {
        const report = driver.verifyCallback(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
        res.writeHead(200).end(report.providerJobId === providerJobId && report.printed ? "SUCCESS" : "WRONG");
      } catch {
        res.writeHead(400).end("FORGED");
      }
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      expect(await feie.sendCallback(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/print/feie`, providerJobId)).toEqual({ status: 200, text: "SUCCESS" });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("is the driver printerDriver gives for Feie; the sandbox's is the one passed in", () => {
    expect(printerDriver("feie", { feie: { origin: feie.url } })).toBeInstanceOf(FeieDriver);
    expect(printerDriver("yilianyun")).toBeInstanceOf(YilianyunDriver);
    expect(() => printerDriver("sandbox")).toThrow();
  });
});

describe("Yilianyun's driver", () => {
  const account = { client_id: "1098765432", client_secret: "secret0f9a8b7c" };
  const printer: YilianyunPrinter = { vendor: "yilianyun", sn: "4004123456", key: "msign5566", title: "食堂窗口", copies: 1, account };
  const second: YilianyunPrinter = { ...printer, sn: "4004123457", key: "msign7788" };
  const clock = new ManualClock(new Date());
  let yly: FakeYilianyunCloud;
  let driver: YilianyunDriver;

  beforeAll(async () => {
    yly = await FakeYilianyunCloud.start([account, { client_id: "1000000001", client_secret: "other" }], [printer, second], () => clock.now().getTime());
    driver = new YilianyunDriver({ origin: yly.url, now: () => clock.now() });
  });
  afterAll(() => yly.close());

  it("signs every call as Yilianyun documents: sign = md5(client_id + timestamp + client_secret), a UUID v4 id", async () => {
    const capture = await capturing((path) =>
      path === "/oauth/oauth" ? { error: "0", error_description: "success", body: { access_token: "tok123", refresh_token: "r", expires_in: 2592000, scope: "all" } } : { error: "0", error_description: "success", body: { state: "1" } },
    );
    try {
      const signed = new YilianyunDriver({ origin: capture.url, now: () => new Date(FIXED_SECONDS * 1000) });
      expect(await signed.printerStatus(printer)).toBe("online");
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      // md5("1098765432" + "1764300000" + "secret0f9a8b7c"), computed apart (Python's hashlib)
      const common = { client_id: "1098765432", timestamp: "1764300000", sign: "6e774399a6730c66346915c0fd052c6c", id: expect.stringMatching(uuid) };
      expect(capture.requests).toEqual([
        { path: "/oauth/oauth", form: { ...common, grant_type: "client_credentials", scope: "all" } },
        { path: "/printer/getprintstatus", form: { ...common, access_token: "tok123", machine_code: "4004123456" } },
      ]);
      expect(capture.requests[0].form.id).not.toBe(capture.requests[1].form.id);
    } finally {
      await capture.close();
    }
  });

  it("adds a printer (again: still added), prints its copies with <MN> and reports the printer and the job", async () => {
    await driver.addPrinter(printer);
    await driver.addPrinter(printer);
    expect(yly.boundTo(printer.sn)).toBe(account.client_id);
    const { providerJobId } = await driver.print(printer, { dedupeKey: "SO1J1", content: "<MN>5</MN><center>取货单</center>\n", copies: 2 });
    expect(yly.printed(printer.sn)).toEqual([
      { id: providerJobId, client_id: account.client_id, machine_code: printer.sn, origin_id: "SO1J1", content: "<MN>2</MN><center>取货单</center>\n", copies: 2, printed: true },
    ]);
    expect(await driver.jobStatus(printer, providerJobId)).toBe("printed");
    expect(await driver.jobStatus(printer, "999")).toBe("unknown");
    expect(await driver.printerStatus(printer)).toBe("online");
  });

  it("prints a job once: the same origin_id again is refused as duplicate and nothing more prints", async () => {
    const job = { dedupeKey: "SO2J1", content: "二号单\n", copies: 1 };
    await driver.print(printer, job);
    await expectCode(driver.print(printer, job), "duplicate", []);
    expect(yly.orders.filter((order) => order.origin_id === "SO2J1")).toHaveLength(1);
    expect(yly.orders.find((order) => order.origin_id === "SO2J1")!.content).toBe("二号单\n");
  });

  it("reports a printer offline or out of paper; a print waits and prints once it is back", async () => {
    yly.setOnline(printer.sn, false);
    expect(await driver.printerStatus(printer)).toBe("offline");
    const { providerJobId } = await driver.print(printer, { dedupeKey: "SO3J1", content: "3\n", copies: 1 });
    expect(await driver.jobStatus(printer, providerJobId)).toBe("waiting");
    yly.setOnline(printer.sn, true);
    expect(await driver.jobStatus(printer, providerJobId)).toBe("printed");
    yly.setPaper(printer.sn, false);
    expect(await driver.printerStatus(printer)).toBe("no_paper");
    yly.setPaper(printer.sn, true);
  });

  it("keeps its token, and fetches another once when Yilianyun stops taking it or it expires", async () => {
    const before = yly.tokensIssued;
    await driver.printerStatus(printer);
    await driver.printerStatus(printer);
    expect(yly.tokensIssued).toBe(before);
    yly.expireTokens();
    expect(await driver.printerStatus(printer)).toBe("online");
    expect(yly.tokensIssued).toBe(before + 1);
    clock.advance(31 * 24 * 3600_000);
    expect(await driver.printerStatus(printer)).toBe("online");
    expect(yly.tokensIssued).toBe(before + 2);
    // calls waiting together for a token make one request for it
    yly.expireTokens();
    clock.advance(31 * 24 * 3600_000);
    await Promise.all([driver.printerStatus(printer), driver.printerStatus(printer), driver.jobStatus(printer, "1")]);
    expect(yly.tokensIssued).toBe(before + 3);
  });

  it("refuses a wrong msign and a wrong client_secret as auth, naming neither", async () => {
    await expectCode(driver.addPrinter({ ...second, key: "msignWRONG" }), "auth", ["msignWRONG", account.client_secret]);
    expect(yly.boundTo(second.sn)).toBeUndefined();
    const wrongSecret = { ...printer, account: { ...account, client_secret: "secretWRONG1" } };
    await expectCode(driver.printerStatus(wrongSecret), "auth", ["secretWRONG1"]);
    await expectCode(driver.printerStatus({ ...printer, account: { client_id: "1999999999", client_secret: "x" } }), "auth", []);
  });

  it("refuses a printer bound to another application as rejected, and removes its own (again: still removed)", async () => {
    const otherApp = { ...second, account: { client_id: "1000000001", client_secret: "other" } };
    await driver.addPrinter(otherApp);
    await expectCode(driver.addPrinter(second), "rejected", []);
    await driver.removePrinter(otherApp);
    await driver.addPrinter(second);
    await driver.removePrinter(second);
    await driver.removePrinter(second);
    expect(yly.boundTo(second.sn)).toBeUndefined();
    await expectCode(driver.print(second, { dedupeKey: "A1", content: "x", copies: 1 }), "rejected", []);
  });
});

describe("the receipt", () => {
  const labels: ReceiptLabels = {
    orderNo: "订单号",
    paidAt: "支付时间",
    total: "合计",
    pickupPoint: "自提点",
    pickupCode: "取货码",
    receiver: "收货人",
    moreItems: (count) => `... 还有${count}件`,
  };
  const receipt: Receipt = {
    title: "阳光校园商城",
    school: "阳光第一小学",
    orderNo: "SO202611280001",
    paidAt: "2026-11-28 09:30",
    items: [
      { title: "校服夏装套装", spec: "160 / 蓝色", qty: 2, amount: "25.00" },
      { title: "Notebook A5 lined pages pack of five", qty: 10, amount: "3.50" },
    ],
    total: "85.00",
    delivery: { kind: "pickup", point: "北门取货点", code: "884213" },
    footer: "感谢您的惠顾",
    qr: "https://pay.example.cn/r/A1",
  };
  const sp = (count: number) => " ".repeat(count);
  const RULE = "--------------------------------";
  /** columns on a GBK printer: ASCII one, anything else two (counted here apart from the code) */
  const width = (line: string) => Array.from(line).reduce((sum, char) => sum + (char.charCodeAt(0) < 0x80 ? 1 : 2), 0);

  it("previews in 32 columns: centred titles, wrapped words, quantities and amounts against the edge", () => {
    expect(RULE).toHaveLength(32);
    expect(receiptPreview(receipt, labels)).toEqual([
      `${sp(10)}阳光校园商城`,
      `${sp(10)}阳光第一小学`,
      "订单号: SO202611280001",
      "支付时间: 2026-11-28 09:30",
      RULE,
      "校服夏装套装",
      `  160 / 蓝色${sp(8)}x2${sp(5)}25.00`,
      "Notebook A5 lined pages pack of",
      `five${sp(15)}x10${sp(6)}3.50`,
      RULE,
      `合计${sp(23)}85.00`,
      RULE,
      "自提点: 北门取货点",
      "取货码:",
      `${sp(13)}884213`,
      `${sp(10)}感谢您的惠顾`,
      "[QR] https://pay.example.cn/r/A1",
    ]);
  });

  it("writes Feie's markup", () => {
    expect(feieReceipt(receipt, labels)).toBe(
      "<CB>阳光校园商城</CB><BR>" +
        "<C>阳光第一小学</C><BR>" +
        "订单号: SO202611280001<BR>" +
        "支付时间: 2026-11-28 09:30<BR>" +
        `${RULE}<BR>` +
        "校服夏装套装<BR>" +
        `  160 / 蓝色${sp(8)}x2${sp(5)}25.00<BR>` +
        "Notebook A5 lined pages pack of<BR>" +
        `five${sp(15)}x10${sp(6)}3.50<BR>` +
        `${RULE}<BR>` +
        `<BOLD>合计${sp(23)}85.00</BOLD><BR>` +
        `${RULE}<BR>` +
        "自提点: 北门取货点<BR>" +
        "取货码:<BR>" +
        "<CB>884213</CB><BR>" +
        "<C>感谢您的惠顾</C><BR>" +
        "<QR>https://pay.example.cn/r/A1</QR>",
    );
  });

  it("writes Yilianyun's markup, its copies in <MN>", () => {
    const lines =
      "订单号: SO202611280001\n" +
      "支付时间: 2026-11-28 09:30\n" +
      `${RULE}\n` +
      "校服夏装套装\n" +
      `  160 / 蓝色${sp(8)}x2${sp(5)}25.00\n` +
      "Notebook A5 lined pages pack of\n" +
      `five${sp(15)}x10${sp(6)}3.50\n` +
      `${RULE}\n`;
    const tail =
      "<LR>合计,85.00</LR>\n" +
      `${RULE}\n` +
      "自提点: 北门取货点\n" +
      "取货码:\n" +
      "<FS2><center>884213</center></FS2>\n" +
      "<center>感谢您的惠顾</center>\n" +
      "<QR>https://pay.example.cn/r/A1</QR>\n";
    const head = "<FS><center>阳光校园商城</center></FS>\n<center>阳光第一小学</center>\n";
    expect(yilianyunReceipt(receipt, labels, 2)).toBe(`<MN>2</MN>${head}${lines}${tail}`);
    expect(yilianyunReceipt(receipt, labels)).toBe(`${head}${lines}${tail}`);
    // an amount written with a thousands comma would split <LR>: the line is laid out by spaces
    expect(yilianyunReceipt({ ...receipt, total: "1,085.00" }, labels)).toContain(`\n合计${sp(20)}1,085.00\n`);
  });

  it("prints a receiver and their address in place of a pickup", () => {
    const sent = receiptPreview({ ...receipt, delivery: { kind: "receiver", name: "王小明", phone: "138****0000", address: "广州市天河区天河路一百号阳光花园三栋二单元" }, qr: undefined, footer: undefined }, labels);
    expect(sent.slice(-4)).toEqual([RULE, "收货人: 王小明 138****0000", "广州市天河区天河路一百号阳光花园", "三栋二单元"]);
  });

  it("wraps by columns, a Chinese character taking two", () => {
    expect(wrap(`${"a".repeat(31)}校服`)).toEqual(["a".repeat(31), "校服"]);
    expect(wrap("校".repeat(17))).toEqual(["校".repeat(16), "校"]);
    expect(wrap(`${"x".repeat(40)} yz`)).toEqual(["x".repeat(32), "xxxxxxxx yz"]);
    const long: Receipt = {
      ...receipt,
      title: "阳光校园商城（北校区）Sunrise Campus Shop North",
      items: [
        { title: "加厚款校服冬装套装（男女同款）含外套、长裤与校徽一枚", spec: "175 / 藏青色 / 加大码 XL", qty: 120, amount: "12345.60" },
        { title: `${"a".repeat(31)}校服`, qty: 1, amount: "1.00" },
        { title: "ＡＢＣ全角字母与。，标点", qty: 3, amount: "99999999.99" },
      ],
      delivery: { kind: "pickup", point: "北门取货点（靠近第三教学楼东侧的传达室窗口）", code: "A-884213-0001" },
    };
    const lines = receiptPreview(long, labels);
    for (const line of lines) expect(width(line), line).toBeLessThanOrEqual(32);
    expect(lines).toContain(`${"a".repeat(31)}`);
    expect(lines).toContain(`校服${sp(16)}x1${sp(6)}1.00`);
    expect(lines).toContain(`${sp(18)}x3 99999999.99`);
  });

  it("neutralises markup and line breaks in a user's text", () => {
    const tricky: Receipt = {
      ...receipt,
      school: "</C><CB>假学校",
      items: [{ title: "校服<BR><CUT>加厚", qty: 1, amount: "9.90" }],
      footer: "a\nb<QR>x</QR>",
      qr: undefined,
    };
    const feie = feieReceipt(tricky, labels);
    expect(feie).not.toContain("<CUT>");
    expect(feie).not.toContain("<QR>");
    expect(feie).toContain("<C>＜/C＞＜CB＞假学校</C><BR>");
    expect(feie).toContain(`校服＜BR＞＜CUT＞加厚<BR>${sp(20)}x1${sp(6)}9.90<BR>`);
    expect(feie).toContain("<C>a b＜QR＞x＜/QR＞</C><BR>");
    const yly = yilianyunReceipt({ ...tricky, school: "</center><FS2>假学校" }, labels);
    expect(yly).toContain("<center>＜/center＞＜FS2＞假学校</center>\n");
    expect(yly).not.toContain("<FS2>假学校");
    expect(receiptPreview(tricky, labels)).toContain("校服＜BR＞＜CUT＞加厚");
  });

  it("keeps Feie's content within 5000 bytes, the items left out standing as one line", () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ title: `校服夏装套装第${i + 1}号`, spec: "160 / 蓝色", qty: 1, amount: "129.00" }));
    const big: Receipt = { ...receipt, items, total: "38700.00" };
    const feie = feieReceipt(big, labels);
    expect(Buffer.byteLength(feie, "utf8")).toBeLessThanOrEqual(5000);
    const shown = feie.split("校服夏装套装第").length - 1;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(300);
    expect(feie).toContain(`第${shown}号<BR>`);
    expect(feie).not.toContain(`第${shown + 1}号<BR>`);
    expect(feie).toContain(`... 还有${300 - shown}件<BR>${RULE}<BR><BOLD>合计`);
    expect(feie.endsWith("<C>感谢您的惠顾</C><BR><QR>https://pay.example.cn/r/A1</QR>")).toBe(true);
    expect(Buffer.byteLength(yilianyunReceipt(big, labels, 3), "utf8")).toBeLessThanOrEqual(5000);
    // the preview keeps every item
    expect(receiptPreview(big, labels).filter((line) => line.startsWith("校服夏装套装第"))).toHaveLength(300);
    expect(() => feieReceipt({ ...receipt, qr: `https://pay.example.cn/${"q".repeat(300)}` }, labels)).toThrow(RangeError);
  });
});
