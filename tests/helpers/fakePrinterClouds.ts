/**
 * Stand-ins on loopback for the cloud receipt printers' vendors, speaking their protocols:
 * - Feie 飞鹅: `POST /Api/Open/` (form) checks the account's `sig` = sha1(user + UKEY + stime) and that stime is
 *   within five minutes, and answers {msg, ret, data, serverExecutedTime}: Open_printerAddlist (`sn#key#remark`
 *   lines; data {ok, no}, a refused line echoing what it was sent, key included, as Feie's does),
 *   Open_printerDelList (snlist `a-b`), Open_printMsg {sn, content ≤ 5000 bytes, times} -> the order id,
 *   Open_queryOrderState {orderid} -> true / false, Open_queryPrinterStatus {sn} -> 离线 / 在线，工作状态正常 /
 *   在线，工作状态不正常. It signs Feie's callback {orderId, status, stime, sign} (SHA256withRSA, base64) with a test
 *   key pair whose public key it offers.
 * - Yilianyun 易联云: form POSTs checking `sign` = md5(client_id + timestamp + client_secret), a 10-digit timestamp
 *   within five minutes and a UUID v4 `id`: `/oauth/oauth` {grant_type: client_credentials, scope: all} gives a
 *   token of 30 days, `/printer/addprinter` {machine_code, msign}, `/printer/deleteprinter`, `/print/index`
 *   {machine_code, content, origin_id} refusing an origin_id its client_id used before, `/printer/getprintstatus`
 *   -> state 0 / 1 / 2, `/printer/getorderstatus`; answers {error, error_description, body}. Error numbers 2, 8, 11,
 *   12, 18, 27, 33 are the documented ones; the numbers and words of the wrong-msign, bound-elsewhere and
 *   repeated-origin_id refusals are this stand-in's (not in what we read of Yilianyun's documentation).
 * Both keep the printers they know (as made: an SN and its key), which account each is bound to, and every print;
 * a print to a printer offline or out of paper waits and prints once it is back, as both vendors queue.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

async function formOf(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

/** how far a request's clock may be from the stand-in's */
const MAX_SKEW_SECONDS = 300;

/** A printer as made: its SN (machine_code) and key (msign), and what the stand-in lets a test switch. */
interface PrinterState {
  key: string;
  online: boolean;
  paper: boolean;
  /** the account (Feie user, Yilianyun client_id) it is bound to */
  boundTo?: string;
  name?: string;
}

export interface FeieOrder {
  orderId: string;
  sn: string;
  user: string;
  content: string;
  times: number;
  printed: boolean;
  /** where the print asked to be reported once printed (Open_printMsg's backurl) */
  backurl?: string;
}

function makePrinters(printers: { sn: string; key: string }[]): Map<string, PrinterState> {
  return new Map(printers.map(({ sn, key }) => [sn, { key, online: true, paper: true }]));
}

