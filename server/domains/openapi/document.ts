/**
 * The open API as an OpenAPI 3.1 document (/openapi/v1/openapi.json: its client-credentials flow and token URL, each
 * endpoint with its scope, parameters, body and answer, the webhooks) and as a readable page (/openapi/v1/docs), both
 * written from the declarations of ./endpoints.ts.
 */
import { z } from "zod";
import { API_SCOPES } from "../../../catalogue/clients";
import { escapeHtml } from "../../lib/htmlPage";
import { translator, type Language, type Translate } from "../../lib/i18n";
import { TOKEN_SECONDS } from "./access";
import { ENDPOINTS, OPENAPI_PREFIX, WEBHOOK_SHAPES, type Endpoint } from "./endpoints";
import { WEBHOOK_HEADERS } from "./webhooks";

type JsonSchema = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (OpenAPI 3.1's), without its `$schema`. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const english = translator("en");

const errorSchema: JsonSchema = {
  type: "object",
  required: ["error", "message"],
  properties: {
    error: { type: "string", description: "invalid_request, invalid_client, invalid_token, insufficient_scope, access_denied, not_found, rate_limited, ..." },
    message: { type: "string", description: "what went wrong, in the language of Accept-Language" },
    field: { type: "string" },
    errors: { type: "array", items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } } },
  },
};

const errorAnswer = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

function operationOf(endpoint: Endpoint, t: Translate) {
  const parameters: JsonSchema[] = [];
  if (endpoint.path.includes("{id}")) parameters.push({ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } });
  if (endpoint.query) {
    const schema = jsonSchema(endpoint.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = property;
      parameters.push({ name, in: "query", required: (schema.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  return {
    operationId: endpoint.operationId,
    summary: t(endpoint.summary),
    security: [{ clientCredentials: endpoint.scope ? [endpoint.scope] : [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(endpoint.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(endpoint.body) } } } } : {}),
    responses: {
      "200": { description: "OK", content: { "application/json": { schema: jsonSchema(endpoint.answer) } } },
      "400": errorAnswer("the request is malformed"),
      "401": errorAnswer("no token, or one expired or revoked"),
      "403": errorAnswer("the token lacks the scope, or the address is not allowed"),
      ...(endpoint.method === "POST" || endpoint.path.includes("{id}") ? { "404": errorAnswer("nothing of the client's has that id"), "422": errorAnswer("values refused, each named in errors") } : {}),
      "429": errorAnswer("the client's rate limit is reached: see Retry-After"),
    },
  };
}

/** The OpenAPI 3.1 document, its addresses from the server's. */
export function openApiDocument(origin: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {
    "/oauth/token": {
      post: {
        operationId: "token",
        summary: english("openapi.endpoint.token"),
        security: [{ clientBasic: [] }],
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", required: ["grant_type"], properties: { grant_type: { type: "string", enum: ["client_credentials"] }, scope: { type: "string", description: "space-separated; default: every scope of the client" } } },
            },
          },
        },
        responses: {
          "200": {
            description: "a bearer token",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["access_token", "token_type", "expires_in"],
                  properties: { access_token: { type: "string" }, token_type: { type: "string", enum: ["Bearer"] }, expires_in: { type: "integer", example: TOKEN_SECONDS }, scope: { type: "string" } },
                },
              },
            },
          },
          "400": errorAnswer("invalid_request, unsupported_grant_type or invalid_scope (RFC 6749 5.2)"),
          "401": errorAnswer("invalid_client"),
          "429": errorAnswer("too many wrong secrets: see Retry-After"),
        },
      },
    },
  };
  for (const endpoint of ENDPOINTS as Endpoint[]) {
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method.toLowerCase()]: operationOf(endpoint, english) };
  }
  const webhooks = Object.fromEntries(
    Object.entries(WEBHOOK_SHAPES).map(([type, data]) => [
      type,
      {
        post: {
          summary: english(`openapi.webhook.${type.replace(".", "_")}`),
          parameters: [
            { name: WEBHOOK_HEADERS.id, in: "header", required: true, schema: { type: "string" }, description: "the event's id, the same on every retry" },
            { name: WEBHOOK_HEADERS.signature, in: "header", required: true, schema: { type: "string" }, description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the client secret>' },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", required: ["id", "type", "created_at", "data"], properties: { id: { type: "string" }, type: { type: "string", const: type }, created_at: { type: "string", format: "date-time" }, data: jsonSchema(data) } },
              },
            },
          },
          responses: { "200": { description: "any 2xx: delivered; anything else is retried" } },
        },
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: { title: "Campus Pay open API", version: "1.0.0", description: english("openapi.docs.intro") },
    servers: [{ url: `${origin}${OPENAPI_PREFIX}` }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        clientCredentials: {
          type: "oauth2",
          description: english("openapi.docs.auth"),
          flows: { clientCredentials: { tokenUrl: `${origin}${OPENAPI_PREFIX}/oauth/token`, scopes: Object.fromEntries(API_SCOPES.map((scope) => [scope, english(`clients.scope.${scope.replace(":", "_")}`)])) } },
        },
        clientBasic: { type: "http", scheme: "basic", description: "client_id and client_secret, form-urlencoded (RFC 6749 2.3.1)" },
      },
      schemas: { Error: errorSchema },
    },
  };
}

