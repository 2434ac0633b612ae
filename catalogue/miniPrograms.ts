/**
 * Mini-program publishing (spec 2.3 sysadminv2: channellist, chnlset, wxprivacy, wxxcxinfo, wxpublish, aliprivacy,
 * alixcxinfo, alipublish, microappset, wechatxcxmanages; v1: microappset): the platform publishes each provider's
 * mini-programs (the WeChat and Alipay apps its parents pay in) from its code templates, through WeChat's third-party
 * platform or Alipay's, or the sandbox that stands in for both. An app is bound to the platform by its owner's
 * authorisation; its code is committed from the template with the provider's ext config (the experience version),
 * submitted for audit, released once the audit passes, and may be reverted to the version live before. The states
 * and the publisher's calls are server/domains/miniPrograms/. Labels in locales/<lang>/miniapps.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldDecl, FieldOption, SettingsDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES } from "../common/roleKeys";

/** providers allowed to publish their own mini-programs (the upload flag, both generations) */
const UPLOADER_ROLES: readonly string[] = ["xcxupload", "xcxuploadv2"];
/** who publishes: the operators for every provider, a provider with the upload flag its own */
export const PUBLISHER_ROLES = anyOf(OPERATOR_ROLES, UPLOADER_ROLES);

export const miniAppPlatforms: FieldOption[] = [
  { value: "wechat", label: "miniapps.platform.wechat" },
  { value: "alipay", label: "miniapps.platform.alipay" },
];

export const publishStates: FieldOption[] = [
  { value: "none", label: "miniapps.state.none", tone: "default", hint: "miniapps.state.none_hint" },
  { value: "committed", label: "miniapps.state.committed", tone: "processing", hint: "miniapps.state.committed_hint" },
  { value: "auditing", label: "miniapps.state.auditing", tone: "processing", hint: "miniapps.state.auditing_hint" },
  { value: "audit_failed", label: "miniapps.state.audit_failed", tone: "error", hint: "miniapps.state.audit_failed_hint" },
  { value: "audit_passed", label: "miniapps.state.audit_passed", tone: "warning", hint: "miniapps.state.audit_passed_hint" },
  { value: "released", label: "miniapps.state.released", tone: "success" },
];

const COMMITTABLE = ["none", "committed", "audit_failed", "released"];

/** how the owner is told of a change to the privacy rules (WeChat's owner_setting.notice_method) */
export const PRIVACY_NOTICE_MAX = 200;

const miniAppCommit: ActionDecl = {
  name: "miniappcommit",
  label: "miniapps.commit",
  confirm: "miniapps.commit_confirm",
  roles: PUBLISHER_ROLES,
  from: COMMITTABLE,
  to: "committed",
  fields: [
    { name: "user_version", type: "string", label: "miniapps.field.user_version", required: true, max: 64, pattern: "^[0-9A-Za-z._-]+$", patternMessage: "miniapps.validation.user_version" },
    { name: "user_desc", type: "text", label: "miniapps.field.user_desc", max: 200 },
  ],
};

const miniAppSubmit: ActionDecl = {
  name: "miniappsubmit",
  label: "miniapps.submit",
  confirm: "miniapps.submit_confirm",
  roles: PUBLISHER_ROLES,
  from: ["committed"],
  to: "auditing",
  fields: [{ name: "version_desc", type: "text", label: "miniapps.field.version_desc", max: 200 }],
};

const miniAppAuditQuery: ActionDecl = {
  name: "miniappaudit",
  label: "miniapps.audit_query",
  confirm: "miniapps.audit_query_confirm",
  roles: PUBLISHER_ROLES,
  from: ["auditing"],
  to: ["auditing", "audit_passed", "audit_failed"],
};

const miniAppRelease: ActionDecl = {
  name: "miniapprelease",
  label: "miniapps.release",
  confirm: "miniapps.release_confirm",
  roles: PUBLISHER_ROLES,
  from: ["audit_passed"],
  to: "released",
};

const miniAppRevert: ActionDecl = {
  name: "miniapprevert",
  label: "miniapps.revert",
  confirm: "miniapps.revert_confirm",
  roles: PUBLISHER_ROLES,
  from: ["released"],
  to: "released",
  danger: true,
};

