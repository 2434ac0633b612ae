/**
 * Yilianyun 易联云 cloud printers through its open API as an own application (自有应用): every call is a form
 * POST to `{origin}/{path}` with `client_id`, `timestamp` (unix seconds), `sign` = md5(client_id + timestamp +
 * client_secret) in lower-case hex, `id` (a UUID v4) and, but for the token's own call, `access_token`. The answer
 * is `{error: "0", error_description: "success", body}`; any other error is a refusal.
 *
 * The token comes from `/oauth/oauth` {grant_type: client_credentials, scope: all} and lives about 30 days: it is
 * kept in memory per client_id (and origin) until shortly before it expires, one fetch shared by the calls that
 * wait for it; an answer saying the token is expired or wrong (18, 14) fetches a new one once and tries once more.
 *
 * De-duplication: the print's origin_id is the job's dedupeKey, and Yilianyun refuses a second print with an
 * origin_id its client_id has used. That refusal is a PrinterError "duplicate": the receipt was handed over
 * before (an answer lost on the way back, a job sent again), so the caller marks the job sent, not failed. The
 * refusal's error number is not in what we read of Yilianyun's documentation: it is recognised by its words.
 *
 * Copies are `<MN>n</MN>` in the content: the job's copies decide, whatever the content held.
 */
import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { checkJob, postForm, PrinterError, redacted, type JobStatus, type PrinterDriver, type PrinterErrorCode, type PrinterStatus, type PrintJob, type YilianyunAccount, type YilianyunPrinter } from "./types";

export const YILIANYUN_ORIGIN = "https://open-api.10ss.net";

export interface YilianyunOptions {
  /** the API's origin (tests: a stand-in on loopback) */
  origin?: string;
  now?: () => Date;
}

/** a token is fetched again this long before Yilianyun says it expires */
const TOKEN_MARGIN_MS = 10 * 60_000;
/** 14 access_token错误, 18 access_token过期或错误: ask for a new one */
const STALE_TOKEN_ERRORS = new Set(["14", "18"]);
/** 2 client_id不存在, 5 client_id或client_secret错误, 10 权限不足, 11 sign验证失败 */
const AUTH_ERRORS = new Set(["2", "5", "10", "11", ...STALE_TOKEN_ERRORS]);
/** 8 打印机信息错误: the printer is not bound to this application */
const PRINTER_UNKNOWN = "8";

const answer = z.object({
  error: z.union([z.string(), z.number()]).transform(String),
  error_description: z.string().optional().default(""),
  body: z.unknown().optional(),
});
type Answer = z.infer<typeof answer>;
const tokenBody = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });
const printBody = z.object({ id: z.union([z.string(), z.number()]).transform(String) });
const stateBody = z.object({ state: z.coerce.number() });
const orderBody = z.object({ status: z.coerce.number() });

/** Yilianyun's refusal as a PrinterError code: by its number where documented, else by its words */
function codeOf({ error, error_description: words }: Answer): PrinterErrorCode {
  if (/origin_id/i.test(words) && /重复|已存在|已使用|唯一|duplicate|exist/i.test(words)) return "duplicate";
  if (/离线/.test(words)) return "offline";
  if (/缺纸/.test(words)) return "no_paper";
  // bound to another application: that application's to release, not a wrong secret of ours
  if (/他人|已被.*绑定/.test(words)) return "rejected";
  if (AUTH_ERRORS.has(error) || /sign|密钥|client_id|client_secret|access_token|权限|授权/i.test(words)) return "auth";
  return "rejected";
}

/** The job's content with its copies as the job says: one `<MN>` at the start, none for one copy. */
export function withCopies(content: string, copies: number): string {
  const bare = content.replace(/<MN>\d*<\/MN>/gi, "");
  return copies > 1 ? `<MN>${copies}</MN>${bare}` : bare;
}

/** tokens by origin and client_id, shared by the drivers of one process */
const tokens = new Map<string, { token: string; until: number }>();
/** the fetch of a token under way, so that calls waiting for one make one request */
const fetching = new Map<string, Promise<string>>();

export class YilianyunDriver implements PrinterDriver<YilianyunPrinter> {
  readonly vendor = "yilianyun";
  private readonly origin: string;
  private readonly now: () => Date;

  constructor(options: YilianyunOptions = {}) {
    this.origin = options.origin ?? YILIANYUN_ORIGIN;
    this.now = options.now ?? (() => new Date());
  }

  private async send(account: YilianyunAccount, path: string, params: Record<string, string>): Promise<Answer> {
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    const sign = createHash("md5").update(account.client_id + timestamp + account.client_secret, "utf8").digest("hex");
    const body = await postForm("Yilianyun", new URL(path, this.origin), { client_id: account.client_id, timestamp, sign, id: randomUUID(), ...params });
    const parsed = answer.safeParse(body);
    if (!parsed.success) throw new PrinterError("network", `Yilianyun answered ${path} with an answer of another shape`);
    return parsed.data;
  }

