/**
 * Providers who sign up (/register, public; registeradmin for the platform's operators): an organisation applies
 * with its contact, mobile, e-mail, region, licence pictures and a message, and follows its application by the link
 * it was given; an operator approves it (one transaction makes the provider with its version and term, and its first
 * administrator, whose password the applicant sets through a one-time link) or rejects it with a reason the
 * applicant reads. Behaviour in server/domains/providers/registrations.ts; labels in locales/<lang>/register.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { OPERATOR_ROLES } from "../common/roleKeys";
import { EMAIL_PATTERN, provinceOptions } from "./shared";

export const registrationStates: FieldOption[] = [
  { value: "pending", label: "register.status.pending", tone: "processing" },
  { value: "approved", label: "register.status.approved", tone: "success" },
  { value: "rejected", label: "register.status.rejected", tone: "error" },
];

/** a first administrator's username, as the provider form takes it */
const USERNAME_PATTERN = "^[A-Za-z0-9_.@-]+$";
export const REGISTER_REASON_MAX = 200;

export const registrationReview: ActionDecl = {
  name: "registerreview",
  label: "register.review",
  confirm: "register.review_confirm",
  roles: OPERATOR_ROLES,
  from: ["pending"],
  to: ["approved", "rejected"],
  result: { field: "result", to: { approve: "approved", reject: "rejected" } },
  // an application waits for the operators: counted on its menu entry and home page
  waiting: "registrations",
  fields: [
    {
      name: "result",
      type: "enum",
      label: "register.field.result",
      required: true,
      options: [
        { value: "approve", label: "register.result.approve" },
        { value: "reject", label: "register.result.reject" },
      ],
    },
    { name: "reason", type: "string", label: "register.field.reject_reason", max: REGISTER_REASON_MAX, requiredWhen: { field: "result", value: "reject" }, formWhen: { field: "result", value: "reject" } },
    {
      name: "servicer_ver",
      type: "enum",
      label: "field.servicer_ver",
      default: "v2",
      options: [
        { value: "v1", label: "enum.ver.v1" },
        { value: "v2", label: "enum.ver.v2" },
      ],
      requiredWhen: { field: "result", value: "approve" },
      formWhen: { field: "result", value: "approve" },
    },
    { name: "end_time", type: "date", label: "field.end_time", requiredWhen: { field: "result", value: "approve" }, formWhen: { field: "result", value: "approve" } },
    { name: "username", type: "string", label: "field.admin_username", min: 3, max: 50, pattern: USERNAME_PATTERN, patternMessage: "validation.username", requiredWhen: { field: "result", value: "approve" }, formWhen: { field: "result", value: "approve" } },
  ],
};

export const registrationEntity: EntityDecl = {
  name: "registration",
  table: "provider_registrations",
  scope: "platform",
  title: "register.entity",
  titleField: "org",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  roles: { list: OPERATOR_ROLES, info: OPERATOR_ROLES },
  actions: [registrationReview],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "org", type: "string", label: "register.field.org", required: true, min: 2, max: 100, list: true, filter: "like", detail: true },
    { name: "contact", type: "string", label: "register.field.contact", required: true, max: 50, list: true, detail: true },
    { name: "mobile", type: "phone", label: "register.field.mobile", required: true, list: true, filter: "eq", detail: true },
    { name: "email", type: "string", label: "register.field.email", required: true, max: 100, pattern: EMAIL_PATTERN, patternMessage: "site.validation.email", list: true, detail: true },
    { name: "region", type: "enum", label: "register.field.region", required: true, options: provinceOptions, list: true, filter: "eq", detail: true },
    { name: "licence_images", type: "images", label: "register.field.licence_images", required: true, max: 3, detail: true },
    { name: "message", type: "text", label: "register.field.message", max: 500, detail: true },
    { name: "status", type: "enum", label: "field.status", required: true, default: "pending", options: registrationStates, list: true, filter: "eq", detail: true },
    { name: "reject_reason", type: "string", label: "register.field.reject_reason", max: REGISTER_REASON_MAX, detail: true },
    { name: "reviewed_by", type: "string", label: "register.field.reviewed_by", max: 50, detail: true },
    { name: "reviewed_at", type: "datetime", label: "register.field.reviewed_at", detail: true },
    // what the approval made: the provider and its first administrator's username
    { name: "provider_id", type: "ref", ref: { entity: "service" }, label: "entity.service", list: true, detail: true },
    { name: "username", type: "string", label: "field.admin_username", max: 50, detail: true },
    { name: "ip", type: "string", label: "register.field.ip", max: 64, detail: true },
    // the applicant's link to follow it, and the one-time link to set the first password: kept as their SHA-256 only
    { name: "follow_hash", type: "string", label: "register.field.follow_hash", max: 64, unique: true, secret: true },
    { name: "password_hash", type: "string", label: "register.field.password_hash", max: 64, unique: true, secret: true },
    { name: "password_expires_at", type: "datetime", label: "register.field.password_expires_at" },
    { name: "password_set_at", type: "datetime", label: "register.field.password_set_at", detail: true },
    { name: "created_at", type: "datetime", label: "register.field.created_at", list: true, filter: "range", sortable: true, detail: true },
  ],
};

export const registrations: CatalogueDomain = {
  entities: [registrationEntity],
  pages: { registeradmin: { kind: "list", entity: "registration" } },
};