const miniAppPrivacy: ActionDecl = {
  name: "miniappprivacy",
  label: "miniapps.privacy",
  confirm: "miniapps.privacy_confirm",
  roles: PUBLISHER_ROLES,
  from: publishStates.map((s) => s.value),
  fields: [
    {
      name: "privacy_ver",
      type: "enum",
      label: "miniapps.field.privacy_ver",
      required: true,
      default: "dev",
      options: [
        { value: "dev", label: "miniapps.privacy_ver.dev" },
        { value: "live", label: "miniapps.privacy_ver.live" },
      ],
    },
    { name: "contact_phone", type: "phone", label: "miniapps.field.contact_phone" },
    { name: "contact_email", type: "string", label: "miniapps.field.contact_email", max: 100, pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", patternMessage: "site.validation.email" },
    { name: "notice_method", type: "string", label: "miniapps.field.notice_method", required: true, max: PRIVACY_NOTICE_MAX },
    // each line "privacy key: purpose", for the development version only (WeChat refuses them for the live one)
    { name: "privacy_settings", type: "text", label: "miniapps.field.privacy_settings", max: 2000, requiredWhen: { field: "privacy_ver", value: "dev" }, formWhen: { field: "privacy_ver", value: "dev" } },
  ],
};

/** The link the app's owner opens to authorise the platform to publish it (WeChat's platform only). */
const miniAppAuthorize: ActionDecl = {
  name: "miniappauthorize",
  label: "miniapps.authorize.action",
  confirm: "miniapps.authorize.confirm",
  roles: PUBLISHER_ROLES,
  from: publishStates.map((s) => s.value),
};

/** The sandbox's controls (the sandbox publisher only): what WeChat or Alipay would do next, made to happen. */
const miniAppSandbox: ActionDecl = {
  name: "miniappsandbox",
  label: "miniapps.sandbox",
  confirm: "miniapps.sandbox_confirm",
  roles: OPERATOR_ROLES,
  from: publishStates.map((s) => s.value),
  fields: [
    {
      name: "event",
      type: "enum",
      label: "miniapps.field.sandbox_event",
      required: true,
      options: [
        { value: "audit_success", label: "miniapps.sandbox_event.audit_success" },
        { value: "audit_fail", label: "miniapps.sandbox_event.audit_fail" },
        { value: "audit_delay", label: "miniapps.sandbox_event.audit_delay" },
        { value: "inject_error", label: "miniapps.sandbox_event.inject_error" },
        { value: "push_ticket", label: "miniapps.sandbox_event.push_ticket" },
        { value: "expire_tokens", label: "miniapps.sandbox_event.expire_tokens" },
      ],
    },
    { name: "reason", type: "string", label: "miniapps.field.audit_reason", max: 200, requiredWhen: { field: "event", value: "audit_fail" }, formWhen: { field: "event", value: "audit_fail" } },
    {
      name: "errcode",
      type: "enum",
      label: "miniapps.field.errcode",
      options: ["61039", "85086", "86074", "48001", "61023"].map((code) => ({ value: code, label: `miniapps.errcode.${code}` })),
      requiredWhen: { field: "event", value: "inject_error" },
      formWhen: { field: "event", value: "inject_error" },
    },
  ],
};

export const miniAppEntity: EntityDecl = {
  name: "miniapp",
  table: "mini_programs",
  scope: "platform",
  // a provider's apps are its own
  providerColumn: "sysid",
  title: "miniapps.entity",
  titleField: "nickname",
  defaultSort: { field: "id", order: "desc" },
  stateField: "publish_status",
  roles: { list: PUBLISHER_ROLES, info: PUBLISHER_ROLES, add: PUBLISHER_ROLES, edit: PUBLISHER_ROLES, del: OPERATOR_ROLES },
  actions: [miniAppCommit, miniAppSubmit, miniAppAuditQuery, miniAppRelease, miniAppRevert, miniAppPrivacy, miniAppAuthorize, miniAppSandbox],
  related: [{ entity: "miniappcall", field: "app_id", label: "miniapps.calls" }],
  // the authorisation link miniappauthorize answers, for the owner to open
  answeredOnce: { fields: [{ name: "auth_link", label: "miniapps.authorize.link" }], title: "miniapps.authorize.title", hint: "miniapps.authorize.hint" },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "nickname", type: "string", label: "miniapps.field.nickname", required: true, max: 50, list: true, filter: "like", form: true, detail: true },
    { name: "platform", type: "enum", label: "miniapps.field.platform", required: true, options: miniAppPlatforms, list: true, filter: "eq", form: "add", detail: true },
    { name: "appid", type: "string", label: "miniapps.field.appid", required: true, max: 32, pattern: "^[0-9A-Za-z]{16,32}$", patternMessage: "miniapps.validation.appid", unique: true, list: true, filter: "eq", form: "add", detail: true },
    // chosen by an operator; a provider's apps are its own (set by the server), so a provider neither sees nor sets it
    { name: "sysid", type: "ref", ref: { entity: "service" }, label: "miniapps.field.provider", roles: OPERATOR_ROLES, list: true, filter: "eq", form: "add", detail: true },
    { name: "auth_status", type: "enum", label: "miniapps.field.auth_status", required: true, default: "authorized", options: [{ value: "authorized", label: "miniapps.auth.authorized" }, { value: "unauthorized", label: "miniapps.auth.unauthorized" }], list: true, filter: "eq", detail: true },
    // the provider's ext config committed with the template (its name, colours, the school it opens on)
    { name: "ext_json", type: "text", label: "miniapps.field.ext_json", max: 4000, form: true, detail: true },
    { name: "publish_status", type: "enum", label: "miniapps.field.publish_status", required: true, default: "none", options: publishStates, list: true, filter: "eq", detail: true },
    { name: "exp_version", type: "string", label: "miniapps.field.exp_version", max: 64, list: true, detail: true },
    // the experience version's QR code, a picture kept as uploaded images are
    { name: "exp_qrcode", type: "image", label: "miniapps.field.exp_qrcode", max: 500, list: true, detail: true },
    { name: "audit_id", type: "string", label: "miniapps.field.audit_id", max: 32, detail: true },
    { name: "audit_reason", type: "text", label: "miniapps.field.audit_reason", max: 500, list: true, detail: true },
    { name: "live_version", type: "string", label: "miniapps.field.live_version", max: 64, list: true, detail: true },
    { name: "previous_version", type: "string", label: "miniapps.field.previous_version", max: 64, detail: true },
    { name: "released_at", type: "datetime", label: "miniapps.field.released_at", list: true, sortable: true, detail: true },
    { name: "privacy_dev", type: "text", label: "miniapps.field.privacy_dev", max: 2400, detail: true },
    { name: "privacy_live", type: "text", label: "miniapps.field.privacy_live", max: 2400, detail: true },
    { name: "last_error", type: "string", label: "miniapps.field.last_error", max: 300, list: true, detail: true },
    // the platform's tokens for the app, sealed: WeChat's authorizer refresh and access tokens, Alipay's app_auth_token
    { name: "auth_refresh_token", type: "text", label: "miniapps.field.auth_status", max: 1000, secret: true },
    { name: "auth_access_token", type: "text", label: "miniapps.field.auth_status", max: 1000, secret: true },
    { name: "auth_token_expires_at", type: "datetime", label: "miniapps.field.auth_status", secret: true },
    // the sandbox's next answer: an error code a call is refused with, an audit's coming result
    { name: "sandbox_error", type: "string", label: "miniapps.field.errcode", max: 8, secret: true },
    { name: "sandbox_audit", type: "string", label: "miniapps.field.sandbox_event", max: 220, secret: true },
    { name: "created_at", type: "datetime", label: "field.created_at", sortable: true, detail: true },
  ],
};