export class FakeFeieCloud {
  readonly orders: FeieOrder[] = [];
  /** Feie's callback public key as PEM (SPKI) */
  readonly publicKeyPem: string;
  /** the same key as the bare base64 of its DER, as Feie's console shows it */
  readonly publicKeyBase64: string;
  private readonly privateKey: KeyObject;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly accounts: Map<string, string>,
    private readonly printers: Map<string, PrinterState>,
    private readonly now: () => number,
  ) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKeyPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
    this.publicKeyBase64 = pair.publicKey.export({ type: "spki", format: "der" }).toString("base64");
  }

  /** `accounts`: users and their UKEY; `printers`: the printers made, by SN and key; `now`: milliseconds */
  static async start(accounts: { user: string; ukey: string }[], printers: { sn: string; key: string }[], now: () => number = Date.now): Promise<FakeFeieCloud> {
    let fake: FakeFeieCloud | undefined;
    const { server, url } = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeFeieCloud(server, url, new Map(accounts.map((a) => [a.user, a.ukey])), makePrinters(printers), now);
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** the user a printer is added to */
  boundTo(sn: string): string | undefined {
    return this.printers.get(sn)?.boundTo;
  }

  setOnline(sn: string, online: boolean): void {
    this.printers.get(sn)!.online = online;
    this.flush(sn);
  }

  setPaper(sn: string, paper: boolean): void {
    this.printers.get(sn)!.paper = paper;
    this.flush(sn);
  }

  /** the receipts a printer printed, in order */
  printed(sn: string): FeieOrder[] {
    return this.orders.filter((order) => order.sn === sn && order.printed);
  }

  /** the form Feie posts to a print's backurl once it printed, signed with the stand-in's key */
  callbackFields(orderId: string): Record<string, string> {
    const stime = String(Math.floor(this.now() / 1000));
    const status = "1";
    const sign = createSign("RSA-SHA256").update(`orderId=${orderId}&status=${status}&stime=${stime}`, "utf8").sign(this.privateKey, "base64");
    return { orderId, status, stime, sign };
  }

  /** posts the callback to `url` as Feie does; answers what the receiver said */
  async sendCallback(url: string, orderId: string): Promise<{ status: number; text: string }> {
    const response = await fetch(url, { method: "POST", body: new URLSearchParams(this.callbackFields(orderId)) });
    return { status: response.status, text: await response.text() };
  }

  private flush(sn: string): void {
    const printer = this.printers.get(sn)!;
    if (!printer.online || !printer.paper) return;
    for (const order of this.orders) if (order.sn === sn) order.printed = true;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", this.url).pathname;
    if (req.method !== "POST" || (path !== "/Api/Open/" && path !== "/Api/Open")) return void res.writeHead(404).end();
    const form = await formOf(req);
    const started = Date.now();
    const answer = (ret: number, msg: string, data: unknown = null) => json(res, { msg, ret, data, serverExecutedTime: Date.now() - started });
    const fail = (msg: string) => answer(-2, msg);
    const ukey = this.accounts.get(form.user ?? "");
    if (ukey === undefined) return fail("参数错误 : 该帐号未注册.");
    if (!/^\d{10}$/.test(form.stime ?? "") || Math.abs(this.now() / 1000 - Number(form.stime)) > MAX_SKEW_SECONDS) return fail("参数错误 : stime 与服务器时间相差过大.");
    if (form.sig !== createHash("sha1").update(form.user + ukey + form.stime).digest("hex")) return fail("参数错误 : 签名错误.");
    const user = form.user;
    const ours = (sn: string | undefined) => (sn === undefined ? undefined : this.printers.get(sn)?.boundTo === user ? this.printers.get(sn) : undefined);
    switch (form.apiname) {
      case "Open_printerAddlist": {
        const lines = (form.printerContent ?? "").split("\n").filter((line) => line.trim() !== "");
        if (lines.length === 0 || lines.length > 100) return fail("参数错误 : printerContent 为空或超过100台.");
        const ok: string[] = [];
        const no: string[] = [];
        for (const line of lines) {
          const [sn = "", key = "", name = ""] = line.split("#");
          const printer = this.printers.get(sn);
          if (!printer) no.push(`${line} 错误：打印机编号错误.`);
          else if (printer.key !== key) no.push(`${line} 错误：识别码不正确.`);
          else if (printer.boundTo === user) no.push(`${line} 错误：已被添加过.`);
          else if (printer.boundTo !== undefined) no.push(`${line} 错误：已被其他帐号添加.`);
          else {
            printer.boundTo = user;
            printer.name = name;
            ok.push(line);
          }
        }
        return answer(0, "ok", { ok, no });
      }
      case "Open_printerDelList": {
        const ok: string[] = [];
        const no: string[] = [];
        for (const sn of (form.snlist ?? "").split("-")) {
          const printer = ours(sn);
          if (printer) {
            printer.boundTo = undefined;
            ok.push(sn);
          } else no.push(`${sn} 错误：打印机编号错误或未添加到该帐号.`);
        }
        return answer(0, "ok", { ok, no });
      }
      case "Open_printMsg": {
        const printer = ours(form.sn);
        if (!printer) return fail("参数错误 : 打印机编号错误或未添加到该帐号.");
        const content = form.content ?? "";
        if (content === "") return fail("参数错误 : 参数值不能传空字符.");
        if (Buffer.byteLength(content, "utf8") > 5000) return fail("参数错误 : 打印内容超过5000字节.");
        const times = Number(form.times ?? "1");
        if (!Number.isInteger(times) || times < 1) return fail("参数错误 : times 不正确.");
        const stamp = new Date(this.now()).toISOString().replace(/\D/g, "").slice(0, 14);
        const orderId = `${form.sn}_${stamp}_${randomBytes(4).readUInt32BE(0)}`;
        this.orders.push({ orderId, sn: form.sn!, user, content, times, printed: printer.online && printer.paper, ...(form.backurl ? { backurl: form.backurl } : {}) });
        return answer(0, "ok", orderId);
      }
      case "Open_queryOrderState": {
        const order = this.orders.find((o) => o.orderId === form.orderid && o.user === user);
        if (!order) return fail("参数错误 : 订单编号错误.");
        return answer(0, "ok", order.printed);
      }
      case "Open_queryPrinterStatus": {
        const printer = ours(form.sn);
        if (!printer) return fail("参数错误 : 打印机编号错误或未添加到该帐号.");
        return answer(0, "ok", !printer.online ? "离线" : printer.paper ? "在线，工作状态正常" : "在线，工作状态不正常");
      }
      default:
        return fail("参数错误 : apiname 不正确.");
    }
  }
}

export interface YilianyunOrder {
  id: string;
  client_id: string;
  machine_code: string;
  origin_id: string;
  content: string;
  /** from the content's <MN>n</MN> */
  copies: number;
  printed: boolean;
}

