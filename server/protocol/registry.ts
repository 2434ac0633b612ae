/**
 * The operation registry: every /weapi/{path} method with whether it needs a session, the role keys allowed
 * and its payload schema.
 */
import type { FastifyBaseLogger } from "fastify";
import type { OperationDecl, OperationEffect } from "../../common/catalogue";
import type { ZodType } from "zod";
import type { Authority } from "../auth/authority";
import type { PasswordHasher } from "../auth/passwords";
import type { SessionLifetime, SessionStateRead } from "../auth/sessions";
import type { ThrottleRules } from "../auth/throttle";
import type { Db } from "../db/client";
import type { Clock } from "../lib/clock";
import type { Language, Translate } from "../lib/i18n";
import type { NotifyConfig } from "../notify/drivers";
import type { PaymentSecrets } from "../payments/secrets";
import type { WechatOAuthEndpoints } from "../payments/wechatpay/oauth";
import type { PrinterClouds } from "../domains/devices/printers";
import type { UploadStorage } from "../uploads/storage";

/** What every operation can use, fixed for the life of the app. */
export interface AppServices {
  db: Db;
  clock: Clock;
  hasher: PasswordHasher;
  sessionLifetime: SessionLifetime;
  throttle: ThrottleRules;
  /** encrypts and decrypts stored payment merchant secrets */
  paymentSecrets: PaymentSecrets;
  /** PUBLIC_URL: the address phones and payment gateways reach the server at; unset: each request's own origin */
  publicUrl?: string;
  /** whether orders may be paid on the sandbox page when no WeChat Pay merchant takes them */
  paymentSandbox: boolean;
  /** the most one payment order may ask for, in fen (ORDER_MAX_YUAN) */
  orderMaxFen: number;
  /** how notices leave the server: the sandbox outbox, or the SMS service and WeChat's template messages */
  notify: NotifyConfig;
  /** where a payer's WeChat OAuth code is exchanged for their openid (JSAPI payment inside WeChat) */
  wechatOAuth: WechatOAuthEndpoints;
  /** where the cloud printers' open platforms are reached (tests: their stand-ins) */
  printerClouds: PrinterClouds;
  /** where enterprise WeChat's API is reached (WORK_WECHAT_API_ORIGIN; tests: its stand-in) */
  workWechatOrigin: string;
  /** Alipay's open platform gateway (ALIPAY_GATEWAY_URL; tests: its stand-in's) */
  alipayGateway: string;
  /** where uploaded files and the images the server makes are kept (server/uploads/) */
  uploadStorage: UploadStorage;
  /** asks this server's job worker to look for due jobs now (a job a user waits for was enqueued) */
  wakeJobs?: () => void;
}

export interface OperationContext {
  services: AppServices;
  db: Db;
  /** the request body without `method` */
  payload: Record<string, unknown>;
  t: Translate;
  language: Language;
  now: Date;
  ip: string;
  userAgent: string;
  /** the server's public address (PUBLIC_URL, else the origin the request was sent to), no trailing slash */
  origin: string;
  log: FastifyBaseLogger;
  /** present on operations that need a session */
  auth: Authority | null;
  /** SHA-256 of the caller's token, when it sent a live one */
  tokenHash: string | null;
  /** the role keys the call is authorised with (own keys, plus a switched provider's for system users) */
  roles: string[];
  /**
   * Set on an operation that confirms its session when the session is one this process resolved lately
   * (RecentSessions): the handler reads the state in its statement and puts what it read in `read`; `expected` is
   * the state the session was resolved with (sessionConfirmed).
   */
  sessionState?: SessionStateRead & { expected: string; read?: unknown };
}

export interface OperationResult {
  /** translation key of return_msg (default api.ok) */
  messageKey?: string;
  messageParams?: Record<string, string | number>;
  data?: Record<string, unknown>;
}

/** Who may call a session operation: role keys (any of them), or every signed-in user (their own session). */
export const ANY_SIGNED_IN = "any signed-in user";

/** What an operation does to data (common/catalogue.ts): it decides what stays open once a term has expired. */
export type { OperationEffect };

interface OperationBase<P> {
  path: string;
  method: string;
  /** payload check; its output is what the handler receives */
  schema?: ZodType<P>;
  handler(ctx: OperationContext, payload: P): Promise<OperationResult>;
}

/** Called without a session (login, the site settings). */
export interface PublicOperation<P = Record<string, unknown>> extends OperationBase<P> {
  needsToken: false;
}

/** Called with a session: its roles and effect are part of its declaration, never a default. */
export interface SessionOperation<P = Record<string, unknown>> extends OperationBase<P> {
  needsToken: true;
  roles: readonly string[] | typeof ANY_SIGNED_IN;
  effect: OperationEffect;
  /** the catalogue's declaration it was registered from (server/methods/declared.ts) */
  declaration?: OperationDecl;
  /**
   * a call whose handler reads the session's state in its own statement (ctx.sessionState; a list's page, a
   * payment's poll), and writes nothing before sessionConfirmed(ctx) holds
   */
  confirmsSession?: boolean;
}

export type Operation<P = Record<string, unknown>> = PublicOperation<P> | SessionOperation<P>;

export class OperationRegistry {
  private readonly operations = new Map<string, Operation<never>>();
  private readonly paths = new Set<string>();

  add<P>(operation: Operation<P>): void {
    const key = `${operation.path}:${operation.method}`;
    if (this.operations.has(key)) throw new Error(`operation ${key} is registered twice`);
    if (operation.needsToken && operation.roles !== ANY_SIGNED_IN && operation.roles.length === 0) throw new Error(`operation ${key} allows no role`);
    this.operations.set(key, operation as unknown as Operation<never>);
    this.paths.add(operation.path);
  }

  hasPath(path: string): boolean {
    return this.paths.has(path);
  }

  get(path: string, method: string): Operation<unknown> | undefined {
    return this.operations.get(`${path}:${method}`) as Operation<unknown> | undefined;
  }

  /** Every registered operation (the tests derive their authorisation and fuzz cases from it). */
  all(): Operation<unknown>[] {
    return [...this.operations.values()] as Operation<unknown>[];
  }
}

/**
 * Whether a handler may act on its caller's session: resolved for this call, or one resolved lately whose state the
 * handler's statement read as it was. When not, nothing the handler answers is kept: the call is made again on the
 * session resolved afresh (server/protocol/app.ts), so the handler stops before it writes anything.
 */
export function sessionConfirmed(ctx: OperationContext): boolean {
  return ctx.sessionState === undefined || ctx.sessionState.read === ctx.sessionState.expected;
}
