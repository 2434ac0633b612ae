/**
 * Feie 飞鹅 cloud printers through Feie's Open API: every call is a form POST to `{origin}/Api/Open/` with the
 * account's `user`, `stime` (unix seconds), `sig` = sha1(user + UKEY + stime) in lower-case hex and the `apiname`.
 * Feie answers HTTP 200 either way, `{msg, ret, data, serverExecutedTime}`: ret 0 is success, anything else is a
 * refusal in `msg`'s words (Chinese; their numbers are not documented), which is what PrinterError codes are
 * read from. Feie queues a print for an offline printer (up to 24 h) and prints it once the printer is back.
 *
 * Feie has no de-duplication key: every Open_printMsg prints, even the same content twice. A receipt prints once
 * only because the caller's job table sends each job once (and, after an answer lost on the way back, asks
 * jobStatus or a person rather than sending it again blindly).
 *
 * Feie's callback: a print given a `backurl` is reported by a form POST {orderId, status (1 printed), stime, sign}
 * where sign is base64 SHA256withRSA over `orderId=…&status=…&stime=…` under Feie's key; verifyCallback checks it
 * with Feie's public key (an option, as Feie gives it to the account), and the caller's route answers `SUCCESS`.
 */
import { createHash, createPublicKey, createVerify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { checkJob, postForm, PrinterError, redacted, type FeiePrinter, type JobStatus, type PrintCallback, type PrinterDriver, type PrinterErrorCode, type PrinterStatus, type PrintJob } from "./types";

export const FEIE_ORIGIN = "http://api.feieyun.cn";

export interface FeieOptions {
  /** the API's origin (tests: a stand-in on loopback) */
  origin?: string;
  /** Feie's public key for its callbacks: PEM, or the bare base64 of its SPKI DER as Feie's console shows it */
  callbackPublicKey?: string | KeyObject;
  /** where Feie reports each print once printed (a print's `backurl`); none: the job is asked after instead */
  backUrl?: string;
  now?: () => Date;
}

const answer = z.object({ ret: z.number(), msg: z.string().optional().default(""), data: z.unknown() });
/** Open_printerAddlist's and Open_printerDelList's data: the lines taken and the lines refused with a reason */
const listData = z.object({ ok: z.array(z.string()).optional().default([]), no: z.array(z.string()).optional().default([]) });

/** Feie's words for why a call was refused, as a PrinterError code */
function codeOf(msg: string): PrinterErrorCode {
  if (/离线|不在线/.test(msg)) return "offline";
  if (/缺纸/.test(msg)) return "no_paper";
  // 识别码: the printer's key; 签名 / 未注册 / UKEY: the account's user or UKEY
  if (/识别码|签名|未注册|ukey/i.test(msg)) return "auth";
  return "rejected";
}

/** The status text of Open_queryPrinterStatus: 离线, 在线，工作状态正常, 在线，工作状态不正常 (most often no paper) */
function printerStatusOf(text: string): PrinterStatus | undefined {
  if (text.includes("离线")) return "offline";
  if (text.includes("不正常")) return "no_paper";
  if (text.includes("正常")) return "online";
  return undefined;
}

/** Feie's `sn#key#remark` line holds no line break and no `#` of its own */
function remark(title: string): string {
  return title.replace(/[#\r\n]+/g, " ").trim();
}

function publicKeyOf(key: string | KeyObject): KeyObject {
  if (typeof key !== "string") return key;
  if (key.includes("-----BEGIN")) return createPublicKey(key);
  return createPublicKey({ key: Buffer.from(key.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" });
}

export class FeieDriver implements PrinterDriver<FeiePrinter> {
  readonly vendor = "feie";
  private readonly origin: string;
  private readonly now: () => Date;
  private readonly callbackKey: KeyObject | undefined;
  private readonly backUrl: string | undefined;

  constructor(options: FeieOptions = {}) {
    this.backUrl = options.backUrl;
    this.origin = options.origin ?? FEIE_ORIGIN;
    this.now = options.now ?? (() => new Date());
    this.callbackKey = options.callbackPublicKey === undefined ? undefined : publicKeyOf(options.callbackPublicKey);
  }

  /** One Open API call: its `data` when ret is 0, else a PrinterError from Feie's words (secrets masked). */
  private async call(printer: FeiePrinter, apiname: string, params: Record<string, string>): Promise<unknown> {
    const { ret, msg, data } = await this.send(printer, apiname, params);
    if (ret !== 0) throw this.failure(printer, apiname, msg);
    return data;
  }

  private async send(printer: FeiePrinter, apiname: string, params: Record<string, string>): Promise<z.infer<typeof answer>> {
    if (printer.vendor !== "feie") throw new PrinterError("rejected", `the Feie driver was given a ${String(printer.vendor)} printer`);
    const { user, ukey } = printer.account;
    const stime = String(Math.floor(this.now().getTime() / 1000));
    const sig = createHash("sha1").update(user + ukey + stime, "utf8").digest("hex");
    const body = await postForm("Feie", new URL("/Api/Open/", this.origin), { user, stime, sig, apiname, ...params });
    const parsed = answer.safeParse(body);
    if (!parsed.success) throw new PrinterError("network", `Feie answered ${apiname} with an answer of another shape`);
    return parsed.data;
  }

  private failure(printer: FeiePrinter, apiname: string, msg: string): PrinterError {
    return new PrinterError(codeOf(msg), `Feie refused ${apiname}: ${redacted(msg, [printer.key, printer.account.ukey])}`);
  }

  /** the refusal in a list answer of one line (ours), if any */
  private static refusalOf(apiname: string, data: unknown): string | undefined {
    const parsed = listData.safeParse(data);
    if (!parsed.success) throw new PrinterError("network", `Feie answered ${apiname} with an answer of another shape`);
    return parsed.data.no[0];
  }

  async addPrinter(printer: FeiePrinter): Promise<void> {
    const data = await this.call(printer, "Open_printerAddlist", { printerContent: `${printer.sn}#${printer.key}#${remark(printer.title)}` });
    const refusal = FeieDriver.refusalOf("Open_printerAddlist", data);
    if (refusal === undefined) return;
    // already added: to this account it is done; to another one, it is that account's
    if (/已被?添加/.test(refusal) && !/其他|他人/.test(refusal)) return;
    throw this.failure(printer, "Open_printerAddlist", refusal);
  }

  async removePrinter(printer: FeiePrinter): Promise<void> {
    const data = await this.call(printer, "Open_printerDelList", { snlist: printer.sn });
    const refusal = FeieDriver.refusalOf("Open_printerDelList", data);
    if (refusal === undefined || /不存在|未添加|没有/.test(refusal)) return;
    throw this.failure(printer, "Open_printerDelList", refusal);
  }

  async print(printer: FeiePrinter, job: PrintJob): Promise<{ providerJobId: string }> {
    checkJob(job);
    const data = await this.call(printer, "Open_printMsg", { sn: printer.sn, content: job.content, times: String(job.copies), ...(this.backUrl ? { backurl: this.backUrl } : {}) });
    if (typeof data !== "string" || data === "") throw new PrinterError("network", "Feie took the print but gave no order id");
    return { providerJobId: data };
  }

  async jobStatus(printer: FeiePrinter, providerJobId: string): Promise<JobStatus> {
    const { ret, msg, data } = await this.send(printer, "Open_queryOrderState", { orderid: providerJobId });
    if (ret !== 0) {
      const failure = this.failure(printer, "Open_queryOrderState", msg);
      // an order Feie does not know (of another account, or a wrong id) is unknown; a refused account is not
      if (failure.code === "auth") throw failure;
      return "unknown";
    }
    if (typeof data !== "boolean") throw new PrinterError("network", "Feie answered Open_queryOrderState with an answer of another shape");
    return data ? "printed" : "waiting";
  }

  async printerStatus(printer: FeiePrinter): Promise<PrinterStatus> {
    const data = await this.call(printer, "Open_queryPrinterStatus", { sn: printer.sn });
    const status = typeof data === "string" ? printerStatusOf(data) : undefined;
    if (!status) throw new PrinterError("network", "Feie answered Open_queryPrinterStatus with a status it does not document");
    return status;
  }

  /**
   * Feie's callback, its form fields as posted. The stime is not held to a window: a callback Feie sends again
   * later says the same thing, and the only thing it can say (printed) is final.
   */
  verifyCallback(fields: Readonly<Record<string, unknown>>): PrintCallback {
    if (!this.callbackKey) throw new PrinterError("auth", "no Feie callback public key is configured");
    const { orderId, status, stime, sign } = fields;
    if (typeof orderId !== "string" || typeof status !== "string" || typeof stime !== "string" || typeof sign !== "string" || orderId === "") {
      throw new PrinterError("auth", "a Feie callback without orderId, status, stime or sign");
    }
    let valid = false;
    try {
      valid = createVerify("RSA-SHA256").update(`orderId=${orderId}&status=${status}&stime=${stime}`, "utf8").verify(this.callbackKey, sign, "base64");
    } catch {
      valid = false;
    }
    if (!valid) throw new PrinterError("auth", "a Feie callback with a bad signature");
    return { providerJobId: orderId, printed: status === "1" };
  }
}
