/**
 * The Fastify app: POST /weapi/:path with a JSON body {method, ...payload}, answered with the envelope; the built
 * SPA from dist/ with a history fallback that never covers /weapi. Used by server/main.ts and by the tests.
 */
import { DEFAULT_WECHAT_OAUTH, type WechatOAuthEndpoints } from "../payments/wechatpay/oauth";
import type { PrinterClouds } from "../domains/devices/printers";
import { WORK_WECHAT_API_ORIGIN } from "../domains/retail/workWechat";
import type { NotifyConfig } from "../notify/drivers";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline, Transform, type Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import rateLimit from "@fastify/rate-limit";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import helmet from "helmet";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { hasAnyRole, roleKeys } from "../../common/roleKeys";
import { serviceFacts } from "../auth/authority";
import { PasswordHasher, PRODUCTION_PASSWORD_COST, type PasswordCost } from "../auth/passwords";
import { namedTenantIds, resolveScope, switchedProvider } from "../auth/scope";
import { DEFAULT_SESSION_LIFETIME, RecentSessions, resolveSession, type ResolvedSession, type SessionLifetime } from "../auth/sessions";
import { DEFAULT_THROTTLE, type ThrottleRules } from "../auth/throttle";
import type { Db } from "../db/client";
import { systemClock, type Clock } from "../lib/clock";
import { requestLanguage, translator, type Translate } from "../lib/i18n";
import { registerOperations } from "../domains";
import { MAX_IMPORT_BYTES } from "../engine/imports";
import { registerDailyReportBinding } from "../domains/providers/dailyReport";
import { registerDownloadRoutes } from "../domains/downloads";
import { registerPrintCallbackRoutes } from "../domains/devices/printing";
import { registerPublicSite } from "../domains/site/publicSite";
import { registerOpenApi } from "../domains/openapi/routes";
import { ticketOf } from "../domains/collection/payerTickets";
import { JobWorker, type JobKinds } from "../jobs";
import { registerNotifyRoutes } from "../payments/notify";
import { registerWechatPushRoutes } from "../domains/miniPrograms/wechatPushes";
import { registerAuthorizationRoutes } from "../domains/miniPrograms/authorization";
import { ALIPAY_GATEWAY } from "../domains/miniPrograms/alipayOpen";
import { DEFAULT_ORDER_MAX_FEN } from "../payments/orders";
import { registerSandboxRoutes } from "../payments/sandbox";
import { registerUploadRoutes, uploadStorageOf } from "../uploads";
import type { DatabaseConnections } from "../db/client";
import { countRequests } from "../monitoring/metrics";
import { registerMonitoringRoutes } from "../monitoring/routes";
import { PaymentSecrets, type PaymentKeyOptions } from "../payments/secrets";
import { ApiFailure, envelopeText, fail, success, tokenError, type Envelope } from "./envelope";
import { ANY_SIGNED_IN, OperationRegistry, type AppServices, type Operation, type OperationContext, type SessionOperation } from "./registry";
import { termExpired } from "../auth/expiry";
import { checkPublicInputs } from "./publicInputs";
import { payloadIssueMessage, unacceptableValuePath } from "./validation";

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL("../../dist", import.meta.url));

