/** Configuration from the environment (README: Configuration). */
import type { ZodType } from "zod";
import { yuanToFen } from "../common/money";
import type { DatabaseTarget } from "./db/client";
import { ALIYUN_SMS_ORIGIN, smsTemplatesSchema } from "./notify/aliyunSms";
import type { NotifyConfig } from "./notify/drivers";
import { wechatTemplatesSchema } from "./notify/wechatTemplate";
import { DEFAULT_ORDER_MAX_FEN } from "./payments/orders";
import type { WechatOAuthEndpoints } from "./payments/wechatpay/oauth";
import type { PrinterClouds } from "./domains/devices/printers";

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  publicUrl: string | undefined;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  logLevel: string;
  /** behind a reverse proxy: take the client address from X-Forwarded-For (login throttling, audit) */
  trustProxy: boolean;
  /** PAYMENT_KEY: 32 bytes, base64; encrypts stored payment merchant secrets */
  paymentKey: string | undefined;
  /** PAYMENT_SANDBOX=off: no sandbox payments (renewals need the platform's WeChat Pay merchant) */
  paymentSandbox: boolean;
  /** ORDER_MAX_YUAN: the most one payment order may ask for, in fen */
  orderMaxFen: number;
  /** NOTIFY_SANDBOX, WECHAT_TEMPLATES, SMS_*: how notices leave the server */
  notify: NotifyConfig;
  /** WECHAT_OAUTH_AUTHORIZE_URL, WECHAT_API_ORIGIN: WeChat's OAuth addresses, unset for WeChat's own */
  wechatOAuth: Partial<WechatOAuthEndpoints>;
  /** where the cloud printers' open platforms are reached (FEIE_API_ORIGIN, YILIANYUN_API_ORIGIN); default their own */
  printerClouds: PrinterClouds;
  /** WORK_WECHAT_API_ORIGIN: where enterprise WeChat's API is reached; unset for its own */
  workWechatOrigin: string | undefined;
  /** ALIPAY_GATEWAY_URL: where Alipay's open platform gateway is reached; unset for its own */
  alipayGateway: string | undefined;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; unset, /metrics is not served */
  metricsToken: string | undefined;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, allowZero = false): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) throw new Error(`${name} must be a ${allowZero ? "non-negative" : "positive"} number, got "${raw}"`);
  return n;
}

/** ORDER_MAX_YUAN: an amount in yuan (at most two decimals) above zero, else the default ceiling. */
function orderMaxFen(env: NodeJS.ProcessEnv): number {
  const raw = env.ORDER_MAX_YUAN;
  if (raw === undefined || raw === "") return DEFAULT_ORDER_MAX_FEN;
  const fen = yuanToFen(raw);
  if (fen === null || fen <= 0) throw new Error(`ORDER_MAX_YUAN must be an amount in yuan above 0, such as 50000 or 8800.50, got "${raw}"`);
  return fen;
}

/** METRICS_TOKEN: long enough that it cannot be guessed, since the figures tell of every provider's business. */
function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.METRICS_TOKEN;
  if (!token) return undefined;
  if (token.length < 16) throw new Error("METRICS_TOKEN must be at least 16 characters long");
  return token;
}

export function databaseTargetFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseTarget {
  if (!env.DATABASE_URL) return { kind: "pglite", dataDir: env.DATA_DIR || "./data" };
  const pooler = env.DATABASE_POOLER ?? "";
  if (pooler !== "" && pooler !== "transaction") throw new Error(`DATABASE_POOLER must be "transaction" (PgBouncer's transaction mode) or unset, got "${pooler}"`);
  return { kind: "postgres", url: env.DATABASE_URL, ...(pooler === "transaction" ? { pooler } : {}) };
}

function jsonVariable<T>(env: NodeJS.ProcessEnv, name: string, schema: ZodType<T>): T | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be JSON, got "${raw}"`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${name} does not have the expected shape: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}

/** The notifier: the sandbox unless NOTIFY_SANDBOX=off; then the SMS service once its four variables are set. */
export function notifyConfigFromEnv(env: NodeJS.ProcessEnv = process.env): NotifyConfig {
  const sms = ["SMS_ACCESS_KEY_ID", "SMS_ACCESS_KEY_SECRET", "SMS_SIGN_NAME", "SMS_TEMPLATES"];
  const set = sms.filter((name) => env[name]);
  if (set.length > 0 && set.length < sms.length) throw new Error(`the SMS service needs ${sms.join(", ")}: ${sms.filter((name) => !env[name]).join(", ")} missing`);
  const templates = jsonVariable(env, "SMS_TEMPLATES", smsTemplatesSchema);
  return {
    sandbox: !["off", "false", "0"].includes((env.NOTIFY_SANDBOX ?? "").toLowerCase()),
    wechatTemplates: jsonVariable(env, "WECHAT_TEMPLATES", wechatTemplatesSchema),
    ...(templates
      ? { sms: { accessKeyId: env.SMS_ACCESS_KEY_ID!, accessKeySecret: env.SMS_ACCESS_KEY_SECRET!, signName: env.SMS_SIGN_NAME!, templates, origin: env.SMS_API_ORIGIN || ALIYUN_SMS_ORIGIN } }
      : {}),
  };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    // 0 asks the system for a free port
    port: positiveNumber(env, "PORT", 8080, true),
    host: env.HOST || "0.0.0.0",
    database: databaseTargetFromEnv(env),
    publicUrl: env.PUBLIC_URL || undefined,
    sessionIdleMinutes: positiveNumber(env, "SESSION_IDLE_MINUTES", 120),
    sessionMaxHours: positiveNumber(env, "SESSION_MAX_HOURS", 12),
    logLevel: env.LOG_LEVEL || "info",
    trustProxy: env.TRUST_PROXY === "true" || env.TRUST_PROXY === "1",
    paymentKey: env.PAYMENT_KEY || undefined,
    paymentSandbox: !["off", "false", "0"].includes((env.PAYMENT_SANDBOX ?? "").toLowerCase()),
    orderMaxFen: orderMaxFen(env),
    notify: notifyConfigFromEnv(env),
    wechatOAuth: {
      ...(env.WECHAT_OAUTH_AUTHORIZE_URL ? { authorizeUrl: env.WECHAT_OAUTH_AUTHORIZE_URL } : {}),
      ...(env.WECHAT_API_ORIGIN ? { apiOrigin: env.WECHAT_API_ORIGIN } : {}),
    },
    printerClouds: {
      ...(env.FEIE_API_ORIGIN ? { feieOrigin: env.FEIE_API_ORIGIN } : {}),
      ...(env.YILIANYUN_API_ORIGIN ? { yilianyunOrigin: env.YILIANYUN_API_ORIGIN } : {}),
      ...(env.FEIE_CALLBACK_PUBLIC_KEY ? { feieCallbackPublicKey: env.FEIE_CALLBACK_PUBLIC_KEY } : {}),
    },
    workWechatOrigin: env.WORK_WECHAT_API_ORIGIN || undefined,
    alipayGateway: env.ALIPAY_GATEWAY_URL || undefined,
    metricsToken: metricsToken(env),
  };
}