/** Every call the publisher made for an app, and what it answered: the record of the sandbox and of the platforms. */
export const miniAppCallEntity: EntityDecl = {
  name: "miniappcall",
  table: "mini_program_calls",
  scope: "platform",
  providerColumn: "sysid",
  title: "miniapps.call_entity",
  titleField: "call",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: PUBLISHER_ROLES, info: PUBLISHER_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "app_id", type: "ref", ref: { entity: "miniapp" }, label: "miniapps.entity", required: true, list: true, filter: "eq", detail: true },
    { name: "sysid", type: "ref", ref: { entity: "service" }, label: "miniapps.field.provider", roles: OPERATOR_ROLES, required: true, detail: true },
    { name: "call", type: "string", label: "miniapps.field.call", required: true, max: 60, list: true, filter: "eq", detail: true },
    { name: "request", type: "text", label: "miniapps.field.request", max: 4000, list: true, detail: true },
    { name: "errcode", type: "int", label: "miniapps.field.errcode", required: true, default: 0, list: true, detail: true },
    { name: "answer", type: "text", label: "miniapps.field.answer", max: 2000, list: true, detail: true },
    { name: "at", type: "datetime", label: "miniapps.field.at", required: true, list: true, sortable: true, detail: true },
  ],
};

/**
 * Mini-program settings: for the operators, the platform's third-party platform credentials and the templates it
 * publishes from; for a provider with the upload flag, its own record: the ext config every one of its apps is
 * committed with (an app's own ext config over it). Neither reads the other's fields.
 */
