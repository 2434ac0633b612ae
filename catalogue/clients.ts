/**
 * API clients (/client: clientlist; spec 2.2 and 2.3): the systems that integrate with the platform (a school's
 * management system, a provider's ERP), kept by the platform's operators. A client belongs to a provider, and
 * optionally to one of its schools; it signs in to the open API (/openapi/v1, server/domains/openapi/) with its
 * `client_id` and the secret `clientadd` (or `clientreset`) answers once, kept as its hash; its scopes say what it may
 * do, its addresses where it may call from, its rate limit how often; payments and refunds of its tenant are posted
 * to its webhook, signed with its secret. Labels in locales/<lang>/clients.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { OPERATOR_ROLES } from "../common/roleKeys";
import { statusOptions } from "./shared";

/** What a client may do through the open API, each scope its own (OAuth2's `scope`, RFC 6749 3.3). */
export const API_SCOPES = ["bills:write", "orders:read", "students:write"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

const scopeOptions: FieldOption[] = API_SCOPES.map((scope) => ({ value: scope, label: `clients.scope.${scope.replace(":", "_")}` }));

/** calls a minute a client may make when its operator sets nothing else */
export const DEFAULT_CLIENT_RATE_LIMIT = 120;
export const MAX_CLIENT_RATE_LIMIT = 6000;
/** the most addresses (or networks) a client may call from */
export const MAX_ALLOWED_ADDRESSES = 20;

/** A new secret: the one before stops working at once, with every token it was given. */
export const clientReset: ActionDecl = {
  name: "clientreset",
  label: "clients.reset",
  confirm: "clients.reset_confirm",
  roles: OPERATOR_ROLES,
  danger: true,
};

export const clientEntity: EntityDecl = {
  name: "client",
  table: "api_clients",
  scope: "platform",
  // a client's calls act in its provider (and school), never beyond
  providerColumn: "sysid",
  title: "clients.entity",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: OPERATOR_ROLES, info: OPERATOR_ROLES, add: OPERATOR_ROLES, edit: OPERATOR_ROLES, del: OPERATOR_ROLES },
  actions: [clientReset],
  // the open API's documentation, beside the clients that call it
  listTools: ["openapidocs"],
  // answered once by clientadd and clientreset, never stored as it is
  answeredOnce: {
    fields: [
      { name: "client_id", label: "clients.field.client_id" },
      { name: "client_secret", label: "clients.field.client_secret" },
    ],
    title: "clients.secret_title",
    hint: "clients.secret_hint",
  },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "clients.field.title", required: true, max: 50, list: true, filter: "like", form: true, detail: true },
    { name: "sysid", type: "ref", ref: { entity: "service" }, label: "clients.field.provider", required: true, list: true, filter: "eq", form: true, detail: true },
    // empty: every school of the provider
    { name: "sch_id", type: "ref", ref: { entity: "school", narrowBy: "sysid" }, label: "clients.field.school", list: true, filter: "eq", form: true, detail: true },
    { name: "client_id", type: "string", label: "clients.field.client_id", max: 40, unique: true, list: true, filter: "eq", detail: true },
    { name: "secret_hash", type: "string", label: "clients.field.client_secret", max: 64, secret: true },
    // the secret sealed with the server's key: webhooks are signed with it
    { name: "secret_sealed", type: "string", label: "clients.field.client_secret", max: 200, secret: true },
    { name: "scopes", type: "enums", label: "clients.field.scopes", required: true, options: scopeOptions, list: true, form: true, detail: true },
    // one address or network (CIDR) a line; empty: any
    { name: "allowed_ips", type: "text", label: "clients.field.allowed_ips", max: 1000, form: true, detail: true },
    { name: "rate_limit", type: "int", label: "clients.field.rate_limit", required: true, default: DEFAULT_CLIENT_RATE_LIMIT, min: 1, max: MAX_CLIENT_RATE_LIMIT, list: true, form: true, detail: true },
    { name: "webhook_url", type: "string", label: "clients.field.webhook_url", max: 300, pattern: "^https?://[^\\s]+$", patternMessage: "clients.validation.webhook_url", form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "last_used_at", type: "datetime", label: "clients.field.last_used_at", list: true, sortable: true, detail: true },
    { name: "remark", type: "text", label: "clients.field.remark", max: 200, form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", sortable: true, detail: true },
  ],
};

export const clients: CatalogueDomain = {
  entities: [clientEntity],
  pages: {
    clientlist: { kind: "list", entity: "client" },
  },
};