const PAGE_STYLE = `body{font-family:system-ui,sans-serif;max-width:960px;margin:0 auto;padding:16px;color:#1f1f1f;line-height:1.55}
h1{font-size:24px}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #eee;padding-bottom:4px}h3{font-size:16px;margin:24px 0 8px}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}pre{background:#f6f8fa;padding:12px;border-radius:6px;overflow-x:auto}
.method{display:inline-block;min-width:44px;padding:1px 6px;border-radius:4px;color:#fff;font-size:12px;font-weight:600;text-align:center;margin-right:8px}
.GET{background:#1677ff}.POST{background:#52c41a}.scope{color:#8c8c8c;font-size:13px;margin-left:8px}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{border-bottom:1px solid #f0f0f0;padding:6px 8px;text-align:left;vertical-align:top}
nav a{margin-right:12px}.lang a{margin-left:8px;font-size:13px}`;

function schemaBlock(schema: JsonSchema): string {
  return `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}

/** The readable page: how to sign in, every endpoint with its parameters and shapes, the webhooks and their signature. */
export function docsPage(t: Translate, lang: Language, origin: string): string {
  const doc = openApiDocument(origin) as { paths: Record<string, Record<string, { parameters?: JsonSchema[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> };
  const base = `${origin}${OPENAPI_PREFIX}`;
  const token = `curl -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials ${base}/oauth/token`;
  const call = `curl -H "Authorization: Bearer $ACCESS_TOKEN" "${base}/orders?since=2026-09-01T00:00:00%2B08:00"`;
  const endpoints = (ENDPOINTS as Endpoint[])
    .map((endpoint) => {
      const operation = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
      const parameters = operation.parameters ?? [];
      const rows = parameters
        .map((p) => `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${p.required ? t("openapi.docs.yes") : ""}</td><td>${escapeHtml(String(p.description ?? ""))}</td></tr>`)
        .join("");
      const body = operation.requestBody?.content["application/json"]?.schema;
      return `<section id="${endpoint.operationId}"><h3><span class="method ${endpoint.method}">${endpoint.method}</span><code>${escapeHtml(OPENAPI_PREFIX + endpoint.path)}</code><span class="scope">${escapeHtml(endpoint.scope ?? t("openapi.docs.any_scope"))}</span></h3>
<p>${escapeHtml(t(endpoint.summary))}</p>
${rows ? `<table><thead><tr><th>${t("openapi.docs.parameter")}</th><th>${t("openapi.docs.in")}</th><th>${t("openapi.docs.required")}</th><th>${t("openapi.docs.description")}</th></tr></thead><tbody>${rows}</tbody></table>` : ""}
${body ? `<p>${t("openapi.docs.body")}</p>${schemaBlock(body)}` : ""}</section>`;
    })
    .join("\n");
  const sampleSignature = `t=1767225600,v1=HMAC_SHA256(client_secret, "1767225600." + body)`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t("openapi.docs.title"))}</title><link rel="icon" type="image/svg+xml" href="/favicon.svg"><style>${PAGE_STYLE}</style></head>
<body><header><h1>${escapeHtml(t("openapi.docs.title"))}</h1>
<nav><a href="#auth">${t("openapi.docs.auth_title")}</a><a href="#endpoints">${t("openapi.docs.endpoints")}</a><a href="#webhooks">${t("openapi.docs.webhooks")}</a><a href="${OPENAPI_PREFIX}/openapi.json">openapi.json</a></nav>
<p class="lang">${(["zh", "en", "es"] as const).map((l) => `<a href="?lang=${l}" hreflang="${l}">${l}</a>`).join("")}</p></header>
<p>${escapeHtml(t("openapi.docs.intro"))}</p>
<h2 id="auth">${t("openapi.docs.auth_title")}</h2>
<p>${escapeHtml(t("openapi.docs.auth"))}</p><pre>${escapeHtml(token)}</pre><pre>${escapeHtml(call)}</pre>
<p>${escapeHtml(t("openapi.docs.scopes"))}</p><ul>${API_SCOPES.map((s) => `<li><code>${s}</code>: ${escapeHtml(t(`clients.scope.${s.replace(":", "_")}`))}</li>`).join("")}</ul>
<p>${escapeHtml(t("openapi.docs.errors"))}</p>
<h2 id="endpoints">${t("openapi.docs.endpoints")}</h2>
${endpoints}
<h2 id="webhooks">${t("openapi.docs.webhooks")}</h2>
<p>${escapeHtml(t("openapi.docs.webhooks_text"))}</p><pre>${escapeHtml(`${WEBHOOK_HEADERS.id}: 6f1c…\n${WEBHOOK_HEADERS.type}: payment.succeeded\n${WEBHOOK_HEADERS.signature}: ${sampleSignature}`)}</pre>
<ul>${Object.keys(WEBHOOK_SHAPES).map((type) => `<li><code>${type}</code>: ${escapeHtml(t(`openapi.webhook.${type.replace(".", "_")}`))}</li>`).join("")}</ul>
</body></html>`;
}