/** how long Yilianyun's own-application token lives */
const TOKEN_SECONDS = 30 * 24 * 3600;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export class FakeYilianyunCloud {
  readonly orders: YilianyunOrder[] = [];
  /** tokens given by /oauth/oauth */
  tokensIssued = 0;
  private readonly tokens = new Map<string, { client_id: string; until: number }>();
  private nextOrderId = 1_000_000_001;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly clients: Map<string, string>,
    private readonly printers: Map<string, PrinterState>,
    private readonly now: () => number,
  ) {}

  /** `clients`: applications and their secret; `printers`: the printers made, by machine_code and msign */
  static async start(clients: { client_id: string; client_secret: string }[], printers: { sn: string; key: string }[], now: () => number = Date.now): Promise<FakeYilianyunCloud> {
    let fake: FakeYilianyunCloud | undefined;
    const { server, url } = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeYilianyunCloud(server, url, new Map(clients.map((c) => [c.client_id, c.client_secret])), makePrinters(printers), now);
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Yilianyun stops taking every token it gave */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** the client_id a printer is bound to */
  boundTo(machineCode: string): string | undefined {
    return this.printers.get(machineCode)?.boundTo;
  }

  setOnline(machineCode: string, online: boolean): void {
    this.printers.get(machineCode)!.online = online;
    this.flush(machineCode);
  }

  setPaper(machineCode: string, paper: boolean): void {
    this.printers.get(machineCode)!.paper = paper;
    this.flush(machineCode);
  }

  /** the receipts a printer printed, in order */
  printed(machineCode: string): YilianyunOrder[] {
    return this.orders.filter((order) => order.machine_code === machineCode && order.printed);
  }

  private flush(machineCode: string): void {
    const printer = this.printers.get(machineCode)!;
    if (!printer.online || !printer.paper) return;
    for (const order of this.orders) if (order.machine_code === machineCode) order.printed = true;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", this.url).pathname;
    if (req.method !== "POST") return void res.writeHead(404).end();
    const form = await formOf(req);
    const ok = (body: unknown) => json(res, { error: "0", error_description: "success", body });
    const fail = (error: string, error_description: string) => json(res, { error, error_description });
    const secret = this.clients.get(form.client_id ?? "");
    if (secret === undefined) return fail("2", "client_id不存在");
    if (!/^\d{10}$/.test(form.timestamp ?? "") || Math.abs(this.now() / 1000 - Number(form.timestamp)) > MAX_SKEW_SECONDS) return fail("12", "缺少必要参数或timestamp不正确");
    if (form.sign !== createHash("md5").update(form.client_id + form.timestamp + secret).digest("hex")) return fail("11", "sign验证失败");
    if (!UUID_V4.test(form.id ?? "")) return fail("33", "Uuid不合法");
    const client = form.client_id;
    if (path === "/oauth/oauth") {
      if (form.grant_type !== "client_credentials") return fail("12", "缺少必要参数");
      if (form.scope !== "all") return fail("27", "请设置scope,权限默认为all");
      const token = randomBytes(16).toString("hex");
      this.tokens.set(token, { client_id: client, until: this.now() + TOKEN_SECONDS * 1000 });
      this.tokensIssued++;
      return ok({ access_token: token, refresh_token: randomBytes(16).toString("hex"), machine_code: "", expires_in: TOKEN_SECONDS, scope: "all" });
    }
    const held = this.tokens.get(form.access_token ?? "");
    if (!held || held.client_id !== client || held.until <= this.now()) return fail("18", "access_token过期或错误,请刷新access_token或者重新授权");
    const machine = form.machine_code ?? "";
    const printer = this.printers.get(machine);
    const ours = printer?.boundTo === client ? printer : undefined;
    switch (path) {
      case "/printer/addprinter":
        if (!printer || printer.key !== form.msign) return fail("8", "machine_code或msign错误");
        if (printer.boundTo !== undefined && printer.boundTo !== client) return fail("17", "该打印机已被他人绑定");
        printer.boundTo = client;
        printer.name = form.print_name;
        return ok("");
      case "/printer/deleteprinter":
        if (!ours) return fail("8", "打印机信息错误,参数有误");
        ours.boundTo = undefined;
        return ok("");
      case "/print/index": {
        if (!ours) return fail("8", "打印机信息错误,参数有误");
        const originId = form.origin_id ?? "";
        const content = form.content ?? "";
        if (!/^[A-Za-z0-9]{1,32}$/.test(originId) || content === "") return fail("12", "缺少必要参数");
        if (this.orders.some((order) => order.client_id === client && order.origin_id === originId)) return fail("45", "origin_id重复,请勿重复提交");
        const id = String(this.nextOrderId++);
        const copies = Number(/<MN>(\d+)<\/MN>/.exec(content)?.[1] ?? "1");
        this.orders.push({ id, client_id: client, machine_code: machine, origin_id: originId, content, copies, printed: ours.online && ours.paper });
        return ok({ id, origin_id: originId });
      }
      case "/printer/getprintstatus":
        if (!ours) return fail("8", "打印机信息错误,参数有误");
        return ok({ state: !ours.online ? "0" : ours.paper ? "1" : "2" });
      case "/printer/getorderstatus": {
        const order = this.orders.find((o) => o.client_id === client && o.machine_code === machine && o.id === form.order_id);
        if (!ours || !order) return fail("8", "打印机信息错误,参数有误");
        return ok({ id: order.id, origin_id: order.origin_id, status: order.printed ? 1 : 0 });
      }
      default:
        return void res.writeHead(404).end();
    }
  }
}