export interface AppOptions {
  db: Db;
  clock?: Clock;
  /** argon2 cost; lower it only in tests */
  passwordCost?: PasswordCost;
  sessionLifetime?: Partial<SessionLifetime>;
  throttle?: ThrottleRules;
  /** per client IP; false turns it off (benchmarks) */
  rateLimit?: { max: number; timeWindowMs: number } | false;
  /** the built SPA; default dist/ of the project; null or a directory without index.html: API only */
  staticDir?: string | null;
  /** structured logs (pino): false for none; `stream` defaults to stdout */
  logger?: false | { level: string; stream?: NodeJS.WritableStream };
  /** bytes */
  bodyLimit?: number;
  trustProxy?: boolean;
  /** where the key of stored payment secrets comes from; default none (storing merchant credentials fails) */
  paymentKey?: PaymentKeyOptions;
  /** PUBLIC_URL: the address in payment QR codes and gateway notification URLs; default each request's origin */
  publicUrl?: string;
  /** the sandbox payment page (DESIGN 8); default on, off in production */
  paymentSandbox?: boolean;
  /** the most one payment order may ask for, in fen; default DEFAULT_ORDER_MAX_FEN */
  orderMaxFen?: number;
  /** how notices leave the server; default: the sandbox outbox */
  notify?: NotifyConfig;
  /** WeChat's OAuth addresses (a payer inside WeChat pays by JSAPI); default WeChat's own */
  wechatOAuth?: Partial<WechatOAuthEndpoints>;
  /** the cloud printers' open platforms; default their own addresses */
  printerClouds?: PrinterClouds;
  /** enterprise WeChat's API (the shop's customer-service accounts); default its own address */
  workWechatOrigin?: string;
  /** Alipay's open platform gateway (ALIPAY_GATEWAY_URL; tests: its stand-in's) */
  alipayGateway?: string;
  /**
   * background jobs: the app has a worker (`app.jobs`) that startServer starts unless `poll` is false; tests run
   * due jobs with `app.jobs.runDueJobs()`. `kinds`: default the server's (server/jobs/index.ts)
   */
  jobs?: { poll?: boolean; pollIntervalMs?: number; kinds?: JobKinds };
  /** METRICS_TOKEN: GET /metrics answers a scraper that sends it as a bearer token; unset, it is not served */
  metricsToken?: string;
  /** the database's connections now, for /metrics (server/start.ts gives the database's own) */
  databaseConnections?: () => DatabaseConnections;
}

declare module "fastify" {
  interface FastifyInstance {
    /** the background job worker (server/jobs/) */
    jobs: JobWorker;
  }
}

export const DEFAULT_RATE_LIMIT = { max: 6000, timeWindowMs: 60_000 };
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Never written to logs: tokens, cookies, passwords and payment secrets. */
const REDACTED_PATHS = [
  'req.headers["x-token"]',
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  "*.password",
  "*.password1",
  "*.password2",
  "*.password3",
  "*.token",
  "*.apiv3_key",
  "*.api_v3_key",
  "*.private_key",
  "*.mch_key",
  "*.corp_secret",
];

/**
 * Path segments that are secrets of their own: a binding page's token and a payment's pay_no (whoever holds the
 * sandbox page's address can pay the order). Request logs keep the route, not the value.
 */
const SECRET_PATH_SEGMENTS = /^(\/notice\/sandbox\/bind\/|\/pay\/sandbox\/)[^/?]+/;

export function loggedUrl(url: string): string {
  return url.replace(SECRET_PATH_SEGMENTS, "$1[redacted]");
}

function languageOf(request: FastifyRequest): Translate {
  return translator(requestLanguage(request.headers));
}

