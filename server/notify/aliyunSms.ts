/**
 * SMS through Alibaba Cloud's SMS service (dysmsapi, `SendSms`, API version 2017-05-25): the reminders and the
 * notices to guardians' mobile numbers. A request is a GET signed with the RPC signature (HMAC-SHA1 over the
 * sorted, percent-encoded parameters, key `{AccessKeySecret}&`); the message is a template approved in the
 * account, named by its code, with the notice's parameters as its variables, under the account's signature name.
 * The answer's `Code` is "OK" for a message taken, its `BizId` the reference; anything else is its refusal.
 */
import { createHmac, randomUUID } from "node:crypto";
import { z } from "zod";
import { boundedText } from "../lib/boundedText";
import type { NoticeDriver } from "./drivers";
import type { NoticeRow } from "./notices";

export const ALIYUN_SMS_ORIGIN = "https://dysmsapi.aliyuncs.com";
const TIMEOUT_MS = 8_000;
const MAX_ANSWER_BYTES = 16 * 1024;

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  /** the signature the account's messages carry (签名名称) */
  signName: string;
  /** the approved template's code of each kind of notice: {"reminder": "SMS_123456789"} */
  templates: Record<string, string>;
  /** the service's origin (tests: a stand-in on loopback) */
  origin: string;
}

export const smsTemplatesSchema = z.record(z.string(), z.string().min(1).max(64));

/** RFC 3986 percent-encoding, as the RPC signature wants it */
function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The RPC signature of a GET with these parameters (Signature itself not among them). */
function rpcSignature(params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key])}`)
    .join("&");
  const stringToSign = `GET&${percentEncode("/")}&${percentEncode(canonical)}`;
  return createHmac("sha1", `${accessKeySecret}&`).update(stringToSign).digest("base64");
}

const sendAnswer = z.object({ Code: z.string(), Message: z.string().optional(), BizId: z.string().optional(), RequestId: z.string().optional() });

export class AliyunSmsDriver implements NoticeDriver {
  readonly name = "aliyun_sms";

  constructor(
    private readonly config: AliyunSmsConfig,
    private readonly now: () => Date,
  ) {}

  async send(notice: NoticeRow): Promise<{ reference: string | null }> {
    const template = this.config.templates[notice.kind];
    if (!template) throw new Error(`no SMS template is set for ${notice.kind} notices`);
    const params: Record<string, string> = {
      AccessKeyId: this.config.accessKeyId,
      Action: "SendSms",
      Format: "JSON",
      PhoneNumbers: notice.recipient,
      RegionId: "cn-hangzhou",
      SignName: this.config.signName,
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: randomUUID(),
      SignatureVersion: "1.0",
      TemplateCode: template,
      TemplateParam: JSON.stringify(notice.params),
      Timestamp: this.now().toISOString().replace(/\.\d{3}Z$/, "Z"),
      Version: "2017-05-25",
    };
    const url = new URL("/", this.config.origin);
    url.search = new URLSearchParams({ ...params, Signature: rpcSignature(params, this.config.accessKeySecret) }).toString();
    const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
    const parsed = sendAnswer.safeParse(JSON.parse(await boundedText(response, MAX_ANSWER_BYTES)));
    if (!parsed.success) throw new Error(`the SMS service answered HTTP ${response.status} with an answer of another shape`);
    if (parsed.data.Code !== "OK") throw new Error(`the SMS service refused the message: ${parsed.data.Code} ${parsed.data.Message ?? ""}`);
    return { reference: parsed.data.BizId ?? null };
  }
}