  private failure(printer: YilianyunPrinter, path: string, refused: Answer, token?: string): PrinterError {
    const words = redacted(refused.error_description, [printer.key, printer.account.client_secret, token ?? ""]);
    return new PrinterError(codeOf(refused), `Yilianyun refused ${path}: ${refused.error} ${words}`);
  }

  /** A live token of the printer's application; `stale`: the one Yilianyun just refused, not to be used again. */
  private token(printer: YilianyunPrinter, stale?: string): Promise<string> {
    const key = `${this.origin} ${printer.account.client_id}`;
    const held = tokens.get(key);
    if (held && held.until > this.now().getTime() && held.token !== stale) return Promise.resolve(held.token);
    const pending = fetching.get(key);
    if (pending) return pending;
    const fetched = this.fetchToken(printer, key).finally(() => fetching.delete(key));
    fetching.set(key, fetched);
    return fetched;
  }

  private async fetchToken(printer: YilianyunPrinter, key: string): Promise<string> {
    tokens.delete(key);
    const refused = await this.send(printer.account, "/oauth/oauth", { grant_type: "client_credentials", scope: "all" });
    if (refused.error !== "0") throw this.failure(printer, "/oauth/oauth", refused);
    const parsed = tokenBody.safeParse(refused.body);
    if (!parsed.success) throw new PrinterError("network", "Yilianyun gave no access token");
    tokens.set(key, { token: parsed.data.access_token, until: this.now().getTime() + parsed.data.expires_in * 1000 - TOKEN_MARGIN_MS });
    return parsed.data.access_token;
  }

  /** One API call with the application's token: the answer, refused or not (a stale token is replaced once). */
  private async call(printer: YilianyunPrinter, path: string, params: Record<string, string>): Promise<{ answer: Answer; token: string }> {
    if (printer.vendor !== "yilianyun") throw new PrinterError("rejected", `the Yilianyun driver was given a ${String(printer.vendor)} printer`);
    let token = await this.token(printer);
    let got = await this.send(printer.account, path, { ...params, access_token: token });
    if (STALE_TOKEN_ERRORS.has(got.error)) {
      token = await this.token(printer, token);
      got = await this.send(printer.account, path, { ...params, access_token: token });
    }
    return { answer: got, token };
  }

  /** the call's body, or its refusal thrown */
  private async body(printer: YilianyunPrinter, path: string, params: Record<string, string>): Promise<unknown> {
    const { answer: got, token } = await this.call(printer, path, params);
    if (got.error !== "0") throw this.failure(printer, path, got, token);
    return got.body;
  }

  async addPrinter(printer: YilianyunPrinter): Promise<void> {
    await this.body(printer, "/printer/addprinter", { machine_code: printer.sn, msign: printer.key, print_name: printer.title });
  }

  async removePrinter(printer: YilianyunPrinter): Promise<void> {
    const { answer: got, token } = await this.call(printer, "/printer/deleteprinter", { machine_code: printer.sn });
    // 8: the printer is not bound to this application, so nothing is left to remove
    if (got.error === "0" || got.error === PRINTER_UNKNOWN) return;
    throw this.failure(printer, "/printer/deleteprinter", got, token);
  }

  async print(printer: YilianyunPrinter, job: PrintJob): Promise<{ providerJobId: string }> {
    checkJob(job);
    const body = await this.body(printer, "/print/index", { machine_code: printer.sn, content: withCopies(job.content, job.copies), origin_id: job.dedupeKey });
    const parsed = printBody.safeParse(body);
    if (!parsed.success) throw new PrinterError("network", "Yilianyun took the print but gave no order id");
    return { providerJobId: parsed.data.id };
  }

  async jobStatus(printer: YilianyunPrinter, providerJobId: string): Promise<JobStatus> {
    const { answer: got, token } = await this.call(printer, "/printer/getorderstatus", { machine_code: printer.sn, order_id: providerJobId });
    if (got.error !== "0") {
      const failure = this.failure(printer, "/printer/getorderstatus", got, token);
      // an order Yilianyun does not know is unknown; a refused application is not
      if (failure.code === "auth") throw failure;
      return "unknown";
    }
    const parsed = orderBody.safeParse(got.body);
    if (!parsed.success) throw new PrinterError("network", "Yilianyun answered /printer/getorderstatus with an answer of another shape");
    // 0: not printed yet (or cancelled at the printer)
    return parsed.data.status === 1 ? "printed" : "waiting";
  }

  async printerStatus(printer: YilianyunPrinter): Promise<PrinterStatus> {
    const parsed = stateBody.safeParse(await this.body(printer, "/printer/getprintstatus", { machine_code: printer.sn }));
    const status = parsed.success ? (["offline", "online", "no_paper"] as const)[parsed.data.state] : undefined;
    if (!status) throw new PrinterError("network", "Yilianyun answered /printer/getprintstatus with a state it does not document");
    return status;
  }
}