/** The server's public address: PUBLIC_URL, else the scheme and host the request was sent to. */
function originOf(services: AppServices, request: FastifyRequest): string {
  return services.publicUrl ?? `${request.protocol}://${request.host}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isApiUrl(url: string): boolean {
  return url === "/weapi" || url.startsWith("/weapi/") || url.startsWith("/weapi?");
}

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const services: AppServices = {
    db: options.db,
    clock: options.clock ?? systemClock,
    hasher: new PasswordHasher(options.passwordCost ?? PRODUCTION_PASSWORD_COST),
    sessionLifetime: { ...DEFAULT_SESSION_LIFETIME, ...options.sessionLifetime },
    throttle: options.throttle ?? DEFAULT_THROTTLE,
    paymentSecrets: new PaymentSecrets(options.paymentKey),
    publicUrl: options.publicUrl?.replace(/\/+$/, ""),
    paymentSandbox: options.paymentSandbox ?? true,
    orderMaxFen: options.orderMaxFen ?? DEFAULT_ORDER_MAX_FEN,
    notify: options.notify ?? { sandbox: true },
    wechatOAuth: { ...DEFAULT_WECHAT_OAUTH, ...options.wechatOAuth },
    printerClouds: options.printerClouds ?? {},
    workWechatOrigin: options.workWechatOrigin ?? WORK_WECHAT_API_ORIGIN,
    alipayGateway: options.alipayGateway ?? ALIPAY_GATEWAY,
    uploadStorage: uploadStorageOf(options),
    // the worker is made below, once the app exists
    wakeJobs: () => jobs.wake(),
  };
  const registry = new OperationRegistry();
  const recentSessions = new RecentSessions();
  registerOperations(registry);

  // built once (the Fastify plugin rebuilds helmet on every request, a cost every polling call would pay)
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its styles inline
        styleSrc: ["'self'", "'unsafe-inline'"],
        // WeChat serves the avatars of the users bound to the daily report, enterprise WeChat its customer-service accounts'
        imgSrc: ["'self'", "data:", "blob:", "https://thirdwx.qlogo.cn", "https://wx.qlogo.cn", "https://wework.qpic.cn"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // the console is often opened over plain http on a LAN address
        upgradeInsecureRequests: null,
      },
    },
  });
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: options.logger?.level ?? "info",
            stream: options.logger?.stream,
            redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
            serializers: {
              req: (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip }),
            },
          },
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    genReqId: () => randomUUID(),
    // a malformed URL (bad percent-encoding) or an over-long one is answered like any other bad request
    frameworkErrors: (error, request, reply: FastifyReply) => {
      reply.header("x-request-id", request.id);
      securityHeaders(request.raw, reply.raw, () => undefined);
      if (isApiUrl(request.url)) reply.header("cache-control", "no-store");
      const status = error.statusCode === 414 ? 414 : 400;
      void reply.status(status).send(fail(languageOf(request)("api.bad_request")));
    },
  });

  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    // answers of the API are never stored by a browser or a proxy: they carry tokens and tenant data
    if (isApiUrl(request.url)) reply.header("cache-control", "no-store");
    // helmet throws rather than calling back with an error
    securityHeaders(request.raw, reply.raw, () => done());
  });
  // every route outside /weapi/ registered from here on checks its inputs as /weapi/ payloads are checked
  checkPublicInputs(app);
  // every request counted for /metrics, by its operation
  countRequests(app);

  const rateLimitOptions = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  // limits are per route (the API's from the options, the sandbox confirmation's its own)
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({ statusCode: context.statusCode, code: "RATE_LIMITED", message: "rate limited" }),
  });

  // Framework-level faults (bad JSON, wrong content type, body too large, rate limit): a FAIL envelope, never HTML.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const t = languageOf(request);
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send(fail(t("api.rate_limited")));
    if (status === 413 || error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return reply.status(400).send(fail(t("api.body_too_large")));
    if (status >= 400 && status < 500) return reply.status(400).send(fail(t("api.bad_request")));
    request.log.error({ err: error }, "request failed");
    return reply.status(200).send(fail(t("api.system_error")));
  });

  // Answers of 1 KB and more (a list page, a record, the public pages) go compressed to a client that accepts it,
  // brotli at a quality cheap enough for every request; the SPA's files were compressed when built (below).
  // Request bodies are never inflated: a small compressed body could expand past every limit.
  await app.register(fastifyCompress, {
    globalDecompression: false,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });

  const staticDir = options.staticDir === undefined ? DEFAULT_STATIC_DIR : options.staticDir;
  const indexHtml = staticDir ? path.join(staticDir, "index.html") : null;
  const serveSpa = indexHtml !== null && fs.existsSync(indexHtml);
  // the payer's phone pages (/h5/{code}), the build's second page
  const servePayerPages = serveSpa && staticDir !== null && fs.existsSync(path.join(staticDir, "h5.html"));
  if (serveSpa && staticDir) {
    await app.register(fastifyStatic, {
      root: staticDir,
      // the build wrote file.br and file.gz beside each text file (vite.config.ts): sent as they are
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // built assets carry a content hash in their names; anything else is revalidated
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
        // a shared cache must not give the brotli form to a browser that did not ask for it
        res.setHeader("vary", "accept-encoding");
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const t = languageOf(request);
    const pathname = request.url.split("?")[0];
    const underApi = pathname === "/weapi" || pathname.startsWith("/weapi/");
    if (underApi) return reply.status(200).send(fail(t("api.unknown_path")));
    const wantsHtml = (request.method === "GET" || request.method === "HEAD") && headerValue(request.headers.accept).includes("text/html");
    if (serveSpa && wantsHtml) {
      const page = servePayerPages && (pathname === "/h5" || pathname.startsWith("/h5/")) ? "h5.html" : "index.html";
      // the page names the current hashed assets: always revalidate it
      return reply.header("cache-control", "no-cache").sendFile(page, { cacheControl: false });
    }
    return reply.status(404).send(fail(t("api.unknown_path")));
  });

  if (services.paymentSandbox) registerSandboxRoutes(app, services, (request) => originOf(services, request));
  registerNotifyRoutes(app, services);
  registerDailyReportBinding(app, services, (request) => originOf(services, request));
  registerDownloadRoutes(app, services);
  registerPrintCallbackRoutes(app, services);
  // the public website (home, articles), server-rendered
  registerPublicSite(app, services);
  // the open API of integrating systems (OAuth2 client credentials), its document and webhooks
  registerOpenApi(app, services, (request) => originOf(services, request));
  // mini-program publishing: WeChat's third-party platform's pushes (ticket, authorisations, audits), an owner's
  // authorisation of the platform
  registerWechatPushRoutes(app, services);
  registerAuthorizationRoutes(app, services, (request) => originOf(services, request));
  // a payer's after-sale photos: uploaded with the ticket its student was found with
  await registerUploadRoutes(app, services, options, (ticket) =>
    ticketOf(services.db, ticket, services.clock.now()).then(
      ({ studentId }) => ({ studentId }),
      (err: unknown) => {
        if (err instanceof ApiFailure) return null;
        throw err;
      },
    ),
  );

  const jobs = new JobWorker({ services, log: app.log, pollIntervalMs: options.jobs?.pollIntervalMs, kinds: options.jobs?.kinds });
  app.decorate("jobs", jobs);
  // requests in flight are answered first (Fastify closes the socket before onClose); a job still running when the
  // grace ends is handed back to the queue for another process
  app.addHook("onClose", () => jobs.stop());
  registerMonitoringRoutes(app, services, jobs, { metricsToken: options.metricsToken, connections: options.databaseConnections });

  const routeConfig = rateLimitOptions ? { rateLimit: { max: rateLimitOptions.max, timeWindow: rateLimitOptions.timeWindowMs } } : {};
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  app.post<{ Params: { path: string } }>(
    "/weapi/:path",
    {
      config: routeConfig,
      bodyLimit: Math.max(bodyLimit, SIGNED_IN_BODY_LIMIT),
      preParsing: (request, _reply, payload) => largeBodiesSignedInOnly(request, payload, bodyLimit, services),
    },
    async (request, reply) => {
      const envelope = await dispatch(request, registry, services, recentSessions);
      // counted by its operation (a path or method nobody registered: by its route) and its envelope
      request.answered = { operation: request.answered?.operation ?? "/weapi/:path", outcome: envelope.return_code, failed: request.answered?.failed ?? false };
      // as bytes: its length is then known without reading the text again
      return reply.status(200).type("application/json; charset=utf-8").send(Buffer.from(envelopeText(envelope)));
    },
  );

  return app;
}

/** a spreadsheet import's file in base64 (4 characters for 3 bytes) with the rest of its payload */
export const SIGNED_IN_BODY_LIMIT = Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 64 * 1024;

function bodyTooLarge(): Error {
  return Object.assign(new Error("body too large"), { statusCode: 413 });
}

/**
 * A body beyond the plain limit is read only for a live session (an import's file): anybody else is refused
 * before it is read, or once it passes the plain limit when it does not say its length.
 */
async function largeBodiesSignedInOnly(request: FastifyRequest, payload: Readable, plainLimit: number, services: AppServices): Promise<Readable> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared <= plainLimit) return payload;
  const token = headerValue(request.headers["x-token"]);
  const session = token ? await resolveSession(services.db, token, services.clock.now(), services.sessionLifetime) : null;
  if (session?.auth.usable) return payload;
  if (Number.isFinite(declared)) throw bodyTooLarge();
  let read = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      done(read > plainLimit ? bodyTooLarge() : null, chunk);
    },
  });
  // a client that goes away ends the counted stream too (the body reader sees the error)
  pipeline(payload, counted, () => undefined);
  return counted;
}

/** The operation's answer: its payload checked, then its handler. */
async function answer(operation: Operation<unknown>, ctx: OperationContext): Promise<Envelope> {
  let input: unknown = ctx.payload;
  if (operation.schema) {
    const parsed = operation.schema.safeParse(ctx.payload);
    if (!parsed.success) return fail(payloadIssueMessage(ctx.t, parsed.error));
    input = parsed.data;
  }
  const result = await operation.handler(ctx, input);
  return success(ctx.t(result.messageKey ?? "api.ok", result.messageParams), result.data);
}

/** The answer of a session's call: its roles, the tenants it names and its term checked first. */
async function authorisedAnswer(operation: SessionOperation<unknown>, ctx: OperationContext, session: ResolvedSession): Promise<Envelope> {
  const { services, payload, t } = ctx;
  const auth = session.auth;
  ctx.auth = auth;
  ctx.tokenHash = session.tokenHash;
  const switched = await switchedProvider(services.db, auth, payload, session.named);
  ctx.roles = switched ? [...new Set([...auth.roles, ...roleKeys(serviceFacts(switched))])] : auth.roles;
  if (operation.roles !== ANY_SIGNED_IN && !hasAnyRole(ctx.roles, operation.roles)) return fail(t("api.no_permission"));
  // a tenant named in the payload must lie inside the caller's authority: refused, never ignored
  if (payload.sysid !== undefined || payload.sch_id !== undefined) await resolveScope(services.db, auth, payload, session.named);
  if (operation.effect === "write" && termExpired(auth, ctx.now)) return fail(t("api.term_expired"));
  return answer(operation, ctx);
}

/**
 * The answer of a call made with a session this process resolved lately, which the handler's own statement confirms
 * (RecentSessions): undefined unless the session's state it read is the one resolved, and then the call is made
 * again from the session's own statement. The payload is a copy, as scopes are kept per payload.
 */
async function answerConfirmingSession(operation: SessionOperation<unknown>, ctx: OperationContext, session: ResolvedSession, named: ReturnType<typeof namedTenantIds>): Promise<Envelope | undefined> {
  const sessionState: NonNullable<OperationContext["sessionState"]> = { ...RecentSessions.stateRead(ctx.db, session, named), expected: session.state };
  const confirmed = () => sessionState.read === session.state;
  try {
    const envelope = await authorisedAnswer(operation, { ...ctx, payload: { ...ctx.payload }, sessionState }, session);
    return confirmed() ? envelope : undefined;
  } catch (err) {
    // a refusal made after the statement confirmed the session is the call's answer (a payment not received yet)
    if (err instanceof ApiFailure && confirmed()) return fail(ctx.t(err.messageKey, err.params), err.data);
    return undefined;
  }
}

async function dispatch(request: FastifyRequest<{ Params: { path: string } }>, registry: OperationRegistry, services: AppServices, recentSessions: RecentSessions): Promise<Envelope> {
  const language = requestLanguage(request.headers);
  const t = translator(language);
  try {
    const apiPath = request.params.path;
    if (!registry.hasPath(apiPath)) return fail(t("api.unknown_path"));
    const body: unknown = request.body;
    if (!isPlainObject(body)) return fail(t("api.bad_request"));
    const { method, ...payload } = body;
    const operation = typeof method === "string" ? registry.get(apiPath, method) : undefined;
    if (!operation) return fail(t("api.unknown_method"));
    request.answered = { operation: `${apiPath}.${method as string}`, outcome: "", failed: false };
    const badPath = unacceptableValuePath(payload);
    if (badPath !== null) return fail(t("api.invalid_params", { field: badPath }));

    const now = services.clock.now();
    const ctx: OperationContext = {
      services,
      db: services.db,
      payload,
      t,
      language,
      now,
      ip: request.ip,
      userAgent: headerValue(request.headers["user-agent"]),
      origin: originOf(services, request),
      log: request.log,
      auth: null,
      tokenHash: null,
      roles: [],
    };

    if (!operation.needsToken) return await answer(operation, ctx);
    const token = headerValue(request.headers["x-token"]);
    const named = namedTenantIds(payload);
    if (operation.confirmsSession) {
      const recent = recentSessions.get(token, named, now, services.sessionLifetime);
      if (recent) {
        // its last use, when due, is written beside the read: the session's state leaves it out
        const [confirmed] = await Promise.all([answerConfirmingSession(operation, ctx, recent, named), recentSessions.touchIfDue(services.db, recent, now)]);
        if (confirmed) return confirmed;
        recentSessions.forget(recent, named);
      }
    }
    const session = await resolveSession(services.db, token, now, services.sessionLifetime, named);
    if (!session || !session.auth.usable) return tokenError(t("api.token_invalid"));
    if (operation.confirmsSession) recentSessions.remember(session, named);
    return await authorisedAnswer(operation, ctx, session);
  } catch (err) {
    if (err instanceof ApiFailure) return fail(t(err.messageKey, err.params), err.data);
    request.log.error({ err }, "operation failed");
    if (request.answered) request.answered.failed = true;
    return fail(t("api.system_error"));
  }
}
