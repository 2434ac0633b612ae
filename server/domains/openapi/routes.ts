/**
 * The open API's routes under /openapi/v1: the token endpoint, every endpoint of ./endpoints.ts, the OpenAPI 3
 * document and its readable page. Answers are JSON; a refusal is `{error, message, field?, errors?}` with its HTTP
 * status (400 a request malformed, 401 no or a dead token or a wrong secret, 403 a scope or address not allowed, 404
 * nothing of the client's by that id, 422 values refused, each named, 429 too many calls, with Retry-After).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { LANGUAGES, requestLanguage, translator, type Translate } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { AppServices, OperationContext } from "../../protocol/registry";
import { bearerCaller, callerAuthority, issueToken, OpenApiError, type ApiCaller, type InputError } from "./access";
import { docsPage, openApiDocument } from "./document";
import { ENDPOINTS, OPENAPI_PREFIX, type Endpoint } from "./endpoints";
import { billRowErrors } from "./resources";
import "./webhooks";

const RECORD_ID = /^[1-9]\d{0,9}$/;

/** A value's place in the request as the API names it: `students[2].name`. */
function placeOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`), "");
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, t: Translate): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const errors: InputError[] = result.error.issues.slice(0, 20).map((issue) => {
    const field = placeOf(issue.path);
    return { field, message: t("openapi.error.value", { field: field || "body", detail: issue.message }) };
  });
  throw new OpenApiError(400, "invalid_request", "openapi.error.value", { field: errors[0]?.field || "body", detail: result.error.issues[0]?.message ?? "" }, errors[0]?.field, {}, errors);
}

/** A refusal as the API answers it, in the caller's language. */
function sendError(request: FastifyRequest, reply: FastifyReply, t: Translate, err: unknown): FastifyReply {
  reply.header("cache-control", "no-store");
  if (err instanceof OpenApiError) {
    for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
    return reply.status(err.status).send({ error: err.code, message: t(err.messageKey, err.params), ...(err.field ? { field: err.field } : {}), ...(err.errors ? { errors: err.errors } : {}) });
  }
  if (err instanceof ApiFailure) {
    if (err.messageKey === "api.not_found") return reply.status(404).send({ error: "not_found", message: t("openapi.error.not_found") });
    // a bill import's rows refused: each error names the bill it is about
    const rows = (err.data?.items as { errors?: { row: number; field: string; message: string }[] } | undefined)?.errors;
    const named = (err.data?.errors as InputError[] | undefined) ?? (rows ? billRowErrors(rows) : undefined);
    const status = err.messageKey === "import.busy" ? 503 : 422;
    return reply.status(status).send({ error: status === 503 ? "temporarily_unavailable" : "invalid_request", message: t(err.messageKey, err.params), ...(named ? { errors: named } : {}) });
  }
  request.log.error({ err }, "open API call failed");
  return reply.status(500).send({ error: "server_error", message: t("api.system_error") });
}

/** The context of the engine's operations for the client: its authority, the request's language and address. */
async function callContext(services: AppServices, request: FastifyRequest, caller: ApiCaller, t: Translate, now: Date, origin: string): Promise<OperationContext> {
  return {
    services,
    db: services.db,
    payload: {},
    t,
    language: requestLanguage(request.headers),
    now,
    ip: request.ip,
    userAgent: String(request.headers["user-agent"] ?? "").slice(0, 200),
    origin,
    log: request.log,
    auth: await callerAuthority(services.db, caller),
    tokenHash: null,
    roles: [],
  };
}

function registerEndpoint(app: FastifyInstance, services: AppServices, originOf: (request: FastifyRequest) => string, endpoint: Endpoint): void {
  const url = OPENAPI_PREFIX + endpoint.path.replace(/\{(\w+)\}/g, ":$1");
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const t = translator(requestLanguage(request.headers));
    try {
      const now = services.clock.now();
      const caller = await bearerCaller(services.db, request, endpoint.scope, now);
      const rawId = (request.params as { id?: string }).id;
      if (rawId !== undefined && !RECORD_ID.test(rawId)) throw new OpenApiError(404, "not_found", "openapi.error.not_found");
      const query = endpoint.query ? parsed(endpoint.query, request.query, t) : undefined;
      const body = endpoint.body ? parsed(endpoint.body, request.body, t) : undefined;
      const ctx = await callContext(services, request, caller, t, now, originOf(request));
      const answer = await endpoint.handler({ caller, ctx, db: services.db, query: query as never, body: body as never, params: { id: rawId === undefined ? undefined : Number(rawId) } });
      return reply.header("cache-control", "no-store").send(answer);
    } catch (err) {
      return sendError(request, reply, t, err);
    }
  };
  app.route({ method: endpoint.method, url, handler });
}

/** /openapi/v1: the token endpoint, the endpoints, the document and its page. */
export function registerOpenApi(app: FastifyInstance, services: AppServices, originOf: (request: FastifyRequest) => string): void {
  void app.register(async (scope) => {
    // RFC 6749 4.4.2: the token request is form-encoded
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 2048 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post(`${OPENAPI_PREFIX}/oauth/token`, { bodyLimit: 2048 }, async (request, reply) => {
      const t = translator(requestLanguage(request.headers));
      // RFC 6749 5.1: a token is never kept by a cache
      reply.header("pragma", "no-cache");
      try {
        const form = parsed(z.object({ grant_type: z.string().max(50).optional(), scope: z.string().max(200).optional() }), request.body, t);
        const answer = await issueToken(services.db, request, { grant_type: form.grant_type ?? "", ...(form.scope === undefined ? {} : { scope: form.scope }) }, services.clock.now());
        return reply.header("cache-control", "no-store").send(answer);
      } catch (err) {
        return sendError(request, reply, t, err);
      }
    });
  });
  for (const endpoint of ENDPOINTS) registerEndpoint(app, services, originOf, endpoint as Endpoint);
  app.get(`${OPENAPI_PREFIX}/openapi.json`, async (request, reply) => reply.header("cache-control", "public, max-age=300").send(openApiDocument(originOf(request))));
  app.get(`${OPENAPI_PREFIX}/docs`, async (request, reply) => {
    const asked = (request.query as { lang?: unknown }).lang;
    const lang = LANGUAGES.find((l) => l === asked) ?? requestLanguage(request.headers);
    return reply.header("cache-control", "public, max-age=300").header("vary", "accept-language, cookie").type("text/html; charset=utf-8").send(docsPage(translator(lang), lang, originOf(request)));
  });
  app.get(OPENAPI_PREFIX, async (_request, reply) => reply.redirect(`${OPENAPI_PREFIX}/docs`));
}