export const miniAppSettings: SettingsDecl = {
  name: "microappset",
  scope: "platform",
  title: "miniapps.settings.title",
  roles: { info: PUBLISHER_ROLES, edit: PUBLISHER_ROLES },
  ownRecordFor: UPLOADER_ROLES,
  fields: [
    ...[
      // who publishes WeChat apps: the sandbox, or WeChat's third-party platform with the credentials below
      {
        name: "wechat_publisher",
        type: "enum",
        label: "miniapps.settings.wechat_publisher",
        required: true,
        default: "sandbox",
        options: [
          { value: "sandbox", label: "miniapps.publisher.sandbox" },
          { value: "platform", label: "miniapps.publisher.wechat" },
        ],
      },
      { name: "component_appid", type: "string", label: "miniapps.settings.component_appid", max: 32, pattern: "^wx[0-9a-f]{16}$", patternMessage: "miniapps.validation.component_appid" },
      { name: "component_appsecret", type: "password", label: "miniapps.settings.component_appsecret", max: 64 },
      { name: "message_token", type: "password", label: "miniapps.settings.message_token", max: 32 },
      { name: "message_aes_key", type: "password", label: "miniapps.settings.message_aes_key", max: 43, pattern: "^[0-9A-Za-z]{43}$", patternMessage: "miniapps.validation.message_aes_key" },
      { name: "wx_template_id", type: "int", label: "miniapps.settings.wx_template_id", min: 0, max: 2_000_000_000 },
      { name: "wx_template_desc", type: "string", label: "miniapps.settings.template_desc", max: 100 },
      // who publishes Alipay apps: the sandbox, or Alipay's open platform with the third-party application below
      {
        name: "alipay_publisher",
        type: "enum",
        label: "miniapps.settings.alipay_publisher",
        required: true,
        default: "sandbox",
        options: [
          { value: "sandbox", label: "miniapps.publisher.sandbox" },
          { value: "platform", label: "miniapps.publisher.alipay" },
        ],
      },
      { name: "alipay_app_id", type: "string", label: "miniapps.settings.alipay_app_id", max: 32, pattern: "^\\d{16}$", patternMessage: "miniapps.validation.alipay_app_id" },
      { name: "alipay_private_key", type: "password", label: "miniapps.settings.alipay_private_key", max: 4000 },
      // Alipay's public key, which every answer of its gateway is signed with
      { name: "alipay_public_key", type: "text", label: "miniapps.settings.alipay_public_key", max: 1000 },
      { name: "alipay_template_id", type: "string", label: "miniapps.settings.alipay_template_id", max: 32 },
      { name: "alipay_template_version", type: "string", label: "miniapps.settings.alipay_template_version", max: 32 },
    ].map((field): FieldDecl => ({ ...(field as FieldDecl), roles: OPERATOR_ROLES })),
    { name: "ext_defaults", type: "text", label: "miniapps.settings.ext_defaults", max: 4000, pattern: "^\\s*\\{[\\s\\S]*\\}\\s*$", patternMessage: "miniapps.validation.ext_json", roles: UPLOADER_ROLES },
  ],
};

const wechatOnly = { platform: "wechat" };
const alipayOnly = { platform: "alipay" };

export const miniPrograms: CatalogueDomain = {
  entities: [miniAppEntity, miniAppCallEntity],
  settings: [miniAppSettings],
  pages: {
    channellist: { kind: "list", entity: "miniapp" },
    chnlset: { kind: "edit", entity: "miniapp" },
    // one list each, narrowed to its platform: what a WeChat app's versions are, its publishing, its privacy rules
    wxxcxinfo: { kind: "list", entity: "miniapp", filters: wechatOnly, view: "wxinfo" },
    wxpublish: { kind: "list", entity: "miniapp", filters: wechatOnly, view: "wxpublish" },
    wxprivacy: { kind: "list", entity: "miniapp", filters: wechatOnly, view: "wxprivacy" },
    alixcxinfo: { kind: "list", entity: "miniapp", filters: alipayOnly, view: "aliinfo" },
    alipublish: { kind: "list", entity: "miniapp", filters: alipayOnly, view: "alipublish" },
    aliprivacy: { kind: "list", entity: "miniapp", filters: alipayOnly, view: "aliprivacy" },
    // every WeChat app of the platform, its state and last error, for the operators
    wechatxcxmanages: { kind: "list", entity: "miniapp", filters: wechatOnly, view: "all" },
    microappset: { kind: "settings", settings: "microappset" },
  },
};
